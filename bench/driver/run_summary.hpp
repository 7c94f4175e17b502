#pragma once
// What the console says about a run before its first result, in a few lines: build and CPU, the
// GPU, what is measured and where the whole context goes (the results' JSON keeps every entry),
// and the inputs that are missing, in one line.
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "bench/driver/context.hpp"
#include "bench/driver/inputs.hpp"

namespace gcbench::driver {

struct RunFacts {
  ContextEntries context;           // every entry the run adds to the results' context
  std::size_t cells = 0;            // that will run
  std::vector<std::string> codecs;  // "<name>/<device>" of the codecs selected and runnable
  std::size_t inputs = 0;           // present
  bool gpu_cells_dropped = false;   // GPU codecs were selected but no GPU is usable
  std::optional<std::filesystem::path> out_dir;
};

// Three lines, each at most `width` columns, each beginning "[gcbench] ".
std::vector<std::string> run_summary(const RunFacts& facts, std::size_t width);

// One line naming the inputs missing or skipped and why ("[gcbench] 3 inputs not available:
// silesia/mozilla, silesia/samba (not in mirror ...)"), files of one reason together; cut to
// `width` columns, saying where the rest is (the results' context names each as
// missing_file:<corpus>/<file>). "" when none is missing.
std::string missing_inputs_line(const std::vector<MissingInput>& missing, std::size_t width);

}  // namespace gcbench::driver
