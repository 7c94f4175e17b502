#pragma once
// The constants of the tensor-core tile CRC (crc32_tile.cuh), built by constexpr functions that
// the host (tests/crc32_mma_test.cpp emulates the MMA with them) and the device share.
//
// A raw CRC is linear over GF(2) in the message bits: each bit set adds a constant, the CRC of
// that bit followed by the bits after it, x^e * P for e bits after it (P = the CRC of byte 0x80,
// which is zlib's polynomial). So the CRC of 256 bits is a 32 x 256 binary matrix times the bits,
// which the b1 MMA (mma.sync m16n8k256 .and.popc: popcount of AND, summed) computes as the
// parity of its integer result; sums over several MMAs keep the parity of the XOR.
//
// A warp's 32 lanes hold its data in 32-bit words; MMA step s takes two words of every lane
// (the B operand, 256 bits per column): column n is lanes 4n..4n+3, so the 8 columns are 8
// contiguous pieces of the warp's data ("columns" of kColumnBytes). A step's A operand encodes
// the distance of each of its bits to the end of the column's piece in the tile; the shift
// from there to the end of the tile (by column and warp, ColumnShifts) is linear too, so one
// more MMA per half does it once per tile: its B operand is each lane's parities where the
// steps left them, its A the shifts (ReduceOperands), and the XOR of its 8 columns' parities
// is the warp's part of the tile's raw CRC. Two layouts (Geometry):
//   rows:    R rows of 256 lanes x 16 bytes; a warp holds 512 contiguous bytes of each row;
//            step 2r + p takes words (x, y) for p = 0 and (z, w) for p = 1 of row r;
//   blocked: each of 256 threads holds S contiguous bytes (S a multiple of 8); step s takes
//            words 2s and 2s + 1 of every lane.
// Fragment layout (PTX ISA, mma.m16n8k256 with .b1): lane l = 4g + t; A register i holds row
// g + 8 (i & 1), columns t * 32 + 128 (i >> 1) + bit; B register i holds column g, rows
// t * 32 + 128 i + bit; C register i holds row g + 8 (i >> 1), column 2t + (i & 1). The bit order
// inside a register does not matter as long as A and B share it.
#include <cstdint>

#include "codecs/common/crc32_math.hpp"

#ifdef __CUDACC__
#define GCB_HD __host__ __device__ constexpr
#else
#define GCB_HD constexpr
#endif

namespace gcbench::crc::mma {

inline constexpr std::uint32_t kThreads = 256;  // a tile's block
inline constexpr std::uint32_t kWarps = kThreads / 32;
inline constexpr std::uint32_t kColumns = 8;

template <std::uint32_t R>
struct RowsGeometry {
  static constexpr std::uint32_t kSteps = 2 * R;
  static constexpr std::uint32_t kLaneBytes = 16;
  static constexpr std::uint32_t kColumnBytes = 4 * kLaneBytes;
  static constexpr std::uint64_t kRowBytes = std::uint64_t{kThreads} * kLaneBytes;
  static constexpr std::uint64_t kTileBytes = R * kRowBytes;
  // Bytes from the end of step s's column piece to the end of that column's piece in the last row.
  GCB_HD static std::uint64_t base(std::uint32_t s) { return (R - 1 - s / 2) * kRowBytes; }
  // The lane's word (of its kLaneBytes) in B register `reg` of step s.
  GCB_HD static std::uint32_t word(std::uint32_t s, std::uint32_t reg) { return 2 * (s % 2) + reg; }
};

template <std::uint32_t S>
struct BlockedGeometry {
  static_assert(S % 8 == 0 && S >= 8);
  static constexpr std::uint32_t kSteps = S / 8;
  static constexpr std::uint32_t kLaneBytes = S;
  static constexpr std::uint32_t kColumnBytes = 4 * kLaneBytes;
  static constexpr std::uint64_t kTileBytes = std::uint64_t{kThreads} * S;
  GCB_HD static std::uint64_t base(std::uint32_t) { return 0; }
  GCB_HD static std::uint32_t word(std::uint32_t s, std::uint32_t reg) { return 2 * s + reg; }
};

// x * c mod P.
GCB_HD std::uint32_t times_x(std::uint32_t c) {
  return c & 1 ? (c >> 1) ^ kPoly : c >> 1;
}

// The A operands: a[step][half][lane] = the lane's four registers, half h giving CRC bits
// 16h..16h+15.
template <typename G>
struct alignas(16) Operands {
  std::uint32_t a[G::kSteps][2][32][4];
};

template <typename G>
GCB_HD Operands<G> make_operands() {
  Operands<G> op{};
  for (std::uint32_t s = 0; s < G::kSteps; ++s) {
    // contribution[pos * 8 + j]: bit j of byte pos of a column piece, at base(s) + the bytes
    // after it in the piece.
    std::uint32_t contribution[G::kColumnBytes * 8] = {};
    std::uint32_t c = multmodp(x8nmodp(G::base(s)), kPoly);  // bit 7 of the piece's last byte
    for (std::uint32_t back = 0; back < G::kColumnBytes; ++back) {
      const std::uint32_t pos = G::kColumnBytes - 1 - back;
      for (int j = 7; j >= 0; --j) {
        contribution[pos * 8 + j] = c;
        c = times_x(c);
      }
    }
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      const std::uint32_t g = lane / 4, t = lane % 4;
      for (std::uint32_t i = 0; i < 4; ++i) {
        for (std::uint32_t bit = 0; bit < 32; ++bit) {
          // A column k is B row k: lane 4n + k % 128 / 32 of the column, register k / 128.
          const std::uint32_t k = t * 32 + 128 * (i / 2) + bit;
          const std::uint32_t owner = k % 128 / 32, reg = k / 128;
          const std::uint32_t pos = owner * G::kLaneBytes + 4 * G::word(s, reg) + bit / 8;
          const std::uint32_t col = contribution[pos * 8 + bit % 8];
          for (std::uint32_t h = 0; h < 2; ++h) {
            const std::uint32_t m = 16 * h + g + 8 * (i % 2);
            op.a[s][h][lane][i] |= (col >> m & 1u) << bit;
          }
        }
      }
    }
  }
  return op;
}

// shift[w][n][b]: bit b of a column's raw CRC, carried from the end of column n of warp w's
// piece to the end of the tile (linear: a raw CRC times a constant is the XOR of its bits').
template <typename G>
struct ColumnShifts {
  std::uint32_t v[kWarps][kColumns][32];
};

template <typename G>
GCB_HD ColumnShifts<G> make_column_shifts() {
  ColumnShifts<G> cs{};
  for (std::uint32_t w = 0; w < kWarps; ++w) {
    for (std::uint32_t n = 0; n < kColumns; ++n) {
      const std::uint64_t bytes = std::uint64_t{kColumns - 1 - n} * G::kColumnBytes +
                                  std::uint64_t{kWarps - 1 - w} * kColumns * G::kColumnBytes;
      std::uint32_t m = x8nmodp(bytes);  // m * x^0; bit 31 is x^0, bit b is x^(31 - b)
      for (int b = 31; b >= 0; --b) {
        cs.v[w][n][b] = m;
        m = times_x(m);
      }
    }
  }
  return cs;
}

// The A operands of the final MMA: a[w][half][lane] = the lane's four registers for warp w.
// Its B operand (column g, from lanes 4g + t) holds in register p the parities that lane has
// of column 2t + p, at their CRC bits' places (16h + g + 8 (i >> 1) for C register 2 (i >> 1) +
// p of half h), so B row 32t + 128p + b is bit b of column 2t + p, which ColumnShifts carries
// to the tile's end.
template <typename G>
struct alignas(16) ReduceOperands {
  std::uint32_t a[kWarps][2][32][4];
};

template <typename G>
GCB_HD ReduceOperands<G> make_reduce_operands(const ColumnShifts<G>& cs) {
  ReduceOperands<G> op{};
  for (std::uint32_t w = 0; w < kWarps; ++w) {
    for (std::uint32_t lane = 0; lane < 32; ++lane) {
      const std::uint32_t g = lane / 4, t = lane % 4;
      for (std::uint32_t i = 0; i < 4; ++i) {
        const std::uint32_t column = 2 * t + i / 2;  // B row t * 32 + 128 (i >> 1) + bit
        for (std::uint32_t bit = 0; bit < 32; ++bit) {
          for (std::uint32_t h = 0; h < 2; ++h) {
            const std::uint32_t m = 16 * h + g + 8 * (i % 2);
            op.a[w][h][lane][i] |= (cs.v[w][column][bit] >> m & 1u) << bit;
          }
        }
      }
    }
  }
  return op;
}

template <typename G>
GCB_HD ReduceOperands<G> make_reduce_operands() {
  return make_reduce_operands<G>(make_column_shifts<G>());
}

}  // namespace gcbench::crc::mma

#undef GCB_HD
