#pragma once
// Little-endian byte writing and bounds-checked reading for container payloads.
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "gcbench/errors.hpp"

namespace gcbench {

using Bytes = std::vector<std::uint8_t>;
using ByteSpan = std::span<const std::uint8_t>;

template <typename T>
void put_le(Bytes& out, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    out.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i)));
  }
}

template <typename T>
T load_le(const std::uint8_t* p) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t{p[i]} << (8 * i);
  return static_cast<T>(v);
}

template <typename T>
void store_le(std::uint8_t* p, T value) {
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    p[i] = static_cast<std::uint8_t>(static_cast<std::uint64_t>(value) >> (8 * i));
  }
}

// Reads a payload front to back; every read is checked against the end and throws
// DecodeError naming what was being read.
class ByteReader {
 public:
  explicit ByteReader(ByteSpan data) : data_(data) {}

  template <typename T>
  T read(const char* what) {
    require(sizeof(T), what);
    T v = load_le<T>(data_.data() + pos_);
    pos_ += sizeof(T);
    return v;
  }

  // Returns the next `n` bytes as a view and advances past them.
  ByteSpan take(std::uint64_t n, const char* what) {
    require(n, what);
    ByteSpan s = data_.subspan(pos_, static_cast<std::size_t>(n));
    pos_ += static_cast<std::size_t>(n);
    return s;
  }

  std::size_t remaining() const { return data_.size() - pos_; }
  std::size_t position() const { return pos_; }

 private:
  void require(std::uint64_t n, const char* what) const {
    if (n > remaining()) {
      throw DecodeError(std::string("truncated container: ") + what + " needs " +
                        std::to_string(n) + " bytes, " + std::to_string(remaining()) + " left");
    }
  }

  ByteSpan data_;
  std::size_t pos_ = 0;
};

}  // namespace gcbench
