// The LZ77 CPU reference (SPEC 1.3): chunks are factorized in parallel with OpenMP, then the
// payload of format.hpp is assembled in chunk order.
#include <string>
#include <vector>

#include "codecs/common/parallel.hpp"
#include "codecs/lz77/decode.hpp"
#include "codecs/lz77/finder.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/lz77/payload.hpp"
#include "codecs/lz77/triple.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace gcbench::lz77 {
namespace {

constexpr std::int64_t kDecodeSequential = 1;  // index of "sequential" in decode_mode

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
  };
}

class CpuCodec final : public Codec {
 public:
  const CodecInfo& info() const override { return info_; }

  std::uint64_t max_compressed_size(std::uint64_t input_size, const Params& params) const override {
    return kContainerHeaderSize +
           max_payload_size(layout_for(input_size, resolve_params(info_.axes, params)));
  }

  Bytes compress(ByteSpan input, const Params& params, RunStats* /*stats*/) const override {
    const Params p = resolve_params(info_.axes, params);
    const Layout l = layout_for(input.size(), p);
    const auto finder = static_cast<Finder>(p.at("finder"));
    const std::uint32_t triple_bytes = l.geo().triple_bytes;
    std::vector<Bytes> packed(l.chunk_count);
    parallel_for(l.chunk_count, thread_count(p), [&](std::uint64_t c) {
      std::vector<Triple> triples;
      factorize_chunk(
          finder,
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
    return wrap_container(FormatId::lz77, input, payload);
  }

  Bytes decompress(ByteSpan container, const Params& params, RunStats* /*stats*/) const override {
    const Params p = resolve_params(info_.axes, params);
    return decode_guarded("lz77", [&] {
      const OpenedContainer opened = open_container(container, FormatId::lz77);
      // parse_payload checks that the triple counts can produce the size (its tables are
      // bounded by the payload); the size is checked against the decode limit before the
      // output is allocated.
      const ParsedPayload payload = parse_payload(opened.payload, opened.header.original_size);
      check_decode_limit("lz77", "decoded size", opened.header.original_size, container.size());
      Bytes out = p.at("decode_mode") == kDecodeSequential
                      ? decode_sequential(payload)
                      : decode_parallel(payload, thread_count(p));
      verify_original(opened.header, out);
      return out;
    });
  }

 private:
  CodecInfo info_ = make_info();
};

}  // namespace

CodecPtr make_cpu_codec() {
  return std::make_unique<CpuCodec>();
}

}  // namespace gcbench::lz77
