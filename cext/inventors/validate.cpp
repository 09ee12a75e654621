// Position validity (spec 4.1, plus what follows from §3, §5.7 and §5.8 about reachable
// positions) and the from-scratch Zobrist key. Everything a packed state from outside can hold
// is checked here before any rule reads it. One check per rule; messages name the field as a
// position file names it (docs/positions.md): seats[0].won, display[II01].cubes, reward.left.
#include <cstring>
#include <string>

#include "../common/bits.hpp"
#include "game.hpp"
#include "mutate.hpp"

namespace atelier::inventors {

using namespace detail;

uint64_t Game::compute_hash(const State& s) const {
  const Keys& K = keys();
  uint64_t h = header_key(s) ^ reward_key(s, n_);
  for (int p = 0; p < n_; ++p) {
    for (int i = 0; i < kInventorsPerTeam; ++i) {
      for (int d = 0; d < kDisciplines; ++d) h ^= K.level[p][i][d][s.level(p, i, d)];
      if (s.busy[p] & (1u << i)) h ^= K.busy[p][i];
    }
    for (int k = 0; k < kTokenKinds; ++k) h ^= K.hand[p][k][s.hand[p][k] & 15];
    for (uint64_t w = s.won[p]; w; w &= w - 1) h ^= K.won[p][lsb64(w)];
  }
  for (int k = 0; k < kTokenKinds; ++k) h ^= K.bag[k][s.bag[k] & 15];
  for (int j = 0; j < s.ndisplay && j < kMaxDisplay; ++j) h ^= card_key(s.display[j], n_);
  return h;
}

namespace {

bool all_zero(const void* p, size_t n) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i]) return false;
  return true;
}

std::string S(int v) { return std::to_string(v); }

// Everything validate() has gathered so far that later checks need.
struct Seen {
  uint64_t cards = 0;                 // every card id appears at most once (4.1)
  int tokens_out[kTokenKinds] = {0};  // tokens outside the bag: hands, display, reward
};

// Header (4.1 first rule, 5.8.2).
std::string check_header(const Game& g, const State& s) {
  const int n = g.num_players();
  if (s.age < 1 || s.age > 3) return "age: must be 1, 2 or 3";
  if (s.phase > TERMINAL) return "phase: unknown phase";
  if (s.active >= n) return "active: must be a seat 0.." + S(n - 1);
  if (s.statuette >= n) return "statuette: must be a seat 0.." + S(n - 1);
  if (s.phase != MAIN && s.active != s.statuette) return "active: must equal statuette outside MAIN";
  if (s.phase == TERMINAL && s.age != 3) return "phase: TERMINAL requires age 3";
  return "";
}

// Seats beyond n hold nothing, so the packed form has one canonical shape.
std::string check_unused_seats(const Game& g, const State& s) {
  const int n = g.num_players();
  for (int p = n; p < kMaxPlayers; ++p)
    if (s.levels[p] || s.won[p] || s.busy[p] || !all_zero(s.hand[p], kTokenKinds))
      return "seats: seat " + S(p) + " does not exist in a " + S(n) + "-player game";
  return "";
}

// Levels: start <= level <= 4 (4.1, 1.3).
std::string check_levels(const Game& g, const State& s, int p) {
  const Edition& ed = g.edition();
  for (int i = 0; i < kInventorsPerTeam; ++i)
    for (int d = 0; d < kDisciplines; ++d) {
      const std::string where = "seats[" + S(p) + "].inventors." + ed.inventor_ids[g.team(p)][i] +
                                ".levels." + kDisciplineNames[d];
      const int v = s.level(p, i, d), start = g.inventor(p, i).start[d];
      if (v > 4) return where + ": " + S(v) + " is out of range 0..4";
      if (v < start) return where + ": " + S(v) + " is below the start level " + S(start) + " (levels never decrease)";
    }
  if (s.busy[p] > 15) return "seats[" + S(p) + "].inventors: bad busy mask";
  return "";
}

// Won cards: known, distinct, and of an age already revealed (4.1; in CHANCE_REVEAL the coming
// age is not revealed yet, so no seat can hold one of its cards, §6.1).
std::string check_won(const Game& g, const State& s, int p, Seen& seen) {
  const Edition& ed = g.edition();
  const std::string where = "seats[" + S(p) + "].won";
  if (s.won[p] >> kCards) return where + ": unknown card";
  const int revealed = s.phase == CHANCE_REVEAL ? s.age - 1 : s.age;
  for (uint64_t w = s.won[p]; w; w &= w - 1) {
    const int c = lsb64(w);
    if ((seen.cards >> c) & 1) return where + ": " + ed.card_ids[c] + " is won by another seat too";
    if (ed.cards[c].age > revealed)
      return where + ": " + ed.card_ids[c] + " is of age " + S(ed.cards[c].age) + ", not revealed yet";
  }
  seen.cards |= s.won[p];
  return "";
}

// Age I before its reveal is the setup of spec §3 and nothing else: start levels, all
// inventors available, statuette on seat 0 (hands and won cards are empty by the bag and
// won-card rules).
std::string check_setup(const Game& g, const State& s) {
  // The statuette moves only at a completion (5.7.1): before Age I's first, seat 0 has it.
  if (s.age == 1 && (s.phase == CHANCE_REVEAL || (s.phase == MAIN && s.ndisplay == g.k())) && s.statuette != 0)
    return "statuette: seat 0 holds it until the first completion (spec 3.3, 5.7.1)";
  if (!(s.phase == CHANCE_REVEAL && s.age == 1)) return "";
  const Edition& ed = g.edition();
  for (int p = 0; p < g.num_players(); ++p)
    for (int i = 0; i < kInventorsPerTeam; ++i) {
      const std::string where = "seats[" + S(p) + "].inventors." + ed.inventor_ids[g.team(p)][i];
      for (int d = 0; d < kDisciplines; ++d)
        if (s.level(p, i, d) != g.inventor(p, i).start[d])
          return where + ".levels." + kDisciplineNames[d] + ": must be the start level before the Age I reveal (spec 3.2)";
      if (s.busy[p] & (1u << i)) return where + ".busy: every inventor is available before the Age I reveal (spec 3.2)";
    }
  return "";
}

// Display (4.1): size by phase, cards of the current age in edition order, filled within the
// cost and not complete, cubes summing to the filled spaces.
std::string check_display(const Game& g, const State& s, Seen& seen) {
  const Edition& ed = g.edition();
  const int n = g.num_players(), K = g.k(), nd = s.ndisplay;
  if (nd > kMaxDisplay) return "display: too many cards";
  if (s.phase == MAIN && (nd < 2 || nd > K)) return "display: MAIN needs 2.." + S(K) + " cards";
  if (s.phase == REWARD && (nd < 1 || nd > K - 1)) return "display: REWARD needs 1.." + S(K - 1) + " cards";
  if ((s.phase == CHANCE_REVEAL || s.phase == TERMINAL) && nd != 0) return "display: must be empty at a reveal or at the end";
  for (int j = nd; j < kMaxDisplay; ++j)
    if (!all_zero(&s.display[j], sizeof(DisplayCard))) return "display: unused slot not empty";
  for (int j = 0; j < nd; ++j) {
    const DisplayCard& dc = s.display[j];
    if (dc.card >= kCards) return "display: unknown card";
    const CardData& card = ed.cards[dc.card];
    const std::string where = "display[" + ed.card_ids[dc.card] + "]";
    if (j > 0 && dc.card <= s.display[j - 1].card) return "display: cards must be distinct, in edition order";
    if (card.age != s.age) return where + ".card: not a card of age " + S(s.age);
    if ((seen.cards >> dc.card) & 1) return where + ".card: also won by a seat";
    seen.cards |= 1ULL << dc.card;
    const unsigned lo = token_lo(dc.tokens), hi = token_hi(dc.tokens);
    if (lo >= kTokenKinds || hi >= kTokenKinds || lo > hi) return where + ".tokens: bad token pair";
    ++seen.tokens_out[lo];
    ++seen.tokens_out[hi];
    int filled = 0, cubes = 0;
    bool full = true;
    for (int d = 0; d < kDisciplines; ++d) {
      if (dc.filled[d] > card.cost[d])
        return where + ".filled." + kDisciplineNames[d] + ": " + S(dc.filled[d]) + " exceeds the card's cost " + S(card.cost[d]);
      full &= dc.filled[d] == card.cost[d];
      filled += dc.filled[d];
    }
    if (full) return where + ".filled: a full card cannot stay in the display";
    for (int p = 0; p < kMaxPlayers; ++p) {
      if (p >= n && dc.cubes[p]) return where + ".cubes: seat " + S(p) + " does not exist";
      cubes += dc.cubes[p];
    }
    if (cubes != filled) return where + ".cubes: " + S(cubes) + " cubes but " + S(filled) + " spaces filled";
  }
  return "";
}

// Outside REWARD the reward context is all zero (one packing per position).
std::string check_no_reward(const State& s) {
  if (s.rw_card || s.rw_tokens || s.rw_left || s.rw_count || s.rw_index || !all_zero(s.rw_cubes, sizeof s.rw_cubes) ||
      !all_zero(s.rw_seats, sizeof s.rw_seats))
    return "reward: only a REWARD position has a pending reward";
  return "";
}

// The reward context (4.1, 5.7): a completed card of the age, its cubes filling it, the
// completer (the statuette holder, 5.7.1) among its contributors, the rewarded seats in the
// 5.7.3 order, and 3 - index rewards left, packed canonically.
std::string check_reward(const Game& g, const State& s, Seen& seen) {
  const Edition& ed = g.edition();
  const int n = g.num_players();
  if (s.rw_card >= kCards) return "reward.card: unknown card";
  const CardData& card = ed.cards[s.rw_card];
  const std::string cid = ed.card_ids[s.rw_card];
  if (card.age != s.age) return "reward.card: " + cid + " is not a card of age " + S(s.age);
  if (s.rw_left > 7 || s.rw_left == 0) return "reward.left: nothing left to choose";
  if (s.rw_left & 1) {  // the card is still on offer
    if ((seen.cards >> s.rw_card) & 1) return "reward.card: " + cid + " is also won or in the display";
    seen.cards |= 1ULL << s.rw_card;
  } else {  // already taken by a seat that has chosen
    bool taken = false;
    for (int t = 0; t < s.rw_index && t < 3; ++t) taken |= s.rw_seats[t] < n && ((s.won[s.rw_seats[t]] >> s.rw_card) & 1);
    if (!taken) return "reward.left: " + cid + " was taken, but no seat that chose has it";
  }
  const unsigned lo = token_lo(s.rw_tokens), hi = token_hi(s.rw_tokens);
  if (lo >= kTokenKinds || hi >= kTokenKinds || lo > hi) return "reward.tokens: bad token pair";
  // Of two equal tokens the low one is taken first (apply), so one left is the high one.
  if (lo == hi && (s.rw_left & 6) == 2) return "reward.left: of two equal tokens, the one left is packed as the high one";
  if (s.rw_left & 2) ++seen.tokens_out[lo];
  if (s.rw_left & 4) ++seen.tokens_out[hi];
  int cubes = 0;
  for (int p = 0; p < kMaxPlayers; ++p) {
    if (p >= n && s.rw_cubes[p]) return "reward.cubes: seat " + S(p) + " does not exist";
    cubes += s.rw_cubes[p];
  }
  if (cubes != card.total) return "reward.cubes: must add up to the card's " + S(card.total) + " spaces";
  if (!s.rw_cubes[s.statuette])
    return "reward.cubes: the statuette holder (seat " + S(s.statuette) + ") completed the card, so it has a cube on it (spec 5.7.1)";
  int order[kMaxPlayers];
  const int count = priority_order(s.rw_cubes, s.statuette, n, order);
  const int expect = count < 3 ? count : 3;
  if (s.rw_count != expect) return "reward.seats: expected " + S(expect) + " rewarded seats";
  for (int t = 0; t < 3; ++t) {
    if (t < expect && s.rw_seats[t] != order[t])
      return "reward.seats: not the priority order of spec 5.7.3 (seat " + S(order[t]) + " expected at place " + S(t + 1) + ")";
    if (t >= expect && s.rw_seats[t]) return "reward.seats: too many seats";
  }
  if (s.rw_index >= s.rw_count) return "reward.index: every rewarded seat has chosen";
  if (__builtin_popcount(s.rw_left) != 3 - s.rw_index) return "reward.left: " + S(3 - s.rw_index) + " rewards must remain";
  return "";
}

// The rewards already taken in this sharing are held by the seats that chose them: the card
// by one of them (checked above), each token in the hand of another, since nobody plays a
// token before the next MAIN turn (5.1, 5.6).
std::string check_reward_taken(const Game& g, const State& s) {
  const int n = g.num_players();
  int choosers[3], nc = 0;
  for (int t = 0; t < s.rw_index; ++t)
    if (!((s.won[s.rw_seats[t]] >> s.rw_card) & 1) || (s.rw_left & 1)) choosers[nc++] = s.rw_seats[t];
  const unsigned lo = token_lo(s.rw_tokens), hi = token_hi(s.rw_tokens);
  unsigned taken[2];
  int nt = 0;
  if (!(s.rw_left & 2)) taken[nt++] = lo;
  if (!(s.rw_left & 4)) taken[nt++] = hi;
  if (nt != nc || nc > 2) return "reward.left: the rewards taken do not match the seats that chose";
  for (int x = 0; x < nc; ++x)
    if (choosers[x] >= n) return "reward.seats: seat does not exist";
  auto holds = [&](int seat, unsigned kind, int need) { return s.hand[seat][kind] >= need; };
  bool ok = true;
  if (nc == 1) ok = holds(choosers[0], taken[0], 1);
  if (nc == 2) {
    if (taken[0] == taken[1])
      ok = holds(choosers[0], taken[0], 1) && holds(choosers[1], taken[0], 1);
    else
      ok = (holds(choosers[0], taken[0], 1) && holds(choosers[1], taken[1], 1)) ||
           (holds(choosers[0], taken[1], 1) && holds(choosers[1], taken[0], 1));
  }
  if (!ok)
    return "reward.left: a token taken from " + g.edition().card_ids[s.rw_card] +
           " is in no hand of the seats that chose (nobody can have played it yet)";
  return "";
}

// Won cards per age (4.1, 5.6, 5.8): each completion gives at most one card. Age a < age had
// exactly K-1 completions; the current age has had K - |display| in MAIN, one fewer in REWARD
// until the completed card is taken, K-1 at TERMINAL and none before its reveal.
std::string check_won_counts(const Game& g, const State& s) {
  const Edition& ed = g.edition();
  const int K = g.k();
  int won[kAges + 1] = {0};
  for (int p = 0; p < g.num_players(); ++p)
    for (uint64_t w = s.won[p]; w; w &= w - 1) ++won[ed.cards[lsb64(w)].age];
  for (int a = 1; a <= kAges; ++a) {
    int completed = 0;
    if (a < s.age) completed = K - 1;
    if (a == s.age) {
      switch (s.phase) {
        case MAIN: completed = K - s.ndisplay; break;
        case REWARD: completed = K - s.ndisplay - ((s.rw_left & 1) ? 1 : 0); break;
        case TERMINAL: completed = K - 1; break;
        default: completed = 0;
      }
    }
    if (won[a] > completed)
      return "position: " + S(won[a]) + " cards of age " + S(a) + " are won (seats[].won), but at most " + S(completed) +
             " can be by now";
  }
  return "";
}

// Tokens (4.1): bag size by phase, and no kind over its count.
std::string check_tokens(const Game& g, const State& s, const Seen& seen) {
  const Edition& ed = g.edition();
  const int K = g.k();
  int bag = 0;
  for (int k = 0; k < kTokenKinds; ++k) bag += s.bag[k];
  const int expect_bag = ed.token_total() - 2 * K * (s.phase == CHANCE_REVEAL ? s.age - 1 : s.age);
  if (bag != expect_bag) return "bag: holds " + S(bag) + " tokens, expected " + S(expect_bag);
  for (int k = 0; k < kTokenKinds; ++k)
    if (s.bag[k] + seen.tokens_out[k] > ed.token_count[k])
      return std::string("position: more ") + kTokenNames[k] + " tokens (bag, display, reward and hands) than the " +
             S(ed.token_count[k]) + " that exist";
  return "";
}

// Tokens reach hands only as rewards, and every level step above the start spends one (5.2:
// a front raises N-1 to N, a back 0 to 1). So the raises plus the tokens held cannot exceed the
// tokens that have left the cards: all but those in the bag, on the display and still on offer.
std::string check_token_budget(const Game& g, const State& s, const Seen& seen) {
  const int n = g.num_players();
  int on_cards = 0, held = 0, raises = 0;
  for (int k = 0; k < kTokenKinds; ++k) {
    on_cards += s.bag[k] + seen.tokens_out[k];
    for (int p = 0; p < n; ++p) held += s.hand[p][k];
  }
  on_cards -= held;  // tokens_out counted the hands too
  for (int p = 0; p < n; ++p)
    for (int i = 0; i < kInventorsPerTeam; ++i)
      for (int d = 0; d < kDisciplines; ++d) raises += s.level(p, i, d) - g.inventor(p, i).start[d];
  const int won = g.edition().token_total() - on_cards;
  if (raises + held > won)
    return "position: " + S(raises) + " level raises and " + S(held) + " tokens in hand need as many tokens won, but only " +
           S(won) + " have left the cards (each raise spends a token, spec 5.2)";
  return "";
}

}  // namespace

std::string Game::validate(const State& s) const {
  Seen seen;
  std::string e;
  if (!(e = check_header(*this, s)).empty() || !(e = check_unused_seats(*this, s)).empty()) return e;
  for (int p = 0; p < n_; ++p) {
    if (!(e = check_levels(*this, s, p)).empty() || !(e = check_won(*this, s, p, seen)).empty()) return e;
    for (int k = 0; k < kTokenKinds; ++k) seen.tokens_out[k] += s.hand[p][k];
  }
  if (!(e = check_setup(*this, s)).empty() || !(e = check_display(*this, s, seen)).empty()) return e;
  e = s.phase == REWARD ? check_reward(*this, s, seen) : check_no_reward(s);
  if (e.empty() && s.phase == REWARD) e = check_reward_taken(*this, s);
  if (!e.empty()) return e;
  if (!(e = check_won_counts(*this, s)).empty() || !(e = check_tokens(*this, s, seen)).empty() ||
      !(e = check_token_budget(*this, s, seen)).empty())
    return e;
  if (s.hash != compute_hash(s)) return "hash: does not match the position";
  return "";
}

}  // namespace atelier::inventors
