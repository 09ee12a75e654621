// Craftsmen scoring and result (Craftsmen §14): AP totals (bonus tokens are added at the end of
// year 3), then the strict ranking: AP, money cards, later in the final turn order.
#include <algorithm>

#include "game.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < n_; ++p) out[p] = s.seat[p].ap;
}

void Game::ranking(const State& s, int* order) const {
  int pos[kMaxPlayers] = {};
  for (int i = 0; i < n_; ++i) {
    order[i] = s.turn_order[i];
    pos[s.turn_order[i] % kMaxPlayers] = i;
  }
  auto before = [&](int a, int b) {
    if (s.seat[a].ap != s.seat[b].ap) return s.seat[a].ap > s.seat[b].ap;
    const int ha = Rules::hand(s, a), hb = Rules::hand(s, b);
    if (ha != hb) return ha > hb;
    return pos[a] > pos[b];  // A19: the later seat in the final order wins
  };
  for (int i = 1; i < n_; ++i)
    for (int j = i; j > 0 && before(order[j], order[j - 1]); --j) std::swap(order[j], order[j - 1]);
}

// Before the end nobody has won: 1/n each (docs/internal-contract.md), so the shares always add
// up to 1. At the end, 1 to the winner the ranking's tie-breaks name (A19).
void Game::returns(const State& s, double* out) const {
  for (int p = 0; p < n_; ++p) out[p] = s.phase == P_TERMINAL ? 0.0 : 1.0 / n_;
  if (s.phase != P_TERMINAL) return;
  int order[kMaxPlayers];
  ranking(s, order);
  out[order[0]] = 1.0;
}

}  // namespace atelier::craftsmen
