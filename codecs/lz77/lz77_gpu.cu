// The LZ77 GPU codec: the CPU reference's format axes, plus the GPU design and decoder.
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "codecs/common/container_device.cuh"
#include "codecs/common/crc32.cuh"
#include "src/cuda/cuda_check.hpp"
#include "codecs/common/host_codec.hpp"
#include "src/cuda/temp_storage.hpp"
#include "codecs/lz77/design_auto.hpp"
#include "codecs/lz77/entropy_counter.hpp"
#include "codecs/lz77/format.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/lz77/lz77_gpu.cuh"
#include "codecs/lz77/params.hpp"
#include "codecs/lz77/payload.hpp"
#include "codecs/lz77/speed_model.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/typed_device_codec.hpp"

namespace gcbench::lz77 {
namespace {

// "auto" is the design axis's last value (the others are gpu::Design's) and its default.
constexpr std::int64_t kDesignAuto = 3;

AxisSpec named_axis(std::string name, std::string help, std::vector<std::string> names,
                    std::int64_t default_value = 0) {
  AxisSpec a;
  a.name = std::move(name);
  a.help = std::move(help);
  a.default_value = default_value;
  a.min = 0;
  a.max = static_cast<std::int64_t>(names.size()) - 1;
  a.names = std::move(names);
  return a;
}

CodecInfo make_info() {
  // Built from std::string values: GCC 12 warns falsely (-Wrestrict) on assigning literals.
  CodecInfo info;
  info.name = std::string{"lz77"};
  info.version = std::string{"2"};
  info.device = Device::gpu;
  info.cpu_reference = std::string{"lz77"};
  info.container_format = kContainerFormat;
  info.speed_model = gpu_speed_model();
  info.container_counters = container_counters;
  info.description = std::string{
      "LZ77 triples per chunk on CUDA: thesis-faithful thread per chunk, or a fast "
      "tile-parallel match pass, or a warp per chunk; warp decoders per launch block or per "
      "chunk, with links across chunks followed to their bytes"};
  // The format axes are the CPU reference's own (same names, ranges and defaults), so that
  // equal parameters mean equal containers; its threads and decode_mode axes are CPU-only.
  const CodecPtr cpu = make_cpu_codec();
  for (const AxisSpec& a : cpu->info().axes) {
    if (a.name != "threads" && a.name != "decode_mode") info.axes.push_back(a);
  }
  info.axes.push_back(named_axis(
      "design",
      "thread: one GPU thread per chunk (the thesis); block: parallel match pass over 4 KiB "
      "tiles in shared memory, then the greedy parse; warp: a warp per chunk, matches only "
      "where the parse stops, 32 candidates at a time (hash, brute); auto (default): per finder, "
      "the fastest of these whose container equals the CPU reference's, timed once per run on "
      "this GPU on a 4 MiB sample",
      {"thread", "block", "warp", "auto"}, kDesignAuto));
  info.axes.push_back(named_axis(
      "decode_mode",
      "auto: chunk when window_scope=chunk, else jump; block: one warp per launch block "
      "(the thesis); chunk: one warp per chunk (window_scope=chunk only); jump: one warp per "
      "chunk leaving links to earlier chunks, then each link followed to its byte",
      {"auto", "block", "chunk", "jump"}));
  return info;
}

// design=auto's choice for one bound point, made on first use (see GpuCodec::design()).
struct AutoChoice {
  std::once_flag once;
  gpu::Design design = gpu::Design::thread;
};

// The GPU codec's parameters, typed; design stays the axis value, auto included. For auto,
// the resolved map is kept for the calibration (design_auto.hpp), read once per bound point.
struct GpuParams {
  FormatParams format;
  Finder finder = Finder::hash;
  std::int64_t design = kDesignAuto;
  gpu::DecodeMode mode = gpu::DecodeMode::automatic;
  Params resolved_for_auto;
  std::shared_ptr<AutoChoice> auto_choice;  // shared by the copies of one bound point
};

GpuParams gpu_params(const Params& resolved) {
  const std::int64_t design = axis_value(resolved, "design");
  return {format_params(resolved),
          static_cast<Finder>(axis_value(resolved, "finder")),
          design,
          static_cast<gpu::DecodeMode>(axis_value(resolved, "decode_mode")),
          design == kDesignAuto ? resolved : Params{},
          std::make_shared<AutoChoice>()};
}

struct Temp {
  void* codec;
  std::size_t codec_bytes;
  void* crc;
  std::size_t crc_bytes;
  std::uint64_t* payload_size;
  std::uint32_t* crc_value;

  Temp(cuda::TempCarver& carve, std::size_t codec_temp, std::uint64_t original_size)
      : codec(carve.take<std::uint8_t>(codec_temp)),
        codec_bytes(codec_temp),
        crc(carve.take<std::uint8_t>(cuda::crc32_temp_bytes(original_size))),
        crc_bytes(cuda::crc32_temp_bytes(original_size)),
        payload_size(carve.take<std::uint64_t>(1)),
        crc_value(carve.take<std::uint32_t>(1)) {}
};

struct Plan {
  Layout layout;
  std::uint64_t triples;
  gpu::DecodeMode mode;
  std::size_t codec_temp;
};

class GpuCodec final : public TypedDeviceCodec<GpuCodec> {
 public:
  using Typed = GpuParams;

  const CodecInfo& info() const override { return info_; }

  GpuParams typed(const Params& resolved) const { return gpu_params(resolved); }

  std::uint64_t max_compressed_size(std::uint64_t input_size, const GpuParams& g) const {
    return kContainerHeaderSize + max_payload_size(layout_for(input_size, g.format));
  }

  std::size_t compress_temp_bytes(std::uint64_t input_size, const GpuParams& g) const {
    cuda::TempCarver carve;
    Temp(carve, gpu::compress_temp_bytes(layout_for(input_size, g.format), g.finder, design(g)),
         input_size);
    return carve.bytes();
  }

  void compress_async(const CompressBuffers& b, const GpuParams& g, DeviceStream stream) const {
    const Layout layout = layout_for(b.input_size, g.format);
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const gpu::Design design = this->design(g);
    const Temp t(carve, gpu::compress_temp_bytes(layout, g.finder, design), b.input_size);
    gpu::compress_async(b.input, layout, g.finder, design, t.codec, t.codec_bytes,
                        b.output + kContainerHeaderSize, t.payload_size, stream);
    cuda::crc32_async(b.input, b.input_size, t.crc, t.crc_bytes, {t.crc_value}, stream);
    cuda::write_container_header_async(b.output, kContainerFormat, b.input_size, t.payload_size,
                                       t.crc_value, b.output_size, stream);
  }

  DecodePlan plan_decompress(ByteSpan container, const GpuParams& g) const {
    const OpenedContainer opened = open_container(container, kContainerFormat);
    const ParsedPayload parsed = parse_payload(opened.payload, opened.header.original_size);
    const gpu::DecodeMode mode = g.mode;
    gpu::check_mode(parsed.layout, mode);
    Plan plan{parsed.layout, parsed.chunk_first_triple.back(), mode,
              gpu::decompress_temp_bytes(parsed.layout, mode)};
    cuda::TempCarver carve;
    Temp(carve, plan.codec_temp, opened.header.original_size);
    return make_plan(container, opened.header.original_size, carve.bytes(), plan);
  }

  void decompress_async(const DecodePlan& plan, const DecompressBuffers& b, const GpuParams&,
                        DeviceStream stream) const {
    const Plan& pl = std::any_cast<const Plan&>(plan.detail);
    cuda::TempCarver carve(b.temp, b.temp_bytes);
    const Temp t(carve, pl.codec_temp, plan.original_size);
    cuda::begin_decode_async(b.container, plan.header, b.status, stream);
    const std::uint64_t fusable = gpu::crc_fused_bytes(pl.layout, pl.mode);
    const cuda::FusedCrcTiles crc =
        fusable == 0 ? cuda::FusedCrcTiles{}
                     : cuda::crc32_fused_tiles(t.crc, t.crc_bytes, plan.original_size, fusable,
                                               gpu::kCrcTileBytes, stream);
    gpu::decompress_async(pl.layout, pl.triples, pl.mode, b.container + kContainerHeaderSize,
                          t.codec, t.codec_bytes, b.output, b.status, crc, stream);
    cuda::crc32_async(b.output, plan.original_size, t.crc, t.crc_bytes,
                      {nullptr, b.container + 24, b.status}, stream, crc);
  }

  std::string describe(const DeviceStatus& status) const override {
    return gpu::describe_error(status);
  }

  std::optional<RunTimeChoice> run_time_choice(const GpuParams& g) const {
    if (g.design != kDesignAuto) return std::nullopt;
    const AutoDesign& chosen = auto_design(info_.axes, g.resolved_for_auto);
    return RunTimeChoice{chosen.scope, "design=" + design_names()[chosen.design], chosen.detail};
  }

 private:
  // design=auto calibrates on first use (once per process and format), and a bound point
  // reads the process's choice once, in compress_temp_bytes() (which callers make before
  // compress_async()): an enqueueing call then neither waits nor looks anything up by name.
  gpu::Design design(const GpuParams& g) const {
    if (g.design != kDesignAuto) return static_cast<gpu::Design>(g.design);
    std::call_once(g.auto_choice->once, [&] {
      g.auto_choice->design =
          static_cast<gpu::Design>(auto_design(info_.axes, g.resolved_for_auto).design);
    });
    return g.auto_choice->design;
  }
  const std::vector<std::string>& design_names() const {
    for (const AxisSpec& a : info_.axes) {
      if (a.name == "design") return a.names;
    }
    throw std::logic_error("lz77 GPU codec without a design axis");
  }

  CodecInfo info_ = make_info();
};

}  // namespace

CodecPtr make_gpu_codec() {
  return gcbench::gpu::make_host_codec(std::make_unique<GpuCodec>());
}

}  // namespace gcbench::lz77
