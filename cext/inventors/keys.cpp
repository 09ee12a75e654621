#include "keys.hpp"

#include "../common/zobrist.hpp"

namespace atelier::inventors {

Keys g_keys;

// Filled in place at load time (the table is ~150 KB: too big to return by value).
static const bool g_keys_ready = [] {
  uint64_t* w = reinterpret_cast<uint64_t*>(&g_keys);
  const uint64_t n = sizeof(Keys) / sizeof(uint64_t);
  for (uint64_t i = 0; i < n; ++i) w[i] = zobrist(/*salt: inventors*/ 1, i);
  return true;
}();

}  // namespace atelier::inventors
