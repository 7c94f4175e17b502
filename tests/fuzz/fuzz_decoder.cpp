// libFuzzer entry: any payload given to a decoder must decode or throw DecodeError; a crash, hang,
// sanitizer report (UBSan is not recoverable here), an allocation above -malloc_limit_mb or any
// other exception is a finding. gcbench's payloads go behind a valid container header (original
// size from the input's first 5 bytes, up to 1 TiB: past the 64 GiB cap) so the fuzzer reaches the
// payload parser and the decode limit; the peers' native streams are fuzzed as they are
// (LLVMFuzzerCustomMutator). Seeds: tests/fuzz/corpus/<decoder> (tests/fuzz_seeds_test.cpp).
// fuzz_gzip runs the gzip program on every input: its output must stay within the decode limit.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <optional>
#include <string>

#include "baselines/gzip/gzip_codec.hpp"
#include "baselines/peers/peers.hpp"
#include "baselines/zlib/zlib_codec.hpp"
#include "codecs/fl/fl.hpp"
#include "codecs/lz77/lz77.hpp"
#include "codecs/rle/rle.hpp"
#include "gcbench/container.hpp"
#include "gcbench/errors.hpp"

namespace {

#if defined(GCBENCH_FUZZ_fl)
const gcbench::CodecPtr codec = gcbench::fl::make_cpu_codec();
#elif defined(GCBENCH_FUZZ_rle)
const gcbench::CodecPtr codec = gcbench::rle::make_cpu_codec();
#elif defined(GCBENCH_FUZZ_lz77)
const gcbench::CodecPtr codec = gcbench::lz77::make_cpu_codec();
#elif defined(GCBENCH_FUZZ_zlib)
const gcbench::CodecPtr codec = gcbench::zlib::make_codec();
#elif defined(GCBENCH_FUZZ_gzip)
const gcbench::CodecPtr codec = [] {
  std::string reason;
  std::optional<gcbench::gzip::Program> program = gcbench::gzip::find_program(&reason);
  if (!program) {
    std::fprintf(stderr, "fuzz_gzip: %s\n", reason.c_str());
    std::exit(1);
  }
  return gcbench::gzip::make_codec(*program);
}();
#elif defined(GCBENCH_FUZZ_libdeflate)
const gcbench::CodecPtr codec = gcbench::peers::make_libdeflate_codec();
#elif defined(GCBENCH_FUZZ_lz4)
const gcbench::CodecPtr codec = gcbench::peers::make_lz4_codec();
#elif defined(GCBENCH_FUZZ_zstd)
const gcbench::CodecPtr codec = gcbench::peers::make_zstd_codec();
#else
#error "define GCBENCH_FUZZ_<decoder>"
#endif

// Little-endian original size before the payload of fl, rle and lz77 inputs.
[[maybe_unused]] constexpr std::size_t kSizeBytes = 5;

struct DecoderCall {
  gcbench::Bytes input;
  gcbench::Params params;
};

DecoderCall as_decoder_call(gcbench::ByteSpan data) {
#if defined(GCBENCH_FUZZ_libdeflate) || defined(GCBENCH_FUZZ_lz4)
  // The decoder tells its single stream from its chunked one by the bytes; the first byte
  // picks one thread or two, so that chunks are also decoded in parallel (a fixed 2 rather
  // than all cores keeps runs alike across machines).
  if (data.empty()) return {};
  return {{data.begin() + 1, data.end()}, {{"threads", data[0] & 1 ? 1 : 2}}};
#elif defined(GCBENCH_FUZZ_zlib) || defined(GCBENCH_FUZZ_zstd) || defined(GCBENCH_FUZZ_gzip)
  return {{data.begin(), data.end()}, {}};
#else
  if (data.size() < kSizeBytes) return {{data.begin(), data.end()}, {}};
  std::uint64_t original_size = 0;
  for (std::size_t i = 0; i < kSizeBytes; ++i) original_size |= std::uint64_t{data[i]} << (8 * i);
  const std::uint16_t format = codec->info().container_format.id;
  return {gcbench::make_container({format, original_size, 0, 0}, data.subspan(kSizeBytes)), {}};
#endif
}

// Decoding in the fuzzer is bounded by a decode limit far below -malloc_limit_mb (256 MiB of
// output at most, 16 MiB for any small container), so that a claimed size the container cannot
// justify must be rejected by the policy rather than reach the allocator.
const bool kLimitSet = [] {
  gcbench::set_decode_limit({std::uint64_t{256} << 20, std::uint64_t{16} << 20, 4096});
  return true;
}();

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  (void)kLimitSet;
  const DecoderCall call = as_decoder_call(gcbench::ByteSpan(data, size));
  try {
    codec->decompress(call.input, call.params);
  } catch (const gcbench::DecodeError&) {
  } catch (const std::exception& e) {
    std::fprintf(stderr, "finding: the decoder threw something other than DecodeError: %s\n",
                 e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "finding: the decoder threw a non-std exception\n");
    std::abort();
  }
  return 0;
}

#if defined(GCBENCH_FUZZ_zlib) || defined(GCBENCH_FUZZ_libdeflate) || defined(GCBENCH_FUZZ_lz4) || \
    defined(GCBENCH_FUZZ_zstd) || defined(GCBENCH_FUZZ_gzip)
// zlib, the peers' libraries and the gzip program are not instrumented, so the fuzzer sees none of
// their comparisons and would hardly ever guess a magic number and header checksum. One mutation in
// 8 therefore replaces the input with a valid stream, the codec's own output for the mutated bytes,
// which later mutations corrupt. The first byte, which picks the threads (see as_decoder_call), is
// kept, so the chunked variants are made as well.
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t max_size);

extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size,
                                               std::size_t max_size, unsigned int seed) {
  size = LLVMFuzzerMutate(data, size, max_size);
  if (seed % 8 != 0) return size;
  const DecoderCall call = as_decoder_call(gcbench::ByteSpan(data, size));
  const std::size_t kept = size - call.input.size();
  const gcbench::Bytes stream = codec->compress(call.input, call.params);
  if (kept + stream.size() > max_size) return size;
  std::memcpy(data + kept, stream.data(), stream.size());
  return kept + stream.size();
}
#endif
