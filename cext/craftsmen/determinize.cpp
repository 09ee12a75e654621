// Information sets (Craftsmen §6.2): infoset_key(seat) hashes what seat knows; determinize(seat)
// deals what it cannot see within the binding claims (claims.hpp): the money by money_deal.cpp
// (uniform by rejection, else an exact sequential deal; never the truth's own hands), the
// buildings uniformly over their slots. Reads only what seat knows (§23.1).
#include <algorithm>
#include <cstring>

#include "../common/zobrist.hpp"
#include "game.hpp"
#include "knowledge.hpp"
#include "money_deal.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

namespace {

// The pool of an unseen building (§6.2): basic, extended-house/plain, advanced-house/plain.
int pool_of(const Edition& ed, int b) {
  const int t = ed.b[b].tier;
  return t == BASIC ? 0 : 2 * t - 3 + (ed.b[b].house ? 0 : 1);
}

bool public_place(uint8_t loc) {
  const uint8_t k = loc & 0xF0;
  return k == B_BOX || k == B_ROW || k == B_FACEUP;
}

bool hidden_from(const State& s, int b, int seat) {
  return !public_place(s.bloc[b]) && !((s.bknow[b] >> seat) & 1);
}

// Unordered places count by kind; the known sequences by position too.
uint64_t slot_word(uint8_t loc, uint8_t pos, int what) {
  const uint8_t k = loc & 0xF0;
  const int p = k == B_TOP || k == B_BOTTOM ? pos : 0;
  return ((uint64_t)loc << 16) | ((uint64_t)p << 8) | (uint64_t)what;
}

template <class T>
void shuffle(T* a, int n, Rng& rng) {
  for (int i = n - 1; i > 0; --i) std::swap(a[i], a[rng.below((uint32_t)(i + 1))]);
}

}  // namespace

uint64_t Game::infoset_key(const State& s, int seat) const {
  State v = s;
  uint64_t unseen = 0;  // a sum, so the order of the unseen places does not matter
  auto add = [&](uint64_t w) { unseen += splitmix64_at(w ^ 0xC3A5C85C97CB3127ULL); };
  for (int q = 0; q < n_; ++q) {
    if (q == seat) continue;
    int hidden = Rules::hand(s, q);
    for (int t = 0; t < kMoneyTypes; ++t) {
      const int k = known_money(s, seat, q, t);
      v.money[M_HAND0 + q][t] = (uint8_t)k;
      hidden -= k;
    }
    add((1ULL << 40) | ((uint64_t)q << 8) | (uint64_t)hidden);
    // What another seat knows of a third seat's hand is not seat's business (A25).
    for (int r = 0; r < n_; ++r)
      if (r != q && r != seat) std::memset(v.mknown[known_pair(q, r)], 0, 5);
  }
  add((2ULL << 40) | (uint64_t)Rules::place_count(s, M_DECK));
  std::memset(v.money[M_DECK], 0, kMoneyTypes);
  for (int b = kMills; b < kBuildings; ++b) {
    v.bknow[b] = 0;
    if (!hidden_from(s, b, seat)) continue;
    v.bloc[b] = v.bpos[b] = 0;
    if (s.bknow[b] & kKnowGroup) {
      add((3ULL << 40) | slot_word(s.bloc[b], s.bpos[b], ed_.b[b].tier));
      if (s.bknow[b] & kKnowFaceUp)
        v.bloc[b] = 0xFE;  // known to be among the returns, not where
      else
        add((4ULL << 40) | ((uint64_t)ed_.b[b].tier << 8) | (uint64_t)pool_of(ed_, b));
    } else {
      add((5ULL << 40) | slot_word(s.bloc[b], s.bpos[b], pool_of(ed_, b)));
    }
  }
  return compute_hash(v) ^ zobrist(/*salt: craftsmen views*/ 4, (uint64_t)seat) ^ unseen;
}

bool Game::determinize(State& s, int seat, Rng& rng) const {
  // ---- money: the unseen cards into the other hands' unseen places and the deck (money_deal.cpp)
  MoneyView mv{};
  mv.n = n_, mv.seat = seat;
  uint8_t avail[kMoneyTypes] = {};
  for (int q = 0; q < n_; ++q) {
    if (q == seat) continue;
    for (int t = 0; t < kMoneyTypes; ++t) {
      const int k = std::min<int>(known_money(s, seat, q, t), s.money[M_HAND0 + q][t]);
      mv.base[q][t] = (uint8_t)k;
      avail[t] = (uint8_t)(avail[t] + s.money[M_HAND0 + q][t] - k);
      mv.places[q] += s.money[M_HAND0 + q][t] - k;
    }
  }
  for (int t = 0; t < kMoneyTypes; ++t) avail[t] = (uint8_t)(avail[t] + s.money[M_DECK][t]);
  std::memcpy(mv.unseen, avail, sizeof avail);
  Claim all[kMaxClaims];
  const int nall = claims_of(s, n_, all);
  for (int i = 0; i < nall; ++i)
    if (all[i].seat != seat) mv.claims[mv.nclaims++] = all[i];
  uint8_t hands[kMaxPlayers][kMoneyTypes] = {};
  if (!deal_money(mv, hands, rng)) return false;
  uint8_t deck[kMoneyTypes];
  std::memcpy(deck, avail, sizeof deck);
  for (int q = 0; q < n_; ++q) {
    if (q == seat) continue;
    for (int t = 0; t < kMoneyTypes; ++t) deck[t] = (uint8_t)(deck[t] - (hands[q][t] - mv.base[q][t]));
    std::memcpy(s.money[M_HAND0 + q], hands[q], kMoneyTypes);
    // What another seat knows of a redealt hand is not seat's to know (A25; infoset_key leaves it
    // out): forgotten, the safe direction (every hand fits it), so the sample stays a function of
    // seat's view. The simulated seats lose their share of public knowledge of q's hand.
    for (int o = 0; o < n_; ++o)
      if (o != q && o != seat) std::memset(s.mknown[known_pair(o, q)], 0, 5);
  }
  std::memcpy(s.money[M_DECK], deck, kMoneyTypes);

  // ---- buildings. Per pool, its unseen cards (in id order) over its slots: the slots of its
  // unseen cards outside a look's returns, and one token per unseen card of the pool among the
  // returns (the view says how many, not which). Then per tier, the returns group: its face-up
  // ids and the cards that drew a token, over the group's slots. Every list of slots is sorted
  // before its shuffle, so the deal depends only on what seat knows, never on which card truly
  // lies where (§23.1).
  struct Slot {
    uint8_t loc, pos, know;
    bool operator<(const Slot& o) const {
      return loc != o.loc ? loc < o.loc : pos != o.pos ? pos < o.pos : know < o.know;
    }
  };
  constexpr uint8_t kToken = 0xFF;  // a slot "among the returns" (no real place has this byte)
  Slot slots[kBuildings], group[ADVANCED + 1][kBuildings];
  int ids[kBuildings], ngroup[ADVANCED + 1] = {}, members[ADVANCED + 1][kBuildings], nmembers[ADVANCED + 1] = {};
  for (int b = kFirstBasic; b < kBuildings; ++b)
    if (hidden_from(s, b, seat) && (s.bknow[b] & kKnowGroup)) {
      const int t = ed_.b[b].tier;
      group[t][ngroup[t]++] = {s.bloc[b], s.bpos[b], (uint8_t)(s.bknow[b] & ~kKnowFaceUp)};
      if (s.bknow[b] & kKnowFaceUp) members[t][nmembers[t]++] = b;
    }
  for (int pool = 0; pool < 5; ++pool) {
    int c = 0;
    for (int b = kFirstBasic; b < kBuildings; ++b)
      if (hidden_from(s, b, seat) && !(s.bknow[b] & kKnowFaceUp) && pool_of(ed_, b) == pool)
        ids[c] = b, slots[c++] = s.bknow[b] & kKnowGroup ? Slot{kToken, 0, 0} : Slot{s.bloc[b], s.bpos[b], s.bknow[b]};
    std::sort(slots, slots + c);
    shuffle(slots, c, rng);
    for (int i = 0; i < c; ++i) {
      const int b = ids[i], t = ed_.b[b].tier;
      if (slots[i].loc == kToken) members[t][nmembers[t]++] = b;
      else s.bloc[b] = slots[i].loc, s.bpos[b] = slots[i].pos, s.bknow[b] = slots[i].know;
    }
  }
  for (int t = BASIC; t <= ADVANCED; ++t) {
    std::sort(members[t], members[t] + nmembers[t]);
    std::sort(group[t], group[t] + ngroup[t]);
    shuffle(group[t], ngroup[t], rng);
    for (int i = 0; i < ngroup[t]; ++i) {
      const int b = members[t][i];
      const uint8_t face_up = s.bknow[b] & kKnowFaceUp;
      s.bloc[b] = group[t][i].loc, s.bpos[b] = group[t][i].pos, s.bknow[b] = group[t][i].know | face_up;
    }
  }
  return true;
}

}  // namespace atelier::craftsmen
