// Random numbers for the cores and the search. The generator is always passed in,
// never stored in a State: a stored seed would let a planner see future draws.
#pragma once
#include <cstdint>

namespace atelier {

// xoshiro256** (Blackman & Vigna): fast, 256-bit state, good statistical quality.
struct Rng {
  uint64_t s[4];

  explicit Rng(uint64_t seed = 0x9E3779B97F4A7C15ULL) { reseed(seed); }

  void reseed(uint64_t seed) {
    // splitmix64 spreads any seed (0 included) over the whole state.
    for (auto& w : s) {
      seed += 0x9E3779B97F4A7C15ULL;
      uint64_t z = seed;
      z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
      z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
      w = z ^ (z >> 31);
    }
  }

  static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

  inline uint64_t next() {
    const uint64_t result = rotl(s[1] * 5, 7) * 9;
    const uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }

  // Uniform integer in [0, n), n >= 1 (Lemire's multiply-shift; the bias is < n / 2^32,
  // far below anything a game simulation can notice).
  inline uint32_t below(uint32_t n) {
    return (uint32_t)(((uint64_t)(uint32_t)(next() >> 32) * n) >> 32);
  }

  // Uniform double in [0, 1).
  inline double uniform() { return (next() >> 11) * (1.0 / 9007199254740992.0); }
};

}  // namespace atelier
