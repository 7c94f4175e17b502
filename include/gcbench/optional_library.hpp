#pragma once
// A row of the optional-library table (gcbench/optional_libraries.hpp, written at configure
// time by cmake/OptionalLibraries.cmake): the registry registers by it and the tests skip by it.
#include <string_view>

namespace gcbench {

struct OptionalLibrary {
  std::string_view name;            // e.g. zstd, CUDA
  bool available = false;           // found at configure time
  std::string_view codecs;          // what it brings, as the driver lists it when missing
  std::string_view missing_reason;  // why this build lacks it; empty when available
};

}  // namespace gcbench
