#include <fmt/format.h>

#include "bench/driver/axes.hpp"
#include "studies/study.hpp"
#include "studies/thesis_tables.hpp"
#include "studies/tpch_columns.hpp"

namespace gcbench::studies {
using namespace driver;
namespace {

// The thesis's study: its tables T1-T7 (studies/thesis_tables.hpp) per corpus, the FL/RLE
// tables on synthetic integer columns. GPU LZ77 runs the thesis's thread design and, beside it,
// the fastest verified design (auto), each named, so that the preset does not move with the
// default.
Preset thesis() {
  const std::vector<std::string> work_items = default_sweep("work_items");
  // A file of at most one launch block at the default work items (1024 x 4 KiB) is one block at
  // every work-item count of the sweep: the same work, so the sweeps skip it (the report says
  // so in those columns).
  const std::uint64_t one_block = std::uint64_t{1024} * 4096;
  auto step = [&](std::string purpose, std::string device, std::string direction, AxisValues axes) {
    return PresetStep{std::move(purpose), kStandardCorpora,     false,          0, {"lz77"},
                      std::move(device),  std::move(direction), std::move(axes)};
  };
  auto sweep = [&](PresetStep s) {
    s.axes["work_items"] = work_items;
    s.min_input_bytes = one_block;
    return s;
  };
  auto first_files = [](PresetStep s) {
    s.first_file_only = true;
    return s;
  };
  std::vector<std::string> with_synthetic = kStandardCorpora;
  with_synthetic.push_back(kSyntheticCorpus);
  const PresetStep cpu_hash =
      step("T2, T6: LZ77 hash on the CPU, compressed and decompressed in parallel (all cores)",
           "cpu", "all", {});
  const PresetStep thread_hash =
      step("T1, T3, T5: LZ77 hash on the GPU, the thesis's thread design", "gpu", "compress",
           {{"design", {"thread"}}});
  const PresetStep auto_hash = step(
      "T1, T3, T5, T6: LZ77 hash on the GPU, the fastest verified design (auto), compressed and "
      "decompressed",
      "gpu", "all", {{"design", {"auto"}}});
  Preset preset{
      "thesis",
      "the thesis's sweep and tables: LZ77 hash/z/brute on CPU and GPU (thread design and "
      "auto), work items 1024-5120, sequential and parallel decompression, gzip; T1-T7 per "
      "corpus, FL/RLE tables on synthetic inputs; FL, RLE, rle-cub and nvCOMP Cascaded on "
      "TPC-H's columns (" +
          kTpchScaleNote + ") (about 7.5 minutes on one H100 without the columns)",
      {"silesia", "calgary", "canterbury", "prague", "synthetic:runs:32MiB",
       "synthetic:small_ints:32MiB:4", "synthetic:sorted_keys:32MiB:4", kTpchCorpus},
      {
          step("T4, T5, T7: LZ77 on the CPU, each match finder (T7: hash, entropy-coded)", "cpu",
               "compress", {{"finder", {"hash", "z", "brute"}}}),
          cpu_hash,
          sweep(cpu_hash),
          step("T6: LZ77 sequential decompression (one thread)", "cpu", "decompress",
               {{"decode_mode", {"sequential"}}}),
          thread_hash,
          sweep(thread_hash),
          // One thread per 4 KiB chunk makes a launch last one chunk's serial parse, whatever
          // the file's size: seconds per launch (bench/NOTES.md, "the estimate refit"), too long
          // for every file of every corpus within the preset's 10 minutes.
          first_files(step("T3, T5: the thread design with the z and brute finders, on the first "
                           "file of each corpus",
                           "gpu", "compress",
                           {{"finder", {"z", "brute"}}, {"design", {"thread"}}})),
          auto_hash,
          sweep(auto_hash),
          step("T3, T5: the fastest verified design (auto) with the z and brute finders", "gpu",
               "compress", {{"finder", {"z", "brute"}}, {"design", {"auto"}}}),
          {"T5, T6, T7 and the FL/RLE tables: gzip -6 -n and gzip -d",
           with_synthetic,
           false,
           0,
           {"gzip"},
           "cpu"},
          {"FL and RLE tables per frame size and element width, on synthetic integer columns",
           {kSyntheticCorpus},
           false,
           0,
           {"fl", "rle"},
           "all",
           "all",
           {},
           "axes"},
      }};
  for (PresetStep& s : tpch_steps({})) preset.steps.push_back(std::move(s));
  return preset;
}

}  // namespace

Study thesis_study() {
  return Study{"thesis", thesis(), {.sections = thesis_sections}};
}

}  // namespace gcbench::studies
