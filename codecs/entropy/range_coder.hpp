#pragma once
// An adaptive order-0 range coder over bytes (LZ77's entropy-coded size): Subbotin's carry-less 32-bit range
// coder driven by 256-symbol frequency tables that adapt after every symbol and are halved
// when their total reaches a limit.
#include <array>
#include <cstdint>

#include "gcbench/bytes.hpp"

namespace gcbench::entropy {

// Frequencies of 256 symbols (all start at 1), with cumulative sums in a Fenwick tree.
class AdaptiveModel {
 public:
  static constexpr std::uint32_t kIncrement = 32;
  static constexpr std::uint32_t kMaxTotal = 1u << 16;  // the coder needs total <= 2^16

  AdaptiveModel();
  std::uint32_t total() const { return total_; }
  std::uint32_t freq(std::uint8_t symbol) const { return freq_[symbol]; }
  std::uint32_t cumulative(std::uint8_t symbol) const;  // sum of freq below symbol
  // The symbol s with cumulative(s) <= target < cumulative(s) + freq(s); target < total().
  std::uint8_t find(std::uint32_t target) const;
  void update(std::uint8_t symbol);

 private:
  void rebuild();

  std::array<std::uint32_t, 256> freq_{};
  std::array<std::uint32_t, 257> tree_{};  // 1-based Fenwick tree over freq_
  std::uint32_t total_ = 0;
};

class RangeEncoder {
 public:
  explicit RangeEncoder(Bytes& out) : out_(out) {}
  // Codes `symbol` with `model`, then adapts the model.
  void encode(AdaptiveModel& model, std::uint8_t symbol);
  // Writes the final bytes; call once after the last symbol.
  void finish();

 private:
  Bytes& out_;
  std::uint32_t low_ = 0;
  std::uint32_t range_ = 0xFFFFFFFFu;
};

class RangeDecoder {
 public:
  // Throws DecodeError if `in` is shorter than the coder's 4-byte start.
  explicit RangeDecoder(ByteSpan in);
  // Throws DecodeError for a code no symbol covers or a read past the end of the input.
  std::uint8_t decode(AdaptiveModel& model);
  // True when exactly the encoder's bytes were consumed (what a valid stream ends with).
  bool at_end() const { return pos_ == in_.size(); }

 private:
  std::uint8_t next_byte();

  ByteSpan in_;
  std::size_t pos_ = 0;
  std::uint32_t low_ = 0;
  std::uint32_t range_ = 0xFFFFFFFFu;
  std::uint32_t code_ = 0;
};

// A byte stream coded with one adaptive model; the count is not stored.
Bytes range_encode(ByteSpan symbols);
// Decodes `count` symbols and requires the stream to end exactly there (DecodeError if not).
Bytes range_decode(ByteSpan coded, std::uint64_t count);

}  // namespace gcbench::entropy
