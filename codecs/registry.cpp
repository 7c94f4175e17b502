// The codec table. Adding a codec: a folder under codecs/ (or baselines/) and one line here.
#include "gcbench/registry.hpp"

#include "baselines/peers/peers.hpp"
#include "baselines/zlib/zlib_codec.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/rle/rle.hpp"

namespace gcbench {
namespace {

std::vector<CodecPtr> make_registry() {
  std::vector<CodecPtr> codecs;
  codecs.push_back(fl::make_cpu_codec());
  codecs.push_back(rle::make_cpu_codec());
  codecs.push_back(lz77::make_cpu_codec());
  codecs.push_back(zlib::make_codec());
#if GCBENCH_HAVE_LIBDEFLATE
  codecs.push_back(peers::make_libdeflate_codec());
#endif
#if GCBENCH_HAVE_ZSTD
  codecs.push_back(peers::make_zstd_codec());
#endif
#if GCBENCH_HAVE_LZ4
  codecs.push_back(peers::make_lz4_codec());
#endif
#if GCBENCH_HAVE_CUDA
#endif
  return codecs;
}

}  // namespace

const std::vector<CodecPtr>& registry() {
  static const std::vector<CodecPtr> codecs = make_registry();
  return codecs;
}

const Codec* find_codec(const std::string& name, Device device) {
  for (const auto& c : registry()) {
    if (c->info().name == name && c->info().device == device) return c.get();
  }
  return nullptr;
}

const char* to_string(Device d) { return d == Device::cpu ? "cpu" : "gpu"; }

}  // namespace gcbench
