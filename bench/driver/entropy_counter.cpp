#include "bench/driver/entropy_counter.hpp"

#include <cstring>

#include "codecs/entropy/entropy.hpp"
#include "gcbench/container.hpp"

namespace gcbench::driver {

std::optional<std::uint64_t> entropy_bytes(ByteSpan container) {
  if (container.size() < kContainerHeaderSize || std::memcmp(container.data(), "GCBC", 4) != 0 ||
      load_le<std::uint16_t>(container.data() + 6) != static_cast<std::uint16_t>(FormatId::lz77)) {
    return std::nullopt;
  }
  return entropy::lz77_entropy_size(container);
}

}  // namespace gcbench::driver
