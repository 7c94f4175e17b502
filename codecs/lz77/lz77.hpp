#pragma once
#include "gcbench/codec.hpp"

namespace gcbench::lz77 {
CodecPtr make_cpu_codec();
CodecPtr make_gpu_codec();
}  // namespace gcbench::lz77
