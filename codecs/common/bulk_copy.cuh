#pragma once
// Global-to-shared copies by the TMA unit (cp.async.bulk, sm_90), each completing a phase of an
// mbarrier: one thread starts a copy and goes on; the threads that read the copy wait on its
// phase. A kernel stages its next tile this way while it works on the current one, with no
// load instructions and no registers held for the data in flight.
#include <cuda/ptx>

#include <cstdint>

namespace gcbench::cuda {

// Bulk copies move 16-byte-aligned ranges of whole 16-byte units.
inline constexpr std::uintptr_t kBulkAlign = 16;

class BulkCopyBarrier {
 public:
  // By one thread, followed by a __syncthreads() before any start() or wait().
  __device__ __forceinline__ void init() {
    ::cuda::ptx::mbarrier_init(&bar_, 1);
    ::cuda::ptx::fence_mbarrier_init(::cuda::ptx::sem_release, ::cuda::ptx::scope_cluster);
  }

  // By one thread: copies [src, src + size) to dst, both 16-byte aligned, size a multiple of 16,
  // completing the barrier's current phase when it lands.
  __device__ __forceinline__ void start(void* dst, const void* src, std::uint32_t size) {
    ::cuda::ptx::mbarrier_arrive_expect_tx(::cuda::ptx::sem_release, ::cuda::ptx::scope_cta,
                                           ::cuda::ptx::space_shared, &bar_, size);
    ::cuda::ptx::cp_async_bulk(::cuda::ptx::space_cluster, ::cuda::ptx::space_global, dst, src,
                               size, &bar_);
  }

  // Waits until the phase of parity `parity` (0 for the first copy, then 1, 0, ...) completed.
  __device__ __forceinline__ void wait(std::uint32_t parity) {
    while (!::cuda::ptx::mbarrier_try_wait_parity(&bar_, parity)) {
    }
  }

 private:
  std::uint64_t bar_;
};

}  // namespace gcbench::cuda
