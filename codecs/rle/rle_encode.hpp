#pragma once
// The RLE CPU encoder behind the codec, exposed so that tests can lower the count limit and
// exercise run splitting without a 4 GiB input.
#include <cstdint>

#include "codecs/rle/format.hpp"
#include "gcbench/bytes.hpp"

namespace gcbench::rle {

// The RLE payload (not the container) of `input` read as elements of `element_width` bytes.
// Runs longer than `max_count` (1..kMaxRunCount) elements are split as format.hpp describes for
// kMaxRunCount. threads == 1 is the plain sequential loop; any thread count gives the same bytes.
Bytes encode_payload(ByteSpan input, std::uint32_t element_width, int threads,
                     std::uint64_t max_count = kMaxRunCount);

}  // namespace gcbench::rle
