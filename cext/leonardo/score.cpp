// Scoring and the result (§7): money + type bonus; ties by cards owned, then gold, silver,
// copper, bronze (R7); a tie that survives all of them shares the win.
#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::leonardo {

ScoreDetail Game::score(const State& s, int seat) const {
  ScoreDetail d{};
  const Player& P = s.pl[seat];
  unsigned types = 0;
  for (uint32_t w = P.owned; w; w &= w - 1) {
    const CardData& c = ed_.cards[lsb64(w)];
    types |= 1u << c.type;
    ++d.by_tier[c.tier];
    ++d.n_cards;
  }
  d.money = P.money;
  d.types = popcount64(types);
  d.bonus = ed_.type_bonus[d.types];
  d.total = d.money + d.bonus;
  return d;
}

void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < n_; ++p) out[p] = score(s, p).total;
}

// Lexicographic result key: total, cards, gold, silver, copper, bronze.
static bool better(const ScoreDetail& a, const ScoreDetail& b, int& cmp) {
  const int ka[6] = {a.total, a.n_cards, a.by_tier[3], a.by_tier[2], a.by_tier[1], a.by_tier[0]};
  const int kb[6] = {b.total, b.n_cards, b.by_tier[3], b.by_tier[2], b.by_tier[1], b.by_tier[0]};
  for (int i = 0; i < 6; ++i)
    if (ka[i] != kb[i]) {
      cmp = ka[i] > kb[i] ? 1 : -1;
      return cmp > 0;
    }
  cmp = 0;
  return false;
}

uint8_t Game::winners(const State& s) const {
  ScoreDetail best = score(s, 0);
  uint8_t mask = 1;
  for (int p = 1; p < n_; ++p) {
    const ScoreDetail d = score(s, p);
    int cmp;
    better(d, best, cmp);
    if (cmp > 0) best = d, mask = (uint8_t)(1u << p);
    else if (cmp == 0) mask |= (uint8_t)(1u << p);
  }
  return mask;
}

// Before the end nobody has won: 1/n each (docs/internal-contract.md), not the current leaders.
void Game::returns(const State& s, double* out) const {
  const uint8_t w = s.phase == GAME_OVER ? winners(s) : (uint8_t)((1u << n_) - 1);
  const int k = popcount64(w);
  for (int p = 0; p < n_; ++p) out[p] = ((w >> p) & 1) ? 1.0 / k : 0.0;
}

}  // namespace atelier::leonardo
