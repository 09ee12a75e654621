// The greedy baseline (docs/bots.md): try every legal move, score the result with a static
// evaluation from the mover's point of view, play the best; exact ties broken by the rng.
#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::inventors {

// Points now, plus what the position promises the seat:
// - goals not yet met: goal_vp * 0.5^missing_levels;
// - every level point: 0.15 (more cubes per WORK);
// - held P2/P3/P4/AV/AK tokens: 0.4 (0.6 for AK);
// - cubes on display cards: share of the card times (age + 1), the +1 for its tokens;
// - a reward still to choose: the card's age + 1;
// - each busy inventor: -0.3 (a turn of REST to recover it).
static double evaluate(const Game& g, const State& s, int p) {
  double v = g.score(s, p).total;
  for (int i = 0; i < kInventorsPerTeam; ++i) {
    int missing = 0, levels = 0;
    for (int d = 0; d < kDisciplines; ++d) {
      const int l = s.level(p, i, d), goal = g.inventor(p, i).goal[d];
      missing += goal > l ? goal - l : 0;
      levels += l;
    }
    if (missing) v += g.inventor(p, i).goal_vp / (double)(1 << missing);
    v += 0.15 * levels;
    if (s.busy[p] & (1u << i)) v -= 0.3;
  }
  const uint8_t* h = s.hand[p];
  v += 0.4 * (h[P2] + h[P3] + h[P4] + h[AV]) + 0.6 * h[AK];
  for (int j = 0; j < s.ndisplay; ++j) {
    const DisplayCard& dc = s.display[j];
    const CardData& c = g.card(dc.card);
    v += (double)dc.cubes[p] / c.total * (c.age + 1);
  }
  if (s.phase == REWARD)
    for (int t = s.rw_index; t < s.rw_count; ++t)
      if (s.rw_seats[t] == p) v += g.card(s.rw_card).age + 1;
  return v;
}

Move Game::greedy_move(const State& s, Rng& rng) const {
  MoveList ml;
  legal_moves(s, ml);
  if (ml.size == 0) return 0;
  const int p = current_player(s);
  double best = -1e300;
  Move ties[kMaxMoves];
  int nties = 0;
  for (int x = 0; x < ml.size; ++x) {
    State child = s;
    apply_unkeyed(child, ml[x]);  // the child is scored and dropped: its key is never read
    const double v = evaluate(*this, child, p);
    if (v > best + 1e-9) {
      best = v;
      nties = 0;
    }
    if (v > best - 1e-9) ties[nties++] = ml[x];
  }
  return ties[rng.below((uint32_t)nties)];
}

}  // namespace atelier::inventors
