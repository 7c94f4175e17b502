# Warnings on for all host and device code; sanitizer and fuzzing flags for host code when asked.
set(GCBENCH_CXX_WARNINGS -Wall -Wextra -Wpedantic -Wshadow)
if(GCBENCH_WERROR)
  list(APPEND GCBENCH_CXX_WARNINGS -Werror)
endif()
if(GCBENCH_SANITIZE)
  # GCC 12's flow analysis under ASan reports libstdc++'s std::regex and std::function as
  # maybe-uninitialized (false positives); the release build keeps this warning.
  list(APPEND GCBENCH_CXX_WARNINGS -Wno-maybe-uninitialized)
endif()

# -Wno-restrict for device code: GCC 12 reports std::string code falsely under nvcc.
function(gcbench_set_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:CXX>:${GCBENCH_CXX_WARNINGS}>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra,-Wno-restrict --Werror=all-warnings>)
endfunction()

if(GCBENCH_FUZZ)
  # Coverage feedback from every library the fuzzers reach, not only from their entry points.
  # UBSan not recoverable, as in GCBENCH_SANITIZE: undefined behaviour aborts the fuzzer.
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link,address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all>)
  add_link_options(-fsanitize=address,undefined)
endif()

if(GCBENCH_SANITIZE)
  add_compile_options($<$<COMPILE_LANGUAGE:CXX>:-fsanitize=address,undefined>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-sanitize-recover=all>
                      $<$<COMPILE_LANGUAGE:CXX>:-fno-omit-frame-pointer>)
  add_link_options(-fsanitize=address,undefined)
endif()
