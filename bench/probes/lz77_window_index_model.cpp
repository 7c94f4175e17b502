// CPU model of the warp design's index kept across segments: checks the maintained
// (sorted, starts, rank) against a fresh stable counting sort at every segment.
#include <cstdint>
// Built and run by hand (not in the build): g++ -O2 -std=c++20 FILE -o /tmp/model && /tmp/model FILE_OF_DATA
// (Silesia's 8 files: every segment equal to a fresh build.)
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>
#include <algorithm>
using u8 = uint8_t; using u16 = uint16_t; using u32 = uint32_t; using u64 = uint64_t;
constexpr u32 kBuckets = 1024, kSegment = 1024, kMaxOffset = 4096, kMaxLength = 15, kChunk = 4096, kWorkItems = 1024;
u32 bucket3(const u8* p) { u32 key = p[0] | (u32(p[1]) << 8) | (u32(p[2]) << 16); return (key * 2654435761u) >> 22; }

struct Index { std::vector<u16> sorted; std::vector<u32> starts; std::vector<u16> rank; };

// Fresh build, as build_index: positions [0,count) of bytes.
void fresh(const u8* bytes, u32 count, u32 seg_off, u32 seg_len, Index& x) {
  x.starts.assign(kBuckets + 1, 0); x.sorted.assign(count, 0); x.rank.assign(kSegment, 0xFFFF);
  for (u32 r = 0; r < count; ++r) x.starts[bucket3(bytes + r) + 1]++;
  for (u32 h = 0; h < kBuckets; ++h) x.starts[h + 1] += x.starts[h];
  std::vector<u32> cur(x.starts.begin(), x.starts.end() - 1);
  for (u32 r = 0; r < count; ++r) { u32 h = bucket3(bytes + r); u32 s = cur[h]++; x.sorted[s] = r; if (r - seg_off < seg_len) x.rank[r - seg_off] = s; }
}

// The sliding update, step by step as the kernel would do it (lanes as loops).
// old_bytes: previous region; new_bytes: new region; delta = lo_new - lo_old.
void slide(const u8* old_bytes, const u8* new_bytes, u32 count_old, u32 count_new, u32 delta,
           u32 seg_off, u32 seg_len, Index& x) {
  std::vector<u32> t(kBuckets, 0);  // the rank area as a table
  // 1. D counts of dropped offsets [0, delta), old bytes.
  for (u32 o = 0; o < delta; ++o) t[bucket3(old_bytes + o)]++;
  // 2. compaction, bucket-agnostic, ascending, in batches of 32 (read all, then write).
  u32 kept = 0;
  for (u32 b = 0; b < count_old; b += 32) {
    u32 v[32]; bool keep[32];
    for (u32 l = 0; l < 32; ++l) { u32 j = b + l; keep[l] = j < count_old && x.sorted[j] >= delta; v[l] = j < count_old ? x.sorted[j] : 0; }
    for (u32 l = 0; l < 32; ++l) if (keep[l]) x.sorted[kept++] = v[l] - delta;
  }
  // 3. K = old count - D, into t.
  for (u32 h = 0; h < kBuckets; ++h) t[h] = (x.starts[h + 1] - x.starts[h]) - t[h];
  // 5. A counts of new offsets [count_old - delta, count_new), new bytes, into starts[h+1].
  std::fill(x.starts.begin(), x.starts.end(), 0);
  for (u32 o = count_old - delta; o < count_new; ++o) x.starts[bucket3(new_bytes + o) + 1]++;
  // 6. ns = scan(K + A); cursor = ns + K in starts[h+1]; shiftA = scan(A) in t.
  u32 ns = 0, sa = 0;
  for (u32 h = 0; h < kBuckets; ++h) {
    const u32 k = t[h], a = x.starts[h + 1];
    t[h] = sa; x.starts[h + 1] = ns + k; ns += k + a; sa += a;
  }
  x.starts[0] = 0;
  // 7. expansion, descending batches, read all then write.
  x.sorted.resize(std::max<u32>(count_new, x.sorted.size()));
  for (int b = int((kept + 31) / 32) - 1; b >= 0; --b) {
    u32 v[32], d[32]; bool in[32];
    for (u32 l = 0; l < 32; ++l) { u32 j = b * 32 + l; in[l] = j < kept; if (in[l]) { v[l] = x.sorted[j]; d[l] = j + t[bucket3(new_bytes + v[l])]; } }
    for (u32 l = 0; l < 32; ++l) if (in[l]) x.sorted[d[l]] = v[l];
  }
  // 8. scatter the new positions, stable, with the cursors; rank for them.
  x.rank.assign(kSegment, 0xFFFF);
  for (u32 r = count_old - delta; r < count_new; ++r) {
    u32 h = bucket3(new_bytes + r); u32 s = x.starts[h + 1]++; x.sorted[s] = r;
    if (r - seg_off < seg_len) x.rank[r - seg_off] = s;
  }
  // 9. rank for the segment's positions that were old (their bucket's kept part, from its end).
  for (u32 r = seg_off; r < count_old - delta && r - seg_off < seg_len; ++r) {
    u32 h = bucket3(new_bytes + r);
    u32 s = x.starts[h + 1];  // end of bucket; the kept part ends before the new ones
    while (x.sorted[--s] != r) {}
    x.rank[r - seg_off] = s;
  }
  x.sorted.resize(count_new);
}

int main(int argc, char** argv) {
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<u8> data((std::istreambuf_iterator<char>(in)), {});
  const u64 size = data.size();
  u64 segments = 0, slid = 0, rng = 12345;
  for (u64 c = 0; c * kChunk < size; ++c) {
    const u64 cb = c * kChunk, ce = std::min<u64>(cb + kChunk, size), ws = c / kWorkItems * kWorkItems * kChunk;
    Index x; std::vector<u8> old_bytes; u32 count_old = 0; u64 lo_old = 0; bool have = false;
    for (u64 p = cb; p < ce;) {
      const u64 seg_end = std::min<u64>(p + kSegment, ce);
      const u32 seg_off = u32(std::min<u64>(p - ws, kMaxOffset));
      const u64 lo = p - seg_off;
      const u32 region = u32(std::min<u64>(seg_end + kMaxLength, ce) - lo);
      const u32 seg_stop = u32(seg_end - lo);
      std::vector<u8> bytes(data.begin() + lo, data.begin() + lo + region);
      bytes.resize(region + 16, 0);
      const u32 count = region >= 3 ? region - 2 : 0;
      Index want; fresh(bytes.data(), count, seg_off, seg_stop - seg_off, want);
      if (have) {
        slide(old_bytes.data(), bytes.data(), count_old, count, u32(lo - lo_old), seg_off, seg_stop - seg_off, x);
        ++slid;
      } else {
        fresh(bytes.data(), count, seg_off, seg_stop - seg_off, x);
      }
      if (x.sorted != want.sorted || x.starts != want.starts || x.rank != want.rank) {
        std::printf("MISMATCH chunk %llu p %llu\n", (unsigned long long)c, (unsigned long long)p); return 1;
      }
      ++segments;
      old_bytes = bytes; count_old = count; lo_old = lo; have = true;
      rng = rng * 6364136223846793005ull + 1442695040888963407ull;
      const u32 overshoot = (rng >> 33) % 16;  // a match crossing the segment's end
      p = std::min<u64>(seg_end + (seg_end < ce ? overshoot : 0), ce);
    }
  }
  std::printf("%llu segments, %llu slid, all equal to a fresh build\n", (unsigned long long)segments, (unsigned long long)slid);
}
