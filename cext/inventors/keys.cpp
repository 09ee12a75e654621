#include "keys.hpp"

#include "../common/zobrist.hpp"

namespace atelier::inventors {

static Keys build_keys() {
  Keys k;
  uint64_t* w = reinterpret_cast<uint64_t*>(&k);
  const uint64_t n = sizeof(Keys) / sizeof(uint64_t);
  for (uint64_t i = 0; i < n; ++i) w[i] = zobrist(/*salt: inventors*/ 1, i);
  return k;
}

const Keys& keys() {
  static const Keys table = build_keys();
  return table;
}

}  // namespace atelier::inventors
