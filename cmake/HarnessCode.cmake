# gcbench_harness_code(target): the harness's own code (driver, reports, results, the command
# line, corpora, studies) is compiled at -O1 in Release builds. None of it runs inside a timed
# call (codecs, the core library and the peers keep -O3), and it is the heaviest to compile
# (CLI11, nlohmann/json, Google Benchmark): the main job's build is the first thing a newcomer
# waits for (bench/NOTES.md, "Jobs and the harness").
function(gcbench_harness_code target)
  target_compile_options(${target} PRIVATE $<$<AND:$<CONFIG:Release>,$<COMPILE_LANGUAGE:CXX>>:-O1>)
endfunction()
