// A number naming one Game object for its lifetime, for caches that outlive a call (a Game
// freed and another built at the same address must not find the first one's entries).
#pragma once
#include <atomic>
#include <cstdint>

namespace atelier {

// The rules are linked into more than one extension module, each with its own counter:
// starting from the counter's own address keeps the modules' numbers apart.
inline uint64_t next_game_serial() {
  static std::atomic<uint64_t> count{(uint64_t)(uintptr_t)&count << 16};
  return ++count;
}

}  // namespace atelier
