#pragma once
// Runs one cell inside Google Benchmark: the timed loop, the counters, and the checks that
// must pass before a number is reported (round trip, and GPU container == CPU container).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bench/driver/cell_queue.hpp"
#include "bench/driver/cells.hpp"
#include "bench/driver/inputs.hpp"
#include "bench/driver/sampler.hpp"
#include "bench/driver/supervision.hpp"

namespace gcbench::driver {

class DeviceCells;

// The current input file and a few recent containers (untimed set-up for decompression cells
// and CPU references), at most the input's size and 64 MiB together, the newest always kept.
// Cells of one file run consecutively, so one input is kept at a time.
class Workspace {
 public:
  explicit Workspace(const std::vector<InputFile>& inputs) : inputs_(inputs) {}

  // The input's bytes, loaded (mapped, for files) when it is not the current one; throws
  // std::runtime_error when they cannot be read (a user's file changed, a mapped file
  // truncated since: checked on every call, before a cell reads it).
  ByteSpan input(std::size_t index);
  // Whether the current input is a file's mapping rather than bytes in memory.
  bool input_mapped() const { return input_.mapped(); }
  // nullopt while the current input (if any) holds the bytes loaded; else how it changed
  // (InputData::changed): the cell that just ran measured something else, and fails.
  std::optional<std::string> input_changed() const {
    return loaded_ ? input_.changed() : std::nullopt;
  }
  // The container of `codec` at `params` for the current input, compressed on a miss.
  const Bytes& container(const Codec& codec, const Params& params);
  // The same, shared: it stays valid when later calls evict it from the cache.
  std::shared_ptr<const Bytes> held(const Codec& codec, const Params& params);
  // The kept container when a cell has verified it in full (remember(..., true)), else
  // nullptr; nothing is compressed.
  const Bytes* verified(const Codec& codec, const Params& params);
  // A kept container of `codec` verified in full at parameters that `same_bytes` accepts
  // (the newest), else nullptr.
  const Bytes* verified_where(const Codec& codec,
                              const std::function<bool(const Params&)>& same_bytes);
  void remember(const Codec& codec, const Params& params, Bytes container,
                bool is_verified = false);
  // Remembers, verified, that `codec`'s container at `params` is `kept`, a container this
  // workspace holds (a CPU reference's, which a GPU container was found equal to): one copy
  // of the bytes serves both. Throws std::logic_error when `kept` is not held here.
  void remember_same(const Codec& codec, const Params& params, const Bytes& kept);
  // Evicts the oldest containers until `bytes` more fit in the cache's budget, before a cell
  // makes a container of that size to keep: host memory then holds the input, the budget and
  // the new container, not also a large container of an earlier cell.
  void make_room(std::size_t bytes);
  // Bytes of the containers held (the harness's own memory, apart from a codec's).
  std::size_t cached_bytes() const { return held_bytes(); }

  // True on the first call for `cell` in this process, false after. Google Benchmark calls a
  // cell's body once per trial run and repetition; the once-per-cell work (the untimed call
  // that warms up and is verified in full) keys on this.
  bool first_call(const std::string& cell) { return called_.insert(cell).second; }

  // The cell's codec bound to its parameters (Codec::bind), once per cell: cells run one
  // after another, and the bound codec of the latest is kept. The timed loops call it.
  const BoundCodec& bound(const CellSpec& cell);

  // Where GPU cells with a device API run (null: through the host API, as other GPU cells).
  void set_device_cells(DeviceCells* cells) { device_cells_ = cells; }
  DeviceCells* device_cells() const { return device_cells_; }

  // When a cell has timed enough (sampler.hpp); GPU cells of a codec without a device API
  // take `host_gpu_samples` samples instead.
  void set_stopping_rule(const StoppingRule& rule, int host_gpu_samples) {
    rule_ = rule;
    host_gpu_samples_ = host_gpu_samples;
  }
  // The rule for a cell of `codec` timed through the host API.
  StoppingRule stopping_rule(const Codec& codec) const;
  const StoppingRule& stopping_rule() const { return rule_; }
  const InputFile& input_file(std::size_t index) const { return inputs_.at(index); }

 private:
  static constexpr std::size_t kCachedContainers = 6;
  static constexpr std::size_t kLargeInput = std::size_t{64} << 20;  // its load time is logged
  // Bytes the cache may hold beyond the input's size.
  static constexpr std::size_t kCacheSlack = std::size_t{64} << 20;
  static std::string key(const Codec& codec, const Params& params);

  const std::vector<InputFile>& inputs_;
  std::optional<std::size_t> loaded_;
  InputData input_;
  struct Kept {
    std::string key;
    const Codec* codec;
    Params params;
    std::shared_ptr<const Bytes> container;  // shared by the entries of equal containers
    bool verified = false;
  };
  Kept* find(const Codec& codec, const Params& params);  // moved to the front when found
  void keep(Kept kept);            // at the front, the oldest evicted past the budget
  std::size_t held_bytes() const;  // a container shared by several entries counts once
  std::size_t budget() const { return input_.bytes().size() + kCacheSlack; }

  std::list<Kept> containers_;  // most recent first
  std::set<std::string> called_;
  std::string bound_cell_;
  BoundCodecPtr bound_;
  DeviceCells* device_cells_ = nullptr;
  StoppingRule rule_;
  int host_gpu_samples_ = 10;
};

// Timed calls until the sampler's stopping rule is met, each made by `timed()`: its seconds, or
// nullopt when it failed (the benchmark state then says why). The supervisor hears a heartbeat
// before each. false when a call failed.
template <typename Timed>
bool take_samples(Sampler& sampler, Timed&& timed) {
  const auto began = std::chrono::steady_clock::now();
  while (!sampler.done()) {
    supervision::heartbeat();
    const std::optional<double> t = timed();
    if (!t) return false;
    sampler.add(*t,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
  }
  return true;
}

// The counters of a cell's sampling: samples, max_error_pct (the target), sampled_s (the
// seconds of its timed calls, the harness share's), from two samples on noise_pct (their
// relative standard deviation) and error_pct (their mean's relative standard error), and for a
// CPU cell cpu_share (its timing thread's CPU seconds over the sampling's wall seconds).
void add_sampling_counters(benchmark::State& state, const Sampler& sampler,
                           std::optional<double> cpu_share);

// nullopt when `container` round-trips through the cell's codec and, for a GPU cell, equals
// the CPU reference's container; else the reason it does not.
std::optional<std::string> check_container(const CellSpec& cell, Workspace& workspace,
                                           ByteSpan input, ByteSpan container);

// Calls `use` with the container a decompression cell decodes, once it is known to equal the
// CPU reference's: the one a compression cell verified (no copy, no comparison) at this point
// or, for a GPU codec with a CPU reference, at a point of the same reference parameters (its
// speed and decoding axes aside, the same bytes: both equal that reference's container), else
// the cached or newly compressed one, compared here. nullopt, or why it cannot be used.
std::optional<std::string> use_checked_container(const CellSpec& cell, Workspace& workspace,
                                                 const std::function<void(ByteSpan)>& use);

// The parameters of the CPU reference of a GPU cell: the GPU point's container-shaping axes
// that the CPU codec also has; its own speed axes stay at their defaults.
Params reference_params(const Codec& reference, const Params& gpu_params);

// The body of the benchmark registered for `cell`.
void run_cell(benchmark::State& state, const CellSpec& cell, Workspace& workspace);

// Registers `cell` with Google Benchmark (its body run_cell, times in nanoseconds; what it
// times: see the definition). `cell`, `workspace` and `queue` must outlive the run. One Google
// Benchmark iteration per run: inside it the workspace's stopping rule decides how many timed
// calls the cell makes, and the iteration's time is their mean. With a `queue`, a cell whose
// unit another worker claimed is skipped with kClaimedElsewhere.
benchmark::internal::Benchmark* register_cell(const CellSpec& cell, Workspace& workspace,
                                              CellQueue* queue = nullptr);

// Registers `cell` as failed with `reason`, not run (it ended an earlier worker: supervision.hpp).
benchmark::internal::Benchmark* register_failed_cell(const CellSpec& cell, std::string reason);

}  // namespace gcbench::driver
