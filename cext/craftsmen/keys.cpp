// Zobrist key of a Craftsmen State: tabulation over its bytes (one random word per byte
// position and value), computed from scratch. Every field is plain data kept zero when unused,
// so equal states hash equal.
#include "../common/zobrist.hpp"
#include "game.hpp"

namespace atelier::craftsmen {

namespace {
struct ByteKeys {
  uint64_t k[sizeof(State)][256];
};
ByteKeys g_keys;
const bool g_ready = [] {
  for (size_t i = 0; i < sizeof(State); ++i)
    for (int v = 0; v < 256; ++v) g_keys.k[i][v] = zobrist(/*salt: craftsmen*/ 3, i * 256 + v);
  return true;
}();
}  // namespace

uint64_t Game::compute_hash(const State& s) const {
  const uint8_t* b = reinterpret_cast<const uint8_t*>(&s);
  uint64_t h = 0;
  for (size_t i = 0; i < sizeof(State); ++i) h ^= g_keys.k[i][b[i]];
  return h;
}

}  // namespace atelier::craftsmen
