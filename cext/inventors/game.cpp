// Legendary Inventors: setup, move generation and transitions (spec §3, §5).
#include "game.hpp"

#include <cstring>
#include <stdexcept>

#include "../common/bits.hpp"
#include "../common/serial.hpp"
#include "mutate.hpp"

namespace atelier::inventors {

using namespace detail;

const Extra kExtras[15] = {
    {0, {0, 0}},                                                   // none
    {1, {0, 0}}, {1, {1, 0}}, {1, {2, 0}}, {1, {3, 0}},            // one AK cube
    {2, {0, 0}}, {2, {0, 1}}, {2, {0, 2}}, {2, {0, 3}}, {2, {1, 1}},  // two AK cubes,
    {2, {1, 2}}, {2, {1, 3}}, {2, {2, 2}}, {2, {2, 3}}, {2, {3, 3}},  // sorted pairs
};

static constexpr uint64_t kNibbleOnes = 0x1111111111111111ULL;

// ---- SWAR over the four disciplines, one per byte (values <= 7, so no byte overflows) ----
static inline uint32_t load4(const uint8_t* b) {
  uint32_t x;
  std::memcpy(&x, b, 4);
  return x;
}
static inline uint32_t bytes_min(uint32_t a, uint32_t b) {
  const uint32_t ge = (((a | 0x80808080u) - b) & 0x80808080u) >> 7;  // 1 where a >= b
  const uint32_t m = ge * 0xFF;
  return (b & m) | (a & ~m);
}
static inline unsigned bytes_sum(uint32_t x) { return (x * 0x01010101u) >> 24; }
// One inventor's four level nibbles (16 bits) spread to four bytes.
static inline uint32_t spread_levels(uint64_t lv, unsigned i) {
  const uint32_t x = (uint32_t)(lv >> (16 * i)) & 0xFFFF;
  return (x & 0xF) | ((x & 0xF0) << 4) | ((x & 0xF00) << 8) | ((x & 0xF000) << 12);
}

// For every "rest" pattern with each discipline capped at 2 (3^4 = 81), the two-cube AK
// extras it allows, in canonical order. Built once; indexed per WORK candidate.
struct ExtraTable {
  uint8_t count[81];
  uint8_t extra[81][10];
  ExtraTable() {
    for (int pat = 0; pat < 81; ++pat) {
      const int r[4] = {pat % 3, pat / 3 % 3, pat / 9 % 3, pat / 27};
      count[pat] = 0;
      for (int e = 5; e < 15; ++e) {
        const int a = kExtras[e].d[0], b = kExtras[e].d[1];
        if (a == b ? r[a] >= 2 : (r[a] && r[b])) extra[pat][count[pat]++] = (uint8_t)e;
      }
    }
  }
};
static const ExtraTable kPairExtras;

static inline unsigned rest_pattern(uint32_t rest) {
  const uint32_t capped = bytes_min(rest, 0x02020202u);
  return (capped & 0xFF) + 3 * ((capped >> 8) & 0xFF) + 9 * ((capped >> 16) & 0xFF) + 27 * (capped >> 24);
}

Game::Game(const Edition& edition, int n_players, const uint8_t* teams)
    : ed_(edition), n_(n_players), serial_(next_game_serial()) {
  const std::string err = ed_.validate();
  if (!err.empty()) throw std::invalid_argument("edition " + err);
  if (n_ < 2 || n_ > kMaxPlayers) throw std::invalid_argument("players: must be 2..5");
  std::memset(teams_, 0, sizeof teams_);
  std::memset(start_levels_, 0, sizeof start_levels_);
  std::memset(goal_levels_, 0, sizeof goal_levels_);
  std::memset(goal_vp_, 0, sizeof goal_vp_);
  for (int c = 0; c < kCards; ++c) cost32_[c] = load4(ed_.cards[c].cost);
  for (int p = 0; p < n_; ++p) {
    if (teams[p] >= kTeams) throw std::invalid_argument("teams: team index must be 0..4");
    for (int q = 0; q < p; ++q)
      if (teams[q] == teams[p]) throw std::invalid_argument("teams: a team can be seated only once");
    teams_[p] = teams[p];
    for (int i = 0; i < kInventorsPerTeam; ++i) {
      const InventorData& inv = ed_.inventors[teams[p]][i];
      for (int d = 0; d < kDisciplines; ++d) {
        start_levels_[p] |= (uint64_t)inv.start[d] << (4 * (4 * i + d));
        goal_levels_[p] |= (uint64_t)inv.goal[d] << (4 * (4 * i + d));
      }
      goal_vp_[p][i] = inv.goal_vp;
    }
  }
}

void Game::initial_state(State& s) const {
  std::memset(&s, 0, sizeof s);
  s.age = 1;
  s.phase = CHANCE_REVEAL;
  s.active = 0;
  s.statuette = 0;
  for (int p = 0; p < n_; ++p) s.levels[p] = start_levels_[p];
  for (int k = 0; k < kTokenKinds; ++k) s.bag[k] = ed_.token_count[k];
  s.hash = compute_hash(s);
}

int Game::current_player(const State& s) const {
  switch (s.phase) {
    case MAIN: return s.active;
    case REWARD: return s.rw_seats[s.rw_index];
    case CHANCE_REVEAL: return kChancePlayer;
    default: return kTerminalPlayer;
  }
}

// ---- Move generation (spec 5.2-5.6), canonical order (spec 8.13) ------------------------

// One generator, written once, for three sinks: the list (legal_moves), the count and the k-th
// move (random_move). A sink's push returns false to stop the walk; the list never stops.
template <class Sink>
void Game::generate(const State& s, Sink& out) const {
  if (s.phase == REWARD) {
    const unsigned lo = token_lo(s.rw_tokens), hi = token_hi(s.rw_tokens);
    if ((s.rw_left & 1) && !out.push(make_move(CARD))) return;
    if ((s.rw_left & 2) && !out.push(make_move(TOKEN, lo))) return;
    // Two tokens of one kind are one move (spec 5.6).
    if ((s.rw_left & 4) && !((s.rw_left & 2) && hi == lo) && !out.push(make_move(TOKEN, hi))) return;
    return;
  }
  if (s.phase != MAIN) return;

  const int p = s.active;
  const uint8_t* hand = s.hand[p];
  const uint64_t lv = s.levels[p];

  // FRONT: P2/P3/P4 raise a level from exactly N-1 to N. Nibble q = 4*inventor + discipline,
  // so walking q upwards gives inventor-then-discipline order.
  for (unsigned k = P2; k <= P4; ++k) {
    if (!hand[k]) continue;
    for (uint64_t m = nibbles_equal(lv, k + 1) & kNibbleOnes; m; m &= m - 1) {
      const unsigned q = lsb64(m) >> 2;
      if (!out.push(make_move(FRONT, k, q >> 2, q & 3))) return;
    }
  }
  // BACK: any token raises a level from 0 to 1.
  const uint64_t zeros = nibbles_equal(lv, 0) & kNibbleOnes;
  if (zeros) {
    for (unsigned k = 0; k < kTokenKinds; ++k) {
      if (!hand[k]) continue;
      for (uint64_t m = zeros; m; m &= m - 1) {
        const unsigned q = lsb64(m) >> 2;
        if (!out.push(make_move(BACK, k, q >> 2, q & 3))) return;
      }
    }
  }
  const unsigned busy = s.busy[p];
  if (hand[AV] && busy && !out.push(make_move(AVAIL))) return;

  // WORK: base placement is forced; AK adds exactly min(2, R) cubes anywhere still empty.
  const bool ak = hand[AK] > 0;
  uint32_t empty[kMaxDisplay];
  for (int j = 0; j < s.ndisplay; ++j) empty[j] = cost32_[s.display[j].card] - load4(s.display[j].filled);
  for (unsigned i = 0; i < kInventorsPerTeam; ++i) {
    if (busy & (1u << i)) continue;
    const uint32_t lvl = spread_levels(lv, i);
    for (int j = 0; j < s.ndisplay; ++j) {
      const unsigned card = s.display[j].card;
      const uint32_t base = bytes_min(lvl, empty[j]);
      if (base && !out.push(make_move(WORK, card, i, 0))) return;
      if (!ak) continue;
      const uint32_t rest = empty[j] - base;
      const unsigned R = bytes_sum(rest);
      if (R == 1) {
        if (!out.push(make_move(WORK, card, i, 1 + (__builtin_ctz(rest) >> 3)))) return;
      } else if (R >= 2) {
        const unsigned pat = rest_pattern(rest);
        for (int x = 0; x < kPairExtras.count[pat]; ++x)
          if (!out.push(make_move(WORK, card, i, kPairExtras.extra[pat][x]))) return;
      }
    }
  }
  if (busy) out.push(make_move(REST));
}

namespace {
struct ListSink {
  MoveList& ml;
  bool push(Move m) { ml.push(m); return true; }
};
struct CountSink {
  int n = 0;
  bool push(Move) { ++n; return true; }
};
struct PickSink {
  int k;
  Move m = 0;
  bool push(Move x) { m = x; return k-- > 0; }
};
}  // namespace

void Game::legal_moves(const State& s, MoveList& out) const {
  out.size = 0;
  ListSink sink{out};
  generate(s, sink);
}

// The k-th set bit of x, counting from the lowest (k < popcount(x)).
static inline unsigned nth_bit(uint64_t x, unsigned k) {
  for (; k; --k) x &= x - 1;
  return (unsigned)lsb64(x);
}

// The move legal_moves(s)[rng.below(size)] would give, with the same draw, without listing:
// a playout asks for one uniform move. In a main action without an AK token every block of the
// canonical order (spec 8.13) is a bit set -- FRONT per kind, BACK per kind, AVAIL, WORK per
// inventor over display slots, REST -- so the count is a few popcounts and the k-th move is
// found by skipping whole blocks. Rewards (at most 3 moves) and AK work (per-card extras) walk
// the generator: count, then stop at the k-th.
// Precondition: s is a decision (it has a legal move).
Move Game::random_move(const State& s, Rng& rng) const {
  const int p = s.active;
  const uint8_t* hand = s.hand[p];
  if (s.phase != MAIN || hand[AK]) {
    CountSink count;
    generate(s, count);
    PickSink pick{(int)rng.below((uint32_t)count.n)};
    generate(s, pick);
    return pick.m;
  }
  const uint64_t lv = s.levels[p];
  const unsigned busy = s.busy[p];
  uint64_t front[3];
  unsigned total = 0;
  for (unsigned k = P2; k <= P4; ++k) {
    front[k] = hand[k] ? nibbles_equal(lv, k + 1) & kNibbleOnes : 0;
    total += (unsigned)popcount64(front[k]);
  }
  const uint64_t zeros = nibbles_equal(lv, 0) & kNibbleOnes;
  const unsigned nzero = (unsigned)popcount64(zeros);
  unsigned kinds = 0;  // token kinds in hand, in kind order
  for (unsigned k = 0; k < kTokenKinds; ++k) kinds |= (hand[k] ? 1u : 0u) << k;
  total += nzero * (unsigned)popcount64(kinds);
  const bool avail = hand[AV] && busy;
  total += avail;
  // WORK without AK: inventor i works slot j when some discipline has both a level and an
  // empty space; slots[d] is the set of slots with an empty space in discipline d.
  uint32_t slots[kDisciplines] = {0, 0, 0, 0};
  for (int j = 0; j < s.ndisplay; ++j) {
    const uint32_t empty = cost32_[s.display[j].card] - load4(s.display[j].filled);
    for (int d = 0; d < kDisciplines; ++d) slots[d] |= ((empty >> (8 * d)) & 0xFF ? 1u : 0u) << j;
  }
  uint32_t works[kInventorsPerTeam];
  uint64_t t = lv | (lv >> 1);
  const uint64_t leveled = (t | (t >> 2)) & kNibbleOnes;  // bit 0 of each nonzero level nibble
  for (unsigned i = 0; i < kInventorsPerTeam; ++i) {
    works[i] = 0;
    if (busy & (1u << i)) continue;
    for (uint64_t m = (leveled >> (16 * i)) & 0x1111; m; m &= m - 1) works[i] |= slots[lsb64(m) >> 2];
    total += (unsigned)popcount64(works[i]);
  }
  total += busy != 0;  // REST

  unsigned k = rng.below(total);
  for (unsigned t = P2; t <= P4; ++t) {
    const unsigned n = (unsigned)popcount64(front[t]);
    if (k < n) {
      const unsigned q = nth_bit(front[t], k) >> 2;
      return make_move(FRONT, t, q >> 2, q & 3);
    }
    k -= n;
  }
  for (unsigned m = kinds; m; m &= m - 1) {
    if (k < nzero) {
      const unsigned q = nth_bit(zeros, k) >> 2;
      return make_move(BACK, (unsigned)lsb64(m), q >> 2, q & 3);
    }
    k -= nzero;
  }
  if (avail) {
    if (k == 0) return make_move(AVAIL);
    --k;
  }
  for (unsigned i = 0; i < kInventorsPerTeam; ++i) {
    const unsigned n = (unsigned)popcount64(works[i]);
    if (k < n) return make_move(WORK, s.display[nth_bit(works[i], k)].card, i, 0);
    k -= n;
  }
  return make_move(REST);
}

bool Game::is_legal(const State& s, Move m) const {
  MoveList ml;
  legal_moves(s, ml);
  for (int i = 0; i < ml.size; ++i)
    if (ml[i] == m) return true;
  return false;
}

// ---- Transitions ---------------------------------------------------------------------

void Game::apply(State& s, Move m) const { transition<true>(s, m); }
void Game::apply_unkeyed(State& s, Move m) const { transition<false>(s, m); }

template <bool K>
void Game::transition(State& s, Move m) const {
  if constexpr (K) s.hash ^= header_key(s) ^ reward_key(s, n_);
  const int p = s.active;
  const unsigned a = move_a(m), b = move_b(m), c = move_c(m);
  switch (move_type(m)) {
    case FRONT:
      set_level<K>(s, p, b, c, a + 2);
      add_hand<K>(s, p, a, -1);
      break;
    case BACK:
      set_level<K>(s, p, b, c, 1);
      add_hand<K>(s, p, a, -1);
      break;
    case AVAIL:
      add_hand<K>(s, p, AV, -1);
      set_busy<K>(s, p, 0);
      break;
    case WORK:
      work<K>(s, a, b, c);
      break;
    case REST:
      set_busy<K>(s, p, 0);
      s.active = (uint8_t)((p + 1) % n_);
      break;
    case CARD:
    case TOKEN: {
      const int q = s.rw_seats[s.rw_index];
      if (move_type(m) == CARD) {
        add_won<K>(s, q, s.rw_card);
        s.rw_left &= ~1;
      } else {
        // Take the low token when it is this kind and still there, else the high one.
        s.rw_left &= (s.rw_left & 2) && token_lo(s.rw_tokens) == a ? ~2 : ~4;
        add_hand<K>(s, q, a, +1);
      }
      if (++s.rw_index == s.rw_count) finish_reward<K>(s);
      break;
    }
  }
  if constexpr (K) s.hash ^= header_key(s) ^ reward_key(s, n_);
}

template <bool K>
void Game::work(State& s, unsigned card, unsigned inv, unsigned extra) const {
  const int p = s.active;
  int j = 0;
  while (s.display[j].card != card) ++j;
  DisplayCard& dc = s.display[j];
  if constexpr (K) s.hash ^= card_key(dc, n_);
  const uint32_t base = bytes_min(spread_levels(s.levels[p], inv), cost32_[card] - load4(dc.filled));
  uint32_t filled = load4(dc.filled) + base;
  unsigned placed = bytes_sum(base);
  if (extra) {
    const Extra& e = kExtras[extra];
    for (int x = 0; x < e.count; ++x) filled += 1u << (8 * e.d[x]);
    placed += e.count;
    add_hand<K>(s, p, AK, -1);
  }
  std::memcpy(dc.filled, &filled, 4);
  dc.cubes[p] += placed;
  const bool full = filled == cost32_[card];
  if constexpr (K) s.hash ^= card_key(dc, n_);
  set_busy<K>(s, p, s.busy[p] | (1u << inv));
  if (full)
    complete<K>(s, j);
  else
    s.active = (uint8_t)((p + 1) % n_);
}

// Spec 5.7: statuette to the completer, priority by cubes then clockwise distance from it.
template <bool K>
void Game::complete(State& s, int j) const {
  const int holder = s.active;
  s.statuette = (uint8_t)holder;
  const DisplayCard dc = s.display[j];
  if constexpr (K) s.hash ^= card_key(dc, n_);
  for (int t = j; t + 1 < s.ndisplay; ++t) s.display[t] = s.display[t + 1];
  --s.ndisplay;
  std::memset(&s.display[s.ndisplay], 0, sizeof(DisplayCard));

  int order[kMaxPlayers];
  const int count = priority_order(dc.cubes, holder, n_, order);
  s.rw_card = dc.card;
  s.rw_tokens = dc.tokens;
  s.rw_left = 7;
  std::memcpy(s.rw_cubes, dc.cubes, sizeof s.rw_cubes);
  s.rw_count = (uint8_t)(count < 3 ? count : 3);
  for (int t = 0; t < s.rw_count; ++t) s.rw_seats[t] = (uint8_t)order[t];
  s.rw_index = 0;
  s.phase = REWARD;
  s.active = s.statuette;
}

// Spec 5.7.7-8: leftovers are removed from the game; then the age-end check.
template <bool K>
void Game::finish_reward(State& s) const {
  s.rw_card = s.rw_tokens = s.rw_left = s.rw_count = s.rw_index = 0;
  std::memset(s.rw_cubes, 0, sizeof s.rw_cubes);
  std::memset(s.rw_seats, 0, sizeof s.rw_seats);
  if (s.ndisplay == 1) {
    end_age<K>(s);
  } else {
    s.phase = MAIN;
    s.active = (uint8_t)((s.statuette + 1) % n_);
  }
}

// Spec 5.8: the last card leaves unscored; Age III ends the game.
template <bool K>
void Game::end_age(State& s) const {
  if constexpr (K) s.hash ^= card_key(s.display[0], n_);
  std::memset(&s.display[0], 0, sizeof(DisplayCard));
  s.ndisplay = 0;
  s.active = s.statuette;
  if (s.age == 3) {
    s.phase = TERMINAL;
  } else {
    ++s.age;
    s.phase = CHANCE_REVEAL;
  }
}

}  // namespace atelier::inventors
