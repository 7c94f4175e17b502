#include "corpora/sha256.hpp"

#include <openssl/evp.h>

#include <fstream>
#include <stdexcept>
#include <vector>

namespace gcbench::corpora {

Sha256::Sha256() : context_(EVP_MD_CTX_new(), EVP_MD_CTX_free) {
  if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("OpenSSL: cannot start a SHA-256 digest");
  }
}

void Sha256::update(ByteSpan data) {
  if (EVP_DigestUpdate(context_.get(), data.data(), data.size()) != 1) {
    throw std::runtime_error("OpenSSL: SHA-256 update failed");
  }
}

std::array<std::uint8_t, 32> Sha256::finish() {
  std::array<std::uint8_t, 32> out{};
  unsigned int size = 0;
  if (EVP_DigestFinal_ex(context_.get(), out.data(), &size) != 1 || size != out.size()) {
    throw std::runtime_error("OpenSSL: SHA-256 finish failed");
  }
  return out;
}

std::string to_hex(const std::array<std::uint8_t, 32>& digest) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  s.reserve(64);
  for (std::uint8_t b : digest) {
    s.push_back(kDigits[b >> 4]);
    s.push_back(kDigits[b & 15]);
  }
  return s;
}

std::string sha256_hex(ByteSpan data) {
  Sha256 h;
  h.update(data);
  return to_hex(h.finish());
}

std::string sha256_file_hex(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  Sha256 h;
  std::vector<char> buf(1 << 20);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    std::streamsize got = in.gcount();
    if (got > 0) {
      h.update(ByteSpan(reinterpret_cast<const std::uint8_t*>(buf.data()),
                        static_cast<std::size_t>(got)));
    }
  }
  if (in.bad()) throw std::runtime_error("read error in " + path.string());
  return to_hex(h.finish());
}

}  // namespace gcbench::corpora
