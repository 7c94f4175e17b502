#include "gcbench/container.hpp"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

namespace gcbench {
namespace {

constexpr std::uint8_t kContainerMagic[4] = {'G', 'C', 'B', 'C'};

std::atomic<std::uint64_t> g_absolute{DecodeLimit{}.absolute};
std::atomic<std::uint64_t> g_floor{DecodeLimit{}.floor};
std::atomic<std::uint64_t> g_ratio{DecodeLimit{}.ratio};
std::atomic<std::uint64_t> g_known_size{DecodeLimit{}.known_size};

// The registered formats' names by id.
struct FormatTable {
  std::mutex mutex;
  std::map<std::uint16_t, std::string> names;
};

FormatTable& formats() {
  static FormatTable table;
  return table;
}

}  // namespace

void register_container_format(const ContainerFormat& format) {
  const std::string name = format.name;
  if (format.id == 0 || name.empty()) {
    throw std::logic_error("container format '" + name + "' (id " + std::to_string(format.id) +
                           "): a format needs an id above 0 and a name");
  }
  FormatTable& table = formats();
  const std::lock_guard lock(table.mutex);
  for (const auto& [id, registered] : table.names) {
    if ((id == format.id) != (registered == name)) {
      throw std::logic_error("container format '" + name + "' (id " + std::to_string(format.id) +
                             ") clashes with the registered format '" + registered + "' (id " +
                             std::to_string(id) + ")");
    }
  }
  table.names.emplace(format.id, name);
}

std::string format_name(std::uint16_t id) {
  FormatTable& table = formats();
  const std::lock_guard lock(table.mutex);
  const auto found = table.names.find(id);
  return found != table.names.end() ? found->second : "format " + std::to_string(id);
}

DecodeLimit decode_limit() {
  return {g_absolute.load(), g_floor.load(), g_ratio.load(), g_known_size.load()};
}

void set_decode_limit(const DecodeLimit& limit) {
  g_absolute.store(limit.absolute);
  g_floor.store(limit.floor);
  g_ratio.store(limit.ratio);
  g_known_size.store(limit.known_size);
}

std::uint64_t decode_limit_for(std::uint64_t container_size) {
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  const DecodeLimit l = decode_limit();
  // ratio * size, saturating.
  const std::uint64_t justified =
      l.ratio != 0 && container_size > kMax / l.ratio ? kMax : l.ratio * container_size;
  return std::min(l.absolute, std::max({l.floor, justified, l.known_size}));
}

void check_decode_limit(const std::string& codec, const std::string& what, std::uint64_t bytes,
                        std::uint64_t container_size) {
  const std::uint64_t limit = decode_limit_for(container_size);
  if (bytes > limit) {
    throw DecodeError(codec + ": " + what + " of " + std::to_string(bytes) +
                      " bytes exceeds the decode limit of " + std::to_string(limit) +
                      " bytes for a " + std::to_string(container_size) + "-byte container");
  }
}

std::uint32_t crc32_of(ByteSpan data) {
  uLong crc = crc32(0L, Z_NULL, 0);
  const std::uint8_t* p = data.data();
  std::size_t left = data.size();
  while (left > 0) {  // zlib takes uInt lengths
    uInt n = static_cast<uInt>(std::min<std::size_t>(left, 1u << 30));
    crc = crc32(crc, p, n);
    p += n;
    left -= n;
  }
  return static_cast<std::uint32_t>(crc);
}

namespace {

void write_header(std::uint8_t* out, const ContainerHeader& header) {
  std::copy(kContainerMagic, kContainerMagic + 4, out);
  store_le<std::uint16_t>(out + 4, kContainerVersion);
  store_le<std::uint16_t>(out + 6, header.format_id);
  store_le<std::uint64_t>(out + 8, header.original_size);
  store_le<std::uint64_t>(out + 16, header.payload_size);
  store_le<std::uint32_t>(out + 24, header.original_crc);
  store_le<std::uint32_t>(out + 28, crc32_of(ByteSpan(out, 28)));
}

}  // namespace

Bytes make_container(const ContainerHeader& header, ByteSpan payload) {
  Bytes out(kContainerHeaderSize + payload.size());
  ContainerHeader h = header;
  h.payload_size = payload.size();
  write_header(out.data(), h);
  std::copy(payload.begin(), payload.end(), out.begin() + kContainerHeaderSize);
  return out;
}

Bytes wrap_container(const ContainerFormat& format, ByteSpan original, ByteSpan payload) {
  return make_container({format.id, original.size(), payload.size(), crc32_of(original)}, payload);
}

Bytes wrap_container(const ContainerFormat& format, ByteSpan original, Bytes&& payload) {
  const ContainerHeader header{format.id, original.size(), payload.size(), crc32_of(original)};
  Bytes out = std::move(payload);
  out.insert(out.begin(), kContainerHeaderSize, 0);
  write_header(out.data(), header);
  return out;
}

Bytes payload_buffer(std::uint64_t size) {
  Bytes payload;
  payload.reserve(kContainerHeaderSize + size);
  payload.resize(size);
  return payload;
}

OpenedContainer open_container(ByteSpan container, const ContainerFormat& expected) {
  if (container.size() < kContainerHeaderSize) {
    throw DecodeError("not a gcbench container: " + std::to_string(container.size()) +
                      " bytes is shorter than the 32-byte header");
  }
  if (!std::equal(kContainerMagic, kContainerMagic + 4, container.begin())) {
    throw DecodeError("not a gcbench container: bad magic");
  }
  ByteReader r(container);
  r.take(4, "magic");
  auto version = r.read<std::uint16_t>("version");
  OpenedContainer c;
  c.header.format_id = r.read<std::uint16_t>("format id");
  c.header.original_size = r.read<std::uint64_t>("original size");
  c.header.payload_size = r.read<std::uint64_t>("payload size");
  c.header.original_crc = r.read<std::uint32_t>("checksum");
  auto header_crc = r.read<std::uint32_t>("header checksum");
  if (header_crc != crc32_of(container.first(28))) {
    throw DecodeError("corrupted container header (header checksum mismatch)");
  }
  if (version != kContainerVersion) {
    throw DecodeError("unsupported container version " + std::to_string(version));
  }
  if (c.header.format_id != expected.id) {
    throw DecodeError("wrong codec: container holds " + format_name(c.header.format_id) + " (id " +
                      std::to_string(c.header.format_id) + "), expected " + expected.name +
                      " (id " + std::to_string(expected.id) + ")");
  }
  if (c.header.original_size > kMaxOriginalSize) {
    throw DecodeError("absurd original size " + std::to_string(c.header.original_size));
  }
  if (c.header.payload_size != r.remaining()) {
    throw DecodeError("payload size " + std::to_string(c.header.payload_size) +
                      " does not match the " + std::to_string(r.remaining()) + " bytes present");
  }
  c.payload = r.take(c.header.payload_size, "payload");
  return c;
}

void verify_original(const ContainerHeader& header, ByteSpan decoded) {
  if (decoded.size() != header.original_size) {
    throw DecodeError("decoded " + std::to_string(decoded.size()) + " bytes, header says " +
                      std::to_string(header.original_size));
  }
  if (crc32_of(decoded) != header.original_crc) {
    throw DecodeError("checksum mismatch: payload is corrupted");
  }
}

}  // namespace gcbench
