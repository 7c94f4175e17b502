// nvCOMP peers: round trip on the corpus and rejection of damaged containers.
#include <gtest/gtest.h>

#include "codecs/common/cuda_check.hpp"
#include "corpora/synthetic.hpp"
#include "gcbench/registry.hpp"
#include "support/codec_checks.hpp"

namespace gcbench {
namespace {

std::vector<const Codec*> nvcomp_codecs() {
  std::vector<const Codec*> found;
  for (const auto& c : registry()) {
    if (c->info().name.rfind("nvcomp-", 0) == 0) found.push_back(c.get());
  }
  return found;
}

class NvcompTest : public ::testing::Test {
 protected:
  void SetUp() override {
    codecs_ = nvcomp_codecs();
    if (codecs_.empty()) {
      std::string reason = "nvCOMP not built";
      for (const auto& u : unavailable_codecs()) {
        if (u.name == "nvcomp-*") reason = u.reason;
      }
      GTEST_SKIP() << reason;
    }
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device";
  }
  std::vector<const Codec*> codecs_;
};

TEST_F(NvcompTest, RoundTripOnCalgaryAndCanterbury) {
  for (const char* corpus : {"calgary", "canterbury"}) {
    for (const auto& file : testing::corpus_files(corpus)) {
      Bytes data = corpora::read_file(file.path);
      for (const Codec* c : codecs_) {
        SCOPED_TRACE(c->info().name + " " + file.entry.name);
        testing::expect_round_trip(*c, data);
      }
    }
  }
}

TEST_F(NvcompTest, EdgeSizesAndChunkSizes) {
  for (const Codec* c : codecs_) {
    for (std::uint64_t n : {0, 1, 4095, 65536, 65537, 1000003}) {
      Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = n});
      for (std::int64_t chunk : {4096, 65536}) {
        SCOPED_TRACE(c->info().name + " n=" + std::to_string(n) +
                     " chunk=" + std::to_string(chunk));
        testing::expect_round_trip(*c, data, {{"chunk_size", chunk}});
      }
    }
  }
}

TEST_F(NvcompTest, DamagedContainersRejected) {
  Bytes data = synthetic::generate({.kind = synthetic::Kind::runs, .size_bytes = 200, .seed = 3});
  for (const Codec* c : codecs_) testing::expect_hostile_inputs_rejected(*c, data);
}

}  // namespace
}  // namespace gcbench
