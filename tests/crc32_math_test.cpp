// The CRC-32 algebra the GPU kernel combines its pieces with, checked against zlib on the host.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

#include "codecs/common/crc32_math.hpp"
#include "gcbench/bytes.hpp"
#include "gcbench/container.hpp"
#include "support/inputs.hpp"

namespace gcbench {
namespace {

std::uint32_t raw_of(const Bytes& b, std::size_t from, std::size_t to) {
  std::uint32_t raw = 0;
  for (std::size_t i = from; i < to; ++i) raw = crc::update_byte(raw, b[i]);
  return raw;
}

using testing::random_bytes;

TEST(Crc32Math, RawCrcFinishesToZlib) {
  for (std::size_t n : {0u, 1u, 3u, 28u, 255u, 4096u}) {
    Bytes b = random_bytes(n, static_cast<unsigned>(n));
    EXPECT_EQ(crc::finish(raw_of(b, 0, n), n), crc32_of(b)) << n << " bytes";
  }
}

TEST(Crc32Math, PiecesCombineByShifting) {
  Bytes b = random_bytes(10007, 1);
  const std::uint32_t whole = raw_of(b, 0, b.size());
  for (std::size_t cut : {0u, 1u, 16u, 5000u, 10006u, 10007u}) {
    const std::uint32_t left = raw_of(b, 0, cut), right = raw_of(b, cut, b.size());
    EXPECT_EQ(crc::shift(left, b.size() - cut) ^ right, whole) << "cut at " << cut;
  }
}

TEST(Crc32Math, LeadingZerosLeaveARawCrcUnchanged) {
  Bytes b = random_bytes(300, 2);
  Bytes padded(77, 0);
  padded.insert(padded.end(), b.begin(), b.end());
  EXPECT_EQ(raw_of(padded, 0, padded.size()), raw_of(b, 0, b.size()));
}

TEST(Crc32Math, ShiftMatchesZlibCombine) {
  for (std::uint64_t len : {1ull, 8ull, 65536ull, 1ull << 33}) {
    EXPECT_EQ(crc::multmodp(crc::x8nmodp(len), 0x12345678u) ^ 0x9ABCDEF0u,
              static_cast<std::uint32_t>(
                  crc32_combine64(0x12345678u, 0x9ABCDEF0u, static_cast<z_off64_t>(len))));
  }
}

// Multiplication by a power of x through four byte tables (crc32.cu's final combine) is
// multmodp; with x^32 it is slicing-by-4.
TEST(Crc32Math, TableMultiplicationIsMultmodp) {
  const crc::MulTable word = crc::mul_table(crc::x8nmodp(4));
  const crc::MulTable gap = crc::mul_table(crc::x8nmodp(4 + 16 * 255));
  std::mt19937 rng(3);
  for (int i = 0; i < 1000; ++i) {
    const std::uint32_t c = static_cast<std::uint32_t>(rng());
    EXPECT_EQ(crc::mul(word.t, c), crc::multmodp(crc::x8nmodp(4), c));
    EXPECT_EQ(crc::mul(gap.t, c), crc::multmodp(crc::x8nmodp(4 + 16 * 255), c));
  }
  // One 4-byte word into a raw CRC = slicing-by-4.
  Bytes b = random_bytes(8, 4);
  const std::uint32_t w = b[4] | b[5] << 8 | b[6] << 16 | std::uint32_t{b[7]} << 24;
  EXPECT_EQ(crc::mul(word.t, raw_of(b, 0, 4) ^ w), raw_of(b, 0, 8));
}

}  // namespace
}  // namespace gcbench
