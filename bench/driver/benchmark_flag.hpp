#pragma once
// A Google Benchmark flag's value as Google Benchmark reads it, for the driver's own checks of
// it (the repetition count, the min time).
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace gcbench::driver {

struct GivenValue {
  std::string value;
  std::string source;  // "--benchmark_<name>=VALUE" or "BENCHMARK_<NAME>=VALUE", for messages
};

// The last --benchmark_<name>=VALUE of `args`, else the environment's BENCHMARK_<NAME> (read
// with `env`); nullopt when neither gives it.
std::optional<GivenValue> benchmark_flag(const std::vector<std::string>& args,
                                         const std::function<const char*(const char*)>& env,
                                         const std::string& name);

}  // namespace gcbench::driver
