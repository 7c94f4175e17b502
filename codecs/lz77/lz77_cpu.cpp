// The LZ77 CPU reference (format.hpp): chunks are factorized in parallel with OpenMP, then the
// payload of format.hpp is assembled in chunk order.
#include <span>
#include <string>
#include <vector>

#include "codecs/common/container_codec.hpp"
#include "codecs/common/parallel.hpp"
#include "codecs/lz77/decode.hpp"
#include "codecs/lz77/entropy_counter.hpp"
#include "codecs/lz77/finder.hpp"
#include "codecs/lz77/format.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/lz77/params.hpp"
#include "codecs/lz77/payload.hpp"
#include "codecs/lz77/speed_model.hpp"
#include "codecs/lz77/triple.hpp"

namespace gcbench::lz77 {
namespace {

AxisSpec named_axis(std::string name, std::string help, std::vector<std::string> names,
                    bool in_container) {
  AxisSpec a;
  a.name = std::move(name);
  a.help = std::move(help);
  a.default_value = 0;
  a.min = 0;
  a.max = static_cast<std::int64_t>(names.size()) - 1;
  a.names = std::move(names);
  a.in_container = in_container;
  return a;
}

AxisSpec range_axis(std::string name, std::string help, std::int64_t def, std::int64_t min,
                    std::int64_t max) {
  AxisSpec a;
  a.name = std::move(name);
  a.help = std::move(help);
  a.default_value = def;
  a.min = min;
  a.max = max;
  a.in_container = true;
  return a;
}

// Built by aggregate initialization: assigning string literals to the members trips a
// false -Wrestrict in GCC 12.
CodecInfo make_info() {
  return CodecInfo{
      .name = "lz77",
      .version = "1",
      .device = Device::cpu,
      .description =
          "LZ77 with (offset, length, next) triples per chunk, as in the CTU 2018 OpenCL thesis",
      .axes =
          {
              named_axis("finder", "match finder (identical output, speed only)",
                         {"hash", "z", "brute"}, false),
              range_axis("work_items", "chunks per launch block (the thesis's PVPP)",
                         kDefaultWorkItems, 1, kMaxWorkItems),
              range_axis("chunk", "bytes per work item", kDefaultChunk, kMinChunk, kMaxChunk),
              named_axis("config",
                         "thesis: 4 KiB window, 3-byte triples; wide: 32 KiB, 258 look-ahead",
                         {"thesis", "wide"}, true),
              named_axis("window_scope",
                         "block: window reaches earlier chunks of the block; chunk: none",
                         {"block", "chunk"}, true),
              named_axis("decode_mode",
                         "parallel: OpenMP over blocks (over chunks with window_scope=chunk); "
                         "sequential: one pass over all chunks on one thread",
                         {"parallel", "sequential"}, false),
              threads_axis(),
          },
      .speed_model = cpu_speed_model(),
      .container_counters = container_counters,
  };
}

// The payload side of the CPU reference; the container around it is ContainerCodec's.
struct Lz77Cpu {
  using Typed = CpuParams;
  using Parsed = ParsedPayload;
  static constexpr ContainerFormat format = kContainerFormat;

  CpuParams typed(const Params& resolved) const { return cpu_params(resolved); }

  std::uint64_t max_payload_size(std::uint64_t input_size, const CpuParams& p) const {
    return lz77::max_payload_size(layout_for(input_size, p.format));
  }

  Bytes encode(ByteSpan input, const CpuParams& p) const {
    const Layout l = layout_for(input.size(), p.format);
    const std::uint32_t triple_bytes = l.geo().triple_bytes;
    std::vector<Bytes> packed(l.chunk_count);
    parallel_for(l.chunk_count, p.threads, [&](std::uint64_t c) {
      std::vector<Triple> triples;
      factorize_chunk(
          p.finder,
          ChunkTask{input.data(), l.window_start(c), l.chunk_begin(c), l.chunk_end(c), l.geo()},
          triples);
      packed[c].resize(triples.size() * triple_bytes);
      for (std::size_t i = 0; i < triples.size(); ++i) {
        pack_triple(l.config, triples[i], packed[c].data() + i * triple_bytes);
      }
    });
    std::vector<std::uint32_t> counts(l.chunk_count);
    std::uint64_t area_size = 0;
    for (std::uint64_t c = 0; c < l.chunk_count; ++c) {
      counts[c] = static_cast<std::uint32_t>(packed[c].size() / triple_bytes);
      area_size += packed[c].size();
    }
    Bytes payload = payload_head(l, counts);
    payload.reserve(payload.size() + area_size);
    for (Bytes& chunk : packed) {
      payload.insert(payload.end(), chunk.begin(), chunk.end());
      Bytes().swap(chunk);  // keeps the peak near one copy of the triples
    }
    return payload;
  }

  // Checks that the triple counts can produce the size (the tables are bounded by the payload).
  ParsedPayload parse(ByteSpan payload, std::uint64_t original_size, const CpuParams&) const {
    return parse_payload(payload, original_size);
  }

  void decode(const ParsedPayload& payload, const CpuParams& p, std::span<std::uint8_t> out) const {
    if (p.sequential_decode) {
      decode_sequential(payload, out.data());
    } else {
      decode_parallel(payload, p.threads, out.data());
    }
  }
};

}  // namespace

CodecPtr make_cpu_codec() {
  return make_container_codec(make_info(), Lz77Cpu{});
}

}  // namespace gcbench::lz77
