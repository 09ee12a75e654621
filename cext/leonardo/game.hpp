// Leonardo da Vinci: the Game (configuration + rules) and the Position (Game* + State) that
// implements the common Game concept (cext/common/concept.md) for the search.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "../common/movelist.hpp"
#include "../common/playout.hpp"
#include "../common/rng.hpp"
#include "features.hpp"
#include "edition.hpp"
#include "state.hpp"

namespace atelier::leonardo {

struct Options {
  bool basic = false;  // beginner kits and fixed starting row (§2.3); default expert (§2.4, R1)
  bool codex = false;  // Codex Leonardi I, "Powerful Council" (§8)
};

struct ScoreDetail {
  int money, types, bonus, total, n_cards;
  int by_tier[kTiers];  // owned cards per tier (tie-break, §7)
};

class Game {
 public:
  // Throws std::invalid_argument("field: reason") on a bad edition or player count.
  Game(const Edition& edition, int n_players, Options options);

  const Edition& edition() const { return ed_; }
  uint32_t tier_mask(int t) const { return tier_mask_[t]; }  // the cards of tier t
  const Options& options() const { return opt_; }
  int num_players() const { return n_; }
  int row_size() const { return ed_.row_size[n_]; }
  const CardData& card(int c) const { return ed_.cards[c]; }

  // Setup (§2): samples the deck construction (§2.2, a chance node resolved from rng), deals
  // the expert row, hands out kits; the result is the first decision (favour pick or Phase A).
  void initial_state(State& s, Rng& rng) const;

  int current_player(const State& s) const;  // seat, kChancePlayer or kTerminalPlayer
  void legal_moves(const State& s, MoveList& out) const;  // canonical order (docs/notation.md)
  Move random_move(const State& s, Rng& rng) const;        // legal_moves(s)[rng.below(size)]
  bool is_legal(const State& s, Move m) const;
  void apply(State& s, Move m) const;         // precondition: is_legal(s, m)
  // apply / sample_chance without recomputing hash and pub (keys.cpp): for playouts and
  // look-ahead copies, whose keys nobody reads. A state left so fails validate().
  void apply_unkeyed(State& s, Move m) const;
  void sample_chance_unkeyed(State& s, Rng& rng) const;

  // Chance (§5.6 refill draw, §6): outcomes are M_DRAW moves with exact probabilities.
  int chance_outcomes(const State& s, Move* m, double* p, int cap) const;
  void sample_chance(State& s, Rng& rng) const;
  void apply_chance(State& s, Move m) const;  // precondition: m is an outcome

  // Scoring (§7); valid at any state, final at GAME_OVER.
  ScoreDetail score(const State& s, int seat) const;
  void scores(const State& s, int* out) const;
  void returns(const State& s, double* out) const;
  uint8_t winners(const State& s) const;

  uint64_t compute_hash(const State& s) const;         // from scratch; equals s.hash
  uint64_t compute_public(const State& s) const;       // from scratch; equals s.pub
  uint64_t private_key(const State& s, int seat) const;  // what only `seat` sees
  uint64_t infoset_key(const State& s, int seat) const { return s.pub ^ private_key(s, seat); }

  // Every packed-field bound and the §3.1 record checks. "" when valid, else "field: reason".
  // records=false: the hidden parts are a placeholder about to be resampled (a viewpoint being
  // loaded), so the records only the true hidden parts must fit (deck order against the looks
  // and piles, the true lab pair against its snapshot) are not checked.
  std::string validate(const State& s, bool records = true) const;

  std::string move_to_string(const State& s, Move m) const;
  std::string parse_move(const State& s, const std::string& text, Move& m) const;

  Move greedy_move(const State& s, Rng& rng) const;
  // Refill draws end with the last normal turn (§5.6, §6), or when the deck is empty.
  bool chance_free(const State& s) const {
    return s.phase != DRAW && (s.turn > ed_.normal_turns || s.deck_len == 0);
  }

  // §3.5 (determinize.cpp): resample what `seat` cannot see. deck_hypotheses counts the §3.5.1
  // hypotheses (0: no deck fits the history; -1: more than the 4096 capacity).
  // false: no sample fits the records (s unchanged; never on a state that passed validate()).
  // keyed=false leaves hash and pub stale, as apply_unkeyed does (the search's descent).
  bool determinize(State& s, int seat, Rng& rng, bool keyed = true) const;
  int deck_hypotheses(const State& s, int seat) const;
  // §6.2 lazy draws: P(next card = c) from seat's view, p[kCards]; false if no deck fits.
  bool draw_probabilities(const State& s, int seat, double* p) const;
  bool sample_labs(State& s, int q, Rng& rng) const;
  // The deck order, the looks' orders and the draws against a deck built as §2.2 builds it,
  // and piles.middle_lower: "" or "field: reason" (a full position's exact records).
  std::string deck_record_error(const State& s) const;

  // Helpers shared by the rules files.
  int thr(const State& s, int p, int c, uint32_t owned) const;  // §5.5 D2 threshold
  void rank(const State& s, int area, uint8_t* order, int& count) const;  // §5.4.1
  uint32_t startable(const State& s) const;  // row ∪ deck (turns 1-7), row (8-9)
  void rekey(State& s) const {
    s.pub = compute_public(s);
    s.hash = hash_with_public(s, s.pub);
  }
  uint64_t hash_with_public(const State& s, uint64_t pub) const;
  // This Game's construction number, distinct per constructed Game (copies share it: same
  // configuration). Caches keyed by a Game use it, since an address can be reused.
  uint64_t serial() const { return serial_; }
  // Run automatic steps and forced moves (§11.4) up to the next decision, chance node or end;
  // for states built from outside (after validate). apply() does this itself.
  void settle(State& s) const;

 private:
  Edition ed_;
  int n_;
  Options opt_;
  uint64_t serial_;
  uint32_t tier_mask_[kTiers];
  uint64_t need_[kCards];   // each card's materials, one byte per kind (fits_hand)

  // Does card c's materials fit in the hand packed by pack_kinds? Bytewise have >= need at once:
  // (have | 0x80) - need keeps each byte's top bit iff have >= need (all counts are < 128).
  static uint64_t pack_kinds(const uint8_t* have) {
    uint64_t v = 0;
    std::memcpy(&v, have, kKinds);
    return v;
  }
  static constexpr uint64_t kKindTops = 0x8080808080ULL;  // bit 7 of each of the kKinds == 5 bytes
  bool fits_hand(int c, uint64_t have) const {
    return (((have | kKindTops) - need_[c]) & kKindTops) == kKindTops;
  }
  bool start_only_none(const State& s) const;  // Phase A START with NONE the only option

  void gen(const State& s, MoveList& out) const;
  bool place_only_pass(const State& s) const;  // Phase B with PASS the only option (no gen)
  void play(State& s, Move m) const;   // one transition, no settling
  bool auto_step(State& s) const;      // one automatic step; false at a decision/chance/end
  void begin_turn(State& s) const;
  void draw(State& s, Move m) const;   // the refill draw of an outcome, keys not updated
  void begin_phase_c(State& s) const;
  void council_next(State& s) const;
  void council_exec(State& s) const;
  void area_begin(State& s, int area) const;
  void area_next(State& s, bool removed_current) const;
  void research(State& s) const;
  void hand_out_next(State& s) const;
  void end_turn(State& s) const;
  void start_lab(State& s, int p, int l, int c) const;
  void cancel_lab(State& s, int p, int l) const;
  void reveal_lab(State& s, int p, int l) const;
  void fold_snapshot(State& s, int p, int stopped, bool cancelled, uint32_t stopped_cand) const;
  uint32_t totals_budget(const State& s, int p, uint8_t* out) const;
  int bidder(const State& s, int i) const;
  bool codex_any(const State& s, int owner) const;
  void gen_codex(const State& s, int owner, MoveList& out) const;
};

struct Position {
  const Game* game;
  State st;

  int num_players() const { return game->num_players(); }
  int current_player() const { return game->current_player(st); }
  bool is_terminal() const { return st.phase == GAME_OVER; }
  bool is_chance() const { return st.phase == DRAW; }
  bool chance_free() const { return game->chance_free(st); }
  void legal_moves(MoveList& out) const { game->legal_moves(st, out); }
  // No dominance known (concept: search_moves): an exact search tries every legal move.
  void search_moves(MoveList& out) const { legal_moves(out); }
  Move random_move(Rng& rng) const { return game->random_move(st, rng); }
  void apply(Move m) { game->apply(st, m); }
  void sample_chance(Rng& rng) { game->sample_chance(st, rng); }
  // Playouts (concept.md): the keys go stale, which a state thrown away never needs.
  void playout_apply(Move m) { game->apply_unkeyed(st, m); }
  void playout_chance(Rng& rng) { game->sample_chance_unkeyed(st, rng); }
  int chance_outcomes(Move* m, double* p, int cap) const { return game->chance_outcomes(st, m, p, cap); }
  void apply_chance(Move m) { game->apply_chance(st, m); }
  void returns(double* out) const { game->returns(st, out); }
  void scores(int* out) const { game->scores(st, out); }
  // No score bounds known (concept: score_bounds): the search learns nothing from them here.
  void score_bounds(int* lo, int* hi) const {
    for (int p = 0; p < num_players(); ++p) lo[p] = -kNoScoreBound, hi[p] = kNoScoreBound;
  }
  uint64_t hash() const { return st.hash; }
  // No position proven equal to another (concept: search_key): the full key.
  uint64_t search_key() const { return hash(); }
  uint64_t infoset_key(int seat) const { return game->infoset_key(st, seat); }
  // Cannot fail on a validated state (its truth is one sample that fits); the binding checks.
  void determinize(int seat, Rng& rng) { game->determinize(st, seat, rng); }
  // The information-set search's descent (concept: tree_apply ...): the keys go stale on the
  // way and the one key a decision asks for is computed from the contents. Keyed, a move costs
  // two hashes of the state; the descent needs one of them, and only where it looks a node up.
  void tree_apply(Move m) { game->apply_unkeyed(st, m); }
  void tree_chance(Rng& rng) { game->sample_chance_unkeyed(st, rng); }
  void tree_determinize(int seat, Rng& rng) { game->determinize(st, seat, rng, false); }
  uint64_t tree_key(int seat) const { return game->compute_public(st) ^ game->private_key(st, seat); }
  Move greedy_move(Rng& rng) const { return game->greedy_move(st, rng); }
  // Features (concept.md): the state from `seat`'s side, feature_count() floats.
  int feature_count() const { return leonardo::feature_count(*game); }
  int feature_version() const { return kFeatureVersion; }
  void features(int seat, float* out) const { write_features(*game, st, seat, out); }
};

static_assert(std::is_trivially_copyable<Position>::value, "Position must be memcpy-able");

}  // namespace atelier::leonardo
