#include "bench/driver/device_fit.hpp"

#include <fmt/format.h>

#include "src/results/result_document.hpp"

namespace gcbench::driver {
namespace {

// Decimal units, one decimal: GB down to 1 GB, MB below.
std::string amount(std::uint64_t bytes) {
  const auto b = static_cast<double>(bytes);
  return b >= 1e9 ? fmt::format("{:.1f} GB", b / 1e9) : fmt::format("{:.1f} MB", b / 1e6);
}

}  // namespace

std::optional<std::string> device_shortfall(std::uint64_t need_bytes, std::uint64_t free_bytes) {
  if (free_bytes >= kDeviceHeadroomBytes && need_bytes <= free_bytes - kDeviceHeadroomBytes) {
    return std::nullopt;
  }
  return results::skipped_reason(
      fmt::format("needs {} on the device, {} free", amount(need_bytes), amount(free_bytes)));
}

}  // namespace gcbench::driver
