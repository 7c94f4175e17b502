// A codec plugin that misbehaves on request, for the plugin tests: a copy codec (an 8-byte
// size, then the bytes) whose `fault` axis makes decompression return a wrong byte, an error
// status or an exception. Compiled several times: FAULT_PLUGIN_ABI (another ABI version),
// FAULT_PLUGIN_NAME (a name of its own, or a built-in codec's), FAULT_PLUGIN_NO_ENTRY (no
// gcbench_plugin_entry).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "gcbench/plugin.h"

#ifndef FAULT_PLUGIN_ABI
#define FAULT_PLUGIN_ABI GCBENCH_PLUGIN_ABI_VERSION
#endif
#ifndef FAULT_PLUGIN_NAME
#define FAULT_PLUGIN_NAME "faulty"
#endif

namespace {

enum Fault : std::int64_t { kNone, kWrongByte, kStatus, kThrow };

constexpr std::uint64_t kSizeBytes = 8;

std::uint64_t max_compressed_size(const std::int64_t*, std::uint64_t input_size) {
  return kSizeBytes + input_size;
}

int compress(const std::int64_t*, const std::uint8_t* input, std::uint64_t input_size,
             std::uint8_t* output, std::uint64_t output_capacity, std::uint64_t* output_size, char*,
             std::size_t) {
  if (output_capacity < kSizeBytes + input_size) return GCBENCH_PLUGIN_ERROR_OUTPUT_TOO_SMALL;
  std::memcpy(output, &input_size, kSizeBytes);
  if (input_size > 0) std::memcpy(output + kSizeBytes, input, input_size);
  *output_size = kSizeBytes + input_size;
  return GCBENCH_PLUGIN_OK;
}

int decompressed_size(const std::uint8_t* container, std::uint64_t container_size,
                      std::uint64_t* size, char* message, std::size_t capacity) {
  if (container_size < kSizeBytes) {
    std::snprintf(message, capacity, "shorter than its size field");
    return GCBENCH_PLUGIN_ERROR_CORRUPT;
  }
  std::memcpy(size, container, kSizeBytes);
  if (*size != container_size - kSizeBytes) {
    std::snprintf(message, capacity, "its size field does not match");
    return GCBENCH_PLUGIN_ERROR_CORRUPT;
  }
  return GCBENCH_PLUGIN_OK;
}

int decompress(const std::int64_t* params, const std::uint8_t* container,
               std::uint64_t container_size, std::uint8_t* output, std::uint64_t output_capacity,
               std::uint64_t* output_size, char* message, std::size_t capacity) {
  std::uint64_t size = 0;
  if (int status = decompressed_size(container, container_size, &size, message, capacity))
    return status;
  if (output_capacity < size) return GCBENCH_PLUGIN_ERROR_OUTPUT_TOO_SMALL;
  if (size > 0) std::memcpy(output, container + kSizeBytes, size);
  *output_size = size;
  switch (params[0]) {
    case kWrongByte:
      if (size > 100) output[100] ^= 0x5a;
      return GCBENCH_PLUGIN_OK;
    case kStatus:
      std::snprintf(message, capacity, "fault injected");
      return GCBENCH_PLUGIN_ERROR_INTERNAL;
    case kThrow:
      throw std::runtime_error("fault injected");
    default:
      return GCBENCH_PLUGIN_OK;
  }
}

const char* const kFaultNames[] = {"none", "wrong_byte", "status", "throw"};
const gcbench_plugin_axis kAxes[] = {
    {"fault", "what decompression does wrong", kNone, 0, 3, nullptr, 0, kFaultNames, 4, 0, nullptr,
     0},
};
const gcbench_plugin_cpu kCpu = {max_compressed_size, compress, decompressed_size, decompress};
const gcbench_plugin kPlugin = {
    FAULT_PLUGIN_ABI, FAULT_PLUGIN_NAME, "1", "misbehaves on request", kAxes, 1, &kCpu, nullptr, 0};

}  // namespace

#ifdef FAULT_PLUGIN_NO_ENTRY
extern "C" GCBENCH_PLUGIN_EXPORT const gcbench_plugin* gcbench_plugin_entry_v0(void) {
  return &kPlugin;
}
#else
extern "C" const gcbench_plugin* gcbench_plugin_entry(void) {
  return &kPlugin;
}
#endif
