#include "codecs/lz77/design_auto.hpp"

#include <fmt/format.h>

#include <exception>
#include <map>
#include <memory>
#include <mutex>

#include "codecs/lz77/format.hpp"
#include "codecs/lz77/lz77.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::lz77 {
namespace {

// One launch block at the default work items: enough chunks to fill the GPU for the parallel
// designs, one launch for the thread design (whose time is one chunk's serial latency).
constexpr std::size_t kSampleBytes = std::size_t{kDefaultWorkItems} * kDefaultChunk;
// A first call that short may still be paying for lazy module loading: timed again.
constexpr double kRetimeBelowS = 0.05;

// Text-like bytes: words of 2-9 letters from a fixed vocabulary, frequent ones far more often
// (index = product of two uniforms), so that matches are as common as in prose.
Bytes text_sample() {
  std::uint64_t s = 0x9E3779B97F4A7C15u;
  auto next = [&s] {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  };
  std::vector<std::string> words(2000);
  for (std::string& w : words) {
    const std::size_t letters = 2 + next() % 8;
    for (std::size_t i = 0; i < letters; ++i) w += static_cast<char>('a' + next() % 26);
  }
  Bytes out;
  out.reserve(kSampleBytes + 16);
  while (out.size() < kSampleBytes) {
    const std::string& w = words[(next() % words.size()) * (next() % words.size()) / words.size()];
    out.insert(out.end(), w.begin(), w.end());
    out.push_back(next() % 12 == 0 ? '\n' : ' ');
  }
  out.resize(kSampleBytes);
  return out;
}

std::string seconds(double s) {
  return s >= 1 ? fmt::format("{:.2f} s", s) : fmt::format("{:.3g} ms", s * 1e3);
}

struct Calibrated {
  AutoDesign choice;
  std::string error;  // non-empty: no design verified
};

Calibrated calibrate(const Params& point, const std::vector<std::string>& designs,
                     std::string scope) {
  const CodecPtr cpu = make_cpu_codec();
  const CodecPtr gpu = make_gpu_codec();
  const Bytes sample = text_sample();
  Params cpu_params;
  for (const char* axis : {"config", "window_scope", "chunk"}) cpu_params[axis] = point.at(axis);
  const Bytes expected = cpu->compress(sample, cpu_params);
  Calibrated out{{-1, std::move(scope), {}}, {}};
  double best = 0;
  std::vector<std::string> notes;
  for (std::int64_t d = 0; d + 1 < static_cast<std::int64_t>(designs.size()); ++d) {
    Params p = point;
    p["design"] = d;
    try {
      const BoundCodecPtr design = gpu->bind(p);
      RunStats stats;
      if (design->compress(sample, &stats) != expected) {
        notes.push_back(designs[d] + " differs from the CPU reference");
        continue;
      }
      if (stats.kernel_s < kRetimeBelowS) design->compress(sample, &stats);
      notes.push_back(fmt::format("{} {}", designs[d], seconds(stats.kernel_s)));
      if (out.choice.design < 0 || stats.kernel_s < best) {
        out.choice.design = d;
        best = stats.kernel_s;
      }
    } catch (const ParamError& e) {
      notes.push_back(designs[d] + " not available");
    }
  }
  out.choice.detail = fmt::format(
      "kernel time on a {} MiB text sample: {}; each verified equal "
      "to the CPU reference's container",
      kSampleBytes >> 20, fmt::join(notes, ", "));
  if (out.choice.design < 0) {
    out.error = "lz77 design=auto: no design verified on this GPU (" + out.choice.detail + ")";
  }
  return out;
}

}  // namespace

const AutoDesign& auto_design(const std::vector<AxisSpec>& axes, const Params& resolved) {
  static std::mutex mutex;
  static std::map<std::string, Calibrated> calibrated;
  // The work items only move the launch boundaries: the choice is made at the default.
  Params point = resolved;
  point["work_items"] = kDefaultWorkItems;
  std::vector<std::string> scope, designs;
  for (const AxisSpec& a : axes) {
    if (a.name == "design") designs = a.names;
    if (a.name == "finder" || a.name == "config" || a.name == "window_scope" || a.name == "chunk")
      scope.push_back(a.name + ":" + a.format(point.at(a.name)));
  }
  const std::string key = fmt::format("{}", fmt::join(scope, "/"));
  const std::lock_guard lock(mutex);
  auto it = calibrated.find(key);
  if (it == calibrated.end()) it = calibrated.emplace(key, calibrate(point, designs, key)).first;
  if (!it->second.error.empty()) throw ParamError(it->second.error);
  return it->second.choice;
}

}  // namespace gcbench::lz77
