// Field updates that keep State::hash in step (internal to the inventors core).
// Header and reward-context fields are re-keyed wholesale around each transition instead:
// they are few, and that keeps every transition short and obviously correct.
// Each update takes `K` (keyed): a playout's states are thrown away, so its transitions
// (Position::playout_apply) skip the key work, about a fifth of a playout's instructions.
#pragma once
#include "keys.hpp"
#include "state.hpp"

namespace atelier::inventors::detail {

template <bool K = true>
inline void set_level(State& s, int p, int i, int d, int v) {
  const int sh = 4 * (4 * i + d);
  const int old = (int)((s.levels[p] >> sh) & 0xF);
  s.levels[p] = (s.levels[p] & ~(0xFULL << sh)) | ((uint64_t)v << sh);
  if constexpr (K) s.hash ^= keys().level[p][i][d][old] ^ keys().level[p][i][d][v];
}

template <bool K = true>
inline void set_busy(State& s, int p, unsigned mask) {
  if constexpr (K)
    for (unsigned diff = s.busy[p] ^ mask; diff; diff &= diff - 1)
      s.hash ^= keys().busy[p][__builtin_ctz(diff)];
  s.busy[p] = (uint8_t)mask;
}

template <bool K = true>
inline void add_hand(State& s, int p, int k, int delta) {
  const int old = s.hand[p][k];
  s.hand[p][k] = (uint8_t)(old + delta);
  if constexpr (K) s.hash ^= keys().hand[p][k][old & 15] ^ keys().hand[p][k][(old + delta) & 15];
}

template <bool K = true>
inline void add_bag(State& s, int k, int delta) {
  const int old = s.bag[k];
  s.bag[k] = (uint8_t)(old + delta);
  if constexpr (K) s.hash ^= keys().bag[k][old & 15] ^ keys().bag[k][(old + delta) & 15];
}

template <bool K = true>
inline void add_won(State& s, int p, int card) {
  s.won[p] |= 1ULL << card;
  if constexpr (K) s.hash ^= keys().won[p][card];
}

inline uint64_t card_key(const DisplayCard& dc, int n) {
  const Keys& K = keys();
  uint64_t h = K.card[dc.card] ^ K.tokens[dc.card][dc.tokens];
  for (int d = 0; d < kDisciplines; ++d) h ^= K.filled[dc.card][d][dc.filled[d] & 7];
  for (int p = 0; p < n; ++p) h ^= K.cubes[dc.card][p][dc.cubes[p] & 31];
  return h;
}

inline uint64_t header_key(const State& s) {
  const Keys& K = keys();
  return K.age[s.age & 3] ^ K.phase[s.phase & 3] ^ K.active[s.active % kMaxPlayers] ^
         K.statuette[s.statuette % kMaxPlayers];
}

inline uint64_t reward_key(const State& s, int n) {
  if (s.rw_count == 0) return 0;
  const Keys& K = keys();
  uint64_t h = K.rw_card[s.rw_card % kCards] ^ K.rw_tokens[s.rw_tokens] ^ K.rw_left[s.rw_left & 7] ^
               K.rw_index[s.rw_index & 3] ^ K.rw_count[s.rw_count & 3];
  for (int j = 0; j < s.rw_count && j < 3; ++j) h ^= K.rw_seat[j][s.rw_seats[j] % kMaxPlayers];
  for (int p = 0; p < n; ++p) h ^= K.rw_cubes[p][s.rw_cubes[p] & 31];
  return h;
}

// Spec 5.7.3: contributors by cubes descending, ties by clockwise distance from the holder.
// Fills `order` and returns the number of contributors.
inline int priority_order(const uint8_t* cubes, int holder, int n, int* order) {
  int count = 0;
  for (int dist = 0; dist < n; ++dist) {  // clockwise from the holder, so ties are pre-sorted
    const int seat = (holder + dist) % n;
    if (!cubes[seat]) continue;
    int t = count++;
    while (t > 0 && cubes[order[t - 1]] < cubes[seat]) {  // stable insertion keeps that order
      order[t] = order[t - 1];
      --t;
    }
    order[t] = seat;
  }
  return count;
}

inline unsigned token_lo(uint8_t packed) { return packed & 0xF; }
inline unsigned token_hi(uint8_t packed) { return packed >> 4; }
// The token kinds still on the card being rewarded (5.6), each once: 0, 1 or 2 into kinds.
inline int reward_kinds(const State& s, int* kinds) {
  int n = 0;
  if (s.rw_left & 2) kinds[n++] = (int)token_lo(s.rw_tokens);
  if ((s.rw_left & 4) && !(n && kinds[0] == (int)token_hi(s.rw_tokens))) kinds[n++] = (int)token_hi(s.rw_tokens);
  return n;
}
inline uint8_t pack_tokens(unsigned a, unsigned b) {
  return a <= b ? (uint8_t)(a | (b << 4)) : (uint8_t)(b | (a << 4));
}

}  // namespace atelier::inventors::detail
