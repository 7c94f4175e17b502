#include "bench/driver/gpus.hpp"

#include <sched.h>

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "bench/driver/context.hpp"
#include "bench/driver/options.hpp"
#include "src/cli/command_line.hpp"

namespace gcbench::driver {

namespace {

constexpr std::string_view kUuidPrefix = "GPU-";

bool is_uuid(std::string_view item) {
  return item.size() > kUuidPrefix.size() && item.substr(0, kUuidPrefix.size()) == kUuidPrefix;
}

// nvidia-smi writes a UUID's hex in lower case; CUDA_VISIBLE_DEVICES takes either.
std::string lower_case(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string describe(const GpuIdentity& gpu) {
  return fmt::format("{} {} ({}, {})", gpu.index, gpu.name, gpu.pci_bus_id, gpu.uuid);
}

}  // namespace

GpuRequest parse_gpus(std::string_view text) {
  GpuRequest request;
  if (text == "all") {
    request.all = true;
    return request;
  }
  const std::string quoted = fmt::format("--gpus '{}'", text);
  for (const std::string& item : cli::split_list(std::string(text))) {
    std::string name = item;
    if (is_uuid(item)) {
      name = std::string(kUuidPrefix) + lower_case(item.substr(kUuidPrefix.size()));
    } else {
      int index = -1;
      const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), index);
      if (error != std::errc() || end != item.data() + item.size() || index < 0) {
        throw std::invalid_argument(
            fmt::format("{}: '{}' is not a GPU index or UUID (expected all, or indices from 0 "
                        "as nvidia-smi numbers the GPUs, e.g. --gpus 0,2, or UUIDs as "
                        "nvidia-smi -L prints them, GPU-...)",
                        quoted, item));
      }
    }
    if (std::find(request.gpus.begin(), request.gpus.end(), name) != request.gpus.end()) {
      throw std::invalid_argument(
          fmt::format("{}: GPU {} is named twice (one worker per GPU)", quoted, item));
    }
    request.gpus.push_back(name);
  }
  return request;
}

std::vector<GpuIdentity> number_by_bus(std::vector<GpuIdentity> gpus) {
  // CUDA writes bus ids with fixed-width hex fields: they sort as strings.
  std::stable_sort(gpus.begin(), gpus.end(), [](const GpuIdentity& a, const GpuIdentity& b) {
    return a.pci_bus_id < b.pci_bus_id;
  });
  for (std::size_t i = 0; i < gpus.size(); ++i) gpus[i].index = static_cast<int>(i);
  return gpus;
}

std::vector<GpuIdentity> choose_gpus(const GpuRequest& request,
                                     const std::vector<GpuIdentity>& present) {
  if (request.all) return present;
  const auto what_it_has = [&] {
    std::vector<std::string> names;
    for (const GpuIdentity& gpu : present) names.push_back(describe(gpu));
    return fmt::format("it has {}: {}", present.size(), fmt::join(names, ", "));
  };
  std::vector<GpuIdentity> chosen;
  std::vector<std::string> named_as;  // how the request named each chosen GPU
  for (const std::string& name : request.gpus) {
    std::optional<GpuIdentity> gpu;
    if (is_uuid(name)) {
      const auto it = std::find_if(present.begin(), present.end(), [&](const GpuIdentity& g) {
        return lower_case(g.uuid) == lower_case(name);
      });
      if (it == present.end()) {
        throw std::invalid_argument(
            fmt::format("--gpus: no GPU of this host has UUID {}; {}", name, what_it_has()));
      }
      gpu = *it;
    } else {
      const std::size_t index = std::stoul(name);
      if (index >= present.size()) {
        throw std::invalid_argument(
            fmt::format("--gpus: there is no GPU {} on this host; {}", name, what_it_has()));
      }
      gpu = present[index];
    }
    const auto twice = std::find(chosen.begin(), chosen.end(), *gpu);
    if (twice != chosen.end()) {
      throw std::invalid_argument(fmt::format(
          "--gpus: '{}' and '{}' name the same GPU, {} (one worker per GPU)",
          named_as[static_cast<std::size_t>(twice - chosen.begin())], name, describe(*gpu)));
    }
    chosen.push_back(*gpu);
    named_as.push_back(name);
  }
  return chosen;
}

CoreSplit split_cores(const std::vector<int>& cores, int gpu_workers, bool cpu_worker) {
  CoreSplit split;
  const int total = static_cast<int>(cores.size());
  const int workers = gpu_workers + (cpu_worker ? 1 : 0);
  if (total < workers) {
    split.shared = true;
    split.gpu_workers.assign(static_cast<std::size_t>(gpu_workers), cores);
    if (cpu_worker) split.cpu_worker = cores;
    return split;
  }
  auto next = cores.begin();
  const auto take = [&](int n) {
    std::vector<int> block(next, next + n);
    next += n;
    return block;
  };
  if (!cpu_worker) {
    for (int w = 0; w < gpu_workers; ++w)
      split.gpu_workers.push_back(take(total / gpu_workers + (w < total % gpu_workers ? 1 : 0)));
    return split;
  }
  const int each = std::min(total / (gpu_workers + 1), kMaxGpuWorkerCores);
  for (int w = 0; w < gpu_workers; ++w) split.gpu_workers.push_back(take(each));
  split.cpu_worker.assign(next, cores.end());
  return split;
}

std::string format_core_list(const std::vector<int>& cores) {
  std::vector<std::string> ranges;
  for (std::size_t i = 0; i < cores.size();) {
    std::size_t j = i;
    while (j + 1 < cores.size() && cores[j + 1] == cores[j] + 1) ++j;
    ranges.push_back(j == i ? std::to_string(cores[i]) : fmt::format("{}-{}", cores[i], cores[j]));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(ranges, ","));
}

std::vector<int> affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cores;
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return cores;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cores.push_back(cpu);
  }
  return cores;
}

std::filesystem::path workers_dir(const std::filesystem::path& out_dir) {
  return out_dir / ".workers";
}

std::vector<std::string> worker_base_args(const Options& options,
                                          const std::vector<std::string>& benchmark_args) {
  static const std::set<std::string> kParents{"--gpus",         "--gpu-replicas", "--out-dir",
                                              "--device",       "--harness-file", "--claim-dir",
                                              "--also-recorded"};
  std::vector<std::string> args = benchmark_args;
  for (const cli::GivenFlag& given : options.given_flags) {
    if (!kParents.count(given.flag)) args.push_back(given.argument());
  }
  // The paths given, absolute: never taken for a flag, whatever follows them.
  for (const std::string& path : options.paths)
    args.push_back(std::filesystem::absolute(path).string());
  return args;
}

std::filesystem::path claims_dir(const std::filesystem::path& out_dir) {
  return workers_dir(out_dir) / ".cpu-claims";
}

std::string queue_helper_name(const std::string& gpu_worker) {
  return "cpu-" + gpu_worker;
}

namespace {

Worker make_worker(std::string name, std::optional<GpuIdentity> gpu, std::vector<int> cores,
                   const std::vector<std::string>& base_args,
                   const std::vector<std::string>& own_args, const std::filesystem::path& out_dir) {
  Worker w{std::move(name), std::move(gpu), std::move(cores), {}, {}, base_args, {}};
  w.out_dir = workers_dir(out_dir) / w.name;
  w.harness_file = workers_dir(out_dir) / (w.name + ".harness");
  w.args.insert(w.args.end(), own_args.begin(), own_args.end());
  w.args.insert(w.args.end(),
                {"--out-dir", w.out_dir.string(), "--harness-file", w.harness_file.string()});
  // By UUID: the worker's CUDA sees that GPU alone, whatever order it would number them in.
  w.env.emplace_back("CUDA_VISIBLE_DEVICES", w.gpu ? w.gpu->uuid : "");
  if (w.gpu) w.env.emplace_back(kGpuIndexVariable, std::to_string(w.gpu->index));
  return w;
}

std::vector<std::string> cpu_queue_args(const std::filesystem::path& out_dir) {
  return {"--device", "cpu", "--claim-dir", claims_dir(out_dir).string()};
}

}  // namespace

Worker queue_helper(const std::vector<std::string>& base_args, const Worker& freed,
                    const Worker& cpu, const std::filesystem::path& out_dir) {
  std::vector<std::string> own = cpu_queue_args(out_dir);
  own.insert(own.end(), {"--also-recorded", cpu.out_dir.string()});
  return make_worker(queue_helper_name(freed.name), std::nullopt, freed.cores, base_args, own,
                     out_dir);
}

std::vector<Worker> plan_workers(const std::vector<std::string>& base_args,
                                 const std::vector<GpuIdentity>& gpus, const CoreSplit& split,
                                 const std::filesystem::path& out_dir, bool cpu_worker,
                                 bool replicas) {
  std::vector<Worker> workers;
  const auto add = [&](std::string name, std::optional<GpuIdentity> gpu, std::vector<int> cores,
                       const std::vector<std::string>& own_args) {
    workers.push_back(make_worker(std::move(name), std::move(gpu), std::move(cores), base_args,
                                  own_args, out_dir));
  };
  const int count = static_cast<int>(gpus.size());
  for (int k = 0; k < count; ++k) {
    const GpuIdentity& gpu = gpus[static_cast<std::size_t>(k)];
    const std::string shard = replicas ? "1/1" : fmt::format("{}/{}", k + 1, count);
    add(fmt::format("gpu{}", gpu.index), gpu, split.gpu_workers.at(static_cast<std::size_t>(k)),
        {"--device", "gpu", "--shard", shard});
  }
  if (cpu_worker) add("cpu", std::nullopt, split.cpu_worker, cpu_queue_args(out_dir));
  return workers;
}

}  // namespace gcbench::driver
