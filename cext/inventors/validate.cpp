// Position validity (spec 4.1) and the from-scratch Zobrist key. Everything a packed state
// from outside can hold is checked here before any rule reads it.
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

static bool all_zero(const void* p, size_t n) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  for (size_t i = 0; i < n; ++i)
    if (b[i]) return false;
  return true;
}

static std::string S(int v) { return std::to_string(v); }

std::string Game::validate(const State& s) const {
  const int K = k();
  if (s.age < 1 || s.age > 3) return "age: must be 1, 2 or 3";
  if (s.phase > TERMINAL) return "phase: unknown phase";
  if (s.active >= n_) return "active: must be a seat 0.." + S(n_ - 1);
  if (s.statuette >= n_) return "statuette: must be a seat 0.." + S(n_ - 1);
  if (s.phase != MAIN && s.active != s.statuette) return "active: must equal statuette outside MAIN";
  if (s.phase == TERMINAL && s.age != 3) return "phase: TERMINAL requires age 3";

  // Seats beyond n hold nothing; the packed form has one canonical shape.
  for (int p = n_; p < kMaxPlayers; ++p)
    if (s.levels[p] || s.won[p] || s.busy[p] || !all_zero(s.hand[p], kTokenKinds))
      return "players: seat " + S(p) + " does not exist in a " + S(n_) + "-player game";

  uint64_t seen = 0;  // every card id appears at most once
  int tokens_out[kTokenKinds] = {0};
  for (int p = 0; p < n_; ++p) {
    const std::string who = "players[" + S(p) + "]";
    for (int i = 0; i < kInventorsPerTeam; ++i)
      for (int d = 0; d < kDisciplines; ++d) {
        const int v = s.level(p, i, d);
        if (v > 4) return who + ".levels: " + ed_.inventor_ids[teams_[p]][i] + " " + kDisciplineNames[d] + " is " + S(v) + ", levels are 0..4";
        if (v < inventor(p, i).start[d])
          return who + ".levels: " + ed_.inventor_ids[teams_[p]][i] + " " + kDisciplineNames[d] + " is below its start level (levels never decrease)";
      }
    if (s.busy[p] > 15) return who + ".busy: bad inventor mask";
    if (s.won[p] >> kCards) return who + ".won: unknown card";
    if (s.won[p] & seen) return who + ".won: a card is won twice";
    seen |= s.won[p];
    for (uint64_t w = s.won[p]; w; w &= w - 1)
      if (ed_.cards[lsb64(w)].age > s.age) return who + ".won: " + ed_.card_ids[lsb64(w)] + " is of a later age";
    for (int k = 0; k < kTokenKinds; ++k) tokens_out[k] += s.hand[p][k];
  }

  // Display.
  const int nd = s.ndisplay;
  if (nd > kMaxDisplay) return "display: too many cards";
  if (s.phase == MAIN && (nd < 2 || nd > K)) return "display: MAIN needs 2.." + S(K) + " cards";
  if (s.phase == REWARD && (nd < 1 || nd > K - 1)) return "display: REWARD needs 1.." + S(K - 1) + " cards";
  if ((s.phase == CHANCE_REVEAL || s.phase == TERMINAL) && nd != 0) return "display: must be empty at a reveal or at the end";
  for (int j = nd; j < kMaxDisplay; ++j)
    if (!all_zero(&s.display[j], sizeof(DisplayCard))) return "display: unused slot not empty";
  for (int j = 0; j < nd; ++j) {
    const DisplayCard& dc = s.display[j];
    if (dc.card >= kCards) return "display: unknown card";
    const std::string where = "display[" + ed_.card_ids[dc.card] + "]";
    if (j > 0 && dc.card <= s.display[j - 1].card) return "display: cards must be distinct, in edition order";
    if (ed_.cards[dc.card].age != s.age) return where + ": not a card of age " + S(s.age);
    if ((seen >> dc.card) & 1) return where + ": card is also won or pending";
    seen |= 1ULL << dc.card;
    const unsigned lo = token_lo(dc.tokens), hi = token_hi(dc.tokens);
    if (lo >= kTokenKinds || hi >= kTokenKinds || lo > hi) return where + ".tokens: bad token pair";
    ++tokens_out[lo];
    ++tokens_out[hi];
    int filled = 0, cubes = 0;
    bool full = true;
    for (int d = 0; d < kDisciplines; ++d) {
      if (dc.filled[d] > ed_.cards[dc.card].cost[d])
        return where + ".filled: " + kDisciplineNames[d] + " is " + S(dc.filled[d]) + ", more than its cost " + S(ed_.cards[dc.card].cost[d]);
      full &= dc.filled[d] == ed_.cards[dc.card].cost[d];
      filled += dc.filled[d];
    }
    if (full) return where + ".filled: a full card cannot stay in the display";
    for (int p = 0; p < kMaxPlayers; ++p) {
      if (p >= n_ && dc.cubes[p]) return where + ".cubes: seat " + S(p) + " does not exist";
      cubes += dc.cubes[p];
    }
    if (cubes != filled) return where + ".cubes: " + S(cubes) + " cubes on the card but " + S(filled) + " spaces filled";
  }

  // Reward context.
  if (s.phase != REWARD) {
    if (s.rw_card || s.rw_tokens || s.rw_left || s.rw_count || s.rw_index || !all_zero(s.rw_cubes, sizeof s.rw_cubes) ||
        !all_zero(s.rw_seats, sizeof s.rw_seats))
      return "reward: only a REWARD position has a pending reward";
  } else {
    if (s.rw_card >= kCards) return "reward.card: unknown card";
    const std::string where = "reward[" + ed_.card_ids[s.rw_card] + "]";
    if (ed_.cards[s.rw_card].age != s.age) return where + ": not a card of age " + S(s.age);
    if (s.rw_left & 1) {  // the card is still on offer
      if ((seen >> s.rw_card) & 1) return where + ": card is also won or in the display";
      seen |= 1ULL << s.rw_card;
    } else {  // already taken by a seat that has chosen
      bool taken = false;
      for (int t = 0; t < s.rw_index && t < 3; ++t) taken |= s.rw_seats[t] < n_ && ((s.won[s.rw_seats[t]] >> s.rw_card) & 1);
      if (!taken) return where + ": the card was taken, but no seat that chose has it";
    }
    const unsigned lo = token_lo(s.rw_tokens), hi = token_hi(s.rw_tokens);
    if (lo >= kTokenKinds || hi >= kTokenKinds || lo > hi) return where + ".tokens: bad token pair";
    if (s.rw_left > 7 || s.rw_left == 0) return where + ".left: nothing left to choose";
    if (s.rw_left & 2) ++tokens_out[lo];
    if (s.rw_left & 4) ++tokens_out[hi];
    int cubes = 0;
    for (int p = 0; p < kMaxPlayers; ++p) {
      if (p >= n_ && s.rw_cubes[p]) return where + ".cubes: seat " + S(p) + " does not exist";
      cubes += s.rw_cubes[p];
    }
    if (cubes != ed_.cards[s.rw_card].total) return where + ".cubes: must add up to the card's " + S(ed_.cards[s.rw_card].total) + " spaces";
    // The rewarded list must be the first min(3, contributors) of the 5.7.3 order.
    int order[kMaxPlayers];
    const int count = priority_order(s.rw_cubes, s.statuette, n_, order);
    const int expect = count < 3 ? count : 3;
    if (s.rw_count != expect) return where + ".seats: expected " + S(expect) + " rewarded seats";
    for (int t = 0; t < 3; ++t) {
      if (t < expect && s.rw_seats[t] != order[t]) return where + ".seats: not the priority order of spec 5.7.3 (seat " + S(order[t]) + " expected at place " + S(t + 1) + ")";
      if (t >= expect && s.rw_seats[t]) return where + ".seats: too many seats";
    }
    if (s.rw_index >= s.rw_count) return where + ".index: every rewarded seat has chosen";
    if (__builtin_popcount(s.rw_left) != 3 - s.rw_index) return where + ".left: " + S(3 - s.rw_index) + " rewards must remain";
  }

  // Cards of the current age already won (spec 4.1).
  int won_now = 0;
  for (int p = 0; p < n_; ++p)
    for (uint64_t w = s.won[p]; w; w &= w - 1) won_now += ed_.cards[lsb64(w)].age == s.age;
  if (won_now > K - nd) return "won: more cards of age " + S(s.age) + " won than completed";

  // Tokens: bag size by phase, and no kind over its count.
  int bag = 0;
  for (int k = 0; k < kTokenKinds; ++k) bag += s.bag[k];
  const int T = ed_.token_total();
  const int expect_bag = T - 2 * K * (s.phase == CHANCE_REVEAL ? s.age - 1 : s.age);
  if (bag != expect_bag) return "bag: holds " + S(bag) + " tokens, expected " + S(expect_bag);
  for (int k = 0; k < kTokenKinds; ++k)
    if (s.bag[k] + tokens_out[k] > ed_.token_count[k])
      return std::string("tokens: more ") + kTokenNames[k] + " tokens (bag, display, reward and hands) than the " + S(ed_.token_count[k]) + " that exist";

  if (s.hash != compute_hash(s)) return "hash: does not match the position";
  return "";
}

}  // namespace atelier::inventors
