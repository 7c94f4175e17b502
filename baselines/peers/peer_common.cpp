#include <string>

#include "baselines/peers/peers.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::peers {

AxisSpec level_axis(std::int64_t default_level, std::int64_t min, std::int64_t max,
                    const char* help) {
  AxisSpec a;
  a.name = "level";
  a.help = help;
  a.default_value = default_level;
  a.min = min;
  a.max = max;
  a.in_container = true;
  return a;
}

void check_claimed_size(std::uint64_t claimed, std::uint64_t input_size, const char* format) {
  if (claimed > kMaxOriginalSize || claimed / kMaxExpansion > input_size) {
    throw DecodeError(std::string(format) + " stream claims an absurd size of " +
                      std::to_string(claimed) + " bytes");
  }
}

CodecInfo peer_info(const char* name, const std::string& library_version, const char* help,
                    std::vector<AxisSpec> axes) {
  CodecInfo info;
  info.name = name;
  info.version = "1/" + library_version;
  info.device = Device::cpu;
  info.role = Role::peer;
  info.description = help;
  info.axes = std::move(axes);
  return info;
}

}  // namespace gcbench::peers
