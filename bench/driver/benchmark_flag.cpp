#include "bench/driver/benchmark_flag.hpp"

#include <algorithm>
#include <cctype>

namespace gcbench::driver {

std::optional<GivenValue> benchmark_flag(const std::vector<std::string>& args,
                                         const std::function<const char*(const char*)>& env,
                                         const std::string& name) {
  const std::string flag = "--benchmark_" + name + "=";
  std::optional<GivenValue> given;
  for (const std::string& arg : args) {
    if (arg.starts_with(flag)) given = GivenValue{arg.substr(flag.size()), arg};
  }
  if (given) return given;
  std::string variable = "BENCHMARK_" + name;
  std::transform(variable.begin(), variable.end(), variable.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (const char* from_env = env(variable.c_str())) {
    return GivenValue{from_env, variable + "=" + from_env};
  }
  return std::nullopt;
}

}  // namespace gcbench::driver
