// Craftsmen: the Game (configuration + rules) and the Position (Game* + State) that implements
// the common Game concept (cext/common/concept.md) for the search.
#pragma once
#include <cstdint>
#include <string>

#include "../common/movelist.hpp"
#include "../common/playout.hpp"
#include "../common/rng.hpp"
#include "features.hpp"
#include "edition.hpp"
#include "state.hpp"

namespace atelier::craftsmen {

// A minimal payment (Craftsmen spec 7.1): counts per money type.
struct Payment {
  uint8_t c[kMoneyTypes];
};
constexpr int kMaxPayments = 256;  // from a hand of <= 10 cards there are <= 252 (Craftsmen §23)

class Game {
 public:
  // Throws std::invalid_argument("field: reason") on a bad edition, player count or age ranks.
  Game(const Edition& edition, int n_players, const uint8_t* age_rank);

  const Edition& edition() const { return ed_; }
  int num_players() const { return n_; }
  int age_rank(int seat) const { return age_rank_[seat]; }

  // Setup (Craftsmen spec 4.2-4.4), its chance part sampled with rng (Craftsmen spec 4.2 allows it); then the
  // mulligan of the first seat in turn order is pending.
  void initial_state(State& s, Rng& rng) const;

  int current_player(const State& s) const;
  void legal_moves(const State& s, MoveList& out) const;  // canonical order (docs/notation.md)
  bool is_legal(const State& s, Move m) const;
  void apply(State& s, Move m) const;  // precondition: is_legal(s, m)
  // The same transition without updating what each seat knows of the buildings (bknow) and of
  // the others' money (mknown): a playout's states are thrown away, and only determinization,
  // validation and the field view read them (rescanning the 70 buildings was half of a
  // playout's instructions).
  void playout_apply(State& s, Move m) const;

  // Chance (Craftsmen spec 6.4, Craftsmen §15): draws from the first non-empty deck segment.
  void sample_chance(State& s, Rng& rng) const;
  void playout_sample_chance(State& s, Rng& rng) const;  // bknow left as it was, as playout_apply
  int chance_outcomes(const State& s, Move* m, double* p, int cap) const;
  void apply_chance(State& s, Move m) const;  // precondition: one of chance_outcomes

  // Scoring and result (Craftsmen spec 14).
  void scores(const State& s, int* out) const;
  void ranking(const State& s, int* order) const;   // seats, winner first (14.2)
  void returns(const State& s, double* out) const;  // 1 for the winner at TERMINAL

  uint64_t compute_hash(const State& s) const;
  // Craftsmen §6.2 (determinize.cpp): a key of what `seat` knows, equal for two states exactly
  // when seat cannot tell them apart; and a deal of what seat cannot see that keeps every binding
  // claim (claims.hpp), computed from what seat knows only. false (s unchanged in its money) when
  // no deal meets the claims: the view is inconsistent.
  uint64_t infoset_key(const State& s, int seat) const;
  bool determinize(State& s, int seat, Rng& rng) const;
  // "" when every packed field is in bounds. `resumed`: s is a decision or chance node that a
  // 10-card limit discard interrupted (checked as it will be when the discard is over).
  std::string validate(const State& s, bool resumed = false) const;

  std::string move_to_string(const State& s, Move m) const;
  std::string parse_move(const State& s, const std::string& text, Move& m) const;
  std::string outcome_to_string(Move m) const;  // "DRAW(R2)", "DRAW(E11)"

  Move greedy_move(const State& s, Rng& rng) const;
  // True only when no chance node with more than one outcome can follow (game.cpp): in year 3's
  // winter once its Craftsmen stage is over, or when every money card is of one type.
  bool chance_free(const State& s) const;

  // Money helpers (public for notation, bindings and tests).
  static int value(const uint8_t* counts);        // Craftsmen spec 7.1, colour sets included
  static int value(const uint8_t* counts, unsigned colours);  // the colours in the mask (bit c) only
  int payments(const State& s, Payment* out) const;  // the pending PAY decision's list, canonical
  int payment_count(const State& s) const;  // its length, without ordering it
  bool payment_at(const State& s, int index, Payment& out) const;  // its index-th; false: none
  int hand_size(const State& s, int seat) const;
  int supply_of(const State& s, int seat) const { return s.seat[seat].supply; }

  // Tier and sizes of building card b.
  int tier(int b) const { return ed_.b[b].tier; }

 private:
  Edition ed_;
  int n_;
  uint8_t age_rank_[kMaxPlayers];

  // apply without the bknow update; Know = false also skips the money knowledge (playouts).
  // `listed`: the pending PAY decision's payments() when the caller has them (greedy_move tries
  // every payment of one list), else null and a PAY move lists them again.
  template <bool Know> void transition(State& s, Move m, const Payment* listed = nullptr) const;
  void draw(State& s, Move m) const;               // apply_chance without it
  template <bool Know> void sample(State& s, Rng& rng) const;

  friend struct Rules;
};

// The Game concept as the search sees it.
struct Position {
  const Game* game;
  State st;

  int num_players() const { return game->num_players(); }
  int current_player() const { return game->current_player(st); }
  bool is_terminal() const { return st.phase == P_TERMINAL; }
  bool is_chance() const { return st.phase == P_CHANCE; }
  bool chance_free() const { return game->chance_free(st); }
  void legal_moves(MoveList& out) const { game->legal_moves(st, out); }
  // No dominance known (concept: search_moves): an exact search tries every legal move.
  void search_moves(MoveList& out) const { legal_moves(out); }
  Move random_move(Rng& rng) const { return random_from_list(*this, rng); }
  void apply(Move m) { game->apply(st, m); }
  void sample_chance(Rng& rng) { game->sample_chance(st, rng); }
  // Playouts throw their states away: they skip the buildings' knowledge (bknow).
  void playout_apply(Move m) { game->playout_apply(st, m); }
  void playout_chance(Rng& rng) { game->playout_sample_chance(st, rng); }
  int chance_outcomes(Move* m, double* p, int cap) const { return game->chance_outcomes(st, m, p, cap); }
  void apply_chance(Move m) { game->apply_chance(st, m); }
  void returns(double* out) const { game->returns(st, out); }
  void scores(int* out) const { game->scores(st, out); }
  // No score bounds known (concept: score_bounds): the search learns nothing from them here.
  void score_bounds(int* lo, int* hi) const {
    for (int p = 0; p < num_players(); ++p) lo[p] = -kNoScoreBound, hi[p] = kNoScoreBound;
  }
  uint64_t hash() const { return game->compute_hash(st); }
  // No position proven equal to another (concept: search_key): the full key.
  uint64_t search_key() const { return hash(); }
  Move greedy_move(Rng& rng) const { return game->greedy_move(st, rng); }
  // Features (concept.md): the state from `seat`'s side, feature_count() floats.
  int feature_count() const { return craftsmen::feature_count(*game); }
  int feature_version() const { return kFeatureVersion; }
  void features(int seat, float* out) const { write_features(*game, st, seat, out); }
  uint64_t infoset_key(int seat) const { return game->infoset_key(st, seat); }
  // A valid state always has a deal (itself meets its claims): a refusal cannot happen here.
  void determinize(int seat, Rng& rng) { game->determinize(st, seat, rng); }
  // The information-set search's descent (concept: tree_apply ...): the keyed operations.
  void tree_apply(Move m) { apply(m); }
  void tree_chance(Rng& rng) { sample_chance(rng); }
  void tree_determinize(int seat, Rng& rng) { determinize(seat, rng); }
  uint64_t tree_key(int seat) const { return infoset_key(seat); }
};

static_assert(std::is_trivially_copyable<Position>::value, "Position must be memcpy-able");

}  // namespace atelier::craftsmen
