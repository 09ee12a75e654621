// Knowledge bookkeeping (knowledge.hpp, Craftsmen §6.2).
#include "knowledge.hpp"

#include <cstring>

namespace atelier::craftsmen {

int known_money(const State& s, int o, int q, int t) {
  uint64_t w = 0;
  std::memcpy(&w, s.mknown[known_pair(o, q)], 5);
  return (int)((w >> (3 * t)) & 7);
}

void set_known_money(State& s, int o, int q, int t, int v) {
  uint64_t w = 0;
  std::memcpy(&w, s.mknown[known_pair(o, q)], 5);
  w = (w & ~(7ULL << (3 * t))) | ((uint64_t)(v > 7 ? 7 : v) << (3 * t));
  std::memcpy(s.mknown[known_pair(o, q)], &w, 5);
}

void know_money_in(State& s, int n, int q, int t, int giver) {
  for (int o = 0; o < n; ++o)
    if (o != q && (giver == kNoGiver || o == giver)) set_known_money(s, o, q, t, known_money(s, o, q, t) + 1);
}

void know_money_out(State& s, int n, int q, int t, int receiver) {
  for (int o = 0; o < n; ++o) {
    if (o == q) continue;
    if (receiver == kNoGiver || o == receiver) {
      const int k = known_money(s, o, q, t);
      if (k) set_known_money(s, o, q, t, k - 1);
    } else {  // an onlooker of a hand-over: one known card fewer of every type
      for (int u = 0; u < kMoneyTypes; ++u) {
        const int k = known_money(s, o, q, u);
        if (k) set_known_money(s, o, q, u, k - 1);
      }
    }
  }
}

void know_buildings(State& s, int n) {
  const uint8_t all = (uint8_t)((1u << n) - 1);
  for (int b = 0; b < kBuildings; ++b) {
    const uint8_t kind = s.bloc[b] & 0xF0;
    if (kind == B_BOX || kind == B_ROW || kind == B_FACEUP) s.bknow[b] = all;
    else if (kind == B_HAND) s.bknow[b] |= (uint8_t)(1u << (s.bloc[b] & 0xF));
    else if (kind == B_POOL) s.bknow[b] |= (uint8_t)(1u << s.h_seat);
  }
}

void know_look_returns(State& s, int n, int looker) {
  const uint8_t all = (uint8_t)((1u << n) - 1);
  for (int b = kMills; b < kBuildings; ++b) {
    if (s.bloc[b] != B_POOL) continue;
    const bool face_up = (s.bknow[b] & all) == all || (s.bknow[b] & kKnowFaceUp);
    s.bknow[b] = (uint8_t)((1u << looker) | kKnowGroup | (face_up ? kKnowFaceUp : 0));
  }
}

}  // namespace atelier::craftsmen
