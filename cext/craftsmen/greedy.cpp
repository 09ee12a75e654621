// The Craftsmen greedy baseline (docs/bots.md): the legal move whose one-step result has the
// highest own AP, ties to a uniformly random choice; chance-free lookahead only, so it never
// peeks at hidden cards.
#include "game.hpp"

namespace atelier::craftsmen {

Move Game::greedy_move(const State& s, Rng& rng) const {
  MoveList ml;
  legal_moves(s, ml);
  if (ml.size == 0) return 0;
  const int p = s.actor;
  int best = -1 << 30, count = 0;
  Move pick = ml[0];
  for (int i = 0; i < ml.size; ++i) {
    State c = s;
    apply(c, ml[i]);
    const int v = c.seat[p].ap;
    if (v > best) {
      best = v;
      pick = ml[i];
      count = 1;
    } else if (v == best && rng.below((uint32_t)++count) == 0) {
      pick = ml[i];
    }
  }
  return pick;
}

}  // namespace atelier::craftsmen
