#pragma once
// Checks shared by every codec's tests: round trip, chunked streams, and hostile containers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "corpora/corpora.hpp"
#include "gcbench/codec.hpp"
#include "gcbench/errors.hpp"
#include "gcbench/stream.hpp"

namespace gcbench::testing {

// "name=value " for each parameter, for test traces.
inline std::string describe(const Params& p) {
  std::string s;
  for (const auto& [k, v] : p) s += k + "=" + std::to_string(v) + " ";
  return s;
}

// Compresses, decompresses and compares; returns the container for further checks.
inline Bytes expect_round_trip(const Codec& codec, ByteSpan input, const Params& params = {}) {
  Bytes packed = codec.compress(input, params);
  EXPECT_LE(packed.size(), codec.max_compressed_size(input.size(), params))
      << codec.info().name << ": output exceeds max_compressed_size";
  Bytes unpacked = codec.decompress(packed, params);
  EXPECT_EQ(unpacked.size(), input.size()) << codec.info().name;
  if (unpacked.size() == input.size()) {
    auto mismatch = std::mismatch(unpacked.begin(), unpacked.end(), input.begin());
    EXPECT_TRUE(mismatch.first == unpacked.end())
        << codec.info().name << ": first difference at offset "
        << (mismatch.first - unpacked.begin());
  }
  return packed;
}

// Every chunk's container in the chunked `stream` of `input` equals `compress_chunk` of the
// chunk's bytes (the pipeline writes what the host API writes). Returns the chunk count.
template <typename CompressChunk>
std::size_t expect_chunks_equal(ByteSpan stream, ByteSpan input, CompressChunk&& compress_chunk) {
  const StreamView view = parse_stream(stream);
  for (std::size_t i = 0; i < view.containers.size(); ++i) {
    const std::size_t at = i * view.chunk_bytes;
    const Bytes want = compress_chunk(
        input.subspan(at, std::min<std::size_t>(view.chunk_bytes, input.size() - at)));
    EXPECT_TRUE(
        std::equal(want.begin(), want.end(), view.containers[i].begin(), view.containers[i].end()))
        << "chunk " << i;
  }
  return view.containers.size();
}

// Decoding `bad` must either throw DecodeError or (for a change the format cannot see, such
// as a flipped unused padding bit) return exactly `original`. Anything else fails the test;
// a crash or out-of-bounds access fails it under the sanitizer build.
inline void expect_rejected_or_exact(const Codec& codec, ByteSpan bad, ByteSpan original,
                                     const std::string& what) {
  try {
    Bytes out = codec.decompress(bad, {});
    EXPECT_TRUE(out.size() == original.size() &&
                std::equal(out.begin(), out.end(), original.begin()))
        << what << ": accepted a damaged container and returned wrong bytes";
  } catch (const DecodeError&) {
  }
}

// Every single-byte corruption (each byte XOR 0xFF, and XOR 0x01) and every truncation.
inline void expect_hostile_inputs_rejected(const Codec& codec, ByteSpan original,
                                           const Params& params = {}) {
  Bytes good = codec.compress(original, params);
  for (std::size_t len = 0; len < good.size(); ++len) {
    EXPECT_THROW(codec.decompress(ByteSpan(good.data(), len), {}), DecodeError)
        << codec.info().name << ": truncation to " << len << " bytes accepted";
  }
  for (std::size_t i = 0; i < good.size(); ++i) {
    for (std::uint8_t mask : {std::uint8_t{0xFF}, std::uint8_t{0x01}}) {
      Bytes bad = good;
      bad[i] ^= mask;
      expect_rejected_or_exact(
          codec, bad, original,
          codec.info().name + " byte " + std::to_string(i) + " ^ " + std::to_string(mask));
    }
  }
}

// Each of the named `containers` (forged headers, bad payloads) is a DecodeError.
inline void expect_all_rejected(const Codec& codec,
                                const std::vector<std::pair<std::string, Bytes>>& containers) {
  for (const auto& [name, container] : containers) {
    EXPECT_THROW(codec.decompress(container, {}), DecodeError) << name;
  }
}

// Plain files of a corpus from the mirror/cache; empty (with a printed reason) if none.
inline std::vector<corpora::LocalFile> corpus_files(const std::string& corpus) {
  auto options = corpora::default_fetch_options();
  options.allow_download = false;
  auto result = corpora::fetch(corpora::load_manifest(), corpus, options);
  for (const auto& m : result.missing) {
    std::printf("[ corpus ] %s/%s not available: %s\n", corpus.c_str(), m.entry.name.c_str(),
                m.reason.c_str());
  }
  return result.present;
}

}  // namespace gcbench::testing
