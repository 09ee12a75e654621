// Zobrist keys: a fixed table of pseudo-random 64-bit words built at compile time, so every
// translation unit and both extension modules (pybind11 and Cython) agree on every hash.
#pragma once
#include <cstdint>

namespace atelier {

constexpr uint64_t splitmix64_at(uint64_t i) {
  uint64_t z = (i + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// Key number `i` of the table for a ruleset tagged `salt` (any constant).
constexpr uint64_t zobrist(uint64_t salt, uint64_t i) {
  return splitmix64_at(salt * 0x100000001B3ULL + i);
}

}  // namespace atelier
