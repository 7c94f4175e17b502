// RLE CPU reference codec. Decoding is parallel over contiguous chunks of runs: each chunk sums
// (and checks) its counts, an exclusive scan of the chunk sums gives every chunk its first
// output element, then the chunks expand their runs independently.
#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "codecs/common/container_codec.hpp"
#include "codecs/common/elements.hpp"
#include "codecs/rle/format.hpp"
#include "codecs/rle/params.hpp"
#include "codecs/rle/rle.hpp"
#include "codecs/rle/rle_encode.hpp"
#include "codecs/rle/rle_payload.hpp"

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

// A payload whose counts are checked, with the first output element of each chunk of runs.
struct CheckedRuns {
  ParsedPayload payload;
  std::vector<std::uint64_t> start;
};

struct CpuParams {
  RleParams format;
  int threads = 1;
};

// The payload side of the CPU codec; the container around it is ContainerCodec's.
struct RleCpu {
  using Typed = CpuParams;
  using Parsed = CheckedRuns;
  static constexpr ContainerFormat format = kContainerFormat;

  CpuParams typed(const Params& resolved) const {
    return {rle_params(resolved), thread_count(resolved)};
  }

  std::uint64_t max_payload_size(std::uint64_t input_size, const CpuParams& p) const {
    return rle::max_payload_size(input_size, p.format.element_width);
  }

  Bytes encode(ByteSpan input, const CpuParams& p) const {
    return encode_payload(input, p.format.element_width, p.threads);
  }

  // The counts are summed and checked here (O(runs), nothing big allocated), so that the
  // expansion they prove is held to the decode limit before the output is allocated.
  CheckedRuns parse(ByteSpan payload, std::uint64_t original_size, const CpuParams& p) const {
    ParsedPayload parsed = parse_payload(payload, original_size);
    // One chunk when sequential; never more chunks than runs (0 runs: 0 elements, no chunk).
    const auto chunks =
        std::min<std::uint64_t>(static_cast<std::uint64_t>(p.threads), parsed.layout.run_count);
    std::vector<std::uint64_t> start = run_offsets(parsed, chunks);
    return {parsed, std::move(start)};
  }

  void decode(const CheckedRuns& runs, const CpuParams&, std::span<std::uint8_t> out) const {
    with_element_type(runs.payload.layout.element_width, [&](auto tag) {
      expand_all<decltype(tag)>(runs.payload, runs.start, out.data());
    });
    store_tail(runs.payload.tail, out);
  }
};

}  // namespace

CodecPtr make_cpu_codec() {
  // Aggregate initialization: assigning string literals trips GCC 12's false -Wrestrict.
  return make_container_codec(
      CodecInfo{"rle",
                "1",
                Device::cpu,
                "run-length encoding, counts[] and values[] (CPU reference, OpenMP)",
                {element_width_axis(), threads_axis()}},
      RleCpu{});
}

}  // namespace gcbench::rle
