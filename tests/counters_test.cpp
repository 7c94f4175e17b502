// The one table of counters (src/results/counters.hpp): each name once, every field filled, and
// docs/counters.md and reports/plots/counters.py are the table as `gcbench --counters` and
// `--counters-python` print it.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "src/results/counters.hpp"

namespace gcbench::results {
namespace {

TEST(Counters, EachNameOnceWithUnitCellsAndMeaning) {
  std::set<std::string> names;
  for (const CounterSpec& c : counter_table()) {
    EXPECT_TRUE(names.insert(c.name).second) << c.name << " twice";
    for (const char* field : {c.unit, c.cells, c.meaning})
      EXPECT_NE(std::string(field), "") << c.name;
  }
  EXPECT_GE(names.size(), 30u);
}

TEST(Counters, TheDocsPageIsTheTable) {
  std::ifstream in(std::string(GCBENCH_SOURCE_DIR) + "/docs/counters.md");
  ASSERT_TRUE(in) << "docs/counters.md missing";
  const std::string page((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(page, counters_markdown())
      << "docs/counters.md is out of date: gcbench --counters > docs/counters.md";
}

TEST(Counters, ThePythonModuleIsTheTable) {
  std::ifstream in(std::string(GCBENCH_SOURCE_DIR) + "/reports/plots/counters.py");
  ASSERT_TRUE(in) << "reports/plots/counters.py missing";
  const std::string module((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(module, counters_python())
      << "reports/plots/counters.py is out of date: gcbench --counters-python > "
         "reports/plots/counters.py";
  EXPECT_NE(module.find("KERNEL_GBPS = \"kernel_gbps\""), std::string::npos);
}

}  // namespace
}  // namespace gcbench::results
