// FL CPU reference: bit widths per frame, exclusive scan of frame bit offsets, packing. With
// threads > 1 the frames are cut into one contiguous chunk per thread; the output bytes do not
// depend on the thread count.
#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "codecs/common/container_codec.hpp"
#include "codecs/common/elements.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/fl/fl_payload.hpp"
#include "codecs/fl/format.hpp"
#include "codecs/fl/params.hpp"

namespace gcbench::fl {
namespace {

template <typename T>
T element(const std::uint8_t* base, std::uint64_t i) {
  return load_le<T>(base + i * sizeof(T));
}

// Frame range of chunk t of `chunks`.
std::uint64_t chunk_begin(std::uint64_t frames, std::uint64_t chunks, std::uint64_t t) {
  return frames * t / chunks;
}

// Bits of frames [f0, f1).
std::uint64_t chunk_bits(const std::uint8_t* bits, std::uint64_t n, std::uint32_t frame_size,
                         std::uint64_t f0, std::uint64_t f1) {
  std::uint64_t sum = 0;
  for (std::uint64_t f = f0; f < f1; ++f) sum += bits[f] * frame_length(f, n, frame_size);
  return sum;
}

// Exclusive scan of `sizes` in place: entry t becomes the sum of the entries before it.
void exclusive_scan(std::vector<std::uint64_t>& sizes) {
  std::uint64_t sum = 0;
  for (auto& s : sizes) sum += std::exchange(s, sum);
}

// Appends values LSB first to little-endian 32-bit words from bit `start` on. When `start` is
// not word-aligned, the word holding it also holds bits of the chunk before, whose writer
// stores it; this writer returns its own bits of that word from finish() for the caller to OR
// in after all chunks are done, so that no word is written by two threads.
class BitWriter {
 public:
  BitWriter(std::uint8_t* words, std::uint64_t start)
      : words_(words), word_(start / 32), used_(start % 32), hold_first_(used_ != 0) {}

  void put(std::uint32_t value, std::uint32_t bits) {
    acc_ |= std::uint64_t{value} << used_;
    used_ += bits;
    if (used_ >= 32) {
      emit();
      used_ -= 32;
    }
  }

  // Emits the last partial word, then returns the held first word (0 if none was held).
  std::uint32_t finish() {
    if (used_ > 0) emit();
    used_ = 0;
    return head_;
  }

 private:
  void emit() {
    auto w = static_cast<std::uint32_t>(acc_);
    if (hold_first_) {
      head_ = w;
      hold_first_ = false;
    } else {
      store_le<std::uint32_t>(words_ + 4 * word_, w);
    }
    ++word_;
    acc_ >>= 32;
  }

  std::uint8_t* words_;
  std::uint64_t word_;
  std::uint32_t used_;
  bool hold_first_;
  std::uint64_t acc_ = 0;
  std::uint32_t head_ = 0;
};

template <typename T>
std::uint32_t pack_frames(const std::uint8_t* in, const PayloadLayout& l, const std::uint8_t* bits,
                          std::uint64_t f0, std::uint64_t f1, std::uint64_t start_bit,
                          std::uint8_t* words) {
  BitWriter w(words, start_bit);
  for (std::uint64_t f = f0; f < f1; ++f) {
    std::uint64_t begin = f * l.frame_size;
    std::uint64_t end = begin + frame_length(f, l.element_count, l.frame_size);
    for (std::uint64_t i = begin; i < end; ++i) w.put(element<T>(in, i), bits[f]);
  }
  return w.finish();
}

// The value of `bits` bits at bit `pos`; validation guarantees the words hold pos + bits.
inline std::uint32_t read_bits(const std::uint8_t* words, std::uint64_t pos, std::uint32_t bits) {
  std::uint64_t i = pos / 32;
  auto off = static_cast<std::uint32_t>(pos % 32);
  std::uint64_t window = load_le<std::uint32_t>(words + 4 * i);
  if (off + bits > 32) window |= std::uint64_t{load_le<std::uint32_t>(words + 4 * (i + 1))} << 32;
  return static_cast<std::uint32_t>((window >> off) & ((std::uint64_t{1} << bits) - 1));
}

template <typename T>
void unpack_frames(const ParsedPayload& p, std::uint64_t f0, std::uint64_t f1,
                   std::uint64_t start_bit, std::uint8_t* out) {
  const PayloadLayout& l = p.layout;
  std::uint64_t pos = start_bit;
  for (std::uint64_t f = f0; f < f1; ++f) {
    std::uint32_t b = p.bits[f];
    std::uint64_t begin = f * l.frame_size;
    std::uint64_t end = begin + frame_length(f, l.element_count, l.frame_size);
    for (std::uint64_t i = begin; i < end; ++i, pos += b) {
      store_le<T>(out + i * sizeof(T), static_cast<T>(read_bits(p.words.data(), pos, b)));
    }
  }
}

// Fills bits[] and returns the first bit of each of `chunks` chunks of frames, plus the total.
// One chunk is the plain sequential loop; more run one thread each.
template <typename T>
std::vector<std::uint64_t> compute_bits(const std::uint8_t* in, std::uint64_t n,
                                        std::uint32_t frame_size, std::uint64_t chunks,
                                        std::uint8_t* bits) {
  std::uint64_t frames = frame_count(n, frame_size);
  std::vector<std::uint64_t> start(chunks + 1, 0);
  auto team = static_cast<int>(chunks);
  auto c_count = static_cast<std::int64_t>(chunks);
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (std::int64_t t = 0; t < c_count; ++t) {
    std::uint64_t f0 = chunk_begin(frames, chunks, t), f1 = chunk_begin(frames, chunks, t + 1);
    for (std::uint64_t f = f0; f < f1; ++f) {
      // The widest value of a frame is the bit width of the OR of its values.
      std::uint32_t all = 0;
      std::uint64_t begin = f * frame_size;
      std::uint64_t end = begin + frame_length(f, n, frame_size);
      for (std::uint64_t i = begin; i < end; ++i) all |= element<T>(in, i);
      bits[f] = static_cast<std::uint8_t>(bit_width_of(all));
    }
    start[t] = chunk_bits(bits, n, frame_size, f0, f1);
  }
  exclusive_scan(start);
  return start;
}

// One chunk per thread, never more chunks than frames, at least one.
std::uint64_t chunk_count(int threads, std::uint64_t frames) {
  return std::max<std::uint64_t>(1, std::min<std::uint64_t>(threads, frames));
}

template <typename T>
Bytes compress_as(ByteSpan input, std::uint32_t frame_size, int threads) {
  constexpr std::uint32_t width = sizeof(T);
  ElementView view{input, width};
  std::uint64_t n = view.count();
  std::uint64_t frames = frame_count(n, frame_size);
  std::uint64_t chunks = chunk_count(threads, frames);
  std::vector<std::uint8_t> bits(frames);
  std::vector<std::uint64_t> start =
      compute_bits<T>(input.data(), n, frame_size, chunks, bits.data());

  PayloadLayout l = make_layout(input.size(), width, frame_size, start[chunks]);
  Bytes payload = payload_buffer(l.size);  // framed in place (wrap_container)
  write_header(payload.data(), l, view.tail());
  std::copy(bits.begin(), bits.end(), payload.begin() + l.bits_offset);
  std::uint8_t* words = payload.data() + l.words_offset;
  std::vector<std::uint32_t> heads(chunks, 0);
  auto team = static_cast<int>(chunks);
  auto c_count = static_cast<std::int64_t>(chunks);
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (std::int64_t t = 0; t < c_count; ++t) {
    heads[t] = pack_frames<T>(input.data(), l, bits.data(), chunk_begin(frames, chunks, t),
                              chunk_begin(frames, chunks, t + 1), start[t], words);
  }
  // The words shared by two chunks: OR in the later chunk's bits (head is 0 when aligned).
  for (std::uint64_t t = 1; t < chunks; ++t) {
    std::uint8_t* w = words + 4 * (start[t] / 32);
    store_le<std::uint32_t>(w, load_le<std::uint32_t>(w) | heads[t]);
  }
  return payload;
}

template <typename T>
void decompress_as(const ParsedPayload& p, int threads, std::uint8_t* out) {
  std::uint64_t frames = p.layout.frame_count;
  std::uint64_t chunks = chunk_count(threads, frames);
  std::vector<std::uint64_t> start(chunks + 1, 0);
  auto team = static_cast<int>(chunks);
  auto c_count = static_cast<std::int64_t>(chunks);
  if (chunks > 1) {
    for (std::uint64_t t = 0; t < chunks; ++t) {
      start[t] = chunk_bits(p.bits.data(), p.layout.element_count, p.layout.frame_size,
                            chunk_begin(frames, chunks, t), chunk_begin(frames, chunks, t + 1));
    }
    exclusive_scan(start);
  }
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (std::int64_t t = 0; t < c_count; ++t) {
    unpack_frames<T>(p, chunk_begin(frames, chunks, t), chunk_begin(frames, chunks, t + 1),
                     start[t], out);
  }
}

struct CpuParams {
  FlParams format;
  int threads = 1;
};

// The payload side of the CPU codec; the container around it is ContainerCodec's.
struct FlCpu {
  using Typed = CpuParams;
  using Parsed = ParsedPayload;
  static constexpr ContainerFormat format = kContainerFormat;

  CpuParams typed(const Params& resolved) const {
    return {fl_params(resolved), thread_count(resolved)};
  }

  std::uint64_t max_payload_size(std::uint64_t input_size, const CpuParams& p) const {
    return fl::max_payload_size(input_size, p.format.element_width, p.format.frame_size);
  }

  Bytes encode(ByteSpan input, const CpuParams& p) const {
    return with_element_type(p.format.element_width, [&](auto tag) {
      return compress_as<decltype(tag)>(input, p.format.frame_size, p.threads);
    });
  }

  // The payload holds at least one bit per element, so the size is at most 32x the payload.
  ParsedPayload parse(ByteSpan payload, std::uint64_t original_size, const CpuParams&) const {
    return parse_payload(payload, original_size);
  }

  void decode(const ParsedPayload& parsed, const CpuParams& p, std::span<std::uint8_t> out) const {
    with_element_type(parsed.layout.element_width, [&](auto tag) {
      decompress_as<decltype(tag)>(parsed, p.threads, out.data());
    });
    store_tail(parsed.tail, out);
  }
};

}  // namespace

CodecPtr make_cpu_codec() {
  // Aggregate initialization: assigning string literals trips GCC 12's false -Wrestrict.
  return make_container_codec(
      CodecInfo{"fl",
                "1",
                Device::cpu,
                "fixed-length bit-packing per frame (CPU reference, OpenMP)",
                {element_width_axis(), frame_size_axis(), threads_axis()}},
      FlCpu{});
}

}  // namespace gcbench::fl
