#include "bench/driver/options.hpp"

#include "bench/driver/inputs.hpp"
#include "bench/driver/shard.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace gcbench::driver {
namespace {

void check_choice(const std::string& flag, const std::string& value,
                  std::initializer_list<const char*> choices) {
  for (const char* c : choices) {
    if (value == c) return;
  }
  throw std::invalid_argument(
      fmt::format("{} must be one of {}, not '{}'", flag, fmt::join(choices, "|"), value));
}

// An integer in [1, max], or std::invalid_argument naming the flag.
int int_in_range(const std::string& flag, const std::string& value, int max) {
  std::size_t used = 0;
  int n = 0;
  try {
    n = std::stoi(value, &used);
  } catch (const std::exception&) {
  }
  if (used != value.size() || n < 1 || n > max) {
    throw std::invalid_argument(flag + " needs an integer from 1 to " + std::to_string(max));
  }
  return n;
}

}  // namespace

std::string axis_flag(const std::string& axis) {
  std::string flag = axis;
  std::replace(flag.begin(), flag.end(), '_', '-');
  return "--" + flag;
}

std::vector<std::string> split_list(const std::string& text, const std::string& flag) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (true) {
    std::size_t end = text.find(',', start);
    std::string item = text.substr(start, end == std::string::npos ? end : end - start);
    if (item.empty()) throw std::invalid_argument(flag + ": empty item in '" + text + "'");
    items.push_back(item);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return items;
}

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (!arg.starts_with("--") || arg.size() == 2) {
      throw std::invalid_argument("unexpected argument '" + arg + "' (see --help)");
    }
    std::string name = arg.substr(2);
    std::optional<std::string> value;
    if (std::size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name.resize(eq);
    }
    o.given.insert(name);
    if (name == "list" || name == "no-progress" || name == "no-download" || name == "cold-l2") {
      if (value) throw std::invalid_argument("--" + name + " takes no value");
      if (name == "list")
        o.list = true;
      else if (name == "no-progress")
        o.progress = false;
      else if (name == "cold-l2")
        o.cold_l2 = true;
      else
        o.download = false;
      continue;
    }
    if (!value) {
      if (i + 1 == args.size()) throw std::invalid_argument("--" + name + " needs a value");
      value = args[++i];
    }
    const std::string flag = "--" + name;
    if (name == "corpus") {
      o.corpora = split_list(*value, flag);
    } else if (name == "files") {
      o.files = split_list(*value, flag);
    } else if (name == "codecs") {
      o.codecs = split_list(*value, flag);
    } else if (name == "device") {
      check_choice(flag, *value, {"cpu", "gpu", "all"});
      o.device = *value;
    } else if (name == "direction") {
      check_choice(flag, *value, {"compress", "decompress", "all"});
      o.direction = *value;
    } else if (name == "sweep") {
      check_choice(flag, *value, {"axes", "product", "defaults"});
      o.sweep = *value;
    } else if (name == "shard") {
      o.shard = parse_shard(*value);
    } else if (name == "gpus") {
      o.gpus = parse_gpus(*value);
    } else if (name == "preset") {
      o.preset = *value;
    } else if (name == "harness-file") {
      if (value->empty()) throw std::invalid_argument("--harness-file needs a file name");
      o.harness_file = *value;
    } else if (name == "out-dir") {
      if (value->empty()) throw std::invalid_argument("--out-dir needs a directory");
      o.out_dir = *value;
    } else if (name == "export") {
      if (value->empty()) throw std::invalid_argument("--export needs a directory");
      o.export_from = *value;
    } else if (name == "gpu-iterations") {
      o.gpu_iterations = int_in_range("--gpu-iterations", *value, 1000000);
    } else if (name == "pipeline-chunk" || name == "gpu-memory-limit") {
      const std::uint64_t bytes = parse_size(*value);
      if (name == "pipeline-chunk" && bytes == 0) {
        throw std::invalid_argument("--pipeline-chunk needs a size above 0");
      }
      (name == "pipeline-chunk" ? o.pipeline_chunk : o.gpu_memory_limit) = bytes;
    } else if (name == "pipeline-depth") {
      o.pipeline_depth = int_in_range("--pipeline-depth", *value, 64);
    } else {
      std::string axis = name;
      std::replace(axis.begin(), axis.end(), '-', '_');
      o.axis_values[axis] = split_list(*value, flag);
    }
  }
  return o;
}

}  // namespace gcbench::driver
