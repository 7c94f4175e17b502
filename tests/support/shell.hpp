#pragma once
// Tests that compare with a program's own output (the gzip program, for instance).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "gcbench/bytes.hpp"

namespace gcbench::testing {

// Standard output of a shell command, as bytes; a non-zero exit fails the test.
inline Bytes run_capture(const std::string& command) {
  Bytes out;
  FILE* p = ::popen(command.c_str(), "r");
  if (p == nullptr) return out;
  std::uint8_t buf[1 << 16];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) {
    out.insert(out.end(), buf, buf + n);
  }
  EXPECT_EQ(::pclose(p), 0) << command;
  return out;
}

// Standard output and error of a shell command, together, and its exit status (as pclose gives
// it: WEXITSTATUS for the code).
inline std::string run_output(const std::string& command, int& status) {
  std::string out;
  FILE* p = ::popen((command + " 2>&1").c_str(), "r");
  if (p == nullptr) return out;
  char buf[4096];
  for (std::size_t n; (n = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  status = ::pclose(p);
  return out;
}

#ifdef GCBENCH_DRIVER
// The gcbench program (GCBENCH_DRIVER, defined for the tests that run it) with `args`: its
// output and its status, as run_output gives them.
inline std::string run_driver(const std::string& args, int& status) {
  return run_output(std::string("'") + GCBENCH_DRIVER + "' " + args, status);
}
#endif

}  // namespace gcbench::testing
