// The concept's random_move for a ruleset without a faster path of its own: list the moves,
// then one draw. A ruleset with one (Inventors) must return the same move for the same draw.
// Precondition: p is a decision (it has a legal move).
#pragma once
#include "movelist.hpp"
#include "rng.hpp"

namespace atelier {

template <class P>
inline Move random_from_list(const P& p, Rng& rng) {
  MoveList ml;
  p.legal_moves(ml);
  return ml.size ? ml.moves[rng.below((uint32_t)ml.size)] : 0;
}

}  // namespace atelier
