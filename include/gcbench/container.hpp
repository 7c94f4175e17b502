#pragma once
// The self-describing container around every gcbench payload:
//
//   offset size  field
//   0      4     magic "GCBC"
//   4      2     format version (1)
//   6      2     format id (the codec's ContainerFormat)
//   8      8     original size in bytes
//   16     8     payload size in bytes
//   24     4     CRC-32 (zlib) of the original bytes
//   28     4     CRC-32 of bytes 0..27 (catches a corrupted header before any allocation)
//   32     ...   payload, laid out by the codec (its own small format header first)
//
// All fields little-endian. CPU and GPU implementations of a codec write identical bytes.
#include <cstdint>
#include <new>
#include <string>

#include "gcbench/bytes.hpp"
#include "gcbench/errors.hpp"

namespace gcbench {

// A codec's container format: the id its containers carry and the name errors give it. Each
// codec declares its own in its folder (codecs/<name>/format.hpp) and in its CodecInfo; the
// registry registers every codec's, and no two formats may share an id.
struct ContainerFormat {
  std::uint16_t id = 0;  // 0: the codec writes no gcbench container
  const char* name = "";
};

// Throws std::logic_error when the id or the name is registered to another format already.
void register_container_format(const ContainerFormat& format);
// The registered name of format `id`, else "format <id>".
std::string format_name(std::uint16_t id);

inline constexpr std::size_t kContainerHeaderSize = 32;
inline constexpr std::uint16_t kContainerVersion = 1;

// Refuse to allocate more than this for one decompressed buffer: a header claiming more is
// treated as hostile. 64 GiB covers every corpus and synthetic size the suite uses.
inline constexpr std::uint64_t kMaxOriginalSize = std::uint64_t{64} << 30;

struct ContainerHeader {
  std::uint16_t format_id = 0;
  std::uint64_t original_size = 0;
  std::uint64_t payload_size = 0;
  std::uint32_t original_crc = 0;
};

std::uint32_t crc32_of(ByteSpan data);

// Writes header + payload. `original` is used for its size and checksum.
Bytes wrap_container(const ContainerFormat& format, ByteSpan original, ByteSpan payload);

// The same container, framed in place: the payload's bytes move up by the header's size,
// without a second buffer of their size when its capacity holds the header, as a
// payload_buffer's does (a 1 GiB input's RLE payload is up to 2 GiB).
Bytes wrap_container(const ContainerFormat& format, ByteSpan original, Bytes&& payload);

// `size` zero bytes for a payload, with room for its container's header reserved.
Bytes payload_buffer(std::uint64_t size);

// Writes a container with any header values (payload_size is taken from `payload`): for tests
// and fuzzers that craft hostile containers behind a valid header checksum.
Bytes make_container(const ContainerHeader& header, ByteSpan payload);

// Validates magic, version, header checksum, format id and sizes; returns the header and a
// view of the payload. Throws DecodeError naming what is wrong.
struct OpenedContainer {
  ContainerHeader header;
  ByteSpan payload;
};
OpenedContainer open_container(ByteSpan container, const ContainerFormat& expected);

// Throws DecodeError unless `decoded` has the header's size and checksum.
void verify_original(const ContainerHeader& header, ByteSpan decoded);

// The decoder memory policy. The header's original size is only a claim: the CRC can be checked
// only after decoding, so a decoder must not allocate what the container cannot justify. What a
// container can justify, per codec, at its maximum legal expansion:
//   fl    at least 1 bit per element: at most 8 * element_width (<= 32) bytes per payload byte;
//   lz77  each triple yields at most max_length + 1 bytes: about 5x (thesis), about 50x (wide);
//   rle   each 4-byte count may stand for 2^32-1 elements: about 10^9 bytes per payload byte,
//         so its counts prove nothing and only this limit bounds it.
// Every decoder calls check_decode_limit(codec, bytes, container size) before it allocates its
// output (RLE after summing its counts, which must equal the claimed size); the device API's
// plans (make_plan) call it too, so no caller sizes buffers from an unjustified claim.
//
// The limit for a container of C bytes is min(absolute, max(floor, ratio * C)). Defaults:
// absolute kMaxOriginalSize (64 GiB), floor 64 MiB (anything up to it is always allowed, so a
// small file of one repeated byte still decodes), ratio 4096 (far above fl's and lz77's legal
// expansion and above RLE's on the corpora; a larger, extremely repetitive input needs a larger
// limit, set by the caller). A caller that made the container itself, from an input whose size
// it knows (gcbench's driver), sets known_size: a decoded size up to it is allowed whatever the
// container's size, so a 100 MiB file of zeros decodes from its few bytes of RLE. The policy is
// process-wide so that the Codec interface stays as it is; set_decode_limit() changes it
// (thread-safe; tests and the driver's cells use ScopedDecodeLimit).
struct DecodeLimit {
  std::uint64_t absolute = kMaxOriginalSize;
  std::uint64_t floor = std::uint64_t{64} << 20;
  std::uint64_t ratio = 4096;
  std::uint64_t known_size = 0;  // 0: none (containers of unknown origin)

  friend bool operator==(const DecodeLimit&, const DecodeLimit&) = default;
};

DecodeLimit decode_limit();
void set_decode_limit(const DecodeLimit& limit);

// Sets the policy for its lifetime and restores the previous one after.
class ScopedDecodeLimit {
 public:
  explicit ScopedDecodeLimit(const DecodeLimit& limit) : previous_(decode_limit()) {
    set_decode_limit(limit);
  }
  ~ScopedDecodeLimit() { set_decode_limit(previous_); }
  ScopedDecodeLimit(const ScopedDecodeLimit&) = delete;
  ScopedDecodeLimit& operator=(const ScopedDecodeLimit&) = delete;

 private:
  DecodeLimit previous_;
};

// The most bytes one decoder may allocate for its output from a container of `container_size`
// bytes under the current policy: min(absolute, max(floor, ratio * size, known_size)).
std::uint64_t decode_limit_for(std::uint64_t container_size);

// Throws DecodeError("<codec>: <what> of N bytes exceeds the decode limit of M bytes for a C-byte
// container") when `bytes` is above decode_limit_for(container_size).
void check_decode_limit(const std::string& codec, const std::string& what, std::uint64_t bytes,
                        std::uint64_t container_size);

// Runs `decode` and turns std::bad_alloc into DecodeError: a decoder throws nothing else.
template <typename F>
auto decode_guarded(const std::string& codec, F&& decode) -> decltype(decode());

template <typename F>
auto decode_guarded(const std::string& codec, F&& decode) -> decltype(decode()) {
  try {
    return decode();
  } catch (const std::bad_alloc&) {
    throw DecodeError(codec + ": out of memory while decoding (allocation failed)");
  }
}

}  // namespace gcbench
