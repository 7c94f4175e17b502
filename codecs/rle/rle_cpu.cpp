// RLE CPU reference codec. Decoding is parallel over contiguous chunks of runs: each chunk sums
// (and checks) its counts, an exclusive scan of the chunk sums gives every chunk its first
// output element, then the chunks expand their runs independently.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "codecs/common/elements.hpp"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_encode.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"

namespace gcbench::rle {
namespace {

std::uint32_t count_at(const ParsedPayload& p, std::uint64_t r) {
  return load_le<std::uint32_t>(p.counts.data() + 4 * r);
}

std::uint64_t chunk_begin(std::uint64_t runs, std::uint64_t chunks, std::uint64_t t) {
  return runs * t / chunks;
}

// Elements in runs [r0, r1). Stops as soon as the sum passes `limit` (so it cannot overflow)
// and reports a zero count as `zero`.
struct ChunkSum {
  std::uint64_t elements = 0;
  bool zero = false;
};
ChunkSum sum_counts(const ParsedPayload& p, std::uint64_t r0, std::uint64_t r1,
                    std::uint64_t limit) {
  ChunkSum s;
  for (std::uint64_t r = r0; r < r1 && s.elements <= limit; ++r) {
    std::uint32_t c = count_at(p, r);
    s.zero |= c == 0;
    s.elements += c;
  }
  return s;
}

// First output element of each chunk of runs (chunks + 1 entries, the last is element_count);
// one thread per chunk, so one chunk is the plain sequential loop.
// Throws DecodeError unless every count is >= 1 and they sum to element_count.
std::vector<std::uint64_t> run_offsets(const ParsedPayload& p, std::uint64_t chunks) {
  std::uint64_t n = p.layout.element_count;
  std::uint64_t runs = p.layout.run_count;
  std::vector<ChunkSum> sums(chunks);
  auto team = static_cast<int>(chunks);
  auto c_count = static_cast<std::int64_t>(chunks);
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (std::int64_t t = 0; t < c_count; ++t) {
    sums[t] = sum_counts(p, chunk_begin(runs, chunks, t), chunk_begin(runs, chunks, t + 1), n);
  }
  std::vector<std::uint64_t> start(chunks + 1, 0);
  for (std::uint64_t t = 0; t < chunks; ++t) {
    if (sums[t].zero) throw DecodeError("RLE: a run has count 0");
    if (sums[t].elements > n - start[t]) {
      throw DecodeError("RLE: run counts add up to more than the " + std::to_string(n) +
                        " elements of the original");
    }
    start[t + 1] = start[t] + sums[t].elements;
  }
  if (start[chunks] != n) {
    throw DecodeError("RLE: run counts add up to " + std::to_string(start[chunks]) + ", not " +
                      std::to_string(n));
  }
  return start;
}

template <typename T>
void expand_runs(const ParsedPayload& p, std::uint64_t r0, std::uint64_t r1, std::uint64_t first,
                 std::uint8_t* out) {
  std::uint8_t* o = out + first * sizeof(T);
  for (std::uint64_t r = r0; r < r1; ++r) {
    std::uint32_t c = count_at(p, r);
    T v = load_le<T>(p.values.data() + sizeof(T) * r);
    if constexpr (sizeof(T) == 1) {
      std::memset(o, v, c);
      o += c;
    } else {
      for (std::uint32_t i = 0; i < c; ++i, o += sizeof(T)) store_le<T>(o, v);
    }
  }
}

template <typename T>
void expand_all(const ParsedPayload& p, const std::vector<std::uint64_t>& start,
                std::uint8_t* out) {
  std::uint64_t chunks = start.size() - 1;
  auto team = static_cast<int>(chunks);
  auto c_count = static_cast<std::int64_t>(chunks);
  std::uint64_t runs = p.layout.run_count;
#pragma omp parallel for num_threads(team) schedule(static) if (team > 1)
  for (std::int64_t t = 0; t < c_count; ++t) {
    expand_runs<T>(p, chunk_begin(runs, chunks, t), chunk_begin(runs, chunks, t + 1), start[t],
                   out);
  }
}

class RleCpuCodec final : public Codec {
 public:
  // Aggregate initialization: assigning string literals trips GCC 12's false -Wrestrict.
  RleCpuCodec()
      : info_{"rle",
              "1",
              Device::cpu,
              "run-length encoding, counts[] and values[] (CPU reference, OpenMP)",
              {element_width_axis(), threads_axis()}} {}

  const CodecInfo& info() const override { return info_; }

  std::uint64_t max_compressed_size(std::uint64_t input_size, const Params& params) const override {
    Params p = resolve_params(info_.axes, params);
    return max_container_size(input_size, static_cast<std::uint32_t>(p.at("element_width")));
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats* /*stats*/) const override {
    Params p = resolve_params(info_.axes, params);
    Bytes payload =
        encode_payload(input, static_cast<std::uint32_t>(p.at("element_width")), thread_count(p));
    return wrap_container(FormatId::rle, input, payload);
  }

  Bytes decompress(ByteSpan container, const Params& params, RunStats* /*stats*/) const override {
    int threads = thread_count(resolve_params(info_.axes, params));
    return decode_guarded("rle", [&] {
      OpenedContainer c = open_container(container, FormatId::rle);
      ParsedPayload p = parse_payload(c.payload, c.header.original_size);
      // One chunk when sequential; never more chunks than runs (0 runs: 0 elements, no chunk).
      auto chunks =
          std::min<std::uint64_t>(static_cast<std::uint64_t>(threads), p.layout.run_count);
      // The counts now sum to element_count (O(runs), allocates nothing big): the expansion
      // they prove is checked against the decode limit before the output is allocated.
      std::vector<std::uint64_t> start = run_offsets(p, chunks);
      check_decode_limit("rle", "run counts expanding", c.header.original_size, container.size());
      Bytes out(c.header.original_size);
      with_element_type(p.layout.element_width,
                        [&](auto tag) { expand_all<decltype(tag)>(p, start, out.data()); });
      std::copy(p.tail.begin(), p.tail.end(),
                out.end() - static_cast<std::ptrdiff_t>(p.tail.size()));
      verify_original(c.header, out);
      return out;
    });
  }

 private:
  CodecInfo info_;
};

}  // namespace

CodecPtr make_cpu_codec() {
  return std::make_unique<RleCpuCodec>();
}

}  // namespace gcbench::rle
