// Scoring and the result (spec §7).
#include <cstring>

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
  constexpr int kMaxX = 64, kMaxS = 16;
  static thread_local int best[2][kMaxX][kMaxS];
  const int top = c6[0] + stars < kMaxX - 1 ? c6[0] + stars : kMaxX - 1;
  const int V = kTypes + stars;
  // v = 0: choose x_0 (scores nothing).
  int cur = 0;
  for (int x = 0; x <= top; ++x)
    for (int u = 0; u <= stars; ++u) best[cur][x][u] = -1;
  for (int x = 0; x <= top; ++x) {
    const int need = x > c6[0] ? x - c6[0] : 0;
    if (need <= stars) best[cur][x][need] = 0;
  }
  for (int v = 1; v < V; ++v) {
    const int cv = v < kTypes ? c6[v] : 0;
    const int nxt = cur ^ 1;
    for (int x = 0; x <= top; ++x)
      for (int u = 0; u <= stars; ++u) best[nxt][x][u] = -1;
    for (int prev = 0; prev <= top; ++prev)
      for (int u = 0; u <= stars; ++u) {
        const int b = best[cur][prev][u];
        if (b < 0) continue;
        for (int x = 0; x <= prev; ++x) {
          const int need = u + (x > cv ? x - cv : 0);
          if (need > stars) break;
          if (b + x > best[nxt][x][need]) best[nxt][x][need] = b + x;
        }
      }
    cur = nxt;
  }
  int result = 0;
  for (int x = 0; x <= top; ++x)
    for (int u = 0; u <= stars; ++u)
      if (best[cur][x][u] > result) result = best[cur][x][u];
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

void Game::returns(const State& s, double* out) const {
  const uint8_t w = winners(s);
  const double share = 1.0 / __builtin_popcount(w);
  for (int p = 0; p < n_; ++p) out[p] = (w >> p) & 1 ? share : 0.0;
}

}  // namespace atelier::inventors
