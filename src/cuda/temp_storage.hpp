#pragma once
// Carving one caller-owned temporary allocation into typed pieces, as CUB's temp storage is:
// run the same sequence of take() calls once without a base to learn the size, then again
// with the caller's buffer.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gcbench::cuda {

class TempCarver {
 public:
  static constexpr std::size_t kAlign = 256;

  TempCarver() = default;  // sizing pass
  TempCarver(void* base, std::size_t capacity)
      : base_(static_cast<std::uint8_t*>(base)), capacity_(capacity) {}

  template <typename T>
  T* take(std::size_t count) {
    const std::size_t at = used_;
    used_ += (count * sizeof(T) + kAlign - 1) / kAlign * kAlign;
    if (base_ == nullptr) return nullptr;
    if (used_ > capacity_) {
      throw std::invalid_argument("temporary storage too small: " + std::to_string(capacity_) +
                                  " bytes given, more needed");
    }
    return reinterpret_cast<T*>(base_ + at);
  }

  // An untyped piece for a library's own temporary storage (CUB's scans and sorts).
  struct Piece {
    void* p;
    std::size_t bytes;
  };
  Piece take_bytes(std::size_t bytes) { return {take<std::uint8_t>(bytes), bytes}; }

  std::size_t bytes() const { return used_; }

 private:
  std::uint8_t* base_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t used_ = 0;
};

}  // namespace gcbench::cuda
