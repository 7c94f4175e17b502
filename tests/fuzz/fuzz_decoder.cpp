// libFuzzer entry: any payload given to a decoder must decode or throw DecodeError; a crash,
// hang, sanitizer report or any other exception is a finding. The fuzz input goes behind a
// valid container header (size from its first 3 bytes) so that the fuzzer reaches the payload
// parser instead of stopping at the header checksum; zlib's gzip stream is fuzzed as is.
#include <cstddef>
#include <cstdint>

#include "baselines/zlib/zlib_codec.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/rle/rle.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace {

#if defined(GCBENCH_FUZZ_fl)
const gcbench::CodecPtr codec = gcbench::fl::make_cpu_codec();
constexpr auto kFormat = gcbench::FormatId::fl;
#elif defined(GCBENCH_FUZZ_rle)
const gcbench::CodecPtr codec = gcbench::rle::make_cpu_codec();
constexpr auto kFormat = gcbench::FormatId::rle;
#elif defined(GCBENCH_FUZZ_lz77)
const gcbench::CodecPtr codec = gcbench::lz77::make_cpu_codec();
constexpr auto kFormat = gcbench::FormatId::lz77;
#elif defined(GCBENCH_FUZZ_zlib)
const gcbench::CodecPtr codec = gcbench::zlib::make_codec();
#else
#error "define GCBENCH_FUZZ_<decoder>"
#endif

gcbench::Bytes as_decoder_input(gcbench::ByteSpan data) {
#if defined(GCBENCH_FUZZ_zlib)
  return {data.begin(), data.end()};
#else
  if (data.size() < 3) return {data.begin(), data.end()};
  std::uint64_t original_size = data[0] | (data[1] << 8) | (data[2] << 16);
  return gcbench::make_container({kFormat, original_size, 0, 0}, data.subspan(3));
#endif
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    codec->decompress(as_decoder_input(gcbench::ByteSpan(data, size)), {});
  } catch (const gcbench::DecodeError&) {
  }
  return 0;
}
