#include "bench/driver/execute.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <exception>
#include <functional>
#include <iostream>
#include <iterator>
#include <memory>
#include <set>
#include <stdexcept>
#include <utility>

#include "bench/driver/harness.hpp"
#include "bench/driver/heap_meter.hpp"
#include "bench/driver/output_guard.hpp"
#include "bench/driver/supervision.hpp"
#if GCBENCH_HAVE_CUDA
#include "bench/driver/device_cells.hpp"
#endif
#include "bench/driver/verify.hpp"
#include "gcbench/container.hpp"
#include "gcbench/cores.hpp"
#include "gcbench/device_codec.hpp"
#include "src/results/counters.hpp"
#include "src/results/time_marks.hpp"

namespace gcbench::driver {
namespace {

using Clock = std::chrono::steady_clock;

struct Totals {
  double kernel_s = 0;
  double transfer_s = 0;
  double e2e_s = 0;
  std::uint64_t program_peak_rss_bytes = 0;  // the most of any call's (RunStats)
};

// One timed call: its seconds (a GPU cell's kernel time from its codec, else wall time), or
// nullopt after SkipWithError when a GPU codec reports no kernel time: a zero would be a
// number measured on nothing.
template <typename Call>
std::optional<double> timed_call(benchmark::State& state, bool gpu, Totals& totals, Call&& call) {
  RunStats stats;
  const auto start = Clock::now();
  call(stats);
  const double e2e = std::chrono::duration<double>(Clock::now() - start).count();
  if (gpu && stats.kernel_s <= 0) {
    state.SkipWithError("GPU codec reported no kernel time");
    return std::nullopt;
  }
  totals.kernel_s += stats.kernel_s;
  totals.transfer_s += stats.transfer_s;
  totals.program_peak_rss_bytes =
      std::max(totals.program_peak_rss_bytes, stats.program_peak_rss_bytes);
  totals.e2e_s += e2e;
  return gpu ? stats.kernel_s : e2e;
}

// The thread's CPU seconds so far.
double thread_cpu_s() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// What runs around each timed call, outside its timed region: `before` readies the output
// (sentinels), `after` checks it (nullopt, or why the call's output cannot be reported).
// heap_base: the heap bytes live when the cell began, plus the containers the harness has kept
// since; what the timed calls hold above it is the cell's memory_host_bytes (heap_meter.hpp):
// its output buffer and the codec's own allocations, those it made in its untimed first call
// and keeps included.
struct CallChecks {
  std::function<void()> before = [] {};
  std::function<std::optional<std::string>(std::uint64_t call)> after = [](std::uint64_t) {
    return std::optional<std::string>();
  };
  std::uint64_t heap_base = 0;
};

// The heap a cell started with, and the harness's containers then: its CallChecks::heap_base,
// moved by what the harness's container cache has gained or let go of since.
struct HeapStart {
  std::uint64_t live = heap_meter::live_bytes();
  std::size_t cached;
  std::uint64_t base(const Workspace& workspace) const {
    const auto moved =
        static_cast<std::int64_t>(workspace.cached_bytes()) - static_cast<std::int64_t>(cached);
    return static_cast<std::uint64_t>(
        std::max<std::int64_t>(0, static_cast<std::int64_t>(live) + moved));
  }
};

// Google Benchmark's one iteration of a cell: `call` timed until the cell's stopping rule is
// met, the iteration's time their mean. false when a call failed (the state says why).
template <typename Call>
bool sample(benchmark::State& state, const CellSpec& cell, Totals& totals, Sampler& sampler,
            Call&& call, const CallChecks& checks) {
  const bool gpu = cell.codec->info().device == Device::gpu;
  std::uint64_t heap_peak = checks.heap_base;
  for (auto _ : state) {
    const auto began = Clock::now();
    const double cpu_began = thread_cpu_s();
    const bool taken = take_samples(sampler, [&]() -> std::optional<double> {
      checks.before();
      heap_meter::reset_peak();
      const std::optional<double> t = timed_call(state, gpu, totals, call);
      heap_peak = std::max(heap_peak, heap_meter::peak_bytes());
      if (!t) return std::nullopt;
      if (auto problem = checks.after(sampler.samples() + 1)) {
        state.SkipWithError(problem->c_str());
        return std::nullopt;
      }
      return t;
    });
    if (!taken) return false;
    state.SetIterationTime(sampler.mean_s());
    const double wall = std::chrono::duration<double>(Clock::now() - began).count();
    std::optional<double> cpu_share;
    if (!gpu && wall > 0) cpu_share = (thread_cpu_s() - cpu_began) / wall;
    add_sampling_counters(state, sampler, cpu_share);
    // Only when busy: a counter that is 0 in every repetition has no coefficient of variation
    // (Google Benchmark would write NaN, which JSON cannot hold).
    if (cpu_share && *cpu_share < results::kBusyBelow && cell.codec->info().in_process)
      state.counters[results::counter::kBusy] = benchmark::Counter(1);
    // A codec that runs another program (gzip) holds its memory there: that program's peak.
    if (!cell.codec->info().in_process && totals.program_peak_rss_bytes > 0) {
      state.counters[results::counter::kMemoryHostBytes] =
          benchmark::Counter(static_cast<double>(totals.program_peak_rss_bytes));
    } else if (heap_meter::active() && cell.codec->info().in_process) {
      state.counters[results::counter::kMemoryHostBytes] =
          benchmark::Counter(static_cast<double>(heap_peak - checks.heap_base));
    }
  }
  return !state.error_occurred();
}

void set_counters(benchmark::State& state, const CellSpec& cell, const Totals& totals,
                  std::uint64_t samples, std::uint64_t input_bytes, const Bytes& container) {
  const std::uint64_t compressed_bytes = container.size();
  using benchmark::Counter;
  auto& c = state.counters;
  c[results::counter::kInputBytes] = Counter(static_cast<double>(input_bytes));
  c[results::counter::kCompressedBytes] = Counter(static_cast<double>(compressed_bytes));
  c[results::counter::kRatio] =
      Counter(compressed_bytes == 0
                  ? 0.0
                  : static_cast<double>(input_bytes) / static_cast<double>(compressed_bytes));
  c[results::counter::kVerified] = Counter(1);
  // The process's peak so far: the first cell where it jumps is the one that holds the most.
  c[results::counter::kPeakRssBytes] = Counter(static_cast<double>(peak_rss_bytes()));
  if (const auto& own = cell.codec->info().container_counters) {
    for (const auto& [name, value] : own(container)) c[name] = Counter(value);
  }
  const auto calls = static_cast<double>(std::max<std::uint64_t>(samples, 1));
  c[results::counter::kE2eS] = Counter(totals.e2e_s / calls);
  if (cell.codec->info().device == Device::gpu) {
    c[results::counter::kKernelS] = Counter(totals.kernel_s / calls);
    c[results::counter::kTransferS] = Counter(totals.transfer_s / calls);
  } else {
    // What "all cores" (threads:0) meant for this cell: --gpus workers run on fewer cores than
    // the host has, and their CPU cells may run on different workers' cores.
    c["cpu_cores"] = Counter(static_cast<double>(usable_cores()));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * input_bytes));
}

}  // namespace

std::optional<std::string> check_container(const CellSpec& cell, Workspace& workspace,
                                           ByteSpan input, ByteSpan container) {
  const Bytes back = workspace.bound(cell).decompress(container);
  if (auto diff = describe_difference(back, input, "decompressed output", "the input")) return diff;
  if (cell.reference == nullptr) return std::nullopt;
  const Bytes& expected =
      workspace.container(*cell.reference, reference_params(*cell.reference, cell.params));
  return describe_difference(container, expected, "GPU container", "the CPU reference's container");
}

std::optional<std::string> use_checked_container(const CellSpec& cell, Workspace& workspace,
                                                 const std::function<void(ByteSpan)>& use) {
  if (const Bytes* verified = workspace.verified(*cell.codec, cell.params)) {
    use(*verified);
    return std::nullopt;
  }
  if (cell.reference != nullptr) {
    const Params wanted = reference_params(*cell.reference, cell.params);
    if (const Bytes* verified = workspace.verified_where(*cell.codec, [&](const Params& p) {
          return reference_params(*cell.reference, p) == wanted;
        })) {
      use(*verified);
      return std::nullopt;
    }
  }
  if (cell.reference == nullptr) {
    use(workspace.container(*cell.codec, cell.params));
    return std::nullopt;
  }
  // Held: looking up the reference may evict it from the cache.
  const std::shared_ptr<const Bytes> container = workspace.held(*cell.codec, cell.params);
  const Bytes& expected =
      workspace.container(*cell.reference, reference_params(*cell.reference, cell.params));
  if (auto diff = describe_difference(*container, expected, "GPU container",
                                      "the CPU reference's container")) {
    return diff;
  }
  use(*container);
  return std::nullopt;
}

namespace {

// A CPU cell, or a GPU cell of a codec without a device API (its host calls are timed). Once
// per cell, one untimed call warms up and its output is verified in full: a compressed
// container round-trips and, for a GPU cell, equals the CPU reference's; a decompressed
// output equals the input. Every call of the body after that (a repetition) compares the output of
// its timed calls with the verified bytes, and verifies it in full if it differs.
void run_compress(benchmark::State& state, const CellSpec& cell, Workspace& workspace) {
  const ByteSpan input = workspace.input(cell.input);
  const HeapStart heap{.cached = workspace.cached_bytes()};
  const bool gpu = cell.codec->info().device == Device::gpu;
  const BoundCodec& codec = workspace.bound(cell);
  const Bytes* verified =
      workspace.first_call(cell.name) ? nullptr : workspace.verified(*cell.codec, cell.params);
  if (verified == nullptr) {
    Bytes first = codec.compress(input);
    if (auto changed = workspace.input_changed()) {  // before the round trip blames the output
      state.SkipWithError(changed->c_str());
      return;
    }
    if (auto problem = check_container(cell, workspace, input, first)) {
      state.SkipWithError(problem->c_str());
      return;
    }
    workspace.remember(*cell.codec, cell.params, std::move(first), true);
    verified = workspace.verified(*cell.codec, cell.params);
  }
  Totals totals;
  Sampler sampler(workspace.stopping_rule(*cell.codec), gpu);
  // A codec that compresses into the caller's buffer gets one of its bound's size, allocated and
  // touched here, outside the timed calls, as its library's own benchmark program gives it;
  // guarded, and with sentinels planted before each call (output_guard.hpp).
  const bool into = codec.compresses_into();
  CallChecks checks;
  checks.heap_base = heap.base(workspace);
  GuardedBuffer room(into ? codec.max_compressed_size(input.size()) : 0);
  Bytes out;
  std::size_t size = 0;
  const auto call = [&](RunStats& s) {
    if (into) {
      size = codec.compress_into(input, room.room(), &s);
    } else {
      out = codec.compress(input, &s);
    }
  };
  Sentinels sentinels;
  // A codec that returns its output: the one before goes first, as a caller's would.
  checks.before = [&] { Bytes().swap(out); };
  if (into) {
    checks.before = [&] { sentinels.plant(room.room(), verified->size()); };
    checks.after = [&](std::uint64_t n) -> std::optional<std::string> {
      if (auto overrun = room.overrun()) return fmt::format("timed call {} {}", n, *overrun);
      const ByteSpan written = room.room().first(std::min(size, room.room().size()));
      if (size == verified->size() && sentinels.hold(written, *verified)) return std::nullopt;
      // Other bytes than the verified ones: a codec that need not be deterministic, or one that
      // left bytes of an earlier call or the sentinels in place. Verified in full.
      try {
        if (auto problem = check_container(cell, workspace, input, written)) {
          return fmt::format("timed call {}: {}", n, *problem);
        }
      } catch (const std::exception& e) {
        return fmt::format("timed call {}: its output does not decode: {}", n, e.what());
      }
      return std::nullopt;
    };
  }
  if (!sample(state, cell, totals, sampler, call, checks)) return;
  if (into)
    out.assign(room.room().begin(), room.room().begin() + static_cast<std::ptrdiff_t>(size));
  // Other bytes than the verified ones (a codec need not be deterministic) are verified too.
  if (out != *verified) {
    if (auto problem = check_container(cell, workspace, input, out)) {
      state.SkipWithError(problem->c_str());
      return;
    }
    workspace.remember(*cell.codec, cell.params, out, true);
  }
  set_counters(state, cell, totals, sampler.samples(), input.size(), out);
}

void run_decompress(benchmark::State& state, const CellSpec& cell, Workspace& workspace) {
  const ByteSpan input = workspace.input(cell.input);
  const HeapStart heap{.cached = workspace.cached_bytes()};
  const bool gpu = cell.codec->info().device == Device::gpu;
  const BoundCodec& codec = workspace.bound(cell);
  Bytes out;
  if (workspace.first_call(cell.name)) {
    auto warm_up = [&](ByteSpan c) { out = codec.decompress(c); };
    if (auto problem = use_checked_container(cell, workspace, warm_up)) {  // out: checked below
      state.SkipWithError(problem->c_str());
      return;
    }
  }
  const Bytes& container = workspace.container(*cell.codec, cell.params);
  Totals totals;
  Sampler sampler(workspace.stopping_rule(*cell.codec), gpu);
  // A codec that decodes into the caller's buffer gets one, allocated and touched here, outside
  // the timed calls, as its library's own benchmark program gives it: guarded, holding none of
  // the warm-up's bytes, and with sentinels planted before each call (output_guard.hpp).
  const bool into = codec.decodes_into();
  // The warm-up's output: its bytes must not serve a timed call, nor its memory count twice.
  Bytes().swap(out);
  CallChecks checks;
  checks.heap_base = heap.base(workspace);
  GuardedBuffer room(into ? input.size() : 0);
  const auto call = [&](RunStats& s) {
    if (into) {
      codec.decompress_into(container, room.room(), &s);
    } else {
      out = codec.decompress(container, &s);
    }
  };
  Sentinels sentinels;
  // A codec that returns its output: the one before goes first, as a caller's would.
  checks.before = [&] { Bytes().swap(out); };
  if (into) {
    checks.before = [&] { sentinels.plant(room.room(), input.size()); };
    checks.after = [&](std::uint64_t n) -> std::optional<std::string> {
      if (auto overrun = room.overrun()) return fmt::format("timed call {} {}", n, *overrun);
      if (sentinels.hold(room.room(), input)) return std::nullopt;
      return describe_difference(room.room(), input,
                                 fmt::format("timed call {}: decompressed output", n), "the input");
    };
  }
  if (!sample(state, cell, totals, sampler, call, checks)) return;
  const ByteSpan last = into ? std::as_const(room).room() : ByteSpan(out);
  if (auto diff = describe_difference(last, input, "decompressed output", "the input")) {
    state.SkipWithError(diff->c_str());
    return;
  }
  set_counters(state, cell, totals, sampler.samples(), input.size(), container);
}

}  // namespace

ByteSpan Workspace::input(std::size_t index) {
  // Bytes in memory that a codec wrote into (its cell failed) are made again for the cells
  // after it; a file written while mapped stays failed (its contents are no longer the ones the
  // run found).
  if (loaded_ == index && !input_.mapped() && input_.changed()) loaded_.reset();
  if (loaded_ != index) {
    containers_.clear();
    input_ = {};
    loaded_.reset();  // a load that throws (a user's file gone) leaves no input loaded
    const auto start = Clock::now();
    input_ = inputs_.at(index).load();
    loaded_ = index;
    // Once per large input: what reading or generating it cost (a 1 GiB synthetic input
    // takes seconds).
    if (input_.bytes().size() >= kLargeInput) {
      const InputFile& f = inputs_.at(index);
      std::cerr << fmt::format("[gcbench] {}/{}: {} bytes {} in {:.2f} s\n", f.corpus, f.name,
                               input_.bytes().size(), input_.mapped() ? "mapped" : "loaded",
                               std::chrono::duration<double>(Clock::now() - start).count());
    }
  }
  // A mapped file truncated since would fault on the first read past its new end: this
  // cell fails with the reason instead.
  if (auto problem = input_.changed()) throw std::runtime_error(*problem);
  return input_.bytes();
}

const BoundCodec& Workspace::bound(const CellSpec& cell) {
  if (bound_ == nullptr || bound_cell_ != cell.name) {
    bound_ = cell.codec->bind(cell.params);
    bound_cell_ = cell.name;
  }
  return *bound_;
}

std::string Workspace::key(const Codec& codec, const Params& params) {
  std::string k = codec.info().name + "/" + to_string(codec.info().device);
  for (const auto& [axis, value] : params) k += "/" + axis + ":" + std::to_string(value);
  return k;
}

Workspace::Kept* Workspace::find(const Codec& codec, const Params& params) {
  const std::string k = key(codec, params);
  for (auto it = containers_.begin(); it != containers_.end(); ++it) {
    if (it->key == k) {
      containers_.splice(containers_.begin(), containers_, it);
      return &containers_.front();
    }
  }
  return nullptr;
}

const Bytes* Workspace::verified(const Codec& codec, const Params& params) {
  const Kept* kept = find(codec, params);
  return kept != nullptr && kept->verified ? kept->container.get() : nullptr;
}

const Bytes* Workspace::verified_where(const Codec& codec,
                                       const std::function<bool(const Params&)>& same_bytes) {
  for (const Kept& kept : containers_) {
    if (kept.verified && kept.codec == &codec && same_bytes(kept.params)) {
      return kept.container.get();
    }
  }
  return nullptr;
}

const Bytes& Workspace::container(const Codec& codec, const Params& params) {
  return *held(codec, params);  // the cache holds it until a later call evicts it
}

std::shared_ptr<const Bytes> Workspace::held(const Codec& codec, const Params& params) {
  if (const Kept* kept = find(codec, params)) return kept->container;
  remember(codec, params, codec.compress(input_.bytes(), params));
  return containers_.front().container;
}

void Workspace::remember(const Codec& codec, const Params& params, Bytes container,
                         bool is_verified) {
  // A codec's container is often its bound's buffer cut to size: the capacity would stay held
  // (a compressed file of zeros kept the whole input's size of memory, per codec).
  container.shrink_to_fit();
  keep({key(codec, params), &codec, params, std::make_shared<const Bytes>(std::move(container)),
        is_verified});
}

void Workspace::remember_same(const Codec& codec, const Params& params, const Bytes& kept) {
  const auto held = std::ranges::find_if(
      containers_, [&](const Kept& entry) { return entry.container.get() == &kept; });
  if (held == containers_.end()) {
    throw std::logic_error("remember_same: the container is not held by the workspace");
  }
  keep({key(codec, params), &codec, params, held->container, true});
}

void Workspace::keep(Kept kept) {
  std::erase_if(containers_, [&](const Kept& entry) { return entry.key == kept.key; });
  containers_.push_front(std::move(kept));
  // Bounded by bytes as well as by count (host memory stays near the input's size, whatever
  // the codecs' ratios); the newest is always kept, and so are the entries sharing its
  // container, which cost nothing more.
  const Bytes* newest = containers_.front().container.get();
  auto oldest_other = [&] {
    auto it = std::find_if(containers_.rbegin(), containers_.rend(),
                           [&](const Kept& entry) { return entry.container.get() != newest; });
    return it == containers_.rend() ? containers_.end() : std::prev(it.base());
  };
  while (containers_.size() > kCachedContainers || held_bytes() > budget()) {
    const auto evicted = oldest_other();
    if (evicted == containers_.end()) break;
    containers_.erase(evicted);
  }
}

std::size_t Workspace::held_bytes() const {
  std::set<const Bytes*> seen;
  std::size_t bytes = 0;
  for (const Kept& entry : containers_) {
    if (seen.insert(entry.container.get()).second) bytes += entry.container->size();
  }
  return bytes;
}

void Workspace::make_room(std::size_t bytes) {
  while (!containers_.empty() && held_bytes() + bytes > budget()) containers_.pop_back();
}

Params reference_params(const Codec& reference, const Params& gpu_params) {
  Params p;
  for (const AxisSpec& axis : reference.info().axes) {
    auto it = gpu_params.find(axis.name);
    if (axis.in_container && it != gpu_params.end()) p[axis.name] = it->second;
  }
  return resolve_params(reference.info().axes, p);
}

namespace {

void measure(benchmark::State& state, const CellSpec& cell, Workspace& workspace) {
#if GCBENCH_HAVE_CUDA
  if (cell.codec->device_codec() != nullptr && workspace.device_cells() != nullptr) {
    workspace.device_cells()->run(state, cell, workspace);
    return;
  }
#endif
  if (cell.direction == Direction::compress) {
    run_compress(state, cell, workspace);
  } else {
    run_decompress(state, cell, workspace);
  }
}

}  // namespace

void run_cell(benchmark::State& state, const CellSpec& cell, Workspace& workspace) {
  // Anything a codec throws (a bad parameter, no device, a decoder rejecting its own output)
  // becomes this cell's error instead of ending the sweep.
  try {
    // Every container a cell decodes is one the harness made from this input: its size is
    // known, and bounds the decoders' output instead of the bomb limit for unknown containers.
    DecodeLimit limit = decode_limit();
    limit.known_size = workspace.input(cell.input).size();
    const ScopedDecodeLimit known(limit);
    measure(state, cell, workspace);
    // A typed array's own width (its dtype's): the reports take the cells at it as the file's
    // defaults, whatever the axis's default.
    if (const auto width = workspace.input_file(cell.input).element_width;
        width && !state.error_occurred()) {
      state.counters[results::counter::kInputElementWidth] =
          benchmark::Counter(static_cast<double>(*width));
    }
    // What the cell measured was its input only if the input is still the one loaded.
    if (auto changed = workspace.input_changed(); changed && !state.error_occurred()) {
      state.SkipWithError(changed->c_str());
    }
  } catch (const std::exception& e) {
    if (!state.error_occurred()) state.SkipWithError(e.what());
  }
#if GCBENCH_HAVE_CUDA
  if (state.error_occurred() && cell.codec->info().device == Device::gpu) {
    if (auto broken = broken_cuda_context()) {
      supervision::request_restart(*broken + " after " + supervision::describe_cell(cell.name));
    }
  }
#endif
}

StoppingRule Workspace::stopping_rule(const Codec& codec) const {
  StoppingRule rule = rule_;
  if (codec.info().device == Device::gpu && codec.device_codec() == nullptr) {
    rule.fixed_samples = static_cast<std::uint64_t>(host_gpu_samples_);
  }
  return rule;
}

void add_sampling_counters(benchmark::State& state, const Sampler& sampler,
                           std::optional<double> cpu_share) {
  using benchmark::Counter;
  auto& c = state.counters;
  c[results::counter::kSamples] = Counter(static_cast<double>(sampler.samples()));
  c[results::counter::kMaxErrorPct] = Counter(100 * sampler.max_error());
  c[results::counter::kSampledS] = Counter(sampler.total_s());
  if (sampler.samples() > 1) {  // one sample has no spread to measure
    c[results::counter::kNoisePct] = Counter(100 * sampler.noise());
    c[results::counter::kErrorPct] = Counter(100 * sampler.error());
  }
  if (cpu_share) c[results::counter::kCpuShare] = Counter(*cpu_share);
}

benchmark::internal::Benchmark* register_cell(const CellSpec& cell, Workspace& workspace,
                                              CellQueue* queue) {
  auto* b = benchmark::RegisterBenchmark(
      cell.name.c_str(), [&cell, &workspace, queue](benchmark::State& s) {
        try {
          if (queue != nullptr && !queue->mine(cell)) {
            s.SkipWithError(std::string(kClaimedElsewhere).c_str());
            return;
          }
        } catch (const std::exception& e) {
          s.SkipWithError(e.what());
          return;
        }
        supervision::cell_begins(cell.name);
        run_cell(s, cell, workspace);
        if (!cell.label.empty()) s.SetLabel(cell.label);
      });
  // Nanoseconds, Google Benchmark's own unit: its compare.py prints whole units, so a coarser
  // one shows sub-unit cells as 0. Readers honor each entry's time_unit.
  b->Unit(benchmark::kNanosecond);
  // The time of each call is the cell's own (CUDA events for a device call, a GPU codec's
  // kernel time, else wall time); the stopping rule, not Google Benchmark's, ends the sampling.
  b->UseManualTime()->Iterations(1);
  return b;
}

benchmark::internal::Benchmark* register_failed_cell(const CellSpec& cell, std::string reason) {
  auto* b = benchmark::RegisterBenchmark(
      cell.name.c_str(),
      [reason = std::move(reason)](benchmark::State& s) { s.SkipWithError(reason.c_str()); });
  b->Unit(benchmark::kNanosecond);
  b->UseManualTime()->Iterations(1);
  return b;
}

}  // namespace gcbench::driver
