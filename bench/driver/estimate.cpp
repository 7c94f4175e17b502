#include "bench/driver/estimate.hpp"

#include <algorithm>
#include <set>
#include <string>

namespace gcbench::driver {
namespace {

constexpr double kMeasuredThreads = 16;  // the host cores of the H100 runs the rates come from
// Synthetic inputs are generated on all cores; the Mersenne Twister's draws bound it.
constexpr double kSyntheticBytesPerS = 1e9;
// Host work per byte of a GPU cell's input, outside its timed calls (bench/NOTES.md, "the
// kernels preset in one device command"): verification (the container's device-to-host copy
// and comparison with the CPU reference's; round trips compare on the device), the CPU
// reference's compression, and the end-to-end paths' set-up. Guesses from the first kernels
// run, to be replaced by what the next run measures.
constexpr double kHostCheckBytesPerS = 1e9;
constexpr double kReferenceBytesPerS = 2e9;  // at 16 threads
constexpr double kEndToEndSetupBytesPerS = 0.3e9;
// The stopping rule's sampling of a cell whose calls are short: between the minimum timed
// time (0.02 s, a quiet cell) and the wall cap (0.2 s, a noisy one); the middle.
constexpr double kSamplingS = 0.1;

// Seconds of one call of the cell's codec on `bytes`: the codec's own model, else a generic
// rate.
double call_s(const CellSpec& cell, double bytes, double cpu_scale) {
  const bool compress = cell.id.direction == "compress";
  if (cell.codec != nullptr && cell.codec->info().speed_model) {
    return cell.codec->info().speed_model({cell.params, compress, bytes, cpu_scale});
  }
  return bytes / (cell.id.device == "gpu" ? 3e9 : 1e9 * cpu_scale);
}

}  // namespace

double estimate_cell_s(const CellSpec& cell, std::uint64_t input_bytes, unsigned cpu_threads,
                       bool kernel_only) {
  const double bytes = static_cast<double>(input_bytes);
  const double cpu_scale = std::max(1u, cpu_threads) / kMeasuredThreads;
  const double call = call_s(cell, bytes, cpu_scale);
  if (cell.id.device == "cpu") {
    // Warm-up and verification, then the sampling.
    return 0.04 + call + std::max(kSamplingS, call);
  }
  // The device call verified in full (a container copied back and compared with the CPU
  // reference's, compressed once per point), then the sampling.
  double verify = bytes / kHostCheckBytesPerS;
  if (cell.id.direction == "compress" && cell.reference != nullptr)
    verify += bytes / (kReferenceBytesPerS * cpu_scale);
  const double kernel = 0.2 + call + verify + std::max(kSamplingS, call);
  if (kernel_only) return kernel;
  // The pipelined path verified (a round trip), then timed pinned and pageable (0.2 s or 20
  // runs each, at least one), with their pinned and pageable host buffers.
  const double e2e = call + bytes / 10e9;
  return kernel + bytes / kEndToEndSetupBytesPerS + 2 * std::max(std::min(0.2, 20 * e2e), e2e);
}

double estimate_sweep_s(const std::vector<CellSpec>& cells, const std::vector<InputFile>& inputs,
                        unsigned cpu_threads, bool kernel_only) {
  double total = 0;
  bool gpu = false;
  std::set<std::size_t> loaded;
  for (const CellSpec& cell : cells) {
    const InputFile& input = inputs.at(cell.input);
    total += estimate_cell_s(cell, input.size, cpu_threads, kernel_only);
    gpu = gpu || cell.id.device == "gpu";
    // A synthetic input is generated on one core (a draw per run or per few elements).
    if (input.corpus == "synthetic" && loaded.insert(cell.input).second)
      total += static_cast<double>(input.size) / kSyntheticBytesPerS;
  }
  return total + (gpu ? 5 : 0);  // the GPU probe, its copy ceilings, design=auto's calibration
}

}  // namespace gcbench::driver
