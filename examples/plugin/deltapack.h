/* deltapack's format (deltapack_cpu.c describes it), shared by its host and device paths. */
#ifndef DELTAPACK_H
#define DELTAPACK_H

#include <stdint.h>

#include "gcbench/plugin.h"

#ifdef __CUDACC__
#define DELTAPACK_FN static inline __host__ __device__
#else
#define DELTAPACK_FN static inline
#endif

#define DELTAPACK_MAGIC "DPK1"
#define DELTAPACK_HEADER_SIZE 24u
#define DELTAPACK_ENTRY_SIZE 5u /* a block's first value (u32) and width (u8) */
#define DELTAPACK_MIN_BLOCK 2u
#define DELTAPACK_MAX_BLOCK 65536u

DELTAPACK_FN uint64_t deltapack_block_count(uint64_t elements, uint64_t block_size) {
  return (elements + block_size - 1) / block_size;
}

/* The elements of block b: block_size, the last block fewer. */
DELTAPACK_FN uint64_t deltapack_block_elements(uint64_t elements, uint64_t block_size, uint64_t b) {
  const uint64_t begin = b * block_size;
  return elements - begin < block_size ? elements - begin : block_size;
}

/* The bytes of a block's packed deltas: every element after the first, at `width` bits. */
DELTAPACK_FN uint64_t deltapack_packed_bytes(uint64_t count, int width) {
  return count == 0 ? 0 : ((count - 1) * (uint64_t)width + 7) / 8;
}

/* Signed deltas as unsigned: 0, -1, 1, -2, ... -> 0, 1, 2, 3, ... */
DELTAPACK_FN uint32_t deltapack_zigzag(uint32_t delta) {
  return (delta << 1) ^ (0u - (delta >> 31));
}

DELTAPACK_FN uint32_t deltapack_unzigzag(uint32_t z) {
  return (z >> 1) ^ (0u - (z & 1u));
}

/* The checksum is the sum (mod 2^64) of this term over the input's 32-bit words, the tail
 * zero-padded as one more: any changed word changes its term as a hash would, and a sum is
 * taken in any order, so a GPU adds the terms as its threads meet them. */
DELTAPACK_FN uint64_t deltapack_term(uint64_t index, uint32_t word) {
  uint64_t z = (index << 32 | word) + UINT64_C(0x9e3779b97f4a7c15); /* splitmix64's finalizer */
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

/* The bits needed for `v`: 0 for 0, 32 at most. */
DELTAPACK_FN int deltapack_width(uint32_t v) {
  int width = 0;
  for (; v != 0; v >>= 1) ++width;
  return width;
}

#ifdef __cplusplus
extern "C" {
#endif

uint64_t deltapack_max_compressed_size(const int64_t* params, uint64_t input_size);

/* A container's header fields, checked against its size (host memory, both paths); NULL when
 * it is valid, else what is wrong. */
const char* deltapack_read_header(const uint8_t* container, uint64_t container_size,
                                  uint64_t* block_size, uint64_t* original_size);

extern const gcbench_plugin_cpu deltapack_cpu;
#ifdef DELTAPACK_WITH_GPU
extern const gcbench_plugin_gpu deltapack_gpu;
#endif

#ifdef __cplusplus
}
#endif

#endif /* DELTAPACK_H */
