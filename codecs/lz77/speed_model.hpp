#pragma once
// LZ77's speed models for the driver's sweep estimate (CodecInfo::speed_model): rates from the H100
// runs (bench/NOTES.md, "the estimate refit"), rough by design.
#include "gcbench/codec.hpp"

namespace gcbench::lz77 {

SpeedModel cpu_speed_model();
SpeedModel gpu_speed_model();

}  // namespace gcbench::lz77
