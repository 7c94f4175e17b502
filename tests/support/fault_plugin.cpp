// A codec plugin that misbehaves on request, for the plugin tests: a copy codec (an 8-byte
// size, then the bytes) whose `fault` axis makes decompression return a wrong byte, an error
// status or an exception, or makes both directions skip the work of a call repeated on the same
// buffers, write into their input (its last byte) or write 8 bytes past their output, or its
// bound on the compressed size claim 12 GiB; or makes decompression crash (SIGSEGV), abort,
// exit(0) or never return. Compiled
// several times: FAULT_PLUGIN_ABI (another ABI version),
// FAULT_PLUGIN_NAME (a name of its own, or a built-in codec's), FAULT_PLUGIN_NO_ENTRY (no
// gcbench_plugin_entry), FAULT_PLUGIN_AXIS (its axis's name), FAULT_PLUGIN_AXIS_TWICE (the axis
// declared twice), FAULT_PLUGIN_ENTRY_THROWS (gcbench_plugin_entry throws).
#include <chrono>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <thread>

#include "gcbench/plugin.h"

#ifndef FAULT_PLUGIN_ABI
#define FAULT_PLUGIN_ABI GCBENCH_PLUGIN_ABI_VERSION
#endif
#ifndef FAULT_PLUGIN_NAME
#define FAULT_PLUGIN_NAME "faulty"
#endif
#ifndef FAULT_PLUGIN_AXIS
#define FAULT_PLUGIN_AXIS "fault"
#endif

namespace {

enum Fault : std::int64_t {
  kNone,
  kWrongByte,
  kStatus,
  kThrow,
  kSkipRepeat,
  kWriteInput,
  kOverflow,
  kHugeBound,
  kSegv,
  kAbort,
  kExit,
  kHang,
};

constexpr std::uint64_t kSizeBytes = 8;

// The buffers of the last call of each direction: kSkipRepeat returns at once on the same ones,
// as a codec that caches its result by pointer would.
struct LastCall {
  const void* from = nullptr;
  const void* to = nullptr;
  std::uint64_t size = 0;
};
LastCall last_compress, last_decompress;

// Whether the call may skip its work (kSkipRepeat on the same buffers as last time); notes them.
bool skip(std::int64_t fault, LastCall& last, const void* from, const void* to,
          std::uint64_t size) {
  const bool same = last.from == from && last.to == to;
  last = {from, to, size};
  return fault == kSkipRepeat && same;
}

// The faults both directions commit after their work.
void misbehave(std::int64_t fault, const std::uint8_t* input, std::uint64_t input_size,
               std::uint8_t* output, std::uint64_t output_capacity) {
  if (fault == kWriteInput && input_size > 0) const_cast<std::uint8_t*>(input)[input_size - 1] ^= 1;
  if (fault == kOverflow) std::memset(output + output_capacity, 0x5a, 8);
}

std::uint64_t max_compressed_size(const std::int64_t* params, std::uint64_t input_size) {
  return params[0] == kHugeBound ? std::uint64_t{12} << 30 : kSizeBytes + input_size;
}

int compress(const std::int64_t* params, const std::uint8_t* input, std::uint64_t input_size,
             std::uint8_t* output, std::uint64_t output_capacity, std::uint64_t* output_size, char*,
             std::size_t) {
  if (output_capacity < kSizeBytes + input_size) return GCBENCH_PLUGIN_ERROR_OUTPUT_TOO_SMALL;
  *output_size = kSizeBytes + input_size;
  if (skip(params[0], last_compress, input, output, input_size)) return GCBENCH_PLUGIN_OK;
  std::memcpy(output, &input_size, kSizeBytes);
  if (input_size > 0) std::memcpy(output + kSizeBytes, input, input_size);
  misbehave(params[0], input, input_size, output, output_capacity);
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
  *output_size = size;
  if (skip(params[0], last_decompress, container, output, size)) return GCBENCH_PLUGIN_OK;
  if (size > 0) std::memcpy(output, container + kSizeBytes, size);
  misbehave(params[0], container, container_size, output, output_capacity);
  switch (params[0]) {
    case kWrongByte:
      if (size > 100) output[100] ^= 0x5a;
      return GCBENCH_PLUGIN_OK;
    case kStatus:
      std::snprintf(message, capacity, "fault injected");
      return GCBENCH_PLUGIN_ERROR_INTERNAL;
    case kThrow:
      throw std::runtime_error("fault injected");
    case kSegv:
      std::raise(SIGSEGV);
      return GCBENCH_PLUGIN_OK;
    case kAbort:
      std::abort();
    case kExit:
      std::exit(0);
    case kHang:
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    default:
      return GCBENCH_PLUGIN_OK;
  }
}

const char* const kFaultNames[] = {"none",        "wrong_byte",  "status",   "throw",
                                   "skip_repeat", "write_input", "overflow", "huge_bound",
                                   "segv",        "abort",       "exit",     "hang"};
constexpr std::size_t kFaults = sizeof kFaultNames / sizeof kFaultNames[0];
const gcbench_plugin_axis kAxes[] = {
    {FAULT_PLUGIN_AXIS, "what the codec does wrong", kNone, 0,
     static_cast<std::int64_t>(kFaults) - 1, nullptr, 0, kFaultNames, kFaults, 0, nullptr, 0},
    {FAULT_PLUGIN_AXIS, "the same name again", 0, 0, 1, nullptr, 0, nullptr, 0, 0, nullptr, 0},
};
#ifdef FAULT_PLUGIN_AXIS_TWICE
constexpr std::size_t kAxisCount = 2;
#else
constexpr std::size_t kAxisCount = 1;
#endif
const gcbench_plugin_cpu kCpu = {max_compressed_size, compress, decompressed_size, decompress};
const gcbench_plugin kPlugin = {FAULT_PLUGIN_ABI,
                                FAULT_PLUGIN_NAME,
                                "1",
                                "misbehaves on request",
                                kAxes,
                                kAxisCount,
                                &kCpu,
                                nullptr,
                                0};

}  // namespace

#ifdef FAULT_PLUGIN_NO_ENTRY
extern "C" GCBENCH_PLUGIN_EXPORT const gcbench_plugin* gcbench_plugin_entry_v0(void) {
  return &kPlugin;
}
#else
extern "C" const gcbench_plugin* gcbench_plugin_entry(void) {
#ifdef FAULT_PLUGIN_ENTRY_THROWS
  throw std::runtime_error("no description today");
#endif
  return &kPlugin;
}
#endif
