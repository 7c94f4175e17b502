// The CUB the GPU codecs were compiled against, for the run context: read where nvcc compiles
// (CUDA 13 keeps CUB under include/cccl, which host-only files do not see).
#include <cub/version.cuh>

#include <string>

#include "bench/driver/context.hpp"

namespace gcbench::driver {

std::string cub_version() {
  return std::to_string(CUB_VERSION / 100000) + "." + std::to_string(CUB_VERSION / 100 % 1000) +
         "." + std::to_string(CUB_VERSION % 100);
}

}  // namespace gcbench::driver
