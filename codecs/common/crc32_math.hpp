#pragma once
// CRC-32 (zlib's polynomial, reflected) as arithmetic in GF(2)[x] / P, shared by the host and
// the device: multmodp and x2nmodp are zlib's own (crc32.c), so that a CRC computed in pieces
// on the GPU combines exactly as zlib's crc32_combine does.
//
// "raw" CRCs below start from 0 and are not inverted; they are linear:
//   raw(A || B) = shift(raw(A), |B|) ^ raw(B),   raw(0...0 || M) = raw(M),
// and zlib's crc32(M) = ~(raw(M) ^ shift(0xFFFFFFFF, |M|)).
#include <cstdint>

#ifdef __CUDACC__
#define GCB_HD __host__ __device__ __forceinline__ constexpr
#else
#define GCB_HD constexpr
#endif

namespace gcbench::crc {

inline constexpr std::uint32_t kPoly = 0xEDB88320u;

// a * b mod P (zlib multmodp).
GCB_HD std::uint32_t multmodp(std::uint32_t a, std::uint32_t b) {
  std::uint32_t m = 1u << 31, p = 0;
  for (;;) {
    if (a & m) {
      p ^= b;
      if ((a & (m - 1)) == 0) break;
    }
    m >>= 1;
    b = b & 1 ? (b >> 1) ^ kPoly : b >> 1;
  }
  return p;
}

// x^(8 * bytes) mod P: squaring from x^8 (zlib x2nmodp(bytes, 3) without its table).
GCB_HD std::uint32_t x8nmodp(std::uint64_t bytes) {
  std::uint32_t p = 1u << 31;   // x^0
  std::uint32_t sq = 1u << 23;  // x^8
  while (bytes != 0) {
    if (bytes & 1) p = multmodp(sq, p);
    bytes >>= 1;
    if (bytes != 0) sq = multmodp(sq, sq);
  }
  return p;
}

// raw(M) followed by `bytes` more bytes: raw(M) * x^(8 * bytes).
GCB_HD std::uint32_t shift(std::uint32_t raw, std::uint64_t bytes) {
  return multmodp(x8nmodp(bytes), raw);
}

// zlib's crc32 of a message of `size` bytes whose raw CRC is `raw`.
GCB_HD std::uint32_t finish(std::uint32_t raw, std::uint64_t size) {
  return ~(raw ^ shift(0xFFFFFFFFu, size));
}

// One byte into a raw CRC, bit by bit (for the few bytes outside the table-driven path).
GCB_HD std::uint32_t update_byte(std::uint32_t raw, std::uint8_t byte) {
  raw ^= byte;
  for (int k = 0; k < 8; ++k) raw = raw & 1 ? (raw >> 1) ^ kPoly : raw >> 1;
  return raw;
}

// Multiplication by a fixed m mod P as four byte-indexed tables (multiplication is linear in
// the other factor): m * c = t[0][c & 0xFF] ^ t[1][(c >> 8) & 0xFF] ^ ... With m = x^32 this
// is slicing-by-4; other powers of x skip over bytes that other threads hold.
struct MulTable {
  std::uint32_t t[4][256];
};

GCB_HD MulTable mul_table(std::uint32_t m) {
  MulTable r{};
  for (std::uint32_t k = 0; k < 4; ++k) {
    for (std::uint32_t b = 0; b < 256; ++b) r.t[k][b] = multmodp(m, b << (8 * k));
  }
  return r;
}

GCB_HD std::uint32_t mul(const std::uint32_t (*t)[256], std::uint32_t c) {
  return t[0][c & 0xFF] ^ t[1][(c >> 8) & 0xFF] ^ t[2][(c >> 16) & 0xFF] ^ t[3][c >> 24];
}

}  // namespace gcbench::crc

#undef GCB_HD
