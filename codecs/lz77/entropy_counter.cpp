#include "codecs/lz77/entropy_counter.hpp"

#include <functional>
#include <list>
#include <mutex>
#include <string_view>
#include <utility>

#include "codecs/lz77/entropy_streams.hpp"
#include "src/results/counters.hpp"

namespace gcbench::lz77 {
namespace {

// The range coder runs at tens of MB/s on one core, and every LZ77 cell of a point (CPU and
// GPU, both directions, each call Google Benchmark makes of a cell's body) reports the size for
// the same container bytes: it is coded once per distinct container, found again by its size
// and a 64-bit hash of all its bytes.
struct Memo {
  static constexpr std::size_t kKept = 16;
  using Key = std::pair<std::uint64_t, std::size_t>;  // size, hash
  std::mutex mutex;
  std::list<std::pair<Key, std::uint64_t>> entries;  // most recent first
};

}  // namespace

std::vector<std::pair<std::string, double>> container_counters(ByteSpan container) {
  static Memo memo;
  const Memo::Key key{container.size(),
                      std::hash<std::string_view>{}(std::string_view(
                          reinterpret_cast<const char*>(container.data()), container.size()))};
  {
    std::lock_guard lock(memo.mutex);
    for (const auto& [k, size] : memo.entries) {
      if (k == key) return {{results::counter::kEntropyBytes, static_cast<double>(size)}};
    }
  }
  const std::uint64_t size = entropy_size(container);
  std::lock_guard lock(memo.mutex);
  memo.entries.emplace_front(key, size);
  if (memo.entries.size() > Memo::kKept) memo.entries.pop_back();
  return {{results::counter::kEntropyBytes, static_cast<double>(size)}};
}

}  // namespace gcbench::lz77
