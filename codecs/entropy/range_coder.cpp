#include "codecs/entropy/range_coder.hpp"

#include <algorithm>
#include <string>

#include "gcbench/errors.hpp"

namespace gcbench::entropy {
namespace {

constexpr std::uint32_t kTop = 1u << 24;  // the top byte is settled once low and high agree in it
constexpr std::uint32_t kBottom = 1u << 16;  // the smallest range kept between symbols

// Shifts settled top bytes out (through `shift`). When the range is too small but its top byte
// is not settled, the range is cut to end at the next multiple of 2^16: that settles the byte
// without a carry, at a tiny cost in ratio (Subbotin's carry-less trick).
template <typename Shift>
void normalize(std::uint32_t& low, std::uint32_t& range, Shift&& shift) {
  for (;;) {
    if ((low ^ (low + range)) >= kTop) {
      if (range >= kBottom) return;
      range = (0u - low) & (kBottom - 1);
    }
    shift();
    low <<= 8;
    range <<= 8;
  }
}

}  // namespace

AdaptiveModel::AdaptiveModel() {
  freq_.fill(1);
  rebuild();
}

void AdaptiveModel::rebuild() {
  tree_.fill(0);
  total_ = 0;
  for (std::uint32_t i = 1; i <= 256; ++i) {
    tree_[i] += freq_[i - 1];
    total_ += freq_[i - 1];
    const std::uint32_t parent = i + (i & (0u - i));
    if (parent <= 256) tree_[parent] += tree_[i];
  }
}

std::uint32_t AdaptiveModel::cumulative(std::uint8_t symbol) const {
  std::uint32_t sum = 0;
  for (std::uint32_t i = symbol; i > 0; i -= i & (0u - i)) sum += tree_[i];
  return sum;
}

std::uint8_t AdaptiveModel::find(std::uint32_t target) const {
  std::uint32_t pos = 0;
  for (std::uint32_t step = 256; step > 0; step >>= 1) {
    if (pos + step <= 256 && tree_[pos + step] <= target) {
      pos += step;
      target -= tree_[pos];
    }
  }
  return static_cast<std::uint8_t>(pos);
}

void AdaptiveModel::update(std::uint8_t symbol) {
  freq_[symbol] += kIncrement;
  total_ += kIncrement;
  for (std::uint32_t i = symbol + 1u; i <= 256; i += i & (0u - i)) tree_[i] += kIncrement;
  if (total_ > kMaxTotal - kIncrement) {  // halve, keeping every symbol codable
    for (auto& f : freq_) f = (f + 1) / 2;
    rebuild();
  }
}

void RangeEncoder::encode(AdaptiveModel& model, std::uint8_t symbol) {
  range_ /= model.total();
  low_ += model.cumulative(symbol) * range_;
  range_ *= model.freq(symbol);
  model.update(symbol);
  normalize(low_, range_, [&] { out_.push_back(static_cast<std::uint8_t>(low_ >> 24)); });
}

void RangeEncoder::finish() {
  for (int i = 0; i < 4; ++i, low_ <<= 8) out_.push_back(static_cast<std::uint8_t>(low_ >> 24));
}

RangeDecoder::RangeDecoder(ByteSpan in) : in_(in) {
  for (int i = 0; i < 4; ++i) code_ = (code_ << 8) | next_byte();
}

std::uint8_t RangeDecoder::next_byte() {
  if (pos_ >= in_.size()) throw DecodeError("range coder: read past the end of the stream");
  return in_[pos_++];
}

std::uint8_t RangeDecoder::decode(AdaptiveModel& model) {
  range_ /= model.total();
  const std::uint32_t target = (code_ - low_) / range_;
  if (target >= model.total()) throw DecodeError("range coder: code outside the range");
  const std::uint8_t symbol = model.find(target);
  low_ += model.cumulative(symbol) * range_;
  range_ *= model.freq(symbol);
  model.update(symbol);
  normalize(low_, range_, [&] { code_ = (code_ << 8) | next_byte(); });
  return symbol;
}

Bytes range_encode(ByteSpan symbols) {
  Bytes out;
  out.reserve(symbols.size() + symbols.size() / 64 + 8);
  AdaptiveModel model;
  RangeEncoder enc(out);
  for (std::uint8_t s : symbols) enc.encode(model, s);
  enc.finish();
  return out;
}

Bytes range_decode(ByteSpan coded, std::uint64_t count) {
  Bytes out;
  // A hostile count cannot make this allocate more than the stream supports: every symbol
  // is pushed only after it was decoded from bytes that exist.
  out.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(count, coded.size() * 8)));
  AdaptiveModel model;
  RangeDecoder dec(coded);
  for (std::uint64_t i = 0; i < count; ++i) out.push_back(dec.decode(model));
  if (!dec.at_end()) {
    throw DecodeError("range coder: stream has trailing bytes after " + std::to_string(count) +
                      " symbols");
  }
  return out;
}

}  // namespace gcbench::entropy
