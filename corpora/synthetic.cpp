#include "corpora/synthetic.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <string_view>
#include <utility>
#include <vector>

namespace gcbench::synthetic {
namespace {

// Elements are written with memcpy, i.e. in host byte order; the formats are little-endian.
static_assert(std::endian::native == std::endian::little, "synthetic inputs assume little-endian");

constexpr struct {
  Kind kind;
  const char* name;
} kNames[] = {{Kind::runs, "runs"},
              {Kind::small_ints, "small_ints"},
              {Kind::sorted_keys, "sorted_keys"},
              {Kind::random_bytes, "random_bytes"},
              {Kind::all_equal, "all_equal"}};

template <typename T>
void put(std::uint8_t* out, std::uint64_t i, T v) {
  std::memcpy(out + i * sizeof(T), &v, sizeof(T));
}

// Elements [first, first + count) = v.
template <typename T>
void fill(std::uint8_t* out, std::uint64_t first, std::uint64_t count, T v) {
  if constexpr (sizeof(T) == 1) {
    std::memset(out + first, v, count);
  } else {
    for (std::uint64_t i = first; i < first + count; ++i) put<T>(out, i, v);
  }
}

// The generator's one sequential part is the Mersenne Twister: draws are taken in blocks of
// this many, in order, and what each draw becomes is computed and written on all cores. The
// bytes are those of the plain sequential loop (one draw after the other), whatever the
// number of threads. Large blocks: few parallel regions, whose barriers are slow on a machine
// with more busy threads than cores.
constexpr std::size_t kDrawBlock = std::size_t{1} << 20;

void draw_block(std::mt19937_64& rng, std::vector<std::uint64_t>& draws) {
  for (std::uint64_t& d : draws) d = rng();
}

// Runs of one value; adjacent runs always differ, so the runs are exactly the generated ones.
// One draw per run: its high half is the variate of the length, its low half the value.
// Geometric lengths (P(L = k) = p (1-p)^(k-1), p = 1/mean, so the mean is `mean`) come from a
// uniform variate of resolution 2^-32, which caps a run at 32 ln 2 / -ln(1-p), about 22 mean
// lengths; uniform lengths on 1 .. 2 mean - 1 by a multiply-shift of the same 32 bits.
// Per block of draws: the lengths (a log each) in parallel, then in order the run starts and
// the values (each must differ from the one before), then the fills in parallel.
template <typename T>
void runs(std::uint8_t* out, std::uint64_t n, double mean, RunLengths lengths,
          std::mt19937_64& rng) {
  const double log_q = std::log1p(-1.0 / mean);  // log(1 - p); 0 < p <= 1
  const auto uniform_span = static_cast<std::uint64_t>(std::max(1.0, std::round(2 * mean - 1)));
  auto run_length = [&](std::uint64_t r) {
    std::uint64_t len = 1;
    if (lengths == RunLengths::uniform) {
      len += ((r >> 32) * uniform_span) >> 32;
    } else if (mean > 1) {  // mean == 1 gives p = 1, every run of length 1 (and no log)
      const double u = (static_cast<double>(r >> 32) + 1.0) * 0x1.0p-32;  // (0, 1]
      len += static_cast<std::uint64_t>(std::log(u) / log_q);
    }
    return len;
  };
  T prev = static_cast<T>(rng());
  const std::uint64_t block_size = std::min<std::uint64_t>(kDrawBlock, n);  // runs <= elements
  std::vector<std::uint64_t> draws(block_size), starts(block_size), lens(block_size);
  std::vector<T> values(block_size);
  const auto block = static_cast<std::int64_t>(block_size);
  for (std::uint64_t i = 0; i < n;) {
    draw_block(rng, draws);
#pragma omp parallel for schedule(static)
    for (std::int64_t j = 0; j < block; ++j) lens[j] = run_length(draws[j]);
    std::int64_t count = 0;
    for (; count < block && i < n; ++count) {
      lens[count] = std::min(lens[count], n - i);
      T v = static_cast<T>(draws[count]);
      if (v == prev) v = static_cast<T>(v + 1);  // wraps within T; still differs from prev
      starts[count] = i;
      values[count] = v;
      prev = v;
      i += lens[count];
    }
#pragma omp parallel for schedule(static)
    for (std::int64_t j = 0; j < count; ++j) fill<T>(out, starts[j], lens[j], values[j]);
  }
}

// Values uniform in [0, 2^bits): successive `bits`-wide slices of each 64-bit draw.
template <typename T>
void small_ints(std::uint8_t* out, std::uint64_t n, unsigned bits, std::mt19937_64& rng) {
  if (bits == 0) return;  // [0, 1): all zero, already zeroed
  const std::uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
  const unsigned per_draw = 64 / bits;
  std::vector<std::uint64_t> draws(
      std::min<std::uint64_t>(kDrawBlock, (n + per_draw - 1) / per_draw));
  for (std::uint64_t first = 0; first < n; first += draws.size() * per_draw) {
    draw_block(rng, draws);
#pragma omp parallel for schedule(static)
    for (std::int64_t j = 0; j < static_cast<std::int64_t>(draws.size()); ++j) {
      std::uint64_t r = draws[j];
      std::uint64_t i = first + static_cast<std::uint64_t>(j) * per_draw;
      for (unsigned k = 0; k < per_draw && i < n; ++k, ++i, r >>= bits) {
        put<T>(out, i, static_cast<T>(r & mask));
      }
    }
  }
}

// Non-decreasing keys: a 32.32 fixed-point key grows by a uniform step in [0, 2g], with mean
// gap g = min(8, max / n) so that narrow widths still span their range; saturates at max.
// Each 64-bit draw gives four 16-bit step fractions.
template <typename T>
void sorted_keys(std::uint8_t* out, std::uint64_t n, std::mt19937_64& rng) {
  const double max = static_cast<double>(std::numeric_limits<T>::max());
  const double gap = std::min(8.0, max / static_cast<double>(std::max<std::uint64_t>(n, 1)));
  const auto step_max = static_cast<std::uint64_t>(2 * gap * 0x1.0p32);  // <= 2^36
  const std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<T>::max()) << 32;
  std::uint64_t key = 0;
  for (std::uint64_t i = 0; i < n;) {
    std::uint64_t r = rng();
    for (int k = 0; k < 4 && i < n; ++k, ++i, r >>= 16) {
      put<T>(out, i, static_cast<T>(key >> 32));
      key = std::min(key + (((r & 0xffff) * step_max) >> 16), limit);  // product < 2^52
    }
  }
}

template <typename T>
void generate_elements(const Spec& spec, std::uint8_t* out, std::uint64_t n, std::mt19937_64& rng) {
  switch (spec.kind) {
    case Kind::runs:
      runs<T>(out, n, spec.mean_run, spec.run_lengths, rng);
      break;
    case Kind::small_ints:
      small_ints<T>(out, n, std::min<unsigned>(spec.value_bits, 8 * sizeof(T)), rng);
      break;
    case Kind::sorted_keys:
      sorted_keys<T>(out, n, rng);
      break;
    case Kind::all_equal:
      fill<T>(out, 0, n, static_cast<T>(rng()));
      break;
    case Kind::random_bytes:
      break;  // handled by the caller
  }
}

}  // namespace

Bytes generate(const Spec& spec) {
  const std::uint32_t w = spec.element_width;
  if (w != 1 && w != 2 && w != 4) {
    throw std::invalid_argument("synthetic: element_width must be 1, 2 or 4, not " +
                                std::to_string(w));
  }
  if (spec.kind == Kind::runs && !(spec.mean_run >= 1.0 && std::isfinite(spec.mean_run))) {
    throw std::invalid_argument("synthetic: mean_run must be a finite number >= 1");
  }
  if (spec.size_bytes == 0) return {};
  std::mt19937_64 rng(spec.seed);
  // One element more than fits, so a tail shorter than an element continues the pattern.
  const std::uint64_t n = spec.size_bytes / w + (spec.size_bytes % w != 0 ? 1 : 0);
  Bytes out(n * w);
  if (spec.kind == Kind::random_bytes) {
    std::uint64_t i = 0;
    for (; i + 8 <= out.size(); i += 8) put<std::uint64_t>(out.data() + i, 0, rng());
    for (std::uint64_t r = rng(); i < out.size(); ++i, r >>= 8)
      out[i] = static_cast<std::uint8_t>(r);
  } else if (w == 1) {
    generate_elements<std::uint8_t>(spec, out.data(), n, rng);
  } else if (w == 2) {
    generate_elements<std::uint16_t>(spec, out.data(), n, rng);
  } else {
    generate_elements<std::uint32_t>(spec, out.data(), n, rng);
  }
  out.resize(spec.size_bytes);
  return out;
}

Kind parse_kind(const std::string& name) {
  for (const auto& k : kNames) {
    if (name == k.name) return k.kind;
  }
  throw std::invalid_argument(
      "unknown synthetic kind '" + name +
      "' (runs, runs-geo<mean>, runs-uni<mean>, small_ints, sorted_keys, random_bytes, all_equal)");
}

Spec parse_kind_text(const std::string& text) {
  Spec spec;
  for (const auto& [prefix, lengths] :
       {std::pair{"runs-geo", RunLengths::geometric}, std::pair{"runs-uni", RunLengths::uniform}}) {
    const std::string_view p = prefix;
    if (!text.starts_with(p)) continue;
    const std::string digits = text.substr(p.size());
    std::uint32_t mean = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), mean);
    if (digits.empty() || digits.front() == '0' || ec != std::errc() ||
        end != digits.data() + digits.size() || mean > (1u << 24)) {
      throw std::invalid_argument("synthetic kind '" + text + "': the mean run length after " +
                                  std::string(p) + " must be an integer from 1 to 16777216");
    }
    spec.kind = Kind::runs;
    spec.mean_run = mean;
    spec.run_lengths = lengths;
    return spec;
  }
  spec.kind = parse_kind(text);
  return spec;
}

const char* kind_name(Kind kind) {
  for (const auto& k : kNames) {
    if (kind == k.kind) return k.name;
  }
  return "unknown";
}

}  // namespace gcbench::synthetic
