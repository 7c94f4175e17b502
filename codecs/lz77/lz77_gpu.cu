// The LZ77 GPU codec: the CPU reference's format axes, plus the GPU design and decoder.
#include <string>
#include <utility>
#include <vector>

#include "codecs/common/cuda_check.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/lz77/lz77_gpu.cuh"
#include "codecs/lz77/payload.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::lz77 {
namespace {

AxisSpec named_axis(std::string name, std::string help, std::vector<std::string> names) {
  AxisSpec a;
  a.name = std::move(name);
  a.help = std::move(help);
  a.default_value = 0;
  a.min = 0;
  a.max = static_cast<std::int64_t>(names.size()) - 1;
  a.names = std::move(names);
  return a;
}

CodecInfo make_info() {
  // Built from std::string values: GCC 12 warns falsely (-Wrestrict) on assigning literals.
  CodecInfo info;
  info.name = std::string{"lz77"};
  info.version = std::string{"1"};
  info.device = Device::gpu;
  info.description = std::string{
      "LZ77 triples per chunk on CUDA: thesis-faithful thread per chunk, or a fast "
      "tile-parallel match pass, or a warp per chunk; warp decoders per launch block or per "
      "chunk, with pointer jumping across chunks"};
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
      "where the parse stops, 32 candidates at a time (hash, brute)",
      {"thread", "block", "warp"}));
  info.axes.push_back(named_axis(
      "decode_mode",
      "auto: chunk when window_scope=chunk, else jump; block: one warp per launch block "
      "(the thesis); chunk: one warp per chunk (window_scope=chunk only); jump: one warp per "
      "chunk leaving links to earlier chunks, resolved by pointer jumping",
      {"auto", "block", "chunk", "jump"}));
  return info;
}

class GpuCodec final : public Codec {
 public:
  const CodecInfo& info() const override { return info_; }

  std::uint64_t max_compressed_size(std::uint64_t input_size, const Params& params) const override {
    return kContainerHeaderSize +
           max_payload_size(layout_for(input_size, resolve_params(info_.axes, params)));
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats* stats) const override {
    const Params p = resolve_params(info_.axes, params);
    const Bytes payload = gpu::compress_payload(input, layout_for(input.size(), p),
                                                static_cast<Finder>(p.at("finder")),
                                                static_cast<gpu::Design>(p.at("design")), stats);
    return wrap_container(FormatId::lz77, input, payload);
  }

  Bytes decompress(ByteSpan container, const Params& params, RunStats* stats) const override {
    const Params p = resolve_params(info_.axes, params);
    const OpenedContainer opened = open_container(container, FormatId::lz77);
    const ParsedPayload payload = parse_payload(opened.payload, opened.header.original_size);
    Bytes out =
        gpu::decompress_payload(payload, static_cast<gpu::DecodeMode>(p.at("decode_mode")), stats);
    verify_original(opened.header, out);
    return out;
  }

 private:
  CodecInfo info_ = make_info();
};

}  // namespace

CodecPtr make_gpu_codec() {
  return std::make_unique<GpuCodec>();
}

}  // namespace gcbench::lz77
