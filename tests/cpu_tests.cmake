# The CPU tests' binaries: every tests/*_test.cpp, with what each needs beyond the core.
file(GLOB test_sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*_test.cpp)
foreach(src IN LISTS test_sources)
  get_filename_component(name ${src} NAME_WE)
  gcbench_test(${name} ${src} LABELS cpu)
endforeach()
# A sanitizer build's tests may shorten what only costs time there (lz77_test's finder checks).
target_compile_definitions(lz77_test PRIVATE GCBENCH_SANITIZED=$<BOOL:${GCBENCH_SANITIZE}>)
# The driver's and the report tool's tests also need their libraries.
target_link_libraries(driver_test PRIVATE gcbench_driver_lib)
target_link_libraries(user_files_test PRIVATE gcbench_driver_lib)
target_link_libraries(empty_run_test PRIVATE gcbench_driver_lib)
target_link_libraries(driver_cli_test PRIVATE gcbench_studies)
target_link_libraries(console_test PRIVATE gcbench_driver_lib)
target_link_libraries(cell_queue_test PRIVATE gcbench_driver_lib)
target_link_libraries(sampler_test PRIVATE gcbench_driver_lib)
if(GCBENCH_BUILD_BENCH)
  # A folder measured and measured again, runs that select nothing, the command line's answers
  # and a queue shared by two programs, by the gcbench program.
  foreach(test user_files_test empty_run_test driver_cli_test cell_queue_test)
    target_compile_definitions(${test} PRIVATE GCBENCH_DRIVER="$<TARGET_FILE:gcbench>")
    add_dependencies(${test} gcbench)
  endforeach()
endif()
# Plugins for plugin_test: one that misbehaves on request, and variants that must not load.
function(gcbench_test_plugin name)
  add_library(${name} MODULE support/fault_plugin.cpp)
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/include)
  target_compile_definitions(${name} PRIVATE ${ARGN})
  gcbench_set_warnings(${name})
  target_compile_definitions(plugin_test PRIVATE GCBENCH_${name}="$<TARGET_FILE:${name}>")
  add_dependencies(plugin_test ${name})
endfunction()
target_link_libraries(plugin_test PRIVATE gcbench_results)
gcbench_test_plugin(FAULT_PLUGIN)
gcbench_test_plugin(ABI99_PLUGIN FAULT_PLUGIN_ABI=99)
gcbench_test_plugin(NO_ENTRY_PLUGIN FAULT_PLUGIN_NO_ENTRY)
gcbench_test_plugin(CLASH_PLUGIN FAULT_PLUGIN_NAME="fl")
gcbench_test_plugin(SLASH_AXIS_PLUGIN FAULT_PLUGIN_AXIS="fault/x")
gcbench_test_plugin(RESERVED_AXIS_PLUGIN FAULT_PLUGIN_AXIS="iterations")
gcbench_test_plugin(TWICE_AXIS_PLUGIN FAULT_PLUGIN_AXIS_TWICE)
gcbench_test_plugin(THROWING_ENTRY_PLUGIN FAULT_PLUGIN_ENTRY_THROWS)
target_compile_definitions(plugin_test
                           PRIVATE GCBENCH_EXAMPLE_PLUGIN="$<TARGET_FILE:gcbench_deltapack>")
add_dependencies(plugin_test gcbench_deltapack)
# The checks every registered codec gets, for the example plugin loaded as a user loads it.
gcbench_test_with_example_plugin(registry_codecs_example_plugin registry_codecs_test cpu)
if(GCBENCH_BUILD_BENCH)
  target_compile_definitions(plugin_test PRIVATE GCBENCH_DRIVER="$<TARGET_FILE:gcbench>"
                                                 GCBENCH_REPORT_TOOL="$<TARGET_FILE:gcbench-report>")
  add_dependencies(plugin_test gcbench gcbench-report)
endif()
target_link_libraries(driver_results_test PRIVATE gcbench_driver_lib gcbench_report_lib)
target_link_libraries(preset_test PRIVATE gcbench_studies)
target_link_libraries(shard_test PRIVATE gcbench_driver_lib)
target_link_libraries(gpus_test PRIVATE gcbench_driver_lib)
target_link_libraries(cli_test PRIVATE gcbench_cli)
target_compile_definitions(codec_blind_test PRIVATE GCBENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(report_test PRIVATE gcbench_studies)
target_link_libraries(results_test PRIVATE gcbench_results)
target_link_libraries(counters_test PRIVATE gcbench_results)
target_compile_definitions(counters_test PRIVATE GCBENCH_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(synthetic_test PRIVATE OpenMP::OpenMP_CXX)  # thread counts
target_link_libraries(report_compare_test PRIVATE gcbench_report_lib)
target_link_libraries(report_e2e_test PRIVATE gcbench_report_lib)
target_link_libraries(report_replicas_test PRIVATE gcbench_report_lib)
target_link_libraries(report_kernels_test PRIVATE gcbench_report_lib)
target_link_libraries(report_columns_test PRIVATE gcbench_report_lib)
target_link_libraries(shard_merge_test PRIVATE gcbench_report_lib)
target_link_libraries(thesis_report_test PRIVATE gcbench_studies)
target_link_libraries(report_csv_test PRIVATE gcbench_studies)
target_link_libraries(report_plots_test PRIVATE gcbench_studies)
# report.html drawn from the committed fixture by the page script in the source tree.
target_link_libraries(report_page_test PRIVATE gcbench_studies)
target_compile_definitions(report_page_test PRIVATE
  GCBENCH_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data"
  GCBENCH_PAGE_SCRIPT="${PROJECT_SOURCE_DIR}/reports/plots/report_html.py")
target_link_libraries(report_gpu_models_test PRIVATE gcbench_studies)
foreach(test thesis_report_test report_csv_test container_files_test report_gpu_models_test)
  target_compile_definitions(${test} PRIVATE GCBENCH_TEST_DATA="${CMAKE_CURRENT_SOURCE_DIR}/data")
endforeach()
foreach(test report_plots_test report_kernels_test report_columns_test)
  target_compile_definitions(${test} PRIVATE
    GCBENCH_PLOT_SCRIPT="${PROJECT_SOURCE_DIR}/reports/plots/plot_results.py")
endforeach()
# The device runs' recipes parse and name only known placeholders, and bench/device/run.py
# prints every one's commands (--dry-run): a broken recipe shows here, not in a device call.
add_test(NAME device_recipes
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/device_recipes_test.py ${PROJECT_SOURCE_DIR})
set_tests_properties(device_recipes PROPERTIES LABELS cpu TIMEOUT 120)
# profile-versions' table from a committed Nsight Compute details page against itself: every
# headline figure found, each at 1.00x (a changed ncu CSV layout fails here, not on the device).
add_test(NAME ncu_compare_reads_details
         COMMAND python3 ${PROJECT_SOURCE_DIR}/bench/device/ncu_compare.py
                 ${PROJECT_SOURCE_DIR}/evidence/h200/profiles/fl-small-ints.csv
                 ${PROJECT_SOURCE_DIR}/evidence/h200/profiles/fl-small-ints.csv)
set_tests_properties(ncu_compare_reads_details PROPERTIES LABELS cpu TIMEOUT 60
  PASS_REGULAR_EXPRESSION "pack_tiles_kernel<unsigned int> \\| Duration \\| ns \\| 6\\.269e\\+05 \\| 6\\.269e\\+05 \\| 1\\.00x"
  FAIL_REGULAR_EXPRESSION "profiled only|Traceback")
# sass_loops.py finds a kernel's loops and counts what they hold, in nvdisasm's text and in
# cuobjdump's (samples cut from the LZ77 kernels' SASS).
add_test(NAME sass_loops_nvdisasm
         COMMAND python3 ${PROJECT_SOURCE_DIR}/bench/device/sass_loops.py
                 ${CMAKE_CURRENT_SOURCE_DIR}/data/sass/lz77_pack_kernel.nvdisasm.sass)
set_tests_properties(sass_loops_nvdisasm PROPERTIES LABELS cpu TIMEOUT 60
  PASS_REGULAR_EXPRESSION "pack_kernel.*: 56 instructions.*\n.*\n  0x01f0-0x0290 +11 +0 +0 +2 +0 +0 +1\n$")
add_test(NAME sass_loops_cuobjdump
         COMMAND python3 ${PROJECT_SOURCE_DIR}/bench/device/sass_loops.py
                 ${CMAKE_CURRENT_SOURCE_DIR}/data/sass/warp_design_loop.cuobjdump.sass
                 --kernel warp_design_kernel)
set_tests_properties(sass_loops_cuobjdump PROPERTIES LABELS cpu TIMEOUT 60
  PASS_REGULAR_EXPRESSION "0x1a40-0x1b70 +20 +0 +16 +0 +0 +0 +1")
