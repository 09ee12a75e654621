// The deal of the unseen money (money_deal.hpp).
#include "money_deal.hpp"

#include <algorithm>
#include <cstring>
#include <set>
#include <utility>

#include "game.hpp"

namespace atelier::craftsmen {

namespace {

int colour_worth(int n1, int n2, int n3) {
  const int k = n1 + n2 + n3, sum = n1 + 2 * n2 + 3 * n3;
  return k <= 1 ? sum : std::max(sum, 5 * (k - 1));
}

// The best value (in `colours`) that `base` plus exactly `extra` cards of `avail` can reach, -1
// when avail holds fewer than `extra` cards. Per colour the j highest cards are best (a colour's
// worth grows with every card and with each card's value); a DP over colours splits the count.
int max_fill(const uint8_t* base, const uint8_t* avail, int extra, unsigned colours) {
  int best[kMoneyCards + 1], next[kMoneyCards + 1];
  for (int k = 0; k <= extra; ++k) best[k] = k == 0 ? 0 : -1;
  for (int c = 0; c < kColours; ++c) {
    const uint8_t* h = base + c * kValues;
    const uint8_t* a = avail + c * kValues;
    int worth[kMoneyCards + 1];
    for (int j = 0; j <= extra; ++j) {
      const int x3 = std::min<int>(j, a[2]), x2 = std::min<int>(j - x3, a[1]), x1 = std::min<int>(j - x3 - x2, a[0]);
      worth[j] = x1 + x2 + x3 < j ? -1 : (colours >> c & 1) ? colour_worth(h[0] + x1, h[1] + x2, h[2] + x3) : 0;
    }
    for (int k = 0; k <= extra; ++k) {
      next[k] = -1;
      for (int j = 0; j <= k; ++j)
        if (worth[j] >= 0 && best[k - j] >= 0) next[k] = std::max(next[k], worth[j] + best[k - j]);
    }
    std::memcpy(best, next, sizeof(int) * (extra + 1));
  }
  return best[extra];
}

template <class T>
void shuffle(T* a, int n, Rng& rng) {
  for (int i = n - 1; i > 0; --i) std::swap(a[i], a[rng.below((uint32_t)(i + 1))]);
}

// Exact search: can the claimants' remaining places be filled from `left` so that every claim
// holds? Depth-first over the claimants (seat order), each over the money types; failures are
// memoised on (claimant, cards left), which is all a sub-search depends on.
struct Search {
  const MoneyView& v;
  int order[kMaxPlayers] = {}, m = 0;
  uint8_t hand[kMaxPlayers][kMoneyTypes] = {};
  int rem[kMaxPlayers] = {};
  std::set<std::pair<uint64_t, uint64_t>> failed;

  explicit Search(const MoneyView& view) : v(view) {
    for (int q = 0; q < v.n; ++q) {
      if (q == v.seat) continue;
      std::memcpy(hand[q], v.base[q], kMoneyTypes);
      rem[q] = v.places[q];
      bool claimed = false;
      for (int i = 0; i < v.nclaims; ++i) claimed |= v.claims[i].seat == q;
      if (claimed) order[m++] = q;
    }
  }

  bool meets(int q, const uint8_t* h) const {
    for (int i = 0; i < v.nclaims; ++i) {
      const Claim& c = v.claims[i];
      if (c.seat != q) continue;
      uint8_t x[kMoneyTypes] = {};
      for (int t = 0; t < kMoneyTypes; ++t)
        if (c.colours >> (t / kValues) & 1) x[t] = h[t];
      if (Game::value(x) < c.need) return false;
    }
    return true;
  }

  // Can q's hand h, with r more cards of the types from `from` on, still meet its claims?
  bool reachable(int q, const uint8_t* h, const uint8_t* left, int from, int r) const {
    uint8_t a[kMoneyTypes] = {};
    for (int t = from; t < kMoneyTypes; ++t) a[t] = left[t];
    for (int i = 0; i < v.nclaims; ++i) {
      const Claim& c = v.claims[i];
      if (c.seat == q && max_fill(h, a, r, c.colours) < c.need) return false;
    }
    return r == 0 || max_fill(h, a, r, 0) >= 0;  // enough cards for the places at all
  }

  bool complete(int i, uint8_t* left) {
    if (i == m) return true;
    for (int j = i; j < m; ++j)
      if (!reachable(order[j], hand[order[j]], left, 0, rem[order[j]])) return false;
    std::pair<uint64_t, uint64_t> key{0, 0};
    for (int t = 0; t < kMoneyTypes; ++t) (t < 8 ? key.first : key.second) |= (uint64_t)left[t] << (8 * (t % 8));
    key.second |= (uint64_t)i << 56;
    if (failed.count(key)) return false;
    const bool ok = take(i, 0, rem[order[i]], left);
    if (!ok) failed.insert(key);
    return ok;
  }

  bool take(int i, int t, int r, uint8_t* left) {
    const int q = order[i];
    if (r == 0) return meets(q, hand[q]) && complete(i + 1, left);
    if (t == kMoneyTypes || !reachable(q, hand[q], left, t, r)) return false;
    for (int x = std::min<int>(left[t], r); x >= 0; --x) {
      hand[q][t] = (uint8_t)(hand[q][t] + x), left[t] = (uint8_t)(left[t] - x);
      const bool ok = take(i, t + 1, r - x, left);
      hand[q][t] = (uint8_t)(hand[q][t] - x), left[t] = (uint8_t)(left[t] + x);
      if (ok) return true;
    }
    return false;
  }

  bool exists(uint8_t* left) {
    failed.clear();
    return complete(0, left);
  }
};

}  // namespace

bool deal_money(const MoneyView& v, uint8_t hands[kMaxPlayers][kMoneyTypes], Rng& rng) {
  Search s(v);
  uint8_t cards[kMoneyCards];
  int nc = 0;
  for (int t = 0; t < kMoneyTypes; ++t)
    for (int i = 0; i < v.unseen[t]; ++i) cards[nc++] = (uint8_t)t;
  // By rejection: uniform deals until one meets every claim.
  for (int attempt = 0; attempt < 64; ++attempt) {
    shuffle(cards, nc, rng);
    int next = 0;
    bool ok = true;
    for (int q = 0; q < v.n; ++q) {
      if (q == v.seat) continue;
      std::memcpy(hands[q], v.base[q], kMoneyTypes);
      for (int i = 0; i < v.places[q]; ++i) ++hands[q][cards[next++]];
      ok &= s.meets(q, hands[q]);
    }
    if (ok) return true;
  }
  // Exactly: each claimant place takes a card drawn uniformly among those that leave a deal.
  uint8_t left[kMoneyTypes];
  std::memcpy(left, v.unseen, sizeof left);
  if (!s.exists(left)) return false;
  for (int i = 0; i < s.m; ++i) {
    const int q = s.order[i];
    while (s.rem[q] > 0) {
      unsigned excluded = 0;
      for (;;) {
        int total = 0;
        for (int t = 0; t < kMoneyTypes; ++t)
          if (!(excluded >> t & 1)) total += left[t];
        if (total == 0) return false;  // cannot happen: exists() held before this place
        int r = (int)rng.below((uint32_t)total), t = 0;
        for (;; ++t)
          if (!(excluded >> t & 1)) {
            if (r < left[t]) break;
            r -= left[t];
          }
        ++s.hand[q][t], --left[t], --s.rem[q];
        if (s.exists(left)) break;
        --s.hand[q][t], ++left[t], ++s.rem[q];
        excluded |= 1u << t;
      }
    }
  }
  // The rest uniformly: the unclaimed hands' places, then the deck.
  nc = 0;
  for (int t = 0; t < kMoneyTypes; ++t)
    for (int i = 0; i < left[t]; ++i) cards[nc++] = (uint8_t)t;
  shuffle(cards, nc, rng);
  int next = 0;
  for (int q = 0; q < v.n; ++q) {
    if (q == v.seat) continue;
    std::memcpy(hands[q], s.hand[q], kMoneyTypes);
    for (int i = 0; i < s.rem[q]; ++i) ++hands[q][cards[next++]];
  }
  return true;
}

}  // namespace atelier::craftsmen
