#pragma once
// SHA-256 through OpenSSL's EVP interface (libcrypto; Debian's libssl-dev).
#include <array>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "gcbench/bytes.hpp"

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX: the header needs no OpenSSL include

namespace gcbench::corpora {

class Sha256 {
 public:
  Sha256();
  void update(ByteSpan data);
  std::array<std::uint8_t, 32> finish();  // the object must not be used afterwards

 private:
  std::unique_ptr<evp_md_ctx_st, void (*)(evp_md_ctx_st*)> context_;
};

std::string to_hex(const std::array<std::uint8_t, 32>& digest);
std::string sha256_hex(ByteSpan data);
// Streams the file; throws std::runtime_error if it cannot be read.
std::string sha256_file_hex(const std::filesystem::path& path);

}  // namespace gcbench::corpora
