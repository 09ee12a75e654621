// The greedy baseline: try every legal move on a copy (settling forced moves), score the result
// from the mover's view, play the best; exact ties broken by the rng (docs/bots.md). The copy is
// one sample of what the mover cannot see (greedy_move below). The evaluation uses only the
// mover's own holdings and public facts:
// - score now (money + type bonus);
// - each working lab: r * (0.3 + 0.6 * share of its threshold reached), r its reward (first,
//   or later once continuing), halved while its card is not in the row and not continuing;
// - materials in hand 0.8 each, apprentices 1.5, mechanical men 2, a large lab 2.
// A sealed bid b is not tried on a copy (it would read the others' hidden bids): it scores
// -0.5 b + 4 when b > 0, less 0.2 per Florin above 8, so greedy bids 1 whenever it can.
#include "game.hpp"

namespace atelier::leonardo {

static double evaluate(const Game& g, const State& s, int p) {
  const Player& P = s.pl[p];
  double v = g.score(s, p).total;
  uint32_t row = 0;
  for (int i = 0; i < s.row_len; ++i) row |= 1u << s.row[i];
  for (int l = 0; l < kLabs; ++l) {
    const Lab& L = P.lab[l];
    if (!L.working()) continue;
    const CardData& c = g.card(L.card);
    int t = g.thr(s, p, L.card, P.owned);
    if (t < 1) t = 1;
    double share = L.counter >= t ? 1.0 : (double)L.counter / t;
    double r = (L.flags & LF_CONTINUING) ? c.reward_later : c.reward_first;
    v += r * (0.3 + 0.6 * share) * (((row >> L.card) & 1) || (L.flags & LF_CONTINUING) ? 1.0 : 0.5);
  }
  for (int k = 0; k < kKinds; ++k) v += 0.8 * P.hand[k];
  v += 1.5 * P.apprentices + 2.0 * P.mech_count + (P.lab[1].side ? 2.0 : 0.0);
  return v;
}

Move Game::greedy_move(const State& s, Rng& rng) const {
  MoveList ml;
  legal_moves(s, ml);
  if (ml.size == 0) return 0;
  const int p = s.actor;
  // The look-ahead runs Phase C/D (research, completions) on a copy: it must not read what the
  // mover cannot see. The others' hidden labs, and with them their hands, are resampled (§3.5.2)
  // from the rng first, so two positions the mover cannot tell apart give the same move for the
  // same rng. The deck order and sealed bids are never read before the copy stops (at a draw or
  // a bid). A valid state always has a sample (its truth is one), so nothing is kept.
  State seen = s;
  for (int q = 0; q < n_; ++q)
    if (q != p) sample_labs(seen, q, rng);
  double best = -1e300;
  Move pick = ml[0];
  int ties = 0;
  for (int i = 0; i < ml.size; ++i) {
    double v;
    if (mkind(ml[i]) == M_BID) {
      v = -(double)marg(ml[i]) * 0.5 + (marg(ml[i]) > 0 ? 4.0 : 0.0) - 0.2 * (marg(ml[i]) > 8 ? marg(ml[i]) - 8 : 0);
    } else {
      State c = seen;
      apply_unkeyed(c, ml[i]);   // a look-ahead copy: its keys are never read
      v = evaluate(*this, c, p);
    }
    if (v > best + 1e-9) {
      best = v;
      pick = ml[i];
      ties = 1;
    } else if (v > best - 1e-9 && rng.below((uint32_t)++ties) == 0) {
      pick = ml[i];
    }
  }
  return pick;
}

}  // namespace atelier::leonardo
