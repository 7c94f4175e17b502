#pragma once
// The files a sweep runs on: corpus files (fetched and verified by corpora/), synthetic inputs
// named like a corpus, "synthetic:<kind>:<size>[:<width>]" (e.g. synthetic:runs:64MiB,
// synthetic:runs-uni64:1GiB:4; file "<kind>-<size>[-w<width>]"), and a whole
// corpus as one input, "concat:<corpus>" (corpus "<corpus>-concat", file "all-<k>-of-<n>").
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gcbench/bytes.hpp"

namespace gcbench::driver {

struct InputFile {
  std::string corpus;
  std::string name;
  std::uint64_t size = 0;
  std::function<Bytes()> load;
};

struct MissingInput {
  std::string corpus;
  std::string name;
  std::string reason;
};

struct Inputs {
  std::vector<InputFile> present;
  std::vector<MissingInput> missing;  // reported and recorded, never measured as zeros
  std::string manifest_digest;
};

// A corpus named twice is gathered once. `files` (when not empty) keeps only those names; a name
// found in no chosen corpus throws std::invalid_argument, as does an unknown corpus. Without
// `download`, a file in no mirror or cache is missing rather than downloaded (a second sweep of the
// same corpus need not wait for downloads the first one could not make).
Inputs gather_inputs(const std::vector<std::string>& corpora, const std::vector<std::string>& files,
                     bool download = true);

// "64MiB" -> 67108864; plain numbers are bytes. Throws std::invalid_argument.
std::uint64_t parse_size(const std::string& text);

}  // namespace gcbench::driver
