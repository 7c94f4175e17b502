#pragma once
// SHA-256 (FIPS 180-4), hand-written: none of the project's dependencies (zlib, libbz2, fmt,
// nlohmann_json) provides it, and OpenSSL is not on every machine the suite builds on.
#include <array>
#include <cstdint>
#include <filesystem>
#include <string>

#include "gcbench/bytes.hpp"

namespace gcbench::corpora {

class Sha256 {
 public:
  Sha256();
  void update(ByteSpan data);
  std::array<std::uint8_t, 32> finish();  // the object must not be used afterwards

 private:
  void block(const std::uint8_t* p);

  std::array<std::uint32_t, 8> state_;
  std::array<std::uint8_t, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t total_bytes_ = 0;
};

std::string to_hex(const std::array<std::uint8_t, 32>& digest);
std::string sha256_hex(ByteSpan data);
// Streams the file; throws std::runtime_error if it cannot be read.
std::string sha256_file_hex(const std::filesystem::path& path);

}  // namespace gcbench::corpora
