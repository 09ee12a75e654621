// "High card": a tiny hidden-information card game implementing the full Game concept
// (cext/common/concept.md), used to build and check the search before the real rulesets
// land, and to exercise exact chance nodes, determinization and information sets.
// Rules: cext/testgame/README.md.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include "../common/movelist.hpp"
#include "../common/playout.hpp"
#include "../common/rng.hpp"
#include "features.hpp"

namespace atelier::testgame {

constexpr int kMaxValues = 8;   // card values 1..V, V <= 8
constexpr int kMaxCopies = 4;   // copies of each value
constexpr int kMaxHand = 6;

enum Phase : uint8_t { DEAL = 0, REVEAL = 1, PLAY = 2, TERMINAL = 3 };

struct State {
  uint8_t deck[kMaxValues];               // face-down cards left, per value index
  uint8_t hand[kMaxPlayers][kMaxValues];  // hidden hands, per value index
  uint8_t seen[kMaxValues];               // public: prizes and revealed plays, per value index
  uint8_t plays[kMaxPlayers];             // current trick: value index + 1 per seat, 0 = not yet
  int16_t score[kMaxPlayers];
  uint8_t prize;                          // value index of the prize, 0xFF none
  uint8_t phase;
  uint8_t trick;                          // tricks finished
  uint8_t leader;                         // seat leading the current trick
  uint8_t turn;                           // plays made in the current trick
  uint8_t dealt;                          // cards dealt so far (DEAL phase)
};

static_assert(std::is_trivially_copyable<State>::value, "State must be memcpy-able");

class Game {
 public:
  // Throws std::invalid_argument("field: reason"). `sealed`: a trick's plays stay hidden from
  // the other seats until the trick is complete (sealed bids, the sequential transform).
  Game(int n_players, int values, int copies, int hand, bool sealed = false);

  int num_players() const { return n_; }
  int values() const { return v_; }
  int copies() const { return c_; }
  int hand_size() const { return h_; }
  bool sealed() const { return sealed_; }

  void initial_state(State& s) const;
  int current_player(const State& s) const;
  void legal_moves(const State& s, MoveList& out) const;
  void apply(State& s, Move m) const;
  void sample_chance(State& s, Rng& rng) const;
  int chance_outcomes(const State& s, Move* m, double* p, int cap) const;
  void apply_chance(State& s, Move m) const;
  void returns(const State& s, double* out) const;
  void scores(const State& s, int* out) const;
  uint64_t hash(const State& s) const;
  uint64_t infoset_key(const State& s, int seat) const;
  void determinize(State& s, int seat, Rng& rng) const;
  Move greedy_move(const State& s, Rng& rng) const;
  // Scores only grow; the prizes still to win are the one on the table and one per trick to
  // come, each at most the highest value.
  void score_bounds(const State& s, int* lo, int* hi) const {
    const int left = (s.prize != 0xFF ? s.prize + 1 : 0) + (h_ - s.trick - (s.prize != 0xFF)) * v_;
    for (int p = 0; p < n_; ++p) lo[p] = s.score[p], hi[p] = s.score[p] + (s.phase == TERMINAL ? 0 : left);
  }
  bool chance_free(const State& s) const { return s.phase == TERMINAL || (s.phase == PLAY && s.trick == h_ - 1); }
  std::string move_to_string(const State& s, Move m) const;

 private:
  int n_, v_, c_, h_;
  bool sealed_;
  void finish_trick(State& s) const;
};

struct Position {
  const Game* game;
  State st;

  int num_players() const { return game->num_players(); }
  int current_player() const { return game->current_player(st); }
  bool is_terminal() const { return st.phase == TERMINAL; }
  bool is_chance() const { return st.phase == DEAL || st.phase == REVEAL; }
  // A prize is revealed before every trick: only the last trick's plays are chance-free.
  bool chance_free() const { return game->chance_free(st); }
  void legal_moves(MoveList& out) const { game->legal_moves(st, out); }
  // No dominance known (concept: search_moves): an exact search tries every legal move.
  void search_moves(MoveList& out) const { legal_moves(out); }
  Move random_move(Rng& rng) const { return random_from_list(*this, rng); }
  void apply(Move m) { game->apply(st, m); }
  void sample_chance(Rng& rng) { game->sample_chance(st, rng); }
  // Playouts throw their states away: this ruleset keeps its keys incrementally anyway.
  void playout_apply(Move m) { apply(m); }
  void playout_chance(Rng& rng) { sample_chance(rng); }
  int chance_outcomes(Move* m, double* p, int cap) const { return game->chance_outcomes(st, m, p, cap); }
  void apply_chance(Move m) { game->apply_chance(st, m); }
  void returns(double* out) const { game->returns(st, out); }
  void scores(int* out) const { game->scores(st, out); }
  void score_bounds(int* lo, int* hi) const { game->score_bounds(st, lo, hi); }
  uint64_t hash() const { return game->hash(st); }
  // No position proven equal to another (concept: search_key): the full key.
  uint64_t search_key() const { return hash(); }
  uint64_t infoset_key(int seat) const { return game->infoset_key(st, seat); }
  void determinize(int seat, Rng& rng) { game->determinize(st, seat, rng); }
  Move greedy_move(Rng& rng) const { return game->greedy_move(st, rng); }
  // Features (concept.md): the state from `seat`'s side, feature_count() floats.
  int feature_count() const { return testgame::feature_count(*game); }
  int feature_version() const { return kFeatureVersion; }
  void features(int seat, float* out) const { write_features(*game, st, seat, out); }
  // The information-set search's descent (concept: tree_apply ...): the keyed operations.
  void tree_apply(Move m) { apply(m); }
  void tree_chance(Rng& rng) { sample_chance(rng); }
  void tree_determinize(int seat, Rng& rng) { determinize(seat, rng); }
  uint64_t tree_key(int seat) const { return infoset_key(seat); }
};

static_assert(std::is_trivially_copyable<Position>::value, "Position must be memcpy-able");

}  // namespace atelier::testgame
