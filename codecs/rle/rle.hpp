#pragma once
#include "gcbench/codec.hpp"

namespace gcbench::rle {
CodecPtr make_cpu_codec();
CodecPtr make_gpu_codec();
}  // namespace gcbench::rle
