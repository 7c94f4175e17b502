/* deltapack: an example gcbench codec plugin (include/gcbench/plugin.h): its host path.
 *
 * The input is read as little-endian 32-bit integers, cut into blocks of `block_size`
 * elements. Each block stores its first value and the bit width of its largest zigzag-coded
 * delta, then every later delta packed at that width. The container:
 *
 *   offset  size        field
 *   0       4           magic "DPK1"
 *   4       4           block_size (elements)
 *   8       8           original size in bytes
 *   16      8           checksum of the original bytes (deltapack_term, deltapack.h)
 *   24      5 x blocks  block table: first value (u32), width (u8, 0..32)
 *   ...                 each block's deltas, ceil((elements - 1) * width / 8) bytes
 *   ...                 the last original_size % 4 bytes, as they are
 *
 * All fields little-endian. The checksum makes a damaged container an error, never other
 * bytes returned as if they were the input. Block tables first, so that a GPU can find every
 * block's data by a prefix sum over the widths (deltapack_gpu.cu writes and reads the same bytes).
 */
#include "deltapack.h"

#include <stdio.h>
#include <string.h>

static void put_u32(uint8_t* p, uint32_t v) {
  for (int i = 0; i < 4; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t* p, uint64_t v) {
  for (int i = 0; i < 8; ++i) p[i] = (uint8_t)(v >> (8 * i));
}

static uint32_t get_u32(const uint8_t* p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_u64(const uint8_t* p) {
  return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

/* The checksum of `size` bytes: every whole 32-bit word's term, then the padded tail's. */
static uint64_t checksum(const uint8_t* bytes, uint64_t size) {
  const uint64_t elements = size / 4;
  uint64_t sum = 0;
  for (uint64_t i = 0; i < elements; ++i) sum += deltapack_term(i, get_u32(bytes + 4 * i));
  uint8_t tail[4] = {0, 0, 0, 0};
  memcpy(tail, bytes + 4 * elements, size % 4);
  return sum + deltapack_term(elements, get_u32(tail));
}

static int fail(char* message, size_t capacity, int status, const char* what) {
  if (message != NULL && capacity > 0) snprintf(message, capacity, "%s", what);
  return status;
}

uint64_t deltapack_max_compressed_size(const int64_t* params, uint64_t input_size) {
  const uint64_t elements = input_size / 4;
  const uint64_t blocks = deltapack_block_count(elements, (uint64_t)params[0]);
  return DELTAPACK_HEADER_SIZE + DELTAPACK_ENTRY_SIZE * blocks + 4 * elements + input_size % 4;
}

static int compress(const int64_t* params, const uint8_t* input, uint64_t input_size,
                    uint8_t* output, uint64_t output_capacity, uint64_t* output_size, char* message,
                    size_t message_capacity) {
  const uint64_t block_size = (uint64_t)params[0];
  const uint64_t elements = input_size / 4;
  const uint64_t blocks = deltapack_block_count(elements, block_size);
  if (output_capacity < deltapack_max_compressed_size(params, input_size)) {
    return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_OUTPUT_TOO_SMALL,
                "output smaller than max_compressed_size");
  }
  memcpy(output, DELTAPACK_MAGIC, 4);
  put_u32(output + 4, (uint32_t)block_size);
  put_u64(output + 8, input_size);
  put_u64(output + 16, checksum(input, input_size));
  uint8_t* data = output + DELTAPACK_HEADER_SIZE + DELTAPACK_ENTRY_SIZE * blocks;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t begin = b * block_size;
    const uint64_t count = deltapack_block_elements(elements, block_size, b);
    const uint32_t first = get_u32(input + 4 * begin);
    uint32_t widest = 0;
    for (uint64_t i = 1; i < count; ++i) {
      const uint32_t v = get_u32(input + 4 * (begin + i));
      widest |= deltapack_zigzag(v - get_u32(input + 4 * (begin + i - 1)));
    }
    const int width = deltapack_width(widest);
    uint8_t* entry = output + DELTAPACK_HEADER_SIZE + DELTAPACK_ENTRY_SIZE * b;
    put_u32(entry, first);
    entry[4] = (uint8_t)width;
    /* LSB first through a 64-bit accumulator: under 8 bits wait in it between deltas. */
    uint64_t bits = 0;
    int pending = 0;
    for (uint64_t i = 1; i < count; ++i) {
      const uint32_t v = get_u32(input + 4 * (begin + i));
      bits |= (uint64_t)deltapack_zigzag(v - get_u32(input + 4 * (begin + i - 1))) << pending;
      for (pending += width; pending >= 8; pending -= 8, bits >>= 8) *data++ = (uint8_t)bits;
    }
    if (pending > 0) *data++ = (uint8_t)bits;
  }
  memcpy(data, input + 4 * elements, input_size % 4);
  *output_size = (uint64_t)(data - output) + input_size % 4;
  return GCBENCH_PLUGIN_OK;
}

const char* deltapack_read_header(const uint8_t* container, uint64_t container_size,
                                  uint64_t* block_size, uint64_t* original_size) {
  if (container_size < DELTAPACK_HEADER_SIZE) return "shorter than its header";
  if (memcmp(container, DELTAPACK_MAGIC, 4) != 0) return "not a deltapack container";
  *block_size = get_u32(container + 4);
  *original_size = get_u64(container + 8);
  if (*block_size < DELTAPACK_MIN_BLOCK || *block_size > DELTAPACK_MAX_BLOCK) {
    return "block size out of range";
  }
  /* Every element costs at least its share of one 5-byte table entry per block: a claim the
   * container's size cannot back is rejected before anything is allocated. */
  const uint64_t blocks = deltapack_block_count(*original_size / 4, *block_size);
  if (blocks > (container_size - DELTAPACK_HEADER_SIZE) / DELTAPACK_ENTRY_SIZE) {
    return "its block table is truncated";
  }
  return NULL;
}

static int decompressed_size(const uint8_t* container, uint64_t container_size, uint64_t* size,
                             char* message, size_t message_capacity) {
  uint64_t block_size = 0;
  const char* error = deltapack_read_header(container, container_size, &block_size, size);
  if (error != NULL) return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_CORRUPT, error);
  return GCBENCH_PLUGIN_OK;
}

static int decompress(const int64_t* params, const uint8_t* container, uint64_t container_size,
                      uint8_t* output, uint64_t output_capacity, uint64_t* output_size,
                      char* message, size_t message_capacity) {
  (void)params; /* the container says everything the decoder needs */
  uint64_t block_size = 0, original_size = 0;
  const char* error = deltapack_read_header(container, container_size, &block_size, &original_size);
  if (error != NULL) return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_CORRUPT, error);
  if (output_capacity < original_size) {
    return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_OUTPUT_TOO_SMALL,
                "output smaller than the decompressed size");
  }
  const uint64_t elements = original_size / 4;
  const uint64_t blocks = deltapack_block_count(elements, block_size);
  const uint8_t* table = container + DELTAPACK_HEADER_SIZE;
  const uint8_t* data = table + DELTAPACK_ENTRY_SIZE * blocks;
  const uint8_t* end = container + container_size;
  for (uint64_t b = 0; b < blocks; ++b) {
    const uint64_t count = deltapack_block_elements(elements, block_size, b);
    const int width = table[DELTAPACK_ENTRY_SIZE * b + 4];
    if (width > 32) {
      return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_CORRUPT, "width above 32");
    }
    const uint64_t bytes = deltapack_packed_bytes(count, width);
    if (bytes > (uint64_t)(end - data)) {
      return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_CORRUPT, "truncated block");
    }
    uint32_t value = get_u32(table + DELTAPACK_ENTRY_SIZE * b);
    uint8_t* out = output + 4 * b * block_size;
    put_u32(out, value);
    const uint64_t mask = (UINT64_C(1) << width) - 1;
    uint64_t bits = 0;
    int available = 0;
    for (uint64_t i = 1; i < count; ++i) {
      for (; available < width; available += 8) bits |= (uint64_t)*data++ << available;
      value += deltapack_unzigzag((uint32_t)(bits & mask));
      bits >>= width;
      available -= width;
      put_u32(out + 4 * i, value);
    }
    if (bits != 0) { /* one container per input: the last byte's unused bits are zero */
      return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_CORRUPT, "nonzero padding");
    }
  }
  const uint64_t tail = original_size % 4;
  if ((uint64_t)(end - data) != tail) {
    return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_CORRUPT,
                "its size does not match its blocks");
  }
  memcpy(output + 4 * elements, data, tail);
  if (checksum(output, original_size) != get_u64(container + 16)) {
    return fail(message, message_capacity, GCBENCH_PLUGIN_ERROR_CORRUPT, "checksum mismatch");
  }
  *output_size = original_size;
  return GCBENCH_PLUGIN_OK;
}

const gcbench_plugin_cpu deltapack_cpu = {deltapack_max_compressed_size, compress,
                                          decompressed_size, decompress};
