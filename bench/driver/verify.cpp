#include "bench/driver/verify.hpp"

#include <algorithm>

namespace gcbench::driver {

std::optional<std::uint64_t> first_difference(ByteSpan a, ByteSpan b) {
  std::size_t n = std::min(a.size(), b.size());
  auto [pa, pb] = std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin());
  if (pa != a.begin() + static_cast<std::ptrdiff_t>(n))
    return static_cast<std::uint64_t>(pa - a.begin());
  if (a.size() != b.size()) return n;
  return std::nullopt;
}

std::optional<std::string> describe_difference(ByteSpan actual, ByteSpan expected,
                                               const std::string& what,
                                               const std::string& reference) {
  std::optional<std::uint64_t> at = first_difference(actual, expected);
  if (!at) return std::nullopt;
  return what + " differs from " + reference + " at byte " + std::to_string(*at) + " (sizes " +
         std::to_string(actual.size()) + " vs " + std::to_string(expected.size()) + ")";
}

}  // namespace gcbench::driver
