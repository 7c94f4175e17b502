#pragma once
#include "gcbench/codec.hpp"

namespace gcbench::rle {
CodecPtr make_cpu_codec();
CodecPtr make_gpu_codec();
// rle-cub: compression with cub::DeviceRunLengthEncode, same container (GPU baseline).
CodecPtr make_cub_gpu_codec();
}  // namespace gcbench::rle
