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

// One tile's raw CRC as the kernels compute it: per warp, MMA steps accumulate popcounts
// (C = A x B), the parities are the columns' CRCs, each carried to the tile's end and XORed.
template <typename G>
u32 emulated_tile_crc(const Bytes& tile) {
  static const auto op = std::make_unique<mma::Operands<G>>(mma::make_operands<G>());
  static const auto shifts = std::make_unique<mma::ColumnShifts<G>>(mma::make_column_shifts<G>());
  u32 raw = 0;
  for (u32 w = 0; w < mma::kWarps; ++w) {
    int c[2][16][8] = {};  // [half][row m][column n]
    for (u32 s = 0; s < G::kSteps; ++s) {
      for (u32 lane_a = 0; lane_a < 32; ++lane_a) {
        for (u32 i = 0; i < 4; ++i) {
          const u32 m = lane_a / 4 + 8 * (i % 2);
          for (u32 bit = 0; bit < 32; ++bit) {
            const u32 k = lane_a % 4 * 32 + 128 * (i / 2) + bit;
            for (u32 n = 0; n < 8; ++n) {
              const u32 lane_b = 4 * n + k % 128 / 32;
              const u32 b = word_at<G>(tile, 32 * w + lane_b, s, k / 128) >> (k % 32) & 1u;
              for (u32 h = 0; h < 2; ++h) {
                c[h][m][n] += static_cast<int>((op->a[s][h][lane_a][i] >> bit & 1u) & b);
              }
            }
          }
        }
      }
    }
    for (u32 n = 0; n < 8; ++n) {
      u32 column = 0;
      for (u32 h = 0; h < 2; ++h) {
        for (u32 m = 0; m < 16; ++m) column |= static_cast<u32>(c[h][m][n] & 1) << (16 * h + m);
      }
      for (u32 b = 0; b < 32; ++b) {
        if (column >> b & 1u) raw ^= shifts->v[w][n][b];
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
