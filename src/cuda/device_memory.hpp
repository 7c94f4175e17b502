#pragma once
// A codec's own device memory (issue 62): the bytes DeviceBuffer allocates while this thread is
// inside a CodecScope, the harness's way of saying "the codec is running now" (its binding, its
// plan and its device calls). A buffer counts from its allocation to its release, whoever frees
// it. Not seen: device memory a codec or its library allocates without DeviceBuffer (its own
// cudaMalloc, a memory pool), and the allocator's rounding.
#include <cstddef>
#include <cstdint>

namespace gcbench::cuda::device_memory {

// While one lives on this thread, DeviceBuffer's allocations are the codec's.
class CodecScope {
 public:
  CodecScope();
  ~CodecScope();
  CodecScope(const CodecScope&) = delete;
  CodecScope& operator=(const CodecScope&) = delete;
};

bool in_codec_scope();

// DeviceBuffer's bookkeeping: a counted allocation made and let go of.
void allocated(std::size_t bytes);
void released(std::size_t bytes);

// The codec's device bytes live now, and the most live since the last reset_peak.
std::uint64_t live_bytes();
void reset_peak();
std::uint64_t peak_bytes();

}  // namespace gcbench::cuda::device_memory
