#pragma once
// The entropy_bytes counter (SPEC 1.4): the size of an LZ77 container's triples after the
// project's range coder, so that ratios compare with the thesis's.
#include <cstdint>
#include <optional>

#include "gcbench/bytes.hpp"

namespace gcbench::driver {

// nullopt for containers of other codecs (decided by the container header's codec id).
std::optional<std::uint64_t> entropy_bytes(ByteSpan container);

}  // namespace gcbench::driver
