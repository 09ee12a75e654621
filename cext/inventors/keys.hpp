// Zobrist key layout for a Legendary Inventors State. Display cards are keyed by card index,
// not slot, so shifting the sorted display never changes a key.
#pragma once
#include <cstdint>

#include "../common/movelist.hpp"
#include "edition.hpp"

namespace atelier::inventors {

struct Keys {
  uint64_t level[kMaxPlayers][kInventorsPerTeam][kDisciplines][16];
  uint64_t busy[kMaxPlayers][kInventorsPerTeam];
  uint64_t hand[kMaxPlayers][kTokenKinds][16];
  uint64_t won[kMaxPlayers][kCards];
  uint64_t bag[kTokenKinds][16];
  uint64_t card[kCards];                 // present in display
  uint64_t tokens[kCards][256];
  uint64_t filled[kCards][kDisciplines][8];
  uint64_t cubes[kCards][kMaxPlayers][32];
  uint64_t age[4], phase[4], active[kMaxPlayers], statuette[kMaxPlayers];
  uint64_t rw_card[kCards], rw_tokens[256], rw_left[8], rw_index[4], rw_count[4];
  uint64_t rw_seat[3][kMaxPlayers], rw_cubes[kMaxPlayers][32];
};

// One table per process, built at load time from a fixed generator: identical in every
// module. A plain global, so the hot path pays no initialisation guard.
extern Keys g_keys;
inline const Keys& keys() { return g_keys; }

}  // namespace atelier::inventors
