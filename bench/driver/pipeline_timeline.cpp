#include "bench/driver/pipeline_timeline.hpp"

#include <fstream>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "gcbench/container.hpp"

namespace gcbench::driver {

std::filesystem::path write_timeline(const std::filesystem::path& dir, std::string_view cell,
                                     std::string_view path, std::uint64_t input_bytes,
                                     const gpu::PipelineTimeline& timeline) {
  nlohmann::ordered_json chunks = nlohmann::ordered_json::array();
  for (const gpu::ChunkTimes& c : timeline.chunks) {
    chunks.push_back({{"issue_begin", c.issue_begin},
                      {"codec_issued", c.codec_issued},
                      {"issue_end", c.issue_end},
                      {"upload_begin", c.upload_begin},
                      {"upload_end", c.upload_end},
                      {"codec_end", c.codec_end},
                      {"download_begin", c.download_begin},
                      {"download_end", c.download_end},
                      {"drained", c.drained}});
  }
  const nlohmann::ordered_json doc = {{"cell", cell},
                                      {"path", path},
                                      {"original_bytes", input_bytes},
                                      {"setup_s", timeline.setup_s},
                                      {"call_s", timeline.call_s},
                                      {"chunks", chunks}};
  const std::string key = std::string(cell) + "\n" + std::string(path);
  const auto crc =
      crc32_of(ByteSpan(reinterpret_cast<const std::uint8_t*>(key.data()), key.size()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / fmt::format("timeline-{:08x}-{}.json", crc, path);
  std::ofstream out(file);
  out << doc.dump(1) << "\n";
  if (!out.flush()) throw std::runtime_error("cannot write " + file.string());
  return file;
}

}  // namespace gcbench::driver
