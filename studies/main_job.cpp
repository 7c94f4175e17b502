#include "studies/main_job.hpp"

#include "studies/gzip_reference.hpp"
#include "studies/study.hpp"

namespace gcbench::studies {
using namespace reports;

Table summary_table(const TableBuilder& b) {
  std::vector<Column> cols;
  for (const std::string codec : {"lz77", "fl", "rle"}) {
    if (!b.has_codec(codec)) continue;
    const bool lz = codec == std::string("lz77");
    cols.push_back(col(codec + " GPU end-to-end time", codec + "_gpu_e2e_s", Unit::seconds,
                       q(codec, "gpu", "compress", {}, Quantity::e2e)));
    cols.push_back(col(codec + " GPU memory", codec + "_gpu_memory_bytes", Unit::bytes,
                       q(codec, "gpu", "compress", {}, Quantity::memory_device)));
    if (lz) {
      // The default GPU design (auto: the fastest verified on the GPU that measured it); the
      // others, where measured, beside it.
      const std::string thesis = b.default_value("lz77/gpu", "design");
      for (const std::string& design : b.axis_values("lz77", "design")) {
        if (design == thesis) continue;
        cols.push_back(col("lz77 GPU " + design + " end-to-end time",
                           "lz77_gpu_" + design + "_e2e_s", Unit::seconds,
                           q("lz77", "gpu", "compress", {{"design", design}}, Quantity::e2e)));
      }
    }
    cols.push_back(col(codec + " CPU time", codec + "_cpu_s", Unit::seconds,
                       q(codec, "cpu", "compress", {}, Quantity::time)));
    cols.push_back(col(codec + " CPU memory", codec + "_cpu_memory_bytes", Unit::bytes,
                       q(codec, "cpu", "compress", {}, Quantity::memory_host)));
    cols.push_back(
        col(lz ? "lz77 entropy-coded ratio" : codec + " container ratio",
            codec + (lz ? "_entropy_ratio" : "_container_ratio"), Unit::ratio,
            q(codec, "cpu", "compress", {}, lz ? Quantity::entropy_ratio : Quantity::ratio)));
  }
  for (const Column& t :
       reference_cols(b, "compress", Quantity::time, Unit::seconds, " time", "s")) {
    cols.push_back(t);
    cols.push_back(col(t.query.codec + " ratio", t.query.codec + "_ratio", Unit::ratio,
                       q(t.query.codec, "cpu", "compress", {}, Quantity::ratio)));
  }
  return b.make(
      "summary", "GPU vs CPU vs gzip: compression, " + b.corpus(),
      "Default parameters (LZ77 GPU: also each other design measured). GPU: end-to-end time "
      "per call (transfers included); CPU, gzip: wall time. CPU memory: the heap bytes the "
      "compression calls held at their peak, the output buffer included; GPU memory: the device "
      "call's input, output, temp and what the codec allocated itself (docs/results.md). "
      "Ratio = original / compressed: LZ77's entropy-coded size (the thesis's ratio), FL's and "
      "RLE's container, gzip's file.",
      cols);
}

// The main job's sweep is bench/run_suite.sh's (a plain sweep, not a preset): its flags narrow
// or widen it as a user's do.
Study main_job_study() {
  return Study{"main",
               std::nullopt,
               {.headline = summary_table,
                .references = kGzipReferences,
                .tools = gzip_reference_tools,
                .introduction = kGzipReferenceReading}};
}

}  // namespace gcbench::studies
