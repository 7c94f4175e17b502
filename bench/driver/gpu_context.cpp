// GPU context for builds with CUDA: the device the GPU codecs will use, or why there is none;
// its copy ceilings (device memory, host links), and through NVML its driver, clocks, power
// limit, ECC and persistence modes and PCIe link.
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/driver/context.hpp"
#include "bench/driver/nvml.hpp"
#include "src/cuda/device_buffer.hpp"

namespace gcbench::driver {
namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;
constexpr std::size_t kCopyBytes = 1024 * kMiB;  // device-to-device: each of two buffers
constexpr std::size_t kLinkBytes = 256 * kMiB;   // host <-> device
constexpr std::size_t kHeadroom = 64 * kMiB;     // left free beside the two copy buffers
constexpr int kCopyWarmups = 2, kCopyRuns = 10;
constexpr int kLinkWarmups = 1, kLinkRuns = 5, kLinkRounds = 3;
constexpr auto kLinkRoundGap = std::chrono::milliseconds(100);

std::string version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

std::string gbps_text(double gbps) {
  return fmt::format("{:.2f}", gbps);
}

double median_gbps(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double gbps_of(std::size_t bytes, double seconds) {
  if (seconds <= 0)
    throw std::runtime_error("a copy of " + std::to_string(bytes) + " bytes took no time");
  return static_cast<double>(bytes) / seconds / 1e9;
}

// Median GB/s of `runs` calls of `enqueue` (asynchronous work on `s`) after `warmups`, each
// timed with CUDA events around it.
template <typename Enqueue>
double event_gbps(cudaStream_t s, std::size_t bytes, int warmups, int runs, Enqueue&& enqueue) {
  cuda::Event begin, end;
  std::vector<double> gbps;
  for (int i = 0; i < warmups + runs; ++i) {
    begin.record(s);
    enqueue();
    end.record(s);
    const double seconds = cuda::elapsed_s(begin, end);
    if (i >= warmups) gbps.push_back(gbps_of(bytes, seconds));
  }
  return median_gbps(gbps);
}

// Pageable memory goes through the runtime's own staging buffers, synchronously, so a host
// clock times it. cudaMemcpy may return before the last staged piece has landed: the device
// synchronization is part of the copy.
double pageable_h2d_gbps(std::uint8_t* device, const std::vector<std::uint8_t>& pageable) {
  std::vector<double> gbps;
  for (int i = 0; i < kLinkWarmups + kLinkRuns; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    GCB_CUDA(cudaMemcpy(device, pageable.data(), pageable.size(), cudaMemcpyHostToDevice));
    GCB_CUDA(cudaDeviceSynchronize());
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - t0;
    if (i >= kLinkWarmups) gbps.push_back(gbps_of(pageable.size(), took.count()));
  }
  return median_gbps(gbps);
}

// Copy speeds on the current device, in GB/s of bytes copied (a device-to-device copy reads
// and writes each byte; it counts once, as a codec's input does). Throws std::runtime_error.
GpuCeilings measure_ceilings() {
  std::size_t free = 0, total = 0;
  GCB_CUDA(cudaMemGetInfo(&free, &total));
  std::size_t copy_bytes = kCopyBytes;
  if (2 * copy_bytes + kHeadroom > free) copy_bytes = free / 4 / kMiB * kMiB;
  if (copy_bytes < 16 * kMiB) {
    throw std::runtime_error("only " + std::to_string(free) + " bytes of device memory free");
  }
  cuda::DeviceBuffer<std::uint8_t> a(copy_bytes), b(copy_bytes);
  cuda::Stream stream;
  const cudaStream_t s = stream.get();
  // Written first, so that no copy reads pages the device has not backed yet.
  GCB_CUDA(cudaMemsetAsync(a.data(), 0x5A, copy_bytes, s));
  GCB_CUDA(cudaMemsetAsync(b.data(), 0x5A, copy_bytes, s));

  GpuCeilings c;
  c.copy_gbps = event_gbps(s, copy_bytes, kCopyWarmups, kCopyRuns, [&] {
    GCB_CUDA(cudaMemcpyAsync(b.data(), a.data(), copy_bytes, cudaMemcpyDeviceToDevice, s));
  });

  const std::size_t link_bytes = std::min(kLinkBytes, copy_bytes);
  cuda::PinnedBuffer pinned(link_bytes);
  std::memset(pinned.data(), 0x5A, link_bytes);
  const std::vector<std::uint8_t> pageable(link_bytes, 0x5A);  // written: its pages exist
  // The link's figures are the best of a few rounds a moment apart: one round can catch a host
  // transient far below the link's rate (bench/NOTES.md, "RLE scan decoder without searches").
  for (int round = 0; round < kLinkRounds; ++round) {
    if (round > 0) std::this_thread::sleep_for(kLinkRoundGap);
    c.h2d_pinned_gbps = std::max(
        c.h2d_pinned_gbps, event_gbps(s, link_bytes, kLinkWarmups, kLinkRuns, [&] {
          GCB_CUDA(cudaMemcpyAsync(a.data(), pinned.data(), link_bytes, cudaMemcpyHostToDevice, s));
        }));
    c.d2h_pinned_gbps = std::max(
        c.d2h_pinned_gbps, event_gbps(s, link_bytes, kLinkWarmups, kLinkRuns, [&] {
          GCB_CUDA(cudaMemcpyAsync(pinned.data(), a.data(), link_bytes, cudaMemcpyDeviceToHost, s));
        }));
    c.h2d_pageable_gbps = std::max(c.h2d_pageable_gbps, pageable_h2d_gbps(a.data(), pageable));
  }
  stream.sync();
  return c;
}

// NVML's fields (kNvmlFields) for CUDA device `device`, found by its PCI bus id (NVML's
// indices need not be CUDA's): each its value, or "unavailable: <reason>".
ContextEntries nvml_context(int device) {
  constexpr int kClockSm = 1, kClockMem = 2;  // nvmlClockType_t
  constexpr int kEnabled = 1;                 // nvmlEnableState_t
  std::map<std::string, std::string> got;
  std::string failed;  // why NVML as a whole is unavailable
  try {
    const std::string bus_id = pci_bus_id(device);
    const Nvml nvml;
    const auto unavailable = [&](Nvml::Return r) { return "unavailable: " + nvml.error(r); };
    std::array<char, 96> text{};  // NVML_SYSTEM_DRIVER_VERSION_BUFFER_SIZE is 80
    const Nvml::Return version =
        nvml.call("nvmlSystemGetDriverVersion", text.data(), static_cast<unsigned>(text.size()));
    got["nvidia_driver_version"] = version == 0 ? std::string(text.data()) : unavailable(version);
    Nvml::Device d = nullptr;
    if (const Nvml::Return r = nvml.call("nvmlDeviceGetHandleByPciBusId_v2", bus_id.c_str(), &d);
        r != 0) {
      throw std::runtime_error("nvmlDeviceGetHandleByPciBusId: " + nvml.error(r));
    }
    // One unsigned value read by `fn` (device, args..., &value), shown by `show`.
    const auto read = [&](const char* fn, auto show, auto... args) {
      unsigned value = 0;
      const Nvml::Return r = nvml.call(fn, d, args..., &value);
      return r == 0 ? show(value) : unavailable(r);
    };
    const auto plain = [](unsigned v) { return std::to_string(v); };
    // Read after the ceilings, while the device is still busy-clocked rather than idle (an
    // idle link may also have dropped to a lower PCIe generation).
    got["gpu_sm_clock_mhz"] = read("nvmlDeviceGetClockInfo", plain, kClockSm);
    got["gpu_sm_clock_max_mhz"] = read("nvmlDeviceGetMaxClockInfo", plain, kClockSm);
    got["gpu_mem_clock_mhz"] = read("nvmlDeviceGetClockInfo", plain, kClockMem);
    got["gpu_mem_clock_max_mhz"] = read("nvmlDeviceGetMaxClockInfo", plain, kClockMem);
    got["gpu_power_limit_w"] = read("nvmlDeviceGetEnforcedPowerLimit", [](unsigned milliwatts) {
      return fmt::format("{:.0f}", milliwatts / 1000.0);
    });
    const auto state = [](unsigned s) { return s == kEnabled ? "enabled" : "disabled"; };
    got["gpu_persistence_mode"] =
        read("nvmlDeviceGetPersistenceMode", [&](unsigned s) { return std::string(state(s)); });
    int ecc = 0, ecc_pending = 0;
    const Nvml::Return r = nvml.call("nvmlDeviceGetEccMode", d, &ecc, &ecc_pending);
    got["gpu_ecc_mode"] =
        r != 0 ? unavailable(r)
               : std::string(state(static_cast<unsigned>(ecc))) +
                     (ecc == ecc_pending
                          ? ""
                          : std::string(", ") + state(static_cast<unsigned>(ecc_pending)) +
                                " after the next reset");
    got["gpu_pcie_gen"] = read("nvmlDeviceGetCurrPcieLinkGeneration", plain);
    got["gpu_pcie_gen_max"] = read("nvmlDeviceGetMaxPcieLinkGeneration", plain);
    got["gpu_pcie_width"] = read("nvmlDeviceGetCurrPcieLinkWidth", plain);
    got["gpu_pcie_width_max"] = read("nvmlDeviceGetMaxPcieLinkWidth", plain);
  } catch (const std::exception& e) {
    failed = e.what();
  }
  ContextEntries c;
  for (const char* field : kNvmlFields) {
    const auto it = got.find(field);
    c.emplace_back(field, it != got.end() ? it->second : "unavailable: " + failed);
  }
  return c;
}

// "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi and NVML name the device.
std::string uuid_text(const cudaUUID_t& uuid) {
  std::string hex;
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) hex += '-';
    hex += fmt::format("{:02x}", static_cast<unsigned char>(uuid.bytes[i]));
  }
  return "GPU-" + hex;
}

// This process's GPU in the --gpus parent's numbering when it is one of its workers, else
// its CUDA ordinal.
int gpu_index(int device) {
  const char* parent = std::getenv(kGpuIndexVariable);
  int index = 0;
  if (parent == nullptr ||
      std::from_chars(parent, parent + std::strlen(parent), index).ec != std::errc()) {
    return device;
  }
  return index;
}

}  // namespace

std::vector<GpuIdentity> list_cuda_gpus() {
  int count = 0;
  if (const cudaError_t err = cudaGetDeviceCount(&count); err != cudaSuccess) {
    cudaGetLastError();
    throw std::runtime_error(cudaGetErrorString(err));
  }
  if (count == 0) throw std::runtime_error("the CUDA runtime reports 0 devices");
  std::vector<GpuIdentity> gpus;
  for (int device = 0; device < count; ++device) {
    cudaDeviceProp prop{};
    GCB_CUDA(cudaGetDeviceProperties(&prop, device));
    gpus.push_back({device, prop.name, pci_bus_id(device), uuid_text(prop.uuid)});
  }
  return gpus;
}

ContextEntries cuda_versions() {
  ContextEntries versions;
  // The CUB the GPU codecs were compiled against (rle-cub's primitive, every codec's scans).
  versions.emplace_back("cub_version", cub_version());
  int runtime = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
    versions.emplace_back("cuda_runtime_version", version_text(runtime));
  }
  int driver = 0;
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
    // The CUDA API level the driver supports, not the NVIDIA driver's own version (NVML's
    // nvidia_driver_version).
    versions.emplace_back("cuda_driver_api_version", version_text(driver));
  }
  return versions;
}

GpuStatus probe_cuda_gpu(bool ceilings) {
  GpuStatus status;
  status.context = cuda_versions();
  if (const std::string why = cuda::no_device_reason(); !why.empty()) {
    status.context.emplace_back("gpu", "none: " + why);
    for (auto& entry : unavailable_nvml_fields(why)) status.context.push_back(std::move(entry));
    return status;
  }
  int count = 0;
  GCB_CUDA(cudaGetDeviceCount(&count));
  int device = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaGetDeviceProperties(&prop, device) != cudaSuccess) {
    cudaGetLastError();
    status.context.emplace_back("gpu", "none: cannot read the device properties");
    for (auto& entry : unavailable_nvml_fields("no GPU (cannot read the device properties)"))
      status.context.push_back(std::move(entry));
    return status;
  }
  status.usable = true;
  status.uuid = uuid_text(prop.uuid);
  std::string bus_id = "unknown";
  try {
    bus_id = pci_bus_id(device);
  } catch (const std::exception&) {
    cudaGetLastError();
  }
  status.identity = GpuIdentity{gpu_index(device), prop.name, bus_id, status.uuid};
  status.context.emplace_back("gpu", prop.name);
  status.context.emplace_back("gpu_uuid", status.uuid);
  status.context.emplace_back("gpu_pci_bus_id", bus_id);
  status.context.emplace_back("gpu_index", std::to_string(status.identity->index));
  status.context.emplace_back("gpu_sm",
                              std::to_string(prop.major) + "." + std::to_string(prop.minor));
  status.context.emplace_back("gpu_count", std::to_string(count));
  status.context.emplace_back("gpu_memory_bytes", std::to_string(prop.totalGlobalMem));

  // The ceilings are measured on the current device, the one the GPU codecs use. A failure
  // costs the run only these numbers.
  if (!ceilings) {
    status.context.emplace_back("ceilings", "not measured: no GPU cells in this run");
  } else {
    try {
      const GpuCeilings c = measure_ceilings();
      status.ceilings = c;
      status.context.emplace_back("copy_gbps", gbps_text(c.copy_gbps));
      status.context.emplace_back("h2d_pinned_gbps", gbps_text(c.h2d_pinned_gbps));
      status.context.emplace_back("d2h_pinned_gbps", gbps_text(c.d2h_pinned_gbps));
      status.context.emplace_back("h2d_pageable_gbps", gbps_text(c.h2d_pageable_gbps));
    } catch (const std::exception& e) {
      cudaGetLastError();  // clear a non-sticky error (say out of memory) before the codecs run
      status.context.emplace_back("ceilings", std::string("unavailable: ") + e.what());
    }
  }
  for (auto& entry : nvml_context(device)) status.context.push_back(std::move(entry));
  return status;
}

}  // namespace gcbench::driver
