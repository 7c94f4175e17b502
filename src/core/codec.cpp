// The names of the core enums of include/gcbench/codec.hpp, as the driver's --codecs groups
// and the results spell them.
#include "gcbench/codec.hpp"

namespace gcbench {

const char* to_string(Device d) {
  return d == Device::cpu ? "cpu" : "gpu";
}

const char* to_string(Role r) {
  switch (r) {
    case Role::studied:
      return "studied";
    case Role::baseline:
      return "baselines";
    case Role::peer:
      return "peers";
  }
  return "?";
}

}  // namespace gcbench
