#pragma once
// Widely used CPU codecs run beside gcbench's own, each writing its library's native
// self-describing format (gzip member, zstd frame, LZ4 frame) so that sizes are the ones
// users know. Each exists only when its library was found at configure time.
#include "gcbench/codec.hpp"

namespace gcbench::peers {

CodecPtr make_libdeflate_codec();  // gzip member, levels 1..12 (default 6)
CodecPtr make_zstd_codec();        // zstd frame with content size, levels 1..19 (default 3);
                                   // threads: zstd's own workers (1 = single-threaded)
CodecPtr make_lz4_codec();         // LZ4 frame with content size; level 0 = fast, 1..12 = HC

// A `level` axis for a peer's CodecInfo.
AxisSpec level_axis(std::int64_t default_level, std::int64_t min, std::int64_t max,
                    const char* help);

// Throws DecodeError unless `claimed` (an original size read from untrusted input) is
// plausible for `input_size` compressed bytes, before anything is allocated for it: no
// format here expands by more than kMaxExpansion (zstd's densest block is ~44000:1).
inline constexpr std::uint64_t kMaxExpansion = 65536;
void check_claimed_size(std::uint64_t claimed, std::uint64_t input_size, const char* format);

// Adds the library's version to a CodecInfo's version string ("<ours>/<library>").
CodecInfo peer_info(const char* name, const std::string& library_version, const char* help,
                    std::vector<AxisSpec> axes);

}  // namespace gcbench::peers
