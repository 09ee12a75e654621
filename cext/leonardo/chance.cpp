// Chance (§6): the refill draw is a chance node of the full state. While no player has seen
// the top of the deck, the deck positions below are exchangeable within their pile as built,
// so the next card is uniform over the remaining cards of the next slot's pile (exact: §6.2's
// "no opponent look" closed form, conditioned on the true pile membership the full state
// holds). A position some player has seen (Council action 3) is drawn as it lies (p = 1).
#include <cstring>

#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::leonardo {

static int pile_of(const Edition& ed, const State& s, int c) {
  if ((ed.bottom_cards >> c) & 1) return 2;
  if (((ed.middle_cards | s.mid_lower) >> c) & 1) return 1;
  return 0;
}

int Game::chance_outcomes(const State& s, Move* m, double* p, int cap) const {
  if (s.phase != DRAW || s.deck_len == 0) return 0;
  if (s.known_prefix > 0) {
    if (cap < 1) return -1;
    m[0] = mk(M_DRAW, s.deck[0]);
    p[0] = 1.0;
    return 1;
  }
  const int built = s.pile_size[0] + s.pile_size[1] + s.pile_size[2];
  const int slot = built - s.deck_len;
  const int label = slot < s.pile_size[0] ? 0 : slot < s.pile_size[0] + s.pile_size[1] ? 1 : 2;
  uint32_t cands = 0;
  for (int i = 0; i < s.deck_len; ++i)
    if (pile_of(ed_, s, s.deck[i]) == label) cands |= 1u << s.deck[i];
  const int n = popcount64(cands);
  if (n > cap) return -1;
  int i = 0;
  for (uint32_t w = cands; w; w &= w - 1, ++i) {
    m[i] = mk(M_DRAW, (unsigned)lsb64(w));
    p[i] = 1.0 / n;
  }
  return n;
}

void Game::sample_chance(State& s, Rng& rng) const {
  sample_chance_unkeyed(s, rng);
  rekey(s);
}

void Game::sample_chance_unkeyed(State& s, Rng& rng) const {
  Move m[kCards];
  double p[kCards];
  const int n = chance_outcomes(s, m, p, kCards);
  if (n <= 0) return;
  draw(s, m[n == 1 ? 0 : (int)rng.below((uint32_t)n)]);
}

void Game::apply_chance(State& s, Move mv) const {
  draw(s, mv);
  rekey(s);
}

void Game::draw(State& s, Move mv) const {
  const int c = (int)marg(mv);
  int j = 0;
  while (j < s.deck_len && s.deck[j] != c) ++j;
  if (j == s.deck_len) return;  // not an outcome: nothing happens (callers check first)
  s.deck[j] = s.deck[0];  // exchangeable positions of one pile (see above)
  s.deck[0] = (uint8_t)c;
  std::memmove(s.deck, s.deck + 1, s.deck_len - 1);
  s.deck[--s.deck_len] = 0;
  s.row[s.row_len++] = (uint8_t)c;
  if (s.hist_len < sizeof s.hist) s.hist[s.hist_len++] = (uint8_t)c;
  if (s.known_prefix) --s.known_prefix;
  if (!(s.row_len < row_size() && s.deck_len > 0)) {
    begin_turn(s);
    settle(s);
  }
}

}  // namespace atelier::leonardo
