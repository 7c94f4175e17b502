// The hash finder: the parse over HashChains (hash_chains.hpp).
#include "codecs/lz77/hash_chains.hpp"

namespace gcbench::lz77 {

void factorize_hash(const ChunkTask& t, std::vector<Triple>& out) {
  HashChains chains(t);
  factorize_with(t, out,
                 [&](std::uint64_t p, std::uint32_t cap) { return chains.longest(p, cap); });
}

}  // namespace gcbench::lz77
