#pragma once
// NVML, loaded at run time (the GPU context's driver, clocks and link; a GPU cell's SM clock),
// and the PCI bus id that finds a CUDA device in it.
#include <dlfcn.h>

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace gcbench::driver {

// "0000:1B:00.0": CUDA writes every field with a fixed number of hex digits.
std::string pci_bus_id(int device);

// NVML, loaded at run time: a binary linked against libnvidia-ml.so.1 would not even start on
// a machine without the NVIDIA driver (CI), and the toolkit may ship neither nvml.h nor its
// link stub (CMake's CUDA::nvml needs both). Entry points are looked up by name and called
// with the argument types of NVML's stable C ABI; one missing from an older driver costs only
// its own field.
class Nvml {
 public:
  using Return = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
  using Device = struct nvmlDevice_st*;
  static constexpr Return kFunctionNotFound = 13;  // NVML_ERROR_FUNCTION_NOT_FOUND

  // Throws std::runtime_error with the reason when NVML cannot be loaded or initialized.
  Nvml() : lib_(dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL), &dlclose_lib) {
    if (!lib_) {
      const char* why = dlerror();
      throw std::runtime_error(why ? why : "cannot load libnvidia-ml.so.1");
    }
    if (const Return r = call("nvmlInit_v2"); r != 0)
      throw std::runtime_error("nvmlInit: " + error(r));
  }
  ~Nvml() { call("nvmlShutdown"); }
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  template <typename... Args>
  Return call(const char* name, Args... args) const {
    void* fn = dlsym(lib_.get(), name);
    if (fn == nullptr) return kFunctionNotFound;
    return reinterpret_cast<Return (*)(Args...)>(fn)(args...);
  }
  std::string error(Return r) const {
    void* fn = dlsym(lib_.get(), "nvmlErrorString");
    return fn != nullptr ? reinterpret_cast<const char* (*)(Return)>(fn)(r)
                         : "NVML error " + std::to_string(r);
  }

 private:
  static void dlclose_lib(void* lib) { dlclose(lib); }
  std::unique_ptr<void, void (*)(void*)> lib_;
};

// The SM clock of the current CUDA device as a share of its maximum, read through NVML; a
// reader made where NVML is unavailable reads nothing.
class SmClock {
 public:
  SmClock();
  ~SmClock();
  SmClock(const SmClock&) = delete;
  SmClock& operator=(const SmClock&) = delete;
  // Current over maximum SM clock, or nullopt when NVML cannot tell.
  std::optional<double> share_of_max() const;

 private:
  std::unique_ptr<Nvml> nvml_;
  Nvml::Device device_ = nullptr;
  unsigned max_mhz_ = 0;
};

}  // namespace gcbench::driver
