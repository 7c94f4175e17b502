# One table of the optional libraries (libdeflate, zstd, lz4, CUDA, nvCOMP, ...): where a
# library is looked for, one gcbench_optional_library() call records whether it was found and,
# if not, why. registry/ writes the table as a C++ header (gcbench/optional_libraries.hpp) that
# the registry registers by and the tests skip by.

# gcbench_optional_library(<id> NAME <name> FOUND <bool> CODECS <what it brings> WHY <reason>
#                          [DEFINE_ON <target>]): <id> is the C++ name of the row; with
# DEFINE_ON, a found library also puts GCBENCH_HAVE_<ID>=1 on <target> for the code that
# includes its headers.
function(gcbench_optional_library id)
  cmake_parse_arguments(ARG "" "NAME;FOUND;CODECS;WHY;DEFINE_ON" "" ${ARGN})
  if(ARG_FOUND)
    set(available true)
    set(ARG_WHY "")
    if(ARG_DEFINE_ON)
      string(TOUPPER ${id} upper)
      target_compile_definitions(${ARG_DEFINE_ON} PUBLIC GCBENCH_HAVE_${upper}=1)
    endif()
  else()
    set(available false)
  endif()
  foreach(field IN ITEMS NAME CODECS WHY)
    string(REPLACE "\\" "\\\\" ARG_${field} "${ARG_${field}}")
    string(REPLACE "\"" "\\\"" ARG_${field} "${ARG_${field}}")
  endforeach()
  set_property(GLOBAL APPEND_STRING PROPERTY GCBENCH_OPTIONAL_LIBRARY_ROWS
    "inline constexpr OptionalLibrary ${id}{\"${ARG_NAME}\", ${available}, \"${ARG_CODECS}\",\n    \"${ARG_WHY}\"};\n")
  set_property(GLOBAL APPEND PROPERTY GCBENCH_OPTIONAL_LIBRARY_IDS ${id})
endfunction()

# gcbench_write_optional_libraries(<target>): the header of every row recorded so far, on the
# public include path of <target>.
function(gcbench_write_optional_libraries target)
  get_property(rows GLOBAL PROPERTY GCBENCH_OPTIONAL_LIBRARY_ROWS)
  get_property(ids GLOBAL PROPERTY GCBENCH_OPTIONAL_LIBRARY_IDS)
  list(JOIN ids ", " all)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/generated)
  file(CONFIGURE OUTPUT ${dir}/gcbench/optional_libraries.hpp @ONLY CONTENT
"#pragma once
// Written at configure time by cmake/OptionalLibraries.cmake, one row per
// gcbench_optional_library() call: do not edit.
#include \"gcbench/optional_library.hpp\"

namespace gcbench::optional_libraries {

@rows@
inline constexpr OptionalLibrary all[] = {@all@};

}  // namespace gcbench::optional_libraries
")
  target_include_directories(${target} PUBLIC ${dir})
endfunction()
