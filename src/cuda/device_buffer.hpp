#pragma once
// RAII owners for device memory, pinned host memory, host-memory registrations, CUDA streams
// and events.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>

#include "src/cuda/cuda_check.hpp"
#include "src/cuda/device_memory.hpp"

namespace gcbench::cuda {

template <typename T>
class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  explicit DeviceBuffer(std::size_t count) { resize(count); }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        count_(std::exchange(o.count_, 0)),
        counted_(std::exchange(o.counted_, 0)) {}
  DeviceBuffer& operator=(DeviceBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      count_ = std::exchange(o.count_, 0);
      counted_ = std::exchange(o.counted_, 0);
    }
    return *this;
  }

  // Discards the contents; allocates at least one element so that data() is never null.
  // Running out of device memory throws std::bad_alloc, as a host allocation does (decoders
  // turn it into DecodeError); other CUDA errors throw as GCB_CUDA does.
  void resize(std::size_t count) {
    release();
    const std::size_t bytes = std::max<std::size_t>(count, 1) * sizeof(T);
    const cudaError_t err = cudaMalloc(&ptr_, bytes);
    if (err == cudaErrorMemoryAllocation) {
      cudaGetLastError();  // not a sticky error: clear it for the next call
      ptr_ = nullptr;
      throw std::bad_alloc();
    }
    GCB_CUDA(err);
    count_ = count;
    if (device_memory::in_codec_scope()) {
      counted_ = bytes;
      device_memory::allocated(bytes);
    }
  }

  T* data() { return ptr_; }
  const T* data() const { return ptr_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

 private:
  void release() noexcept {
    if (ptr_) cudaFree(ptr_);
    if (counted_ != 0) device_memory::released(counted_);
    ptr_ = nullptr;
    count_ = 0;
    counted_ = 0;
  }
  T* ptr_ = nullptr;
  std::size_t count_ = 0;
  std::size_t counted_ = 0;  // bytes: the codec's own (device_memory.hpp), else 0
};

class Stream {
 public:
  Stream() { GCB_CUDA(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~Stream() { cudaStreamDestroy(s_); }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;
  cudaStream_t get() const { return s_; }
  void sync() const { GCB_CUDA(cudaStreamSynchronize(s_)); }

 private:
  cudaStream_t s_{};
};

class Event {
 public:
  // `flags` as cudaEventCreateWithFlags takes them, e.g. cudaEventDisableTiming.
  explicit Event(unsigned flags = cudaEventDefault) {
    GCB_CUDA(cudaEventCreateWithFlags(&e_, flags));
  }
  ~Event() { cudaEventDestroy(e_); }
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  void record(cudaStream_t s) { GCB_CUDA(cudaEventRecord(e_, s)); }
  cudaEvent_t get() const { return e_; }

 private:
  cudaEvent_t e_{};
};

// Seconds between two recorded events (synchronizes on `end`).
inline double elapsed_s(const Event& begin, const Event& end) {
  GCB_CUDA(cudaEventSynchronize(end.get()));
  float ms = 0;
  GCB_CUDA(cudaEventElapsedTime(&ms, begin.get(), end.get()));
  return ms * 1e-3;
}

// Accumulates event-timed phases of one codec call into kernel and transfer seconds.
class PhaseTimer {
 public:
  explicit PhaseTimer(cudaStream_t s) : s_(s) {}
  void begin() { start_.record(s_); }
  void end_transfer() { transfer_s_ += lap(); }
  void end_kernel() { kernel_s_ += lap(); }
  double kernel_s() const { return kernel_s_; }
  double transfer_s() const { return transfer_s_; }

 private:
  double lap() {
    stop_.record(s_);
    double t = elapsed_s(start_, stop_);
    start_.record(s_);
    return t;
  }
  cudaStream_t s_;
  Event start_, stop_;
  double kernel_s_ = 0, transfer_s_ = 0;
};

// Page-locked host memory (cudaMallocHost): asynchronous host/device copies need it to run at
// the link's full speed.
class PinnedBuffer {
 public:
  PinnedBuffer() = default;
  explicit PinnedBuffer(std::size_t bytes) {
    GCB_CUDA(cudaMallocHost(&ptr_, std::max<std::size_t>(bytes, 1)));
    bytes_ = bytes;
  }
  ~PinnedBuffer() { release(); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  PinnedBuffer(PinnedBuffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  PinnedBuffer& operator=(PinnedBuffer&& o) noexcept {
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      bytes_ = std::exchange(o.bytes_, 0);
    }
    return *this;
  }

  std::uint8_t* data() const { return static_cast<std::uint8_t*>(ptr_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void release() noexcept {
    if (ptr_) cudaFreeHost(ptr_);
    ptr_ = nullptr;
    bytes_ = 0;
  }
  void* ptr_ = nullptr;
  std::size_t bytes_ = 0;
};

// Memory the caller already holds, page-locked for as long as this lives (cudaHostRegister):
// pinned-path copies without a second copy of the bytes. Read only through the registration.
class HostRegistration {
 public:
  HostRegistration(const void* p, std::size_t bytes)
      : ptr_(bytes > 0 ? const_cast<void*>(p) : nullptr) {
    if (ptr_) GCB_CUDA(cudaHostRegister(ptr_, bytes, cudaHostRegisterDefault));
  }
  ~HostRegistration() {
    if (ptr_) cudaHostUnregister(ptr_);
  }
  HostRegistration(const HostRegistration&) = delete;
  HostRegistration& operator=(const HostRegistration&) = delete;

 private:
  void* ptr_;
};

}  // namespace gcbench::cuda
