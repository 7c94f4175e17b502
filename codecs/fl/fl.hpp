#pragma once
#include "gcbench/codec.hpp"

namespace gcbench::fl {
CodecPtr make_cpu_codec();
CodecPtr make_gpu_codec();
}  // namespace gcbench::fl
