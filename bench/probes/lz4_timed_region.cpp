// Where lz4 decompression's time goes in gcbench's CPU cell against `lz4 -b1` (issue 45): the
// same input decoded five ways, each timed over many calls, MB/s of original bytes.
//   block          LZ4_decompress_safe on one raw block, into a reused buffer (what lz4 -b times)
//   frame          LZ4F, content checksum on (the container gcbench's lz4 writes), reused context
//                  and output buffer
//   frame, no sum  the same frame written without its content checksum
//   frame, fresh   as "frame", with a new context and a new zero-filled output per call: what the
//                  cell's timed call does (BoundCodec::decompress returns Bytes)
// Usage: g++ -O2 -std=c++20 bench/probes/lz4_timed_region.cpp -llz4 -o /tmp/lz4_probe &&
//        /tmp/lz4_probe FILE...
#include <lz4.h>
#include <lz4frame.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdexcept>
#include <vector>

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes read_file(const char* path) {
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), {});
}

// Calls `fn` until 0.5 s are spent; MB/s of `bytes` per call.
double rate(std::size_t bytes, const std::function<void()>& fn) {
  using Clock = std::chrono::steady_clock;
  fn();  // warm
  std::size_t calls = 0;
  const auto start = Clock::now();
  std::chrono::duration<double> spent{};
  do {
    fn();
    ++calls;
    spent = Clock::now() - start;
  } while (spent.count() < 0.5);
  return static_cast<double>(bytes) * static_cast<double>(calls) / spent.count() / 1e6;
}

Bytes frame(const Bytes& in, bool checksum) {
  LZ4F_preferences_t p{};
  p.frameInfo.contentSize = in.size();
  p.frameInfo.blockSizeID = LZ4F_max4MB;
  p.frameInfo.contentChecksumFlag = checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
  Bytes out(LZ4F_compressFrameBound(in.size(), &p));
  out.resize(LZ4F_compressFrame(out.data(), out.size(), in.data(), in.size(), &p));
  return out;
}

void decode_frame(LZ4F_dctx* ctx, const Bytes& f, std::uint8_t* out, std::size_t n) {
  std::size_t dst = n, src = f.size();
  const std::size_t hint = LZ4F_decompress(ctx, out, &dst, f.data(), &src, nullptr);
  if (LZ4F_isError(hint) || hint != 0 || dst != n) throw std::runtime_error("lz4 frame");
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("%-16s %10s %10s %14s %14s\n", "file", "block", "frame", "frame, no sum",
              "frame, fresh");
  for (int i = 1; i < argc; ++i) {
    const Bytes in = read_file(argv[i]);
    const int n = static_cast<int>(in.size());
    Bytes block(static_cast<std::size_t>(LZ4_compressBound(n)));
    block.resize(static_cast<std::size_t>(LZ4_compress_default(
        reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(block.data()), n,
        static_cast<int>(block.size()))));
    const Bytes with_sum = frame(in, true), without_sum = frame(in, false);
    Bytes out(in.size());
    LZ4F_dctx* ctx = nullptr;
    LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION);
    const double raw = rate(in.size(), [&] {
      if (LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()),
                              reinterpret_cast<char*>(out.data()), static_cast<int>(block.size()),
                              n) != n)
        throw std::runtime_error("lz4 block");
    });
    const double framed = rate(in.size(), [&] { decode_frame(ctx, with_sum, out.data(), in.size()); });
    const double unsummed =
        rate(in.size(), [&] { decode_frame(ctx, without_sum, out.data(), in.size()); });
    const double fresh = rate(in.size(), [&] {
      LZ4F_dctx* c = nullptr;
      LZ4F_createDecompressionContext(&c, LZ4F_VERSION);
      Bytes o(in.size());
      decode_frame(c, with_sum, o.data(), o.size());
      LZ4F_freeDecompressionContext(c);
    });
    LZ4F_freeDecompressionContext(ctx);
    if (std::memcmp(out.data(), in.data(), in.size()) != 0) throw std::runtime_error("mismatch");
    const char* name = std::strrchr(argv[i], '/');
    std::printf("%-16s %10.0f %10.0f %14.0f %14.0f\n", name ? name + 1 : argv[i], raw, framed,
                unsummed, fresh);
  }
  return 0;
}
