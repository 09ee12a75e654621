// Legendary Inventors: the Game (configuration + rules) and the Position (Game* + State) that
// implements the common Game concept (cext/common/concept.md) for the search.
#pragma once
#include <cstdint>
#include <string>

#include "../common/movelist.hpp"
#include "../common/rng.hpp"
#include "features.hpp"
#include "edition.hpp"
#include "state.hpp"

namespace atelier::inventors {

// Per-seat score breakdown (spec 7.1-7.4) and result inputs (7.5).
struct ScoreDetail {
  int cards, vp_tokens, goals, suites, total, n_cards;
};

class Game {
 public:
  // Throws std::invalid_argument("field: reason") on a bad edition, player count or teams.
  Game(const Edition& edition, int n_players, const uint8_t* teams);

  const Edition& edition() const { return ed_; }
  int num_players() const { return n_; }
  int team(int seat) const { return teams_[seat]; }
  int k() const { return n_ + 3; }  // cards revealed per age (spec 1.6)
  const InventorData& inventor(int seat, int i) const { return ed_.inventors[teams_[seat]][i]; }
  const CardData& card(int c) const { return ed_.cards[c]; }

  // Setup (spec §3): Age I, CHANCE_REVEAL, full bag, start levels, statuette on seat 0.
  void initial_state(State& s) const;

  int current_player(const State& s) const;  // seat, kChancePlayer or kTerminalPlayer
  void legal_moves(const State& s, MoveList& out) const;  // canonical order (spec 8.13)
  // legal_moves(s)[rng.below(size)] with the same single draw, without building the list.
  Move random_move(const State& s, Rng& rng) const;
  // legal_moves less the moves a two-sided exact search may skip (dominance.cpp).
  void search_moves(const State& s, MoveList& out) const;
  // hash() with what search_moves proves irrelevant folded out (dominance.cpp): equal keys,
  // equal values for a two-sided exact search that uses search_moves.
  uint64_t search_key(const State& s) const;
  bool is_legal(const State& s, Move m) const;
  void apply(State& s, Move m) const;         // precondition: is_legal(s, m)
  // The same transition leaving s.hash stale: for playouts, whose states are thrown away.
  void apply_unkeyed(State& s, Move m) const;

  // Chance (spec §6): the exact sequential sampling procedure; the explicit outcome; its
  // probability. check_reveal returns "" or "field: reason".
  void sample_reveal(State& s, Rng& rng) const;
  std::string check_reveal(const State& s, const Reveal& r) const;
  void apply_reveal(State& s, const Reveal& r) const;  // precondition: check_reveal == ""
  double reveal_probability(const State& s, const Reveal& r) const;

  // Scoring (spec §7); valid at any state (counts what is held now), final at TERMINAL.
  ScoreDetail score(const State& s, int seat) const;
  void scores(const State& s, int* out) const;       // totals, n entries
  void score_bounds(const State& s, int* lo, int* hi) const;  // concept: score_bounds
  void returns(const State& s, double* out) const;   // win shares (7.5), sum 1 at TERMINAL
  uint8_t winners(const State& s) const;             // bit mask of seats sharing the win

  uint64_t compute_hash(const State& s) const;       // from scratch; equals s.hash

  // Spec 4.1 position validity plus every packed-field bound. "" when valid.
  std::string validate(const State& s) const;

  // Notation (docs/notation.md): one space-free token per move, e.g. "work:tesla:II07+P+Ma".
  std::string move_to_string(const State& s, Move m) const;
  // Returns "" and sets m when `text` names a legal move, else "move 'text': reason".
  std::string parse_move(const State& s, const std::string& text, Move& m) const;
  std::string reveal_to_string(const Reveal& r) const;  // "reveal:I01=P2+AV,I04=VP1+ST,..."
  std::string parse_reveal(const State& s, const std::string& text, Reveal& r) const;

  // The greedy baseline's choice (docs/bots.md): deterministic given rng.
  Move greedy_move(const State& s, Rng& rng) const;

 private:
  Edition ed_;
  int n_;
  uint8_t teams_[kMaxPlayers];
  uint64_t start_levels_[kMaxPlayers];   // packed like State::levels
  uint64_t goal_levels_[kMaxPlayers];
  int goal_vp_[kMaxPlayers][kInventorsPerTeam];
  uint32_t cost32_[kCards];  // card costs, one discipline per byte (SWAR move generation)
  uint64_t serial_;          // common/serial.hpp: keys the score-bound cache

  template <class Sink> void generate(const State& s, Sink& out) const;
  int plays_for(const State& s, int p) const;
  void reward_moves(const State& s, uint64_t most, MoveList& out) const;  // dominance.cpp
  void seat_bounds(const State& s, int p, int r, const uint8_t* mine, int plays, int& lo, int& hi) const;
  // K: keep s.hash in step (apply) or leave it stale (apply_unkeyed).
  template <bool K> void transition(State& s, Move m) const;
  template <bool K> void work(State& s, unsigned card, unsigned inv, unsigned extra) const;
  template <bool K> void complete(State& s, int slot) const;
  template <bool K> void finish_reward(State& s) const;
  template <bool K> void end_age(State& s) const;
};

// The Game concept as the search sees it: a Game pointer plus a State, trivially copyable.
// Every ruleset provides a Position with exactly these members (cext/common/concept.md).
struct Position {
  const Game* game;
  State st;

  int num_players() const { return game->num_players(); }
  int current_player() const { return game->current_player(st); }
  bool is_terminal() const { return st.phase == TERMINAL; }
  bool is_chance() const { return st.phase == CHANCE_REVEAL; }
  // Reveals open each age (spec 5.8): after Age III's there is no chance left.
  bool chance_free() const { return st.age == 3 && st.phase != CHANCE_REVEAL; }
  void legal_moves(MoveList& out) const { game->legal_moves(st, out); }
  void search_moves(MoveList& out) const { game->search_moves(st, out); }
  Move random_move(Rng& rng) const { return game->random_move(st, rng); }
  void apply(Move m) { game->apply(st, m); }
  void sample_chance(Rng& rng) { game->sample_reveal(st, rng); }
  // Playouts throw their states away: their transitions skip the Zobrist updates.
  void playout_apply(Move m) { game->apply_unkeyed(st, m); }
  void playout_chance(Rng& rng) { sample_chance(rng); }
  // Reveals are far too many to enumerate (spec 6.1.5): always -1, "sample instead".
  int chance_outcomes(Move*, double*, int) const { return -1; }
  void apply_chance(Move) {}
  void returns(double* out) const { game->returns(st, out); }
  void scores(int* out) const { game->scores(st, out); }
  void score_bounds(int* lo, int* hi) const { game->score_bounds(st, lo, hi); }
  uint64_t hash() const { return st.hash; }
  uint64_t search_key() const { return game->search_key(st); }
  // Perfect information: the information set is the state itself.
  uint64_t infoset_key(int) const { return st.hash; }
  void determinize(int, Rng&) {}
  Move greedy_move(Rng& rng) const { return game->greedy_move(st, rng); }
  // Features (concept.md): the state from `seat`'s side, feature_count() floats.
  int feature_count() const { return inventors::feature_count(*game); }
  int feature_version() const { return kFeatureVersion; }
  void features(int seat, float* out) const { write_features(*game, st, seat, out); }
  // The information-set search's descent (concept: tree_apply ...): the keyed operations.
  void tree_apply(Move m) { apply(m); }
  void tree_chance(Rng& rng) { sample_chance(rng); }
  void tree_determinize(int seat, Rng& rng) { determinize(seat, rng); }
  uint64_t tree_key(int seat) const { return infoset_key(seat); }
};

static_assert(std::is_trivially_copyable<Position>::value, "Position must be memcpy-able");

}  // namespace atelier::inventors
