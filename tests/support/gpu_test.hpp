#pragma once
// The fixture of tests that need a CUDA device: they skip, saying so, without one.
#include <gtest/gtest.h>

#include "src/cuda/cuda_check.hpp"

namespace gcbench::testing {

class GpuTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::available()) GTEST_SKIP() << "no CUDA device: these tests need one";
  }
};

}  // namespace gcbench::testing
