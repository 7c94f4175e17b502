// The codec table, the layer above codecs/ and baselines/. Adding a codec: a folder under
// codecs/ (or baselines/) and one line here.
#include "gcbench/registry.hpp"

#include "baselines/gzip/gzip_codec.hpp"
#include "baselines/nvcomp/nvcomp_codec.hpp"
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
  if (auto program = gzip::find_program(nullptr)) codecs.push_back(gzip::make_codec(*program));
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
  codecs.push_back(fl::make_gpu_codec());
  codecs.push_back(rle::make_gpu_codec());
  codecs.push_back(rle::make_cub_gpu_codec());
  codecs.push_back(lz77::make_gpu_codec());
#endif
#if GCBENCH_HAVE_NVCOMP
  for (auto& c : nvcomp::make_codecs()) codecs.push_back(std::move(c));
#endif
  return codecs;
}

// What this build left out, and why, so that the driver can say so instead of staying silent.
std::vector<UnavailableCodec> make_unavailable() {
  std::vector<UnavailableCodec> missing;
  [[maybe_unused]] const std::string peer_hint =
      "its library was not found at configure time (install ";
  // The gzip program is looked for at run time ($GCBENCH_GZIP, else PATH).
  if (std::string reason; !gzip::find_program(&reason)) missing.push_back({"gzip", reason});
#if !GCBENCH_HAVE_LIBDEFLATE
  missing.push_back({"libdeflate", peer_hint + "libdeflate-dev)"});
#endif
#if !GCBENCH_HAVE_ZSTD
  missing.push_back({"zstd", peer_hint + "libzstd-dev)"});
#endif
#if !GCBENCH_HAVE_LZ4
  missing.push_back({"lz4", peer_hint + "liblz4-dev)"});
#endif
#if !GCBENCH_HAVE_CUDA
  missing.push_back({"gpu codecs", "built without CUDA (no nvcc at configure time)"});
#endif
#ifdef GCBENCH_NVCOMP_MISSING
  missing.push_back({"nvcomp-*", GCBENCH_NVCOMP_MISSING});
#endif
  return missing;
}

}  // namespace

const std::vector<CodecPtr>& registry() {
  static const std::vector<CodecPtr> codecs = make_registry();
  return codecs;
}

const std::vector<UnavailableCodec>& unavailable_codecs() {
  static const std::vector<UnavailableCodec> missing = make_unavailable();
  return missing;
}

std::vector<const Codec*> registered_codecs() {
  std::vector<const Codec*> all;
  for (const CodecPtr& c : registry()) all.push_back(c.get());
  return all;
}

const Codec* find_codec(const std::string& name, Device device) {
  for (const auto& c : registry()) {
    if (c->info().name == name && c->info().device == device) return c.get();
  }
  return nullptr;
}

}  // namespace gcbench
