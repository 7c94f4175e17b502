// The tensor-core tile CRC's constants (codecs/common/crc32_mma_tables.hpp), checked on the host:
// the b1 MMA emulated from PTX's fragment layout (popcount of AND), as crc32_tile.cuh uses it,
// must give zlib's CRC of every tile layout the kernels use.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "codecs/common/crc32_mma_tables.hpp"
#include "gcbench/bytes.hpp"
#include "gcbench/container.hpp"
#include "support/inputs.hpp"

namespace gcbench {
namespace {

namespace mma = crc::mma;
using u32 = std::uint32_t;

// The word a thread feeds to B register `reg` at step s.
template <typename G>
u32 word_at(const Bytes& tile, u32 thread, u32 s, u32 reg) {
  std::size_t at = 0;
  if constexpr (requires { G::kRowBytes; }) {
    at = s / 2 * G::kRowBytes + thread * 16 + 4 * G::word(s, reg);
  } else {
    at = thread * G::kLaneBytes + 4 * G::word(s, reg);
  }
  u32 w;
  std::memcpy(&w, tile.data() + at, 4);
  return w;
}

// mma.m16n8k256 .b1 .and.popc on fragments (PTX's layout, crc32_mma_tables.hpp): lane 4g + t's
// C register i (row g + 8 (i >> 1), column 2t + (i & 1)) += popc(A row AND B column).
void emulated_mma(int (&c)[32][4], const u32 (&a)[32][4], const u32 (&b)[32][2]) {
  for (u32 lane = 0; lane < 32; ++lane) {
    for (u32 i = 0; i < 4; ++i) {
      const u32 row = lane / 4 + 8 * (i >> 1), column = 2 * (lane % 4) + (i & 1);
      for (u32 k = 0; k < 256; ++k) {
        const u32 a_bit = a[4 * (row % 8) + k % 128 / 32][k / 128 * 2 + row / 8] >> (k % 32) & 1u;
        const u32 b_bit = b[4 * column + k % 128 / 32][k / 128] >> (k % 32) & 1u;
        c[lane][i] += static_cast<int>(a_bit & b_bit);
      }
    }
  }
}

// One tile's raw CRC as the kernels compute it: per warp, MMA steps accumulate popcounts
// (C = A x B) whose parities are the columns' CRCs; one more MMA a half carries them to the
// tile's end, and the XOR of its columns' parities over the lanes is the warp's part.
template <typename G>
u32 emulated_tile_crc(const Bytes& tile) {
  static const auto op = std::make_unique<mma::Operands<G>>(mma::make_operands<G>());
  static const auto reduce =
      std::make_unique<mma::ReduceOperands<G>>(mma::make_reduce_operands<G>());
  u32 raw = 0;
  for (u32 w = 0; w < mma::kWarps; ++w) {
    int c[2][32][4] = {};  // [half][lane][register]
    for (u32 s = 0; s < G::kSteps; ++s) {
      u32 b[32][2];
      for (u32 lane = 0; lane < 32; ++lane) {
        for (u32 reg = 0; reg < 2; ++reg) b[lane][reg] = word_at<G>(tile, 32 * w + lane, s, reg);
      }
      for (u32 h = 0; h < 2; ++h) emulated_mma(c[h], op->a[s][h], b);
    }
    u32 parities[32][2] = {};  // the final MMA's B: lane 4g + t, column 2t + p
    for (u32 lane = 0; lane < 32; ++lane) {
      for (u32 h = 0; h < 2; ++h) {
        for (u32 i = 0; i < 4; ++i) {
          const u32 m = 16 * h + lane / 4 + 8 * (i >> 1);
          parities[lane][i & 1] |= static_cast<u32>(c[h][lane][i] & 1) << m;
        }
      }
    }
    for (u32 h = 0; h < 2; ++h) {
      int shifted[32][4] = {};
      emulated_mma(shifted, reduce->a[w][h], parities);
      for (u32 lane = 0; lane < 32; ++lane) {
        for (u32 i = 0; i < 4; ++i) {
          raw ^= static_cast<u32>(shifted[lane][i] & 1) << (16 * h + lane / 4 + 8 * (i >> 1));
        }
      }
    }
  }
  return raw;
}

u32 raw_crc(const Bytes& b) {
  u32 raw = 0;
  for (std::uint8_t byte : b) raw = crc::update_byte(raw, byte);
  return raw;
}

template <typename G>
void expect_tiles_match_zlib() {
  for (unsigned seed : {1u, 2u}) {
    const Bytes tile = testing::random_bytes(G::kTileBytes, seed);
    const u32 raw = emulated_tile_crc<G>(tile);
    EXPECT_EQ(raw, raw_crc(tile)) << G::kTileBytes << "-byte tile, seed " << seed;
    EXPECT_EQ(crc::finish(raw, tile.size()), crc32_of(tile));
  }
}

TEST(Crc32Mma, RowsTilesMatchZlib) {
  expect_tiles_match_zlib<mma::RowsGeometry<1>>();  // RLE expand, bytes
  expect_tiles_match_zlib<mma::RowsGeometry<2>>();  // RLE expand, wider elements
  expect_tiles_match_zlib<mma::RowsGeometry<4>>();  // FL unpack
}

TEST(Crc32Mma, BlockedTilesMatchZlib) {
  expect_tiles_match_zlib<mma::BlockedGeometry<16>>();  // FL's OR pass, RLE's encoder: bytes
  expect_tiles_match_zlib<mma::BlockedGeometry<32>>();
  expect_tiles_match_zlib<mma::BlockedGeometry<64>>();
}

// A single bit set anywhere in a tile gives the CRC of that bit alone: every operand column
// and shift, not only their sum over random data.
TEST(Crc32Mma, EverySingleByteOfATileMatches) {
  using G = mma::BlockedGeometry<16>;
  Bytes tile(G::kTileBytes, 0);
  for (std::size_t at = 0; at < tile.size(); at += 97) {
    tile[at] = static_cast<std::uint8_t>(1u << (at % 8));
    ASSERT_EQ(emulated_tile_crc<G>(tile), raw_crc(tile)) << "byte " << at;
    tile[at] = 0;
  }
}

}  // namespace
}  // namespace gcbench
