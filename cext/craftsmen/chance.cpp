// Chance nodes (Craftsmen spec 6.4, Craftsmen §15, 17.1-17.2): draws from the first non-empty segment of a deck
// with probability count / segment size; known tops and bottoms resolve without a node; an
// empty money deck reshuffles the discard pile into its single segment (A3).
#include "game.hpp"
#include "knowledge.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

void Rules::start_draw(State& s, int src, int dst, int seat, int count, int what) const {
  if (count <= 0) {
    after(s, what);
    return;
  }
  s.ch_src = (uint8_t)src;
  s.ch_dst = (uint8_t)dst;
  s.ch_seat = (uint8_t)seat;
  s.ch_left = (uint8_t)count;
  s.ch_after = (uint8_t)what;
  s.phase = P_CHANCE;
}

void Rules::deliver(State& s, int x) const {
  if (s.ch_src == 0) {
    --s.money[M_DECK][x];
    const int place = s.ch_dst == D_MONEY_HAND ? M_HAND0 + s.ch_seat : s.ch_dst == D_DISPLAY ? M_DISPLAY : M_MAYOR;
    ++s.money[place][x];
  } else {
    s.bloc[x] = s.ch_dst == D_BHAND ? (uint8_t)(B_HAND | s.ch_seat) : s.ch_dst == D_FACEUP ? B_FACEUP : B_POOL;
    s.bpos[x] = 0;
  }
  --s.ch_left;
}

// The known card a building draw takes now (top first, else bottom when every segment is
// empty), -1 when a segment must be drawn from, -2 when the deck is empty.
// The card of the set (bits b - first) with the lowest bpos, the lowest b on a tie; -1 if none.
static int lowest_pos(const State& s, uint64_t set, int first) {
  int best = -1;
  for (; set; set &= set - 1) {
    const int b = first + lsb64(set);
    if (best < 0 || s.bpos[b] < s.bpos[best]) best = b;
  }
  return best;
}

static int known_draw(const State& s, int t) {
  const int top = lowest_pos(s, Rules::tier_at(s, t, B_TOP, 0xF0), Rules::first(t));
  if (top >= 0) return top;
  if (Rules::tier_at(s, t, B_SEG, 0xF0)) return -1;
  const int bottom = lowest_pos(s, Rules::tier_at(s, t, B_BOTTOM, 0xF0), Rules::first(t));
  return bottom >= 0 ? bottom : -2;
}

// The first non-empty segment of tier t (0 or 1), or -1.
static int first_segment(const State& s, int t) {
  if (Rules::tier_at(s, t, B_SEG | 0)) return 0;  // the usual case, and no segment is lower
  int best = -1;
  for (uint64_t m = Rules::tier_at(s, t, B_SEG, 0xF0); m; m &= m - 1) {
    const int b = Rules::first(t) + lsb64(m);
    if (best < 0 || (s.bloc[b] & 0xF) < best) best = s.bloc[b] & 0xF;
  }
  return best;
}

bool Rules::draw_step(State& s) const {
  while (s.ch_left > 0) {
    if (s.ch_src == 0) {
      if (place_count(s, M_DECK) == 0)
        for (int k = 0; k < kMoneyTypes; ++k) s.money[M_DECK][k] = s.money[M_DISCARD][k], s.money[M_DISCARD][k] = 0;
      if (place_count(s, M_DECK) == 0) {
        s.ch_left = 0;  // 17.1: the draw gives nothing
        break;
      }
      return false;
    }
    const int b = known_draw(s, s.ch_src);
    if (b == -1) return false;
    if (b == -2) {
      s.ch_left = 0;
      break;
    }
    deliver(s, b);
  }
  s.phase = P_RUN;
  after(s, s.ch_after);
  return true;
}

int Game::chance_outcomes(const State& s, Move* m, double* p, int cap) const {
  if (s.phase != P_CHANCE) return 0;
  int c = 0;
  if (s.ch_src == 0) {
    const int total = Rules::place_count(s, M_DECK);
    for (int k = 0; k < kMoneyTypes; ++k)
      if (s.money[M_DECK][k]) {
        if (c >= cap) return -1;
        m[c] = mk(DRAW, k);
        p[c++] = (double)s.money[M_DECK][k] / total;
      }
    return c;
  }
  const int seg = first_segment(s, s.ch_src);
  int size = 0;
  for (int b = Rules::first(s.ch_src); b < Rules::last(s.ch_src); ++b) size += s.bloc[b] == (B_SEG | seg);
  for (int b = Rules::first(s.ch_src); b < Rules::last(s.ch_src); ++b)
    if (s.bloc[b] == (B_SEG | seg)) {
      if (c >= cap) return -1;
      m[c] = mk(DRAW, 16 + b);
      p[c++] = 1.0 / size;
    }
  return c;
}

void Game::sample_chance(State& s, Rng& rng) const { sample<true>(s, rng); }
void Game::playout_sample_chance(State& s, Rng& rng) const { sample<false>(s, rng); }

template <bool Know>
void Game::sample(State& s, Rng& rng) const {
  if (s.phase != P_CHANCE) return;
  Move m;
  if (s.ch_src == 0) {
    int r = (int)rng.below((uint32_t)Rules::place_count(s, M_DECK));
    int k = 0;
    while (r >= s.money[M_DECK][k]) r -= s.money[M_DECK][k++];
    m = mk(DRAW, k);
  } else {
    // The r-th card of the first segment in edition order, as the list of them would give.
    const int seg = first_segment(s, s.ch_src);
    uint64_t cand = Rules::tier_at(s, s.ch_src, (uint8_t)(B_SEG | seg));
    for (uint32_t r = rng.below((uint32_t)popcount64(cand)); r > 0; --r) cand &= cand - 1;
    m = mk(DRAW, 16 + Rules::first(s.ch_src) + lsb64(cand));
  }
  draw(s, m);
  if (Know) know_buildings(s, n_);
}

void Game::apply_chance(State& s, Move m) const {
  draw(s, m);
  know_buildings(s, n_);
}

void Game::draw(State& s, Move m) const {
  const Rules R(*this);
  s.last_end = kNoSeat;
  const int x = (int)marg(m);
  R.deliver(s, s.ch_src == 0 ? x : x - 16);
  R.advance(s);
}

}  // namespace atelier::craftsmen
