#include "registry/plugin_codec.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <algorithm>
#include <any>
#include <array>
#include <cstdint>
#include <memory>
#include <regex>
#include <set>
#include <utility>

#include "gcbench/container.hpp"
#include "gcbench/device_codec.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/plugin.h"
#include "gcbench/typed_codec.hpp"
#include "gcbench/typed_device_codec.hpp"
#if GCBENCH_HAVE_CUDA
#include "codecs/common/host_codec.hpp"
#endif

namespace gcbench::plugins {
namespace {

using u64 = std::uint64_t;

// What a plugin call needs besides its arguments: the codec's name and the plugin's file for
// messages, a message buffer, and one place where a status, or an exception that escaped the
// plugin, becomes the error gcbench's callers expect, naming the function and the file.
class Call {
 public:
  Call(const std::string& codec, const std::string& where, const char* function)
      : codec_(codec), where_(where), function_(function) {}

  char* message() { return message_.data(); }
  std::size_t capacity() const { return message_.size(); }

  // Runs `call` (returning a plugin status) and throws for anything but GCBENCH_PLUGIN_OK:
  // DecodeError for corrupt input, ParamError for parameters, std::runtime_error otherwise.
  template <typename F>
  void run(F&& call) {
    int status = GCBENCH_PLUGIN_ERROR_INTERNAL;
    try {
      status = call();
    } catch (const std::exception& e) {
      throw std::runtime_error(fmt::format("{}: the plugin threw from {}: {} [plugin {}]", codec_,
                                           function_, e.what(), where_));
    } catch (...) {
      throw std::runtime_error(
          fmt::format("{}: the plugin threw from {} [plugin {}]", codec_, function_, where_));
    }
    if (status == GCBENCH_PLUGIN_OK) return;
    message_.back() = '\0';
    const std::string text =
        fmt::format("{}: {} failed ({}){} [plugin {}]", codec_, function_, status_name(status),
                    message_[0] ? std::string(": ") + message_.data() : "", where_);
    if (status == GCBENCH_PLUGIN_ERROR_CORRUPT) throw DecodeError(text);
    if (status == GCBENCH_PLUGIN_ERROR_PARAMS) throw ParamError(text);
    throw std::runtime_error(text);
  }

 private:
  static const char* status_name(int status) {
    switch (status) {
      case GCBENCH_PLUGIN_ERROR_CORRUPT:
        return "corrupt input";
      case GCBENCH_PLUGIN_ERROR_OUTPUT_TOO_SMALL:
        return "output too small";
      case GCBENCH_PLUGIN_ERROR_PARAMS:
        return "parameters";
      case GCBENCH_PLUGIN_ERROR_INTERNAL:
        return "internal error";
      default:
        return "unknown status";
    }
  }

  const std::string& codec_;
  const std::string& where_;
  const char* function_;
  std::array<char, 512> message_{};
};

// The ABI passes a point of the axes as one value per axis, in declaration order.
using AxisValues = std::vector<std::int64_t>;

AxisValues axis_values(const CodecInfo& info, const Params& resolved) {
  AxisValues values;
  for (const AxisSpec& axis : info.axes) values.push_back(resolved.at(axis.name));
  return values;
}

// The buffers this wrapper allocates for a plugin carry guard bytes past the capacity the plugin
// is given, as the driver's timed buffers do (bench/driver/output_guard.hpp): a write past it
// is an error, never a verified result.
constexpr std::size_t kGuardBytes = 64;
constexpr std::uint8_t kGuardByte = 0xA5;

Bytes guarded_buffer(u64 capacity) {
  return Bytes(capacity + kGuardBytes, kGuardByte);
}

// Throws when a guard byte after `capacity` changed; else cuts `buffer` to `size`.
void check_guard(Bytes& buffer, u64 capacity, u64 size, const std::string& codec,
                 const std::string& where, const char* function) {
  if (std::any_of(buffer.begin() + static_cast<std::ptrdiff_t>(capacity), buffer.end(),
                  [](std::uint8_t b) { return b != kGuardByte; })) {
    throw std::runtime_error(
        fmt::format("{}: {} wrote past its output buffer of {} bytes [plugin {}]", codec, function,
                    capacity, where));
  }
  buffer.resize(size);
}

// A plugin's bound on its output, held to what any codec may need before anything is allocated
// by it: a bound of gigabytes for a small input would be allocated (and OOM-kill the run).
u64 checked_bound(u64 claimed, u64 input_size, const std::string& codec, const std::string& where) {
  const u64 limit = 4 * input_size + (u64{16} << 20);
  if (claimed > limit || claimed < 1) {
    throw std::runtime_error(fmt::format(
        "{}: max_compressed_size claims {} bytes for {} input bytes; gcbench takes bounds from 1 "
        "to 4 x the input + 16 MiB ({}) [plugin {}]",
        codec, claimed, input_size, limit, where));
  }
  return claimed;
}

// A plugin's host path as a codec: bind() (TypedCodec) resolves the point into AxisValues.
class CpuPlugin final : public TypedCodec<CpuPlugin> {
 public:
  using Typed = AxisValues;

  CpuPlugin(CodecInfo info, std::string where, const gcbench_plugin_cpu& cpu)
      : info_(std::move(info)), where_(std::move(where)), cpu_(cpu) {}
  const CodecInfo& info() const override { return info_; }
  Typed typed(const Params& resolved) const { return axis_values(info_, resolved); }

  u64 max_compressed_size(u64 input_size, const Typed& p) const {
    return checked_bound(cpu_.max_compressed_size(p.data(), input_size), input_size, info_.name,
                         where_);
  }

  Bytes compress(ByteSpan input, const Typed& p, RunStats* stats) const {
    const u64 capacity = max_compressed_size(input.size(), p);
    Bytes output = guarded_buffer(capacity);
    const std::size_t written =
        compress_into(input, std::span<std::uint8_t>(output).first(capacity), p, stats);
    check_guard(output, capacity, written, info_.name, where_, "compress");
    return output;
  }

  // The plugin compresses into gcbench's buffer: its compress takes one.
  std::size_t compress_into(ByteSpan input, std::span<std::uint8_t> room, const Typed& p,
                            RunStats* /*stats*/) const {
    u64 written = 0;
    Call call(info_.name, where_, "compress");
    call.run([&] {
      return cpu_.compress(p.data(), input.data(), input.size(), room.data(), room.size(), &written,
                           call.message(), call.capacity());
    });
    if (written > room.size()) {
      throw std::runtime_error(fmt::format("{}: compress reports {} bytes written into {}",
                                           info_.name, written, room.size()));
    }
    return written;
  }

  Bytes decompress(ByteSpan container, const Typed& p, RunStats* stats) const {
    const u64 claimed = decode_guarded(info_.name, [&] { return claimed_size(container); });
    check_decode_limit(info_.name, "decoded size", claimed, container.size());
    Bytes output = guarded_buffer(claimed);
    decompress_into(container, std::span<std::uint8_t>(output).first(claimed), p, stats);
    check_guard(output, claimed, claimed, info_.name, where_, "decompress");
    return output;
  }

  // The plugin decodes into gcbench's buffer: its decompress takes one.
  void decompress_into(ByteSpan container, std::span<std::uint8_t> output, const Typed& p,
                       RunStats* /*stats*/) const {
    decode_guarded(info_.name, [&] {
      const u64 claimed = claimed_size(container);
      if (claimed != output.size()) {
        throw DecodeError(fmt::format("{}: its container claims {} bytes, the output holds {}",
                                      info_.name, claimed, output.size()));
      }
      u64 written = 0;
      Call call(info_.name, where_, "decompress");
      call.run([&] {
        return cpu_.decompress(p.data(), container.data(), container.size(), output.data(),
                               output.size(), &written, call.message(), call.capacity());
      });
      if (written != claimed) {
        throw DecodeError(fmt::format("{}: decoded {} bytes, its container claims {}", info_.name,
                                      written, claimed));
      }
    });
  }

 private:
  // The decoded size the container claims, as the plugin reads it.
  u64 claimed_size(ByteSpan container) const {
    u64 claimed = 0;
    Call size_call(info_.name, where_, "decompressed_size");
    size_call.run([&] {
      return cpu_.decompressed_size(container.data(), container.size(), &claimed,
                                    size_call.message(), size_call.capacity());
    });
    return claimed;
  }

  const CodecInfo info_;
  const std::string where_;  // the plugin's file
  const gcbench_plugin_cpu& cpu_;
};

// A plugin's device path as a device codec: bind() (TypedDeviceCodec) as CpuPlugin's.
class GpuPlugin final : public TypedDeviceCodec<GpuPlugin> {
 public:
  using Typed = AxisValues;

  GpuPlugin(CodecInfo info, std::string where, const gcbench_plugin_gpu& gpu)
      : info_(std::move(info)), where_(std::move(where)), gpu_(gpu) {}
  const CodecInfo& info() const override { return info_; }
  Typed typed(const Params& resolved) const { return axis_values(info_, resolved); }

  u64 max_compressed_size(u64 input_size, const Typed& p) const {
    return checked_bound(gpu_.max_compressed_size(p.data(), input_size), input_size, info_.name,
                         where_);
  }
  std::size_t compress_temp_bytes(u64 input_size, const Typed& p) const {
    return gpu_.compress_temp_bytes(p.data(), input_size);
  }

  void compress_async(const CompressBuffers& b, const Typed& p, DeviceStream stream) const {
    Call call(info_.name, where_, "compress_async");
    call.run([&] {
      return gpu_.compress_async(p.data(), b.input, b.input_size, b.temp, b.temp_bytes, b.output,
                                 b.output_size, stream, call.message(), call.capacity());
    });
  }

  DecodePlan plan_decompress(ByteSpan container, const Typed& p) const {
    gcbench_plugin_plan found{};
    Call call(info_.name, where_, "plan_decompress");
    call.run([&] {
      return gpu_.plan_decompress(p.data(), container.data(), container.size(), &found,
                                  call.message(), call.capacity());
    });
    check_decode_limit(info_.name, "decoded size", found.decompressed_size, container.size());
    DecodePlan plan;
    plan.container_size = container.size();
    plan.original_size = found.decompressed_size;
    plan.temp_bytes = found.temp_bytes;
    std::copy_n(container.begin(), std::min(container.size(), plan.header.size()),
                plan.header.begin());
    plan.detail = found;
    return plan;
  }

  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b, const Typed& p,
                        DeviceStream stream) const {
    static_assert(sizeof(gcbench_plugin_device_status) == sizeof(DeviceStatus));
    const auto& found = std::any_cast<const gcbench_plugin_plan&>(plan.detail);
    Call call(info_.name, where_, "decompress_async");
    call.run([&] {
      return gpu_.decompress_async(p.data(), &found, b.container, plan.container_size, b.temp,
                                   b.temp_bytes, b.output,
                                   reinterpret_cast<gcbench_plugin_device_status*>(b.status),
                                   stream, call.message(), call.capacity());
    });
  }

 private:
  const CodecInfo info_;
  const std::string where_;  // the plugin's file
  const gcbench_plugin_gpu& gpu_;
};

// Checks the description against the ABI and gcbench's rules; `where` names the file.
void check_description(const gcbench_plugin& p, const std::string& where,
                       const std::set<std::string>& taken) {
  const auto fail = [&](const std::string& what) {
    throw PluginError(fmt::format("plugin {}: {}", where, what));
  };
  if (p.abi_version != GCBENCH_PLUGIN_ABI_VERSION) {
    fail(fmt::format("built for plugin ABI version {}, this gcbench loads version {}",
                     p.abi_version, GCBENCH_PLUGIN_ABI_VERSION));
  }
  static const std::regex kName("[a-z0-9][a-z0-9_-]*");
  if (p.name == nullptr || !std::regex_match(p.name, kName)) {
    fail("its name must be lower-case letters, digits, '_' and '-'");
  }
  if (taken.count(p.name)) fail(fmt::format("the name '{}' is already a codec's", p.name));
  if (p.version == nullptr || p.description == nullptr) fail("it has no version or description");
  if (p.cpu == nullptr && p.gpu == nullptr) fail("it has neither a CPU nor a GPU path");
  if (p.cpu && !(p.cpu->max_compressed_size && p.cpu->compress && p.cpu->decompressed_size &&
                 p.cpu->decompress)) {
    fail("its CPU path lacks a function");
  }
  if (p.gpu && !(p.gpu->max_compressed_size && p.gpu->compress_temp_bytes &&
                 p.gpu->compress_async && p.gpu->plan_decompress && p.gpu->decompress_async)) {
    fail("its GPU path lacks a function");
  }
  if (p.axis_count > 0 && p.axes == nullptr) fail("it declares axes it does not give");
}

// A name from a plugin, as a message can show it: bytes outside printable ASCII as '?'.
std::string shown(const char* name) {
  std::string text(name);
  for (char& c : text) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return text;
}

// Names an axis may not take: Google Benchmark's suffixes of a cell's name (an axis of that name
// would merge different points into one cell) and the driver's own options spelled as axes
// (--<axis> is the axis's flag).
const std::set<std::string> kReservedAxisNames = {
    "iterations",   "repeats", "min_time", "min_warmup_time", "real_time", "manual_time",
    "process_time", "corpus",  "files",    "codecs",          "device",    "direction",
    "sweep",        "preset",  "plugin",   "out_dir",         "export",    "timing",
    "cold_l2",      "gpus",    "shard",    "max_error",       "max_time",  "call_limit",
    "list",         "help",    "version",  "include",         "exclude",   "as"};

AxisSpec axis_spec(const gcbench_plugin_axis& a, const std::string& where) {
  if (a.name == nullptr || *a.name == '\0') {
    throw PluginError(fmt::format("plugin {}: an axis has no name", where));
  }
  // A plain identifier: the name is a part of every cell name, a flag and a column.
  static const std::regex kAxisName("[a-z][a-z0-9_]*");
  if (!std::regex_match(a.name, kAxisName)) {
    throw PluginError(
        fmt::format("plugin {}: axis '{}' is not a plain name (lower-case letters, "
                    "digits and '_', a letter first)",
                    where, shown(a.name)));
  }
  if (kReservedAxisNames.contains(a.name)) {
    throw PluginError(
        fmt::format("plugin {}: axis '{}' is a name gcbench or Google Benchmark "
                    "gives a cell or a flag of its own",
                    where, a.name));
  }
  AxisSpec spec{a.name, a.help ? a.help : "", a.default_value, a.min, a.max, {},
                {},     a.in_container != 0};
  if (a.allowed) spec.allowed.assign(a.allowed, a.allowed + a.allowed_count);
  if (a.sweep) spec.sweep.assign(a.sweep, a.sweep + a.sweep_count);
  for (std::size_t i = 0; a.names && i < a.name_count; ++i) {
    spec.names.emplace_back(a.names[i] ? a.names[i] : "");
  }
  if (!spec.names.empty()) {
    spec.min = 0;
    spec.max = static_cast<std::int64_t>(spec.names.size()) - 1;
  }
  if (!spec.accepts(spec.default_value)) {
    throw PluginError(fmt::format("plugin {}: axis {}'s default {} is not {}", where, spec.name,
                                  spec.default_value, spec.valid_values()));
  }
  return spec;
}

CodecInfo codec_info(const gcbench_plugin& p, const std::string& where, Device device) {
  CodecInfo info;
  info.name = p.name;
  info.version = p.version;
  info.device = device;
  info.description = fmt::format("{} (plugin {})", p.description, where);
  for (std::size_t i = 0; i < p.axis_count; ++i) {
    AxisSpec axis = axis_spec(p.axes[i], where);
    if (std::any_of(info.axes.begin(), info.axes.end(),
                    [&](const AxisSpec& other) { return other.name == axis.name; })) {
      throw PluginError(fmt::format("plugin {}: axis '{}' is declared twice", where, axis.name));
    }
    info.axes.push_back(std::move(axis));
  }
  if (device == Device::gpu && p.cpu != nullptr && p.gpu_matches_cpu) info.cpu_reference = p.name;
  return info;
}

}  // namespace

LoadedPlugin load_plugin(const std::filesystem::path& path, const std::set<std::string>& taken) {
  const std::string where = path.string();
  // RTLD_LOCAL: two plugins may define the same internal symbols.
  void* library = dlopen(where.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) throw PluginError(fmt::format("plugin {}: {}", where, dlerror()));
  auto entry = reinterpret_cast<gcbench_plugin_entry_fn>(dlsym(library, "gcbench_plugin_entry"));
  if (entry == nullptr) {
    throw PluginError(fmt::format("plugin {}: no symbol gcbench_plugin_entry", where));
  }
  const gcbench_plugin* description = nullptr;
  try {
    description = entry();
  } catch (const std::exception& e) {
    throw PluginError(fmt::format("plugin {}: gcbench_plugin_entry threw: {}", where, e.what()));
  } catch (...) {
    throw PluginError(fmt::format("plugin {}: gcbench_plugin_entry threw", where));
  }
  if (description == nullptr) throw PluginError(fmt::format("plugin {}: no description", where));
  check_description(*description, where, taken);

  LoadedPlugin loaded;
  if (description->cpu != nullptr) {
    loaded.codecs.push_back(std::make_unique<CpuPlugin>(
        codec_info(*description, where, Device::cpu), where, *description->cpu));
  }
  if (description->gpu != nullptr) {
#if GCBENCH_HAVE_CUDA
    loaded.codecs.push_back(gpu::make_host_codec(std::make_unique<GpuPlugin>(
        codec_info(*description, where, Device::gpu), where, *description->gpu)));
#else
    loaded.left_out.push_back(
        {std::string(description->name) + " (gpu)",
         fmt::format("plugin {}: this gcbench was built without CUDA", where)});
#endif
  }
  return loaded;
}

}  // namespace gcbench::plugins
