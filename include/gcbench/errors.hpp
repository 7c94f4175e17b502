#pragma once
// Error types shared by every codec: callers tell hostile input apart from a missing device.
#include <stdexcept>
#include <string>

namespace gcbench {

// The compressed bytes are not a valid container for this codec (truncated, corrupted,
// wrong codec, absurd sizes). Decoders throw this and nothing else for bad input.
class DecodeError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A parameter is outside the range the codec declares.
class ParamError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A GPU codec was called on a machine without a usable CUDA device.
class DeviceUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace gcbench
