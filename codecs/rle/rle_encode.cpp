// RLE encoding on the CPU. threads == 1: the plain loop of the PARLE article's CPU baseline.
// threads > 1: the elements are cut into one segment per thread; a run (or a piece of a run
// split at max_count) starts where the value changes, so segments are scanned independently
// once each knows where the run holding its first element began, and the pieces that cross a
// segment boundary get the rest of their count in a short sequential fix-up.
#include "codecs/rle/rle_encode.hpp"

#include <algorithm>
#include <limits>
#include <vector>

#include "codecs/common/elements.hpp"
#include "codecs/rle/rle_payload.hpp"
#include "gcbench/container.hpp"

namespace gcbench::rle {
namespace {

template <typename T>
T element(const std::uint8_t* base, std::uint64_t i) {
  return load_le<T>(base + i * sizeof(T));
}

// Counts never exceed max_count <= kMaxRunCount, so they fit their u32 field.
void store_count(std::uint8_t* counts, std::uint64_t r, std::uint64_t count) {
  store_le<std::uint32_t>(counts + 4 * r, static_cast<std::uint32_t>(count));
}

Bytes start_payload(ByteSpan input, std::uint32_t width, std::uint64_t runs, PayloadLayout& l) {
  l = make_layout(input.size(), width, runs);
  Bytes payload = payload_buffer(l.size);  // framed in place (wrap_container)
  write_header(payload.data(), l, input.subspan(l.element_count * width));
  return payload;
}

template <typename T>
Bytes encode_sequential(ByteSpan input, std::uint64_t max_count) {
  const std::uint8_t* in = input.data();
  std::uint64_t n = input.size() / sizeof(T);
  std::vector<std::uint32_t> counts;
  std::vector<T> values;
  if (n > 0) {
    T current = element<T>(in, 0);
    std::uint64_t length = 1;
    for (std::uint64_t i = 1; i < n; ++i) {
      T v = element<T>(in, i);
      if (v == current && length < max_count) {
        ++length;
        continue;
      }
      counts.push_back(static_cast<std::uint32_t>(length));
      values.push_back(current);
      current = v;
      length = 1;
    }
    counts.push_back(static_cast<std::uint32_t>(length));
    values.push_back(current);
  }
  PayloadLayout l;
  Bytes payload = start_payload(input, sizeof(T), counts.size(), l);
  for (std::size_t r = 0; r < counts.size(); ++r) {
    store_count(payload.data() + l.counts_offset, r, counts[r]);
    store_le<T>(payload.data() + l.values_offset + sizeof(T) * r, values[r]);
  }
  return payload;
}

// Calls on_piece(i, value) for every piece start in [lo, hi); `run_start` is where the run
// holding element lo began.
template <typename T, typename OnPiece>
void walk_pieces(const std::uint8_t* in, std::uint64_t lo, std::uint64_t hi,
                 std::uint64_t run_start, std::uint64_t max_count, OnPiece on_piece) {
  std::uint64_t k = (lo - run_start) % max_count;  // position inside the current piece
  T prev = lo > 0 ? element<T>(in, lo - 1) : T{};  // k is 0 at lo == 0 whatever prev is
  for (std::uint64_t i = lo; i < hi; ++i) {
    T v = element<T>(in, i);
    if (v != prev) k = 0;
    if (k == 0) on_piece(i, v);
    prev = v;
    if (++k == max_count) k = 0;
  }
}

template <typename T>
Bytes encode_parallel(ByteSpan input, int threads, std::uint64_t max_count) {
  constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();
  const std::uint8_t* in = input.data();
  std::uint64_t n = input.size() / sizeof(T);
  std::uint64_t segs = std::min<std::uint64_t>(static_cast<std::uint64_t>(threads), n);
  auto team = static_cast<int>(segs);
  auto s_count = static_cast<std::int64_t>(segs);
  auto lo = [&](std::uint64_t t) { return n * t / segs; };
  auto is_start = [&](std::uint64_t i) {
    return i == 0 || element<T>(in, i) != element<T>(in, i - 1);
  };

  // The last run start inside each segment, searched backwards.
  std::vector<std::uint64_t> last_start(segs, kNone);
#pragma omp parallel for num_threads(team) schedule(static)
  for (std::int64_t t = 0; t < s_count; ++t) {
    for (std::uint64_t i = lo(t + 1); i-- > lo(t);) {
      if (is_start(i)) {
        last_start[t] = i;
        break;
      }
    }
  }
  // Where the run holding each segment's first element began.
  std::vector<std::uint64_t> run_start(segs);
  std::uint64_t carry = 0;
  for (std::uint64_t t = 0; t < segs; ++t) {
    run_start[t] = is_start(lo(t)) ? lo(t) : carry;
    if (last_start[t] != kNone) carry = last_start[t];
  }

  // Pieces starting in each segment, and how many leading elements continue an earlier piece.
  std::vector<std::uint64_t> base(segs + 1, 0);
  std::vector<std::uint64_t> lead(segs);
#pragma omp parallel for num_threads(team) schedule(static)
  for (std::int64_t t = 0; t < s_count; ++t) {
    std::uint64_t pieces = 0;
    std::uint64_t first = lo(t + 1);
    walk_pieces<T>(in, lo(t), lo(t + 1), run_start[t], max_count, [&](std::uint64_t i, T) {
      if (pieces++ == 0) first = i;
    });
    base[t + 1] = pieces;
    lead[t] = first - lo(t);
  }
  for (std::uint64_t t = 0; t < segs; ++t) base[t + 1] += base[t];

  PayloadLayout l;
  Bytes payload = start_payload(input, sizeof(T), base[segs], l);
  std::uint8_t* counts = payload.data() + l.counts_offset;
  std::uint8_t* values = payload.data() + l.values_offset;
  // Each segment writes the counts of the pieces starting in it, the last one cut at the
  // segment's end; the fix-up below adds the elements that continue it in later segments.
#pragma omp parallel for num_threads(team) schedule(static)
  for (std::int64_t t = 0; t < s_count; ++t) {
    std::uint64_t g = base[t];
    std::uint64_t prev = kNone;
    walk_pieces<T>(in, lo(t), lo(t + 1), run_start[t], max_count, [&](std::uint64_t i, T v) {
      if (prev != kNone) store_count(counts, g - 1, i - prev);
      store_le<T>(values + sizeof(T) * g, v);
      prev = i;
      ++g;
    });
    if (prev != kNone) store_count(counts, g - 1, lo(t + 1) - prev);
  }
  for (std::uint64_t t = 1; t < segs; ++t) {
    if (lead[t] == 0) continue;
    store_count(counts, base[t] - 1, load_le<std::uint32_t>(counts + 4 * (base[t] - 1)) + lead[t]);
  }
  return payload;
}

template <typename T>
Bytes encode_as(ByteSpan input, int threads, std::uint64_t max_count) {
  if (threads == 1 || input.size() / sizeof(T) < 2) return encode_sequential<T>(input, max_count);
  return encode_parallel<T>(input, threads, max_count);
}

}  // namespace

Bytes encode_payload(ByteSpan input, std::uint32_t element_width, int threads,
                     std::uint64_t max_count) {
  return with_element_type(
      element_width, [&](auto tag) { return encode_as<decltype(tag)>(input, threads, max_count); });
}

}  // namespace gcbench::rle
