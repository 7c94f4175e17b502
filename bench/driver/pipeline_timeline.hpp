#pragma once
// --pipeline-timeline: where an end-to-end call's time went, chunk by chunk, as a file beside
// the results (notes/pipeline_timeline.py reads it).
#include <cstdint>
#include <filesystem>
#include <string_view>

#include "src/gpu/pipeline.hpp"

namespace gcbench::driver {

// Writes `dir`/timeline-<CRC-32 of the cell's name and path, hex>-<path>.json, `path` one of the
// driver's own words ("pinned", "pageable"): a cell's name may hold what a file name may not, so
// it is inside the file, with the path, the input's bytes and the timeline. Returns the file.
std::filesystem::path write_timeline(const std::filesystem::path& dir, std::string_view cell,
                                     std::string_view path, std::uint64_t input_bytes,
                                     const gpu::PipelineTimeline& timeline);

}  // namespace gcbench::driver
