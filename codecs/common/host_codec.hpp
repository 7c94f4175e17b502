#pragma once
// The host Bytes API (gcbench::Codec) of any GPU codec, written once over its device API:
// device buffers per call, copies in and out, the device status turned into DecodeError.
#include <memory>

#include "gcbench/codec.hpp"
#include "gcbench/device_codec.hpp"

namespace gcbench::gpu {

CodecPtr make_host_codec(std::unique_ptr<const DeviceCodec> device);

}  // namespace gcbench::gpu
