// What lz4's own benchmark (`lz4 -b1`) times against what gcbench's lz4 cell times (issue 45):
// the same input compressed and decoded four ways, each over calls for half a second, MB/s of
// original bytes, one thread, one row per file and direction.
//   block          one raw block (LZ4_compress_fast_extState / LZ4_decompress_safe) with a
//                  kept state and output buffer: what `lz4 -b` times
//   frame          an LZ4 frame with its content checksum (the container gcbench's lz4 writes,
//                  as the lz4 program does), a kept context and output buffer: what the cell
//                  times
//   frame, no sum  the same frame without its content checksum
//   frame, fresh   as "frame", with a new context and a new zero-filled output per call
// Built as `lz4_timed_region` where lz4 is found; bench/peer_parity.sh prints its rows beside
// the tool's. Usage: lz4_timed_region FILE...
#define LZ4F_STATIC_LINKING_ONLY  // LZ4F_compressFrame_usingCDict, as gcbench's peer calls it
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
  if (!in) throw std::runtime_error(std::string("cannot read ") + path);
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

LZ4F_preferences_t preferences(std::size_t size, bool checksum) {
  LZ4F_preferences_t p{};
  p.frameInfo.contentSize = size;
  p.frameInfo.blockSizeID = LZ4F_max4MB;
  p.frameInfo.contentChecksumFlag = checksum ? LZ4F_contentChecksumEnabled : LZ4F_noContentChecksum;
  return p;
}

std::size_t compress_frame(LZ4F_cctx* ctx, const Bytes& in, Bytes& out, bool checksum) {
  const LZ4F_preferences_t p = preferences(in.size(), checksum);
  const std::size_t n =
      LZ4F_compressFrame_usingCDict(ctx, out.data(), out.size(), in.data(), in.size(), nullptr, &p);
  if (LZ4F_isError(n)) throw std::runtime_error("lz4 frame compression");
  return n;
}

void decode_frame(LZ4F_dctx* ctx, const std::uint8_t* frame, std::size_t size, std::uint8_t* out,
                  std::size_t n) {
  std::size_t dst = n, src = size;
  const std::size_t hint = LZ4F_decompress(ctx, out, &dst, frame, &src, nullptr);
  if (LZ4F_isError(hint) || hint != 0 || dst != n) throw std::runtime_error("lz4 frame");
}

struct Rates {
  double block, frame, unsummed, fresh;
};

Rates compression(const Bytes& in) {
  const int n = static_cast<int>(in.size());
  std::vector<char> state(static_cast<std::size_t>(LZ4_sizeofState()));
  Bytes block(static_cast<std::size_t>(LZ4_compressBound(n)));
  const LZ4F_preferences_t p = preferences(in.size(), true);
  Bytes frame(LZ4F_compressFrameBound(in.size(), &p));
  LZ4F_cctx* ctx = nullptr;
  LZ4F_createCompressionContext(&ctx, LZ4F_VERSION);
  Rates r{};
  r.block = rate(in.size(), [&] {
    if (LZ4_compress_fast_extState(state.data(), reinterpret_cast<const char*>(in.data()),
                                   reinterpret_cast<char*>(block.data()), n,
                                   static_cast<int>(block.size()), 1) <= 0)
      throw std::runtime_error("lz4 block compression");
  });
  r.frame = rate(in.size(), [&] { compress_frame(ctx, in, frame, true); });
  r.unsummed = rate(in.size(), [&] { compress_frame(ctx, in, frame, false); });
  r.fresh = rate(in.size(), [&] {
    LZ4F_cctx* c = nullptr;
    LZ4F_createCompressionContext(&c, LZ4F_VERSION);
    Bytes o(frame.size());
    compress_frame(c, in, o, true);
    LZ4F_freeCompressionContext(c);
  });
  LZ4F_freeCompressionContext(ctx);
  return r;
}

Rates decompression(const Bytes& in) {
  const int n = static_cast<int>(in.size());
  Bytes block(static_cast<std::size_t>(LZ4_compressBound(n)));
  block.resize(static_cast<std::size_t>(LZ4_compress_default(
      reinterpret_cast<const char*>(in.data()), reinterpret_cast<char*>(block.data()), n,
      static_cast<int>(block.size()))));
  LZ4F_cctx* cctx = nullptr;
  LZ4F_createCompressionContext(&cctx, LZ4F_VERSION);
  const LZ4F_preferences_t p = preferences(in.size(), true);
  Bytes with_sum(LZ4F_compressFrameBound(in.size(), &p)), without_sum(with_sum.size());
  with_sum.resize(compress_frame(cctx, in, with_sum, true));
  without_sum.resize(compress_frame(cctx, in, without_sum, false));
  LZ4F_freeCompressionContext(cctx);
  Bytes out(in.size());
  LZ4F_dctx* ctx = nullptr;
  LZ4F_createDecompressionContext(&ctx, LZ4F_VERSION);
  Rates r{};
  r.block = rate(in.size(), [&] {
    if (LZ4_decompress_safe(reinterpret_cast<const char*>(block.data()),
                            reinterpret_cast<char*>(out.data()), static_cast<int>(block.size()),
                            n) != n)
      throw std::runtime_error("lz4 block");
  });
  r.frame = rate(in.size(), [&] {
    decode_frame(ctx, with_sum.data(), with_sum.size(), out.data(), out.size());
  });
  r.unsummed = rate(in.size(), [&] {
    decode_frame(ctx, without_sum.data(), without_sum.size(), out.data(), out.size());
  });
  r.fresh = rate(in.size(), [&] {
    LZ4F_dctx* c = nullptr;
    LZ4F_createDecompressionContext(&c, LZ4F_VERSION);
    Bytes o(in.size());
    decode_frame(c, with_sum.data(), with_sum.size(), o.data(), o.size());
    LZ4F_freeDecompressionContext(c);
  });
  LZ4F_freeDecompressionContext(ctx);
  if (std::memcmp(out.data(), in.data(), in.size()) != 0) throw std::runtime_error("mismatch");
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  std::printf("%-16s %-10s %10s %10s %14s %14s\n", "file", "direction", "block", "frame",
              "frame, no sum", "frame, fresh");
  for (int i = 1; i < argc; ++i) {
    const Bytes in = read_file(argv[i]);
    const char* slash = std::strrchr(argv[i], '/');
    const char* name = slash != nullptr ? slash + 1 : argv[i];
    for (const bool compress : {true, false}) {
      const Rates r = compress ? compression(in) : decompression(in);
      std::printf("%-16s %-10s %10.1f %10.1f %14.1f %14.1f\n", name,
                  compress ? "compress" : "decompress", r.block, r.frame, r.unsummed, r.fresh);
    }
  }
  return 0;
}
