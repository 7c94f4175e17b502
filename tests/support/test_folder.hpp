#pragma once
// A folder of the running test's own under the temp directory, so that tests writing files
// run in parallel (ctest -j) without meeting.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace gcbench::testing {

// <temp>/<prefix>-<pid>-<test name>, removed (not created) so that every run starts empty.
inline std::filesystem::path fresh_test_folder(const std::string& prefix) {
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() /
      (prefix + "-" + std::to_string(::getpid()) + "-" +
       ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::filesystem::remove_all(folder);
  return folder;
}

}  // namespace gcbench::testing
