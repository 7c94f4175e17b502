#pragma once
// The driver's test fixture: a fake codec whose knobs make each failure mode, two small
// inputs, and cells of those run through Google Benchmark as the driver registers them.
#include <gtest/gtest.h>
#include <functional>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

#include "bench/driver/cells.hpp"
#include "bench/driver/execute.hpp"
#include "bench/driver/inputs.hpp"
#include "bench/driver/options.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/registry.hpp"
#include "gcbench/typed_codec.hpp"

namespace gcbench::driver::fixture {

// "Compresses" by prefixing one tag byte; the behaviour knobs make each failure mode.
class FakeCodec final : public TypedCodec<FakeCodec> {
 public:
  struct Knobs {
    Device device = Device::cpu;
    std::uint8_t tag = 0x42;
    bool corrupt_decode = false;
    double kernel_s = 1e-6;
    int change_after = -1;        // >= 0: compress calls after this many write another tag
    double jitter_s = 0;          // every other compress call sleeps this long
    std::string cpu_reference{};  // CodecInfo::cpu_reference
    std::function<void(int call)> on_compress{};  // called in each compress call, numbered from 1
  };
  FakeCodec(std::string name, Knobs knobs) : knobs_(knobs) {
    info_.name = std::move(name);
    info_.version = "test";
    info_.device = knobs.device;
    info_.cpu_reference = knobs.cpu_reference;
    AxisSpec width;
    width.name = "element_width";
    width.default_value = 1;
    width.allowed = {1, 2, 4};
    width.in_container = true;
    AxisSpec work;
    work.name = "work_items";
    work.default_value = 1024;
    work.min = 1;
    work.max = 2048;  // rejects the thesis's 2560..5120
    work.in_container = true;
    info_.axes = {width, work};
  }
  struct Typed {};
  const CodecInfo& info() const override { return info_; }
  Typed typed(const Params&) const {
    ++bind_calls;
    return {};
  }
  std::uint64_t max_compressed_size(std::uint64_t n, const Typed&) const { return n + 1; }
  Bytes compress(ByteSpan in, const Typed&, RunStats* stats) const {
    ++compress_calls;
    if (knobs_.on_compress) knobs_.on_compress(compress_calls);
    if (knobs_.jitter_s > 0 && compress_calls % 2 == 0)
      std::this_thread::sleep_for(std::chrono::duration<double>(knobs_.jitter_s));
    const bool changed = knobs_.change_after >= 0 && compress_calls > knobs_.change_after;
    Bytes out(in.size() + 1, static_cast<std::uint8_t>(knobs_.tag + (changed ? 1 : 0)));
    std::copy(in.begin(), in.end(), out.begin() + 1);
    if (stats != nullptr && knobs_.device == Device::gpu) stats->kernel_s = knobs_.kernel_s;
    return out;
  }
  Bytes decompress(ByteSpan c, const Typed&, RunStats* stats) const {
    ++decompress_calls;
    if (c.empty()) throw DecodeError("empty");
    Bytes out(c.begin() + 1, c.end());
    if (knobs_.corrupt_decode && out.size() > 5) out[5] ^= 1;
    if (stats != nullptr && knobs_.device == Device::gpu) stats->kernel_s = knobs_.kernel_s;
    return out;
  }

  mutable int compress_calls = 0, decompress_calls = 0, bind_calls = 0;

 private:
  CodecInfo info_;
  Knobs knobs_;
};

// An input's bytes as its loader gives them (mapped or in memory), copied for comparing.
inline Bytes loaded(const InputFile& f) {
  const InputData data = f.load();
  return Bytes(data.bytes().begin(), data.bytes().end());
}

inline std::vector<InputFile> two_inputs() {
  auto make = [](std::string name, std::size_t n) {
    return InputFile{"test",
                     name,
                     n,
                     [n] {
                       Bytes b(n);
                       for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>(i * 7);
                       return b;
                     },
                     "",
                     {}};
  };
  return {make("a.bin", 1000), make("b.bin", 300)};
}

// Captures what Google Benchmark reports.
class Capture : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    got.insert(got.end(), runs.begin(), runs.end());
  }
  std::vector<Run> got;
};

class DriverRun : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    static std::string arg0 = "driver_test", min_time = "--benchmark_min_time=0.001";
    static char* argv[] = {arg0.data(), min_time.data()};
    int argc = 2;
    benchmark::Initialize(&argc, argv);
  }
  void TearDown() override { benchmark::ClearRegisteredBenchmarks(); }

  // Runs every cell of `selected` over the inputs, at one point, compress and decompress.
  template <typename Reporter>
  void run(const std::vector<const Codec*>& selected, const std::vector<const Codec*>& all,
           Reporter& reporter, const std::string& direction = "all") {
    Options o;
    o.direction = direction;
    o.axis_values = {{"work_items", {"1024"}}, {"element_width", {"2"}}};
    cells_ = enumerate_cells(selected, all, inputs_, o);
    workspace_.set_stopping_rule(stopping_, 10);
    for (const CellSpec& cell : cells_) register_cell(cell, workspace_);
    benchmark::RunSpecifiedBenchmarks(&reporter);
  }

  // Quick: 0.001 s timed at least and at most 0.01 s of sampling per cell.
  StoppingRule stopping_ = [] {
    StoppingRule quick;
    quick.min_time_s = 0.001;
    return quick;
  }();
  std::vector<InputFile> inputs_ = two_inputs();
  Workspace workspace_{inputs_};
  std::vector<CellSpec> cells_;
};
}  // namespace gcbench::driver::fixture
