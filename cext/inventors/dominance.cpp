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
#include "../common/bits.hpp"
#include "game.hpp"
#include "keys.hpp"
#include "mutate.hpp"

namespace atelier::inventors {

using detail::reward_kinds;

namespace {

// Levels as 16 nibbles, q = 4*inventor + discipline, every value below 8: a per-level set is
// the nibbles' top bits, and comparisons run on all 16 at once.
constexpr uint64_t kTop = 0x8888888888888888ULL;
constexpr uint64_t kOnes = 0x1111111111111111ULL;
inline uint64_t nibbles_ge(uint64_t a, uint64_t b) { return ((a | kTop) - b) & kTop; }
inline bool has(uint64_t set, int q) { return set >> (4 * q + 3) & 1; }

// What a seat's tokens can still do for it, from its levels alone.
struct TokenUse {
  uint64_t settled;   // a raise there changes nothing, ever
  bool backs;         // some level 0 is not settled: a back play may still matter
  bool dead[3];       // P2..P4: every front play (N-1 -> N) would land on a settled level
};

}  // namespace

// The most empty spaces any card on display has, per discipline, repeated for each inventor:
// an inventor at that level or above places the same cubes there at any higher level (base
// placement, 5.4.1), for good, as empties only shrink in Age III.
static uint64_t most_empty(const Game& g, const State& s) {
  int most[kDisciplines] = {0, 0, 0, 0};
  for (int j = 0; j < s.ndisplay; ++j) {
    const DisplayCard& c = s.display[j];
    for (int d = 0; d < kDisciplines; ++d) {
      const int e = g.card(c.card).cost[d] - c.filled[d];
      if (e > most[d]) most[d] = e;
    }
  }
  const uint64_t one = (uint64_t)(most[0] | most[1] << 4 | most[2] << 8 | most[3] << 12);
  return one * 0x0001000100010001ULL;
}

// A level is settled when no card has more empties in its discipline than the level and the
// inventor's goal there is met. A dead P_N token is worth nothing held and its front play
// could only raise settled levels: a back play is all it has left, which every token has.
static TokenUse token_use(uint64_t levels, uint64_t most, uint64_t goals) {
  TokenUse u;
  u.settled = nibbles_ge(levels, most) & nibbles_ge(levels, goals);
  const uint64_t open = kTop & ~u.settled;
  u.backs = (nibbles_ge(0, levels) & open) != 0;
  for (int k = P2; k <= P4; ++k)   // a level <= N-1 = k+1 may reach N-1 and then matter
    u.dead[k] = (nibbles_ge((uint64_t)(k + 1) * kOnes, levels) & open) == 0;
  return u;
}

// Holding token kind `weak` is never better for a seat than holding `strong` instead: a
// smaller VP than another VP, or a dead token against any other.
static bool token_below(const TokenUse& u, int weak, int strong) {
  const bool vp_w = weak >= VP1 && weak <= VP3, vp_s = strong >= VP1 && strong <= VP3;
  if (vp_w && vp_s) return weak < strong;
  if (weak > P4 || !u.dead[weak]) return false;
  return !(strong <= P4 && u.dead[strong]) || weak > strong;   // two dead ones: keep one
}

// A won card (3 points in Age III, one more card for the tie-break, its type for the suites)
// is never worse than a token whose uses are gone: a VP (at most 3) or a dead token, when no
// back play can matter for the seat.
static bool token_below_card(const TokenUse& u, int k) {
  return !u.backs && ((k >= VP1 && k <= VP3) || (k <= P4 && u.dead[k]));
}

void Game::search_moves(const State& s, MoveList& out) const {
  legal_moves(s, out);
  if (s.age != 3 || (s.phase != MAIN && s.phase != REWARD)) return;
  const uint64_t most = most_empty(*this, s);
  if (s.phase == REWARD) {
    reward_moves(s, most, out);
    return;
  }
  const int p = s.active;
  const uint8_t* hand = s.hand[p];
  const uint64_t lv = s.levels[p];
  const TokenUse use = token_use(lv, most, goal_levels_[p]);
  // A raise also waits when it changes nothing this turn (the inventor cannot work this turn,
  // being busy with no AV in hand, or no card has more empties there than the level) and
  // either the goal there is met or the mover is sure of another turn: at least n+1
  // completions are left, and each turn completes at most one. Raising it at the start of a
  // later turn, when it matters, is then as good: nobody else reads the mover's levels or
  // hand, and the level and the token wait for it (only the mover changes them).
  uint64_t can_work = ~0ULL;
  if (!hand[AV])
    for (int i = 0; i < kInventorsPerTeam; ++i)
      if (s.busy[p] >> i & 1) can_work &= ~(0xFFFFULL << (16 * i));
  const uint64_t now = can_work & ~nibbles_ge(lv, most) & kTop;
  const bool next_turn = s.ndisplay - 1 >= n_ + 1;
  const uint64_t later = next_turn ? kTop : nibbles_ge(lv, goal_levels_[p]);
  const uint64_t waits = use.settled | (~now & later & kTop);
  // Back plays spend a dead token when the mover holds one, else the smallest VP among the VPs
  // (the token kept has every use of the one spent, and at least its value).
  int spend = -1;
  for (int k = P2; k <= P4 && spend < 0; ++k)
    if (hand[k] && use.dead[k]) spend = k;
  if (spend < 0)
    for (int k = VP1; k <= VP3 && spend < 0; ++k)
      if (hand[k]) spend = k;
  int n = 0;
  for (int i = 0; i < out.size; ++i) {
    const Move m = out.moves[i];
    const unsigned t = move_type(m);
    if (t == FRONT || t == BACK) {
      if (has(waits, 4 * (int)move_b(m) + (int)move_c(m))) continue;
      const int k = (int)move_a(m);
      if (t == BACK && spend >= 0 && k != spend && (spend <= P4 || (k > spend && k <= VP3))) continue;
    }
    out.moves[n++] = m;
  }
  out.size = n;
}

// The table key of an exact two-sided search: hash() with what the rules above prove
// irrelevant folded out, so positions that differ only there share one entry. What is folded
// is decided by what stays keyed, and positions with one key get the same search_moves.
// - A settled level (at or above both the most empties of its discipline and the goal)
//   changes nothing, ever: it is keyed as one value (15, above every level).
// - In MAIN the statuette is never read again before the next completion sets it (5.7.1;
//   Age III ends without a reveal); in REWARD the completed card's cubes were only needed to
//   order the rewarded seats, which is done.
uint64_t Game::search_key(const State& s) const {
  if (s.age != 3 || (s.phase != MAIN && s.phase != REWARD)) return s.hash;
  const Keys& K = keys();
  const uint64_t most = most_empty(*this, s);
  uint64_t h = s.hash;
  if (s.phase == MAIN) h ^= K.statuette[s.statuette % kMaxPlayers];
  for (int p = 0; p < n_; ++p) {
    if (s.phase == REWARD) h ^= K.rw_cubes[p][s.rw_cubes[p] & 31] ^ K.rw_cubes[p][0];
    const uint64_t lv = s.levels[p];
    const uint64_t settled = token_use(lv, most, goal_levels_[p]).settled;
    for (uint64_t w = settled; w; w &= w - 1) {
      const int q = lsb64(w) >> 2, i = q >> 2, d = q & 3;
      h ^= K.level[p][i][d][lv >> (4 * q) & 15] ^ K.level[p][i][d][15];
    }
  }
  return h;
}

// Rewards (5.6): an option is left out when another one still on the card is at least as good
// for the chooser and, if a seat chooses after it, no better for that seat either (it is left
// to them instead; two players only, where that seat is the other side).
void Game::reward_moves(const State& s, uint64_t most, MoveList& out) const {
  const int q = s.rw_seats[s.rw_index];
  const bool last = s.rw_index + 1 >= s.rw_count;
  if (!last && n_ != 2) return;
  const int next = last ? -1 : s.rw_seats[s.rw_index + 1];
  const TokenUse mine = token_use(s.levels[q], most, goal_levels_[q]);
  TokenUse theirs{};
  if (!last) theirs = token_use(s.levels[next], most, goal_levels_[next]);
  const bool card = s.rw_left & 1;
  int kinds[2];
  const int nk = reward_kinds(s, kinds);
  auto below = [&](int weak, int strong) {   // strong < 0: the card
    if (strong < 0) return token_below_card(mine, weak) && (last || token_below_card(theirs, weak));
    return token_below(mine, weak, strong) && (last || token_below(theirs, weak, strong));
  };
  int n = 0;
  for (int i = 0; i < out.size; ++i) {
    const Move m = out.moves[i];
    if (move_type(m) == TOKEN) {
      const int k = (int)move_a(m);
      bool drop = card && below(k, -1);
      for (int j = 0; j < nk && !drop; ++j) drop = kinds[j] != k && below(k, kinds[j]);
      if (drop) continue;
    }
    out.moves[n++] = m;
  }
  out.size = n;
}

}  // namespace atelier::inventors
