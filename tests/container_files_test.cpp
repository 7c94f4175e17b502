// Containers written by earlier versions of the codecs still decode. Every file
// data/containers/<codec>/<axis>=<value>,....gcbc is decoded by that CPU codec at the axis
// values its name spells and compared with data/containers/input.bin; every CPU codec that
// writes gcbench containers has such a folder, and declares the format id its containers
// carry (CodecInfo::container_format, registered by the registry).
// GCBENCH_WRITE_CONTAINERS=<folder> makes ContainerFiles.WriteFromTodaysCodecs write the set from
// the codecs of this build instead (a new codec's, or a new format version's), at each value of
// each in-container axis.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gcbench/container.hpp"
#include "gcbench/registry.hpp"

namespace gcbench {
namespace {

namespace fs = std::filesystem;

const fs::path kFolder = fs::path(GCBENCH_TEST_DATA) / "containers";

Bytes read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, ByteSpan bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

bool is_gcbench_container(ByteSpan bytes) {
  return bytes.size() >= 4 && std::equal(bytes.begin(), bytes.begin() + 4, "GCBC");
}

// The CPU codecs whose output is a gcbench container.
std::vector<const Codec*> container_codecs(ByteSpan input) {
  std::vector<const Codec*> found;
  for (const CodecPtr& codec : registry()) {
    if (codec->info().device == Device::cpu &&
        is_gcbench_container(codec->bind({})->compress(input, nullptr))) {
      found.push_back(codec.get());
    }
  }
  return found;
}

// "element_width=2,frame_size=1024" as parameters of `codec`.
Params params_of(const Codec& codec, const std::string& stem) {
  Params params;
  std::istringstream fields(stem);
  for (std::string field; std::getline(fields, field, ',');) {
    const std::size_t eq = field.find('=');
    const std::string name = field.substr(0, eq);
    const auto axis = std::find_if(codec.info().axes.begin(), codec.info().axes.end(),
                                   [&](const AxisSpec& a) { return a.name == name; });
    if (eq == std::string::npos || axis == codec.info().axes.end()) {
      throw ParamError(codec.info().name + ": no axis in file name field '" + field + "'");
    }
    params[name] = axis->parse(field.substr(eq + 1));
  }
  return params;
}

// The file name of a parameter point: its in-container axes, as params_of reads them.
std::string stem_of(const Codec& codec, const Params& resolved) {
  std::string stem;
  for (const AxisSpec& axis : codec.info().axes) {
    if (!axis.in_container) continue;
    stem += (stem.empty() ? "" : ",") + axis.name + "=" + axis.format(resolved.at(axis.name));
  }
  return stem;
}

// Each value of each in-container axis, the others at their defaults: the listed values of an
// enumerated or restricted axis, its sweep, or else its minimum and default.
std::vector<Params> points_of(const Codec& codec) {
  std::vector<Params> points = {{}};
  for (const AxisSpec& axis : codec.info().axes) {
    if (!axis.in_container) continue;
    std::vector<std::int64_t> values = axis.allowed;
    if (!axis.names.empty()) {
      for (std::int64_t v = 0; v < static_cast<std::int64_t>(axis.names.size()); ++v) {
        values.push_back(v);
      }
    }
    if (values.empty()) values = axis.sweep;
    if (values.empty()) values = {axis.min, axis.default_value};
    for (std::int64_t v : values) points.push_back({{axis.name, v}});
  }
  return points;
}

TEST(ContainerFiles, EveryCommittedContainerStillDecodes) {
  const Bytes input = read_file(kFolder / "input.bin");
  ASSERT_GT(input.size(), 0u) << kFolder / "input.bin";
  int decoded = 0;
  for (const auto& folder : fs::directory_iterator(kFolder)) {
    if (!folder.is_directory()) continue;
    const std::string name = folder.path().filename().string();
    const Codec* codec = find_codec(name, Device::cpu);
    ASSERT_NE(codec, nullptr) << "no CPU codec named " << name << " for " << folder.path();
    for (const auto& file : fs::directory_iterator(folder.path())) {
      SCOPED_TRACE(file.path().string());
      const Bytes container = read_file(file.path());
      ASSERT_GE(container.size(), kContainerHeaderSize);
      EXPECT_EQ(load_le<std::uint16_t>(&container[6]), codec->info().container_format.id);
      const BoundCodecPtr bound = codec->bind(params_of(*codec, file.path().stem().string()));
      EXPECT_TRUE(bound->decompress(container, nullptr) == input);
      ++decoded;
    }
  }
  EXPECT_GT(decoded, 0);
}

TEST(ContainerFiles, EveryContainerCodecDeclaresItsFormatAndHasCommittedContainers) {
  const Bytes input = read_file(kFolder / "input.bin");
  const std::vector<const Codec*> codecs = container_codecs(input);
  ASSERT_FALSE(codecs.empty());
  for (const Codec* codec : codecs) {
    const ContainerFormat& format = codec->info().container_format;
    const Bytes container = codec->bind({})->compress(input, nullptr);
    EXPECT_EQ(load_le<std::uint16_t>(&container[6]), format.id)
        << codec->info().name << " writes another format id than it declares";
    EXPECT_EQ(format_name(format.id), format.name) << codec->info().name;
    const fs::path folder = kFolder / codec->info().name;
    EXPECT_TRUE(fs::is_directory(folder) && !fs::is_empty(folder))
        << codec->info().name << " writes gcbench containers and has none under " << folder
        << ": write them with GCBENCH_WRITE_CONTAINERS (this file's first comment)";
  }
}

TEST(ContainerFiles, WriteFromTodaysCodecs) {
  const char* target = std::getenv("GCBENCH_WRITE_CONTAINERS");
  if (target == nullptr) GTEST_SKIP() << "GCBENCH_WRITE_CONTAINERS is not set";
  const Bytes input = read_file(kFolder / "input.bin");
  ASSERT_GT(input.size(), 0u);
  for (const Codec* codec : container_codecs(input)) {
    for (const Params& given : points_of(*codec)) {
      const Params resolved = resolve_params(codec->info().axes, given);
      const Bytes container = codec->bind(resolved)->compress(input, nullptr);
      write_file(fs::path(target) / codec->info().name / (stem_of(*codec, resolved) + ".gcbc"),
                 container);
    }
  }
}

}  // namespace
}  // namespace gcbench
