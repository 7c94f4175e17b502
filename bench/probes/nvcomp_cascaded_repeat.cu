// nvCOMP Cascaded, alone (issue 59, item 6): one file compressed REPEATS times through nvCOMP's
// batched C API, exactly as gcbench's peer calls it (64 KiB chunks, output slots zeroed before
// each call), every container decoded by nvCOMP and compared with the input. Nothing of gcbench
// is linked: a failure here is nvCOMP's. Each run also reads the container again after the
// decode, to tell a late write (the bytes changed after the stream had finished) from a wrong
// encoding. The buffers around nvCOMP's can be filled with a byte of the caller's choice, as a
// reused workspace leaves them.
// Usage: nvcomp_cascaded_repeat FILE [key=value...]
//   reps=N (200)  width=1|2|4 (1)  level=L (3)  flags=MASK (7: delta|rle|for)
//   tail=BYTE (0, the 1 MiB after the input)  slots=BYTE (0, before each call)
//   warm=MiB (0): first compress that many MiB of small integers (values below 16) at `width`
//   in buffers freed afterwards, as the kernels preset's synthetic cells come before Silesia's
// Prints one line per failing call and a summary: distinct containers, failed decodes, late
// writes.
#include <cuda_runtime.h>
#include <nvcomp/cascaded.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using u8 = std::uint8_t;
using u64 = std::uint64_t;

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    const cudaError_t e = (call);                                                                \
    if (e != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
      std::exit(2);                                                                              \
    }                                                                                            \
  } while (0)
#define CHECK_NVCOMP(call)                                                      \
  do {                                                                          \
    const nvcompStatus_t s = (call);                                            \
    if (s != nvcompSuccess) {                                                   \
      std::fprintf(stderr, "%s:%d: %s: status %d\n", __FILE__, __LINE__, #call, \
                   static_cast<int>(s));                                        \
      std::exit(2);                                                             \
    }                                                                           \
  } while (0)

constexpr u64 kChunk = 65536, kSlotAlign = 256, kTail = 1 << 20;

u64 fnv1a(const u8* p, u64 n, u64 h = 1469598103934665603ull) {
  for (u64 i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

template <typename T>
T* device_alloc(u64 count) {
  T* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, count * sizeof(T) + 1));
  return p;
}

struct Options {
  u64 reps = 200, width = 1, level = 3, flags = NVCOMP_CASCADED_FINE_GRAINED_ENCODING_ALL;
  u64 warm = 0;
  int tail = 0, slots = 0;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto eq = arg.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("not key=value: " + arg);
    const std::string key = arg.substr(0, eq);
    const u64 value = std::stoull(arg.substr(eq + 1), nullptr, 0);
    if (key == "reps")
      o.reps = value;
    else if (key == "width")
      o.width = value;
    else if (key == "level")
      o.level = value;
    else if (key == "flags")
      o.flags = value;
    else if (key == "tail")
      o.tail = static_cast<int>(value);
    else if (key == "slots")
      o.slots = static_cast<int>(value);
    else if (key == "warm")
      o.warm = value;
    else
      throw std::invalid_argument("unknown key: " + key);
  }
  return o;
}

nvcompType_t type_of(u64 width) {
  return width == 4 ? NVCOMP_TYPE_UINT : width == 2 ? NVCOMP_TYPE_USHORT : NVCOMP_TYPE_UCHAR;
}

// Compresses `mib` MiB of small integers once, in buffers of its own that it frees.
void warm_up(u64 mib, const nvcompBatchedCascadedCompressOpts_t& opts) {
  const u64 size = mib << 20, n = (size + kChunk - 1) / kChunk;
  std::vector<u8> data(size);
  for (u64 i = 0; i < size; ++i) data[i] = static_cast<u8>((i * 2654435761ull >> 13) & 15);
  std::size_t max_out = 0, temp_bytes = 0;
  CHECK_NVCOMP(nvcompBatchedCascadedCompressGetMaxOutputChunkSize(kChunk, opts, &max_out));
  CHECK_NVCOMP(
      nvcompBatchedCascadedCompressGetTempSize(n, kChunk, opts, &temp_bytes, size, nullptr));
  u8* d_in = device_alloc<u8>(size);
  u8* d_out = device_alloc<u8>(n * max_out);
  u8* d_temp = device_alloc<u8>(temp_bytes);
  const void** d_in_ptrs = device_alloc<const void*>(n);
  void** d_out_ptrs = device_alloc<void*>(n);
  std::size_t* d_in_bytes = device_alloc<std::size_t>(n);
  std::size_t* d_out_bytes = device_alloc<std::size_t>(n);
  nvcompStatus_t* d_status = device_alloc<nvcompStatus_t>(n);
  std::vector<const void*> in_ptrs(n);
  std::vector<void*> out_ptrs(n);
  std::vector<std::size_t> in_bytes(n, kChunk);
  for (u64 i = 0; i < n; ++i) {
    in_ptrs[i] = d_in + i * kChunk;
    out_ptrs[i] = d_out + i * max_out;
  }
  CHECK_CUDA(cudaMemcpy(d_in, data.data(), size, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_in_ptrs, in_ptrs.data(), n * sizeof(void*), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_out_ptrs, out_ptrs.data(), n * sizeof(void*), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(d_in_bytes, in_bytes.data(), n * sizeof(std::size_t), cudaMemcpyHostToDevice));
  CHECK_NVCOMP(nvcompBatchedCascadedCompressAsync(d_in_ptrs, d_in_bytes, kChunk, n, d_temp,
                                                  temp_bytes, d_out_ptrs, d_out_bytes, opts,
                                                  d_status, nullptr));
  CHECK_CUDA(cudaDeviceSynchronize());
  for (void* p : {static_cast<void*>(d_in), static_cast<void*>(d_out), static_cast<void*>(d_temp),
                  static_cast<void*>(d_in_ptrs), static_cast<void*>(d_out_ptrs),
                  static_cast<void*>(d_in_bytes), static_cast<void*>(d_out_bytes),
                  static_cast<void*>(d_status)}) {
    CHECK_CUDA(cudaFree(p));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [reps=N width=W level=L flags=M tail=B slots=B]\n",
                 argv[0]);
    return 2;
  }
  const Options o = parse(argc, argv);
  std::ifstream file(argv[1], std::ios::binary);
  const std::vector<u8> input((std::istreambuf_iterator<char>(file)), {});
  const u64 size = input.size() / o.width * o.width, n = (size + kChunk - 1) / kChunk;
  if (n == 0) throw std::runtime_error("empty input");

  nvcompBatchedCascadedCompressOpts_t copts = nvcompBatchedCascadedCompressDefaultOpts;
  copts.common_opts.data_type = type_of(o.width);
  copts.compression_level = static_cast<std::uint8_t>(o.level);
  copts.fine_grained_encoding_flags = o.flags;
  const nvcompBatchedCascadedDecompressOpts_t dopts = nvcompBatchedCascadedDecompressDefaultOpts;

  std::size_t max_out = 0, ctemp_bytes = 0, dtemp_bytes = 0;
  CHECK_NVCOMP(nvcompBatchedCascadedCompressGetMaxOutputChunkSize(kChunk, copts, &max_out));
  CHECK_NVCOMP(
      nvcompBatchedCascadedCompressGetTempSize(n, kChunk, copts, &ctemp_bytes, size, nullptr));
  CHECK_NVCOMP(
      nvcompBatchedCascadedDecompressGetTempSize(n, kChunk, dopts, &dtemp_bytes, size, nullptr));
  if (o.warm > 0) warm_up(o.warm, copts);
  const u64 stride = (max_out + kSlotAlign - 1) / kSlotAlign * kSlotAlign;

  u8* d_in = device_alloc<u8>(size + kTail);
  u8* d_slots = device_alloc<u8>(n * stride);
  u8* d_out = device_alloc<u8>(size);
  u8* d_ctemp = device_alloc<u8>(ctemp_bytes);
  u8* d_dtemp = device_alloc<u8>(dtemp_bytes);
  const void** d_in_ptrs = device_alloc<const void*>(n);
  void** d_slot_ptrs = device_alloc<void*>(n);
  void** d_out_ptrs = device_alloc<void*>(n);
  std::size_t* d_in_bytes = device_alloc<std::size_t>(n);
  std::size_t* d_comp_bytes = device_alloc<std::size_t>(n);
  std::size_t* d_out_capacity = device_alloc<std::size_t>(n);
  std::size_t* d_out_bytes = device_alloc<std::size_t>(n);
  nvcompStatus_t* d_status = device_alloc<nvcompStatus_t>(n);

  std::vector<const void*> in_ptrs(n);
  std::vector<void*> slot_ptrs(n), out_ptrs(n);
  std::vector<std::size_t> in_bytes(n);
  for (u64 i = 0; i < n; ++i) {
    in_ptrs[i] = d_in + i * kChunk;
    slot_ptrs[i] = d_slots + i * stride;
    out_ptrs[i] = d_out + i * kChunk;
    in_bytes[i] = std::min(kChunk, size - i * kChunk);
  }
  CHECK_CUDA(cudaMemcpy(d_in, input.data(), size, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_in + size, o.tail, kTail));
  CHECK_CUDA(cudaMemset(d_ctemp, 0, ctemp_bytes + 1));
  CHECK_CUDA(cudaMemset(d_dtemp, 0, dtemp_bytes + 1));
  CHECK_CUDA(cudaMemcpy(d_in_ptrs, in_ptrs.data(), n * sizeof(void*), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_slot_ptrs, slot_ptrs.data(), n * sizeof(void*), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_out_ptrs, out_ptrs.data(), n * sizeof(void*), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(d_in_bytes, in_bytes.data(), n * sizeof(std::size_t), cudaMemcpyHostToDevice));
  CHECK_CUDA(
      cudaMemcpy(d_out_capacity, in_bytes.data(), n * sizeof(std::size_t), cudaMemcpyHostToDevice));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

  std::vector<u8> slots(n * stride), output(size);
  std::vector<std::size_t> comp_bytes(n), out_bytes(n);
  std::vector<nvcompStatus_t> status(n);
  std::map<u64, u64> containers;  // hash -> calls that wrote it
  u64 failed = 0, late = 0, compressed_total = 0;
  const auto container_hash = [&] {
    CHECK_CUDA(cudaMemcpy(slots.data(), d_slots, n * stride, cudaMemcpyDeviceToHost));
    u64 h = 1469598103934665603ull;
    for (u64 i = 0; i < n; ++i)
      h = fnv1a(slots.data() + i * stride, comp_bytes[i], h ^ comp_bytes[i]);
    return h;
  };
  for (u64 rep = 0; rep < o.reps; ++rep) {
    CHECK_CUDA(cudaMemsetAsync(d_slots, o.slots, n * stride, stream));
    CHECK_NVCOMP(nvcompBatchedCascadedCompressAsync(d_in_ptrs, d_in_bytes, kChunk, n, d_ctemp,
                                                    ctemp_bytes, d_slot_ptrs, d_comp_bytes, copts,
                                                    d_status, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(comp_bytes.data(), d_comp_bytes, n * sizeof(std::size_t),
                          cudaMemcpyDeviceToHost));
    CHECK_CUDA(
        cudaMemcpy(status.data(), d_status, n * sizeof(nvcompStatus_t), cudaMemcpyDeviceToHost));
    for (u64 i = 0; i < n; ++i) {
      if (status[i] != nvcompSuccess)
        std::printf("call %llu chunk %llu: compress status %d\n", (unsigned long long)rep,
                    (unsigned long long)i, static_cast<int>(status[i]));
    }
    const u64 written = container_hash();
    u64 total = 0;
    for (u64 i = 0; i < n; ++i) total += comp_bytes[i];
    compressed_total = total;
    ++containers[written];

    CHECK_CUDA(cudaMemsetAsync(d_out, 0xEE, size, stream));
    CHECK_NVCOMP(nvcompBatchedCascadedDecompressAsync(d_slot_ptrs, d_comp_bytes, d_out_capacity,
                                                      d_out_bytes, n, d_dtemp, dtemp_bytes,
                                                      d_out_ptrs, dopts, d_status, stream));
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaMemcpy(output.data(), d_out, size, cudaMemcpyDeviceToHost));
    CHECK_CUDA(
        cudaMemcpy(out_bytes.data(), d_out_bytes, n * sizeof(std::size_t), cudaMemcpyDeviceToHost));
    CHECK_CUDA(
        cudaMemcpy(status.data(), d_status, n * sizeof(nvcompStatus_t), cudaMemcpyDeviceToHost));
    u64 bad_chunks = 0, first_bad = n;
    for (u64 i = 0; i < n; ++i) {
      const bool ok =
          status[i] == nvcompSuccess && out_bytes[i] == in_bytes[i] &&
          std::memcmp(output.data() + i * kChunk, input.data() + i * kChunk, in_bytes[i]) == 0;
      if (!ok && bad_chunks++ == 0) first_bad = i;
    }
    if (bad_chunks > 0) {
      ++failed;
      std::printf(
          "call %llu: %llu chunks decode wrongly, first %llu (status %d, %zu of %zu bytes)\n",
          (unsigned long long)rep, (unsigned long long)bad_chunks, (unsigned long long)first_bad,
          static_cast<int>(status[first_bad]), out_bytes[first_bad], in_bytes[first_bad]);
    }
    if (container_hash() != written) {
      ++late;
      std::printf("call %llu: the container changed after its stream had finished\n",
                  (unsigned long long)rep);
    }
  }
  int device = 0;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDevice(&device));
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  std::printf(
      "%s | %s | %llu bytes, %llu chunks | width %llu level %llu flags %llu tail 0x%02x "
      "slots 0x%02x warm %llu MiB | %llu calls: %zu distinct containers, %llu decoded wrongly, "
      "%llu "
      "changed late | last ratio %.4f\n",
      prop.name, argv[1], (unsigned long long)size, (unsigned long long)n,
      (unsigned long long)o.width, (unsigned long long)o.level, (unsigned long long)o.flags, o.tail,
      o.slots, (unsigned long long)o.warm, (unsigned long long)o.reps, containers.size(),
      (unsigned long long)failed, (unsigned long long)late,
      double(size) / double(compressed_total));
  return failed > 0 || late > 0 ? 1 : 0;
}
