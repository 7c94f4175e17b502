#pragma once
// Byte comparisons behind every reported cell: a result that does not round-trip, or a GPU
// container that differs from the CPU reference, is an error naming the first differing byte.
#include <cstdint>
#include <optional>
#include <string>

#include "gcbench/bytes.hpp"

namespace gcbench::driver {

// The first offset where `a` and `b` differ (the shorter length when one is a prefix of the
// other); nullopt when they are equal.
std::optional<std::uint64_t> first_difference(ByteSpan a, ByteSpan b);

// nullopt when equal, else a message such as
// "<what> differs from <reference> at byte 17 (sizes 100 vs 100)".
std::optional<std::string> describe_difference(ByteSpan actual, ByteSpan expected,
                                               const std::string& what,
                                               const std::string& reference);

}  // namespace gcbench::driver
