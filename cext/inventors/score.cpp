// Scoring and the result (spec §7).
#include <cstring>
#include <vector>

#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::inventors {

// Best total of classification suites (spec 7.4): x_v = suites containing number v is
// non-increasing; number v needs max(0, x_v - c_v) stars. A forward DP over v keeps, for each
// (x_prev, stars used), the best score so far; the frontier stays tiny in real games.
static int suite_score(const int* c6, int stars) {
  if (stars == 0) {  // fast path: sum of running minima
    int m = c6[0], total = 0;
    for (int v = 1; v < kTypes; ++v) {
      m = c6[v] < m ? c6[v] : m;
      total += m;
    }
    return total;
  }
  // The table has a row per star count: a score bound asks with the stars held plus one per
  // completion still to come (over 16 early in a 5-player game), so it is sized per call, not
  // fixed (a fixed [16] was read and written past its end there).
  constexpr int kMaxX = 64;
  static thread_local std::vector<int> table;
  const size_t row = (size_t)stars + 1;
  if (table.size() < 2 * kMaxX * row) table.resize(2 * kMaxX * row);
  auto best = [&](int which, int x, int u) -> int& { return table[((size_t)which * kMaxX + x) * row + u]; };
  const int top = c6[0] + stars < kMaxX - 1 ? c6[0] + stars : kMaxX - 1;
  const int V = kTypes + stars;
  // v = 0: choose x_0 (scores nothing).
  int cur = 0;
  for (int x = 0; x <= top; ++x)
    for (int u = 0; u <= stars; ++u) best(cur, x, u) = -1;
  for (int x = 0; x <= top; ++x) {
    const int need = x > c6[0] ? x - c6[0] : 0;
    if (need <= stars) best(cur, x, need) = 0;
  }
  for (int v = 1; v < V; ++v) {
    const int cv = v < kTypes ? c6[v] : 0;
    const int nxt = cur ^ 1;
    for (int x = 0; x <= top; ++x)
      for (int u = 0; u <= stars; ++u) best(nxt, x, u) = -1;
    for (int prev = 0; prev <= top; ++prev)
      for (int u = 0; u <= stars; ++u) {
        const int b = best(cur, prev, u);
        if (b < 0) continue;
        for (int x = 0; x <= prev; ++x) {
          const int need = u + (x > cv ? x - cv : 0);
          if (need > stars) break;
          if (b + x > best(nxt, x, need)) best(nxt, x, need) = b + x;
        }
      }
    cur = nxt;
  }
  int result = 0;
  for (int x = 0; x <= top; ++x)
    for (int u = 0; u <= stars; ++u)
      if (best(cur, x, u) > result) result = best(cur, x, u);
  return result;
}

ScoreDetail Game::score(const State& s, int seat) const {
  ScoreDetail r{};
  int types[kTypes] = {0};
  for (uint64_t w = s.won[seat]; w; w &= w - 1) {
    const CardData& c = ed_.cards[lsb64(w)];
    r.cards += c.age;
    ++types[c.type];
    ++r.n_cards;
  }
  const uint8_t* h = s.hand[seat];
  r.vp_tokens = h[VP1] + 2 * h[VP2] + 3 * h[VP3];
  for (int i = 0; i < kInventorsPerTeam; ++i) {
    bool met = true;
    for (int d = 0; d < kDisciplines; ++d) met &= s.level(seat, i, d) >= ed_.inventors[teams_[seat]][i].goal[d];
    if (met) r.goals += goal_vp_[seat][i];
  }
  r.suites = suite_score(types, h[ST]);
  r.total = r.cards + r.vp_tokens + r.goals + r.suites;
  return r;
}

void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < n_; ++p) out[p] = score(s, p).total;
}

// Suite scores with extra stars, cached: a bound asks for the same few won sets again and
// again (they change only when a card is taken), and the DP with stars is the costly part.
static int suite_cached(const int* c6, int stars) {
  static thread_local uint64_t key[1024];
  static thread_local int val[1024];
  uint64_t k = 1 + (uint64_t)stars;
  for (int v = 0; v < kTypes; ++v) k = (k << 5) | (uint64_t)c6[v];
  const int slot = (int)((k * 0x9E3779B97F4A7C15ull) >> 54);
  if (key[slot] == k) return val[slot];
  key[slot] = k;
  return val[slot] = suite_score(c6, stars);
}

// Score bounds (concept: score_bounds). Every part of a score but held VP and ST tokens only
// grows, and those leave a hand only when their owner plays them: the current total is a
// score each seat can keep whatever the others do. For the ceiling, each of the completions
// still to come rewards a seat at most once (5.7.4: distinct seats), with a card (at most 3
// points, 7.1) or one token: at most 3 points of VP, one star, or one level step. Every held
// token can also become one level step (a back play, 0 -> 1, or a front play, N-1 -> N).
// Counting each reward in every category at once keeps the ceiling simple and safe.
// A won card's type is one star's worth to the suites: a star can take any number.
void Game::score_bounds(const State& s, int* lo, int* hi) const {
  int left = 0;   // completions still to come
  if (s.phase == CHANCE_REVEAL) left = (4 - s.age) * (k() - 1);
  else if (s.phase != TERMINAL) left = (s.ndisplay - 1) + (3 - s.age) * (k() - 1);
  for (int p = 0; p < n_; ++p) {
    const ScoreDetail d = score(s, p);
    lo[p] = d.total;
    int r = left;
    if (s.phase == REWARD)
      for (int i = s.rw_index; i < s.rw_count; ++i) r += s.rw_seats[i] == p;
    if (r == 0 && s.phase == TERMINAL) {
      hi[p] = d.total;
      continue;
    }
    int types[kTypes] = {0}, tokens = 0;
    for (uint64_t w = s.won[p]; w; w &= w - 1) ++types[ed_.cards[lsb64(w)].type];
    for (int k = 0; k < kTokenKinds; ++k) tokens += s.hand[p][k];
    // Goals reachable with `steps` level steps: the best subset of inventors by deficit.
    const int steps = tokens + r;
    int deficit[kInventorsPerTeam], goals = 0;
    for (int i = 0; i < kInventorsPerTeam; ++i) {
      deficit[i] = 0;
      for (int dd = 0; dd < kDisciplines; ++dd) {
        const int need = ed_.inventors[teams_[p]][i].goal[dd] - s.level(p, i, dd);
        deficit[i] += need > 0 ? need : 0;
      }
    }
    for (int m = 0; m < (1 << kInventorsPerTeam); ++m) {
      int cost = 0, vp = 0;
      for (int i = 0; i < kInventorsPerTeam; ++i)
        if (m >> i & 1) cost += deficit[i], vp += goal_vp_[p][i];
      if (cost <= steps && vp > goals) goals = vp;
    }
    hi[p] = d.cards + d.vp_tokens + 3 * r + goals + suite_cached(types, s.hand[p][ST] + r);
  }
}

// Spec 7.5: highest total, then most won cards, then a shared win.
uint8_t Game::winners(const State& s) const {
  int best_total = -1, best_cards = -1;
  uint8_t mask = 0;
  for (int p = 0; p < n_; ++p) {
    const ScoreDetail d = score(s, p);
    if (d.total > best_total || (d.total == best_total && d.n_cards > best_cards)) {
      best_total = d.total;
      best_cards = d.n_cards;
      mask = (uint8_t)(1u << p);
    } else if (d.total == best_total && d.n_cards == best_cards) {
      mask |= (uint8_t)(1u << p);
    }
  }
  return mask;
}

// Before the end nobody has won: 1/n each (docs/internal-contract.md), not the current leaders.
void Game::returns(const State& s, double* out) const {
  const uint8_t w = s.phase == TERMINAL ? winners(s) : (uint8_t)((1u << n_) - 1);
  const double share = 1.0 / __builtin_popcount(w);
  for (int p = 0; p < n_; ++p) out[p] = (w >> p) & 1 ? share : 0.0;
}

}  // namespace atelier::inventors
