#pragma once
// The input of FL and RLE seen as little-endian unsigned integers of 1, 2 or 4 bytes, plus a
// tail shorter than one element that is stored verbatim.
#include <algorithm>
#include <cstdint>
#include <span>

#include "gcbench/bytes.hpp"
#include "gcbench/params.hpp"

namespace gcbench {

struct ElementView {
  ByteSpan bytes;
  std::uint32_t width = 1;

  std::uint64_t count() const { return bytes.size() / width; }
  ByteSpan tail() const { return bytes.subspan(count() * width); }
  std::uint32_t at(std::uint64_t i) const {
    const std::uint8_t* p = bytes.data() + i * width;
    switch (width) {
      case 1:
        return p[0];
      case 2:
        return load_le<std::uint16_t>(p);
      default:
        return load_le<std::uint32_t>(p);
    }
  }
};

// Calls f(T{}) with T the unsigned integer type of `width` bytes (1, 2 or 4).
template <typename F>
decltype(auto) with_element_type(std::uint32_t width, F&& f) {
  switch (width) {
    case 1:
      return f(std::uint8_t{});
    case 2:
      return f(std::uint16_t{});
    default:
      return f(std::uint32_t{});
  }
}

inline void store_element(std::uint8_t* p, std::uint32_t width, std::uint32_t v) {
  for (std::uint32_t i = 0; i < width; ++i) p[i] = static_cast<std::uint8_t>(v >> (8 * i));
}

// Stores the tail (the input's last size % width bytes, kept verbatim) at the end of `out`.
inline void store_tail(ByteSpan tail, std::span<std::uint8_t> out) {
  std::copy(tail.begin(), tail.end(), out.end() - static_cast<std::ptrdiff_t>(tail.size()));
}

inline AxisSpec element_width_axis() {
  AxisSpec a;
  a.name = "element_width";
  a.help = "bytes per integer element (little-endian)";
  a.default_value = 1;
  a.allowed = {1, 2, 4};
  a.in_container = true;
  return a;
}

// The element_width axis of resolved parameters.
inline std::uint32_t element_width_of(const Params& resolved) {
  return static_cast<std::uint32_t>(axis_value(resolved, "element_width"));
}

}  // namespace gcbench
