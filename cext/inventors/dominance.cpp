// Legendary Inventors: the moves an exact two-sided search may skip (concept: search_moves).
//
// After the Age III reveal nothing new comes: cards only fill up and leave, levels only rise,
// and a seat's levels and hand change nothing for anyone else (placement reads the worker's own
// levels; priority reads cubes). So a level raise can be proven useless for good, and then the
// token it spends is all it changes. Each rule below drops a move whose resulting position is
// no better for the mover than one another move reaches, by a simulation argument: the mover
// can copy any plan from the dropped position and end with the same cards, goals and placements
// and at least the same held tokens. Two-sided only (alpha-beta): with more independent seats
// a dropped tie could change what the others get. Proven by tests against the full move list.
#include "game.hpp"

#include "../common/bits.hpp"

namespace atelier::inventors {

namespace {
inline int nib(uint64_t x, int q) { return (int)((x >> (4 * q)) & 0xF); }
}  // namespace

// Nibble q = 4*inventor + discipline of seat p is "settled" when its level can no longer
// matter: no card on display has more empty spaces in that discipline than the level (so the
// inventor's forced placement is the same at any higher level; empties only shrink in Age III)
// and the inventor's goal in it is met. Settled stays settled.
uint64_t Game::settled(const State& s, int p) const {
  int most[kDisciplines] = {0, 0, 0, 0};
  for (int j = 0; j < s.ndisplay; ++j) {
    const DisplayCard& c = s.display[j];
    for (int d = 0; d < kDisciplines; ++d) {
      const int e = ed_.cards[c.card].cost[d] - c.filled[d];
      if (e > most[d]) most[d] = e;
    }
  }
  uint64_t out = 0;
  for (int q = 0; q < 4 * kInventorsPerTeam; ++q) {
    const int lv = nib(s.levels[p], q);
    if (lv >= most[q & 3] && lv >= nib(goal_levels_[p], q)) out |= 1ULL << q;
  }
  return out;
}

void Game::search_moves(const State& s, MoveList& out) const {
  legal_moves(s, out);
  if (s.age != 3 || s.phase != MAIN) return;
  const int p = s.active;
  const uint64_t done = settled(s, p);
  const uint8_t* hand = s.hand[p];
  // A token is dead when nothing but a back play is left for it and it is worth nothing held:
  // P_N whose front play (level N-1 -> N) could only land on settled nibbles. Spending a dead
  // token for a back play is at least as good as spending any other (the other stays, with its
  // uses and its value); among VP tokens the smallest is the one to spend.
  int spend = -1;
  for (int k = P2; k <= P4 && spend < 0; ++k) {
    if (!hand[k]) continue;
    bool dead = true;
    for (int q = 0; q < 4 * kInventorsPerTeam && dead; ++q)
      if (nib(s.levels[p], q) <= k + 1 && !(done >> q & 1)) dead = false;  // can reach N-1 = k+1
    if (dead) spend = k;
  }
  if (spend < 0)
    for (int k = VP1; k <= VP3 && spend < 0; ++k)
      if (hand[k]) spend = k;
  int n = 0;
  for (int i = 0; i < out.size; ++i) {
    const Move m = out.moves[i];
    const unsigned t = move_type(m);
    if (t == FRONT || t == BACK) {
      const int q = 4 * (int)move_b(m) + (int)move_c(m);
      if (done >> q & 1) continue;                           // a raise that changes nothing
      const int k = (int)move_a(m);
      if (t == BACK && spend >= 0 && k != spend && (spend <= P4 || (k > spend && k <= VP3))) continue;
    }
    out.moves[n++] = m;
  }
  out.size = n;
}

}  // namespace atelier::inventors
