// Information sets (Craftsmen §6.2): infoset_key(seat) hashes what seat knows; determinize(seat)
// deals what it cannot see, uniformly, within the running auction's commitments, with the
// bounded constructive deal of Craftsmen §23 when rejection fails. Fixed scratch memory.
#include <algorithm>
#include <cstring>

#include "../common/zobrist.hpp"
#include "game.hpp"
#include "knowledge.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

namespace {

constexpr int kMaxHand = kMoneyCards;  // a fill never needs more places than there are cards

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

namespace {

// The best value a hand of `base` plus `extra` cards from `avail` can reach (Craftsmen §23): per
// colour the k highest available cards are best; a DP over colours combines the counts.
// Only the colours in `colours` count (a Notary buy pays in the card's colours). Writes the
// choice into `take` and returns the value, -1 when the places cannot be filled.
int best_fill(const uint8_t* base, const uint8_t* avail, int extra, unsigned colours, uint8_t* take) {
  int colour_value[kColours][kMaxHand + 1];
  for (int c = 0; c < kColours; ++c)
    for (int k = 0; k <= extra; ++k) {
      uint8_t h[kMoneyTypes] = {};
      for (int v = 0; v < kValues; ++v) h[c * kValues + v] = base[c * kValues + v];
      int left = k;
      for (int v = kValues - 1; v >= 0 && left; --v) {
        const int x = std::min<int>(left, avail[c * kValues + v]);
        h[c * kValues + v] = (uint8_t)(h[c * kValues + v] + x);
        left -= x;
      }
      colour_value[c][k] = left ? -1 : (colours >> c & 1) ? Game::value(h) : 0;
    }
  int best[kColours + 1][kMaxHand + 1], pick[kColours][kMaxHand + 1];
  for (int k = 0; k <= extra; ++k) best[kColours][k] = k == 0 ? 0 : -1;
  for (int c = kColours - 1; c >= 0; --c)
    for (int k = 0; k <= extra; ++k) {
      best[c][k] = -1;
      for (int j = 0; j <= k; ++j)
        if (colour_value[c][j] >= 0 && best[c + 1][k - j] >= 0 && colour_value[c][j] + best[c + 1][k - j] > best[c][k])
          best[c][k] = colour_value[c][j] + best[c + 1][k - j], pick[c][k] = j;
    }
  if (best[0][extra] < 0) return -1;
  std::memset(take, 0, kMoneyTypes);
  for (int c = 0, k = extra; c < kColours; ++c) {
    int left = pick[c][k];
    k -= left;
    for (int v = kValues - 1; v >= 0 && left; --v) {
      const int x = std::min<int>(left, avail[c * kValues + v]);
      take[c * kValues + v] = (uint8_t)x;
      left -= x;
    }
  }
  return best[0][extra];
}

// The fill of `extra` places that meets `need` (counting the colours in `colours`) while taking
// the least printed value, so that the claims after it keep the most: a DP over colours and
// (places used, value reached capped at need). false when no fill meets the claim.
bool cheapest_fill(const uint8_t* base, const uint8_t* avail, int extra, unsigned colours, int need, uint8_t* take) {
  constexpr int kPlaces = 16, kNeed = 128, kInf = 1 << 20;
  if (extra > kPlaces || need >= kNeed) return false;
  static_assert(kValues == 3, "the fill enumerates three values per colour");
  int cost[kColours + 1][kPlaces + 1][kNeed];
  uint8_t from_k[kColours + 1][kPlaces + 1][kNeed], from_v[kColours + 1][kPlaces + 1][kNeed];
  uint16_t pick[kColours + 1][kPlaces + 1][kNeed];  // the counts of values 1, 2, 3 taken, 3 bits each
  for (int c = 0; c <= kColours; ++c)
    for (int k = 0; k <= extra; ++k)
      for (int v = 0; v <= need; ++v) cost[c][k][v] = kInf;
  cost[0][0][0] = 0;
  for (int c = 0; c < kColours; ++c) {
    const uint8_t* a = avail + c * kValues;
    const uint8_t* h = base + c * kValues;
    const int m1 = std::min<int>(a[0], 7), m2 = std::min<int>(a[1], 7), m3 = std::min<int>(a[2], 7);
    for (int x1 = 0; x1 <= m1; ++x1)
      for (int x2 = 0; x2 <= m2; ++x2)
        for (int x3 = 0; x3 <= m3; ++x3) {
          const int j = x1 + x2 + x3;
          if (j > extra) continue;
          const int cnt = h[0] + h[1] + h[2] + j, sum = h[0] + 2 * h[1] + 3 * h[2] + x1 + 2 * x2 + 3 * x3;
          const int val = (colours >> c & 1) ? (cnt <= 1 ? sum : std::max(sum, 5 * (cnt - 1))) : 0;
          const int price = x1 + 2 * x2 + 3 * x3;
          for (int k = 0; k + j <= extra; ++k)
            for (int v = 0; v <= need; ++v) {
              if (cost[c][k][v] >= kInf) continue;
              const int nv = std::min(need, v + val);
              if (cost[c][k][v] + price < cost[c + 1][k + j][nv]) {
                cost[c + 1][k + j][nv] = cost[c][k][v] + price;
                from_k[c + 1][k + j][nv] = (uint8_t)k;
                from_v[c + 1][k + j][nv] = (uint8_t)v;
                pick[c + 1][k + j][nv] = (uint16_t)(x1 | x2 << 3 | x3 << 6);
              }
            }
        }
  }
  if (cost[kColours][extra][need] >= kInf) return false;
  std::memset(take, 0, kMoneyTypes);
  for (int c = kColours, k = extra, v = need; c > 0; --c) {
    const unsigned x = pick[c][k][v];
    take[(c - 1) * kValues] = x & 7, take[(c - 1) * kValues + 1] = (x >> 3) & 7, take[(c - 1) * kValues + 2] = (x >> 6) & 7;
    const int pk = from_k[c][k][v], pv = from_v[c][k][v];
    k = pk, v = pv;
  }
  return true;
}

}  // namespace

bool Game::determinize(State& s, int seat, Rng& rng) const {
  // ---- money: the unseen cards into the other hands' unseen places and the deck
  uint8_t base[kMaxPlayers][kMoneyTypes] = {}, avail[kMoneyTypes] = {};
  int places[kMaxPlayers] = {}, need[kMaxPlayers] = {};
  unsigned colours[kMaxPlayers] = {0xF, 0xF, 0xF, 0xF, 0xF};
  for (int q = 0; q < n_; ++q) {
    if (q == seat) continue;
    for (int t = 0; t < kMoneyTypes; ++t) {
      const int k = std::min<int>(known_money(s, seat, q, t), s.money[M_HAND0 + q][t]);
      base[q][t] = (uint8_t)k;
      avail[t] = (uint8_t)(avail[t] + s.money[M_HAND0 + q][t] - k);
      places[q] += s.money[M_HAND0 + q][t] - k;
    }
    // Commitments (§6.2): a bid in the running auction bounds the bidder's hand from below.
    if (s.auc_card != kNoSeat) need[q] = s.auc_max[q];
  }
  // A payment under way (P_PAY, or a limit discard that interrupted it) was promised by a
  // public choice (a build, a buy, a won auction): the payer's hand can pay it.
  const bool paying = s.phase == P_PAY || (s.phase == P_LIMIT && s.lim_saved == P_PAY);
  if (paying && s.pay_seat < n_ && s.pay_seat != seat) {
    need[s.pay_seat] = std::max<int>(need[s.pay_seat], s.pay_amount);
    colours[s.pay_seat] = s.pay_colours;
  }
  auto meets = [&](int q, const uint8_t* h) {
    uint8_t c[kMoneyTypes] = {};
    for (int t = 0; t < kMoneyTypes; ++t)
      if (colours[q] >> (t / kValues) & 1) c[t] = h[t];
    return Game::value(c) >= need[q];
  };
  for (int t = 0; t < kMoneyTypes; ++t) avail[t] = (uint8_t)(avail[t] + s.money[M_DECK][t]);
  uint8_t cards[kMoneyCards];
  int nc = 0;
  for (int t = 0; t < kMoneyTypes; ++t)
    for (int i = 0; i < avail[t]; ++i) cards[nc++] = (uint8_t)t;
  uint8_t hands[kMaxPlayers][kMoneyTypes];
  bool dealt = false;
  for (int attempt = 0; attempt < 64 && !dealt; ++attempt) {
    shuffle(cards, nc, rng);
    std::memcpy(hands, base, sizeof hands);
    int next = 0;
    dealt = true;
    for (int q = 0; q < n_; ++q) {
      if (q == seat) continue;
      for (int i = 0; i < places[q]; ++i) ++hands[q][cards[next++]];
      dealt &= meets(q, hands[q]);
    }
  }
  if (!dealt) {
    // Constructive (§23): the constrained hands first, highest claim first, each taking its
    // value-maximising fill; then every other order of them; the rest uniformly. §23's fill can
    // starve a later claim that a smaller fill would have left enough (two claims on the same
    // colour): each order is tried a second time with the cheapest fill that meets each claim.
    int order[kMaxPlayers], m = 0;
    for (int q = 0; q < n_; ++q)
      if (q != seat && need[q] > 0) order[m++] = q;
    std::sort(order, order + m, [&](int a, int b) { return need[a] != need[b] ? need[a] > need[b] : a < b; });
    for (int pass = 0; pass < 2 && !dealt; ++pass) do {
      uint8_t left[kMoneyTypes];
      std::memcpy(left, avail, sizeof left);
      std::memcpy(hands, base, sizeof hands);
      bool ok = true;
      for (int i = 0; i < m && ok; ++i) {
        const int q = order[i];
        uint8_t take[kMoneyTypes];
        ok = pass == 0 ? best_fill(base[q], left, places[q], colours[q], take) >= need[q]
                       : cheapest_fill(base[q], left, places[q], colours[q], need[q], take);
        for (int t = 0; ok && t < kMoneyTypes; ++t) hands[q][t] = (uint8_t)(hands[q][t] + take[t]), left[t] = (uint8_t)(left[t] - take[t]);
      }
      if (!ok) continue;
      nc = 0;
      for (int t = 0; t < kMoneyTypes; ++t)
        for (int i = 0; i < left[t]; ++i) cards[nc++] = (uint8_t)t;
      shuffle(cards, nc, rng);
      int next = 0;
      for (int q = 0; q < n_; ++q) {
        if (q == seat || need[q] > 0) continue;
        for (int i = 0; i < places[q]; ++i) ++hands[q][cards[next++]];
      }
      dealt = true;
      break;
    } while (std::next_permutation(order, order + m, [&](int a, int b) {
      return need[a] != need[b] ? need[a] > need[b] : a < b;
    }) || false);
    if (!dealt) {
      // Still none: the hands as they are, if they meet the claims, are a deal (rare: two or
      // more tight claims on the same cards); else the view is inconsistent.
      for (int q = 0; q < n_; ++q) {
        if (q != seat && !meets(q, s.money[M_HAND0 + q])) return false;
        std::memcpy(hands[q], s.money[M_HAND0 + q], kMoneyTypes);
      }
    }
  }
  uint8_t deck[kMoneyTypes];
  std::memcpy(deck, avail, sizeof deck);
  for (int q = 0; q < n_; ++q) {
    if (q == seat) continue;
    for (int t = 0; t < kMoneyTypes; ++t) deck[t] = (uint8_t)(deck[t] - (hands[q][t] - base[q][t]));
    std::memcpy(s.money[M_HAND0 + q], hands[q], kMoneyTypes);
    // Other seats' knowledge of a redealt hand keeps only what the new hand holds.
    for (int o = 0; o < n_; ++o)
      if (o != q && o != seat)
        for (int t = 0; t < kMoneyTypes; ++t)
          if (known_money(s, o, q, t) > hands[q][t]) set_known_money(s, o, q, t, hands[q][t]);
  }
  std::memcpy(s.money[M_DECK], deck, kMoneyTypes);

  // ---- buildings: per pool, the unseen cards among their slots; then each tier's returns group
  struct Slot {
    uint8_t loc, pos, know;
  };
  Slot slots[kBuildings];
  int ids[kBuildings];
  for (int pool = 0; pool < 5; ++pool) {
    int c = 0;
    for (int b = kFirstBasic; b < kBuildings; ++b)
      if (hidden_from(s, b, seat) && !(s.bknow[b] & kKnowFaceUp) && pool_of(ed_, b) == pool)
        ids[c] = b, slots[c++] = {s.bloc[b], s.bpos[b], s.bknow[b]};
    shuffle(slots, c, rng);
    for (int i = 0; i < c; ++i) s.bloc[ids[i]] = slots[i].loc, s.bpos[ids[i]] = slots[i].pos, s.bknow[ids[i]] = slots[i].know;
  }
  for (int t = BASIC; t <= ADVANCED; ++t) {
    int c = 0;
    for (int b = Rules::first(t); b < Rules::last(t); ++b)
      if (hidden_from(s, b, seat) && (s.bknow[b] & kKnowGroup))
        ids[c] = b, slots[c++] = {s.bloc[b], s.bpos[b], (uint8_t)(s.bknow[b] & ~kKnowFaceUp)};
    shuffle(slots, c, rng);
    for (int i = 0; i < c; ++i) {
      const uint8_t face_up = s.bknow[ids[i]] & kKnowFaceUp;
      s.bloc[ids[i]] = slots[i].loc, s.bpos[ids[i]] = slots[i].pos, s.bknow[ids[i]] = slots[i].know | face_up;
    }
  }
  return true;
}

}  // namespace atelier::craftsmen
