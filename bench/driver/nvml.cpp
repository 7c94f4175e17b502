#include "bench/driver/nvml.hpp"

#include <cuda_runtime.h>

#include <array>

#include "src/cuda/cuda_check.hpp"

namespace gcbench::driver {
namespace {
constexpr int kClockSm = 1;  // nvmlClockType_t
}  // namespace

std::string pci_bus_id(int device) {
  std::array<char, 64> bus_id{};
  GCB_CUDA(cudaDeviceGetPCIBusId(bus_id.data(), static_cast<int>(bus_id.size()), device));
  return bus_id.data();
}

SmClock::SmClock() {
  try {
    int device = 0;
    GCB_CUDA(cudaGetDevice(&device));
    const std::string bus_id = pci_bus_id(device);
    auto nvml = std::make_unique<Nvml>();
    Nvml::Device d = nullptr;
    if (nvml->call("nvmlDeviceGetHandleByPciBusId_v2", bus_id.c_str(), &d) != 0) return;
    unsigned max_mhz = 0;
    if (nvml->call("nvmlDeviceGetMaxClockInfo", d, kClockSm, &max_mhz) != 0 || max_mhz == 0) return;
    nvml_ = std::move(nvml);
    device_ = d;
    max_mhz_ = max_mhz;
  } catch (const std::exception&) {
    // No NVML (no driver library, no permission): the cells record no clock.
  }
}

SmClock::~SmClock() = default;

std::optional<double> SmClock::share_of_max() const {
  if (!nvml_) return std::nullopt;
  unsigned mhz = 0;
  if (nvml_->call("nvmlDeviceGetClockInfo", device_, kClockSm, &mhz) != 0) return std::nullopt;
  return static_cast<double>(mhz) / max_mhz_;
}

}  // namespace gcbench::driver
