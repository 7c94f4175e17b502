#include "codecs/lz77/speed_model.hpp"

#include <cmath>

#include "codecs/lz77/finder.hpp"

namespace gcbench::lz77 {
namespace {

// The GPU design axis's value for one thread per chunk (gpu::Design::thread).
constexpr std::int64_t kDesignThread = 0;

Finder finder_of(const Params& p) {
  return static_cast<Finder>(axis_value(p, "finder"));
}

// By finder: hash, z, brute.
double by_finder(Finder f, double hash, double z, double brute) {
  return f == Finder::z ? z : f == Finder::brute ? brute : hash;
}

}  // namespace

SpeedModel cpu_speed_model() {
  return [](const CallEstimate& e) {
    constexpr std::int64_t kSequential = 1;  // decode_mode's index of "sequential"
    double rate = 0;
    if (e.compress) {
      rate = by_finder(finder_of(e.params), 450e6, 6e6, 25e6) * e.cpu_scale;
    } else {
      rate = axis_value(e.params, "decode_mode") == kSequential ? 0.5e9 : 2e9 * e.cpu_scale;
    }
    return e.bytes / rate;
  };
}

SpeedModel gpu_speed_model() {
  return [](const CallEstimate& e) {
    const Finder finder = finder_of(e.params);
    if (e.compress && axis_value(e.params, "design") == kDesignThread) {
      // One thread per chunk: a launch lasts one chunk's serial parse, whatever its size.
      const double chunks = std::ceil(e.bytes / static_cast<double>(axis_value(e.params, "chunk")));
      const double launches =
          std::ceil(chunks / static_cast<double>(axis_value(e.params, "work_items")));
      return launches * by_finder(finder, 0.12, 1.8, 0.9);
    }
    return e.bytes / (e.compress ? by_finder(finder, 6e9, 0.04e9, 0.12e9) : 5e9);
  };
}

}  // namespace gcbench::lz77
