// Internal to the Craftsmen core: the queries and state edits shared by the move generator,
// the transitions (game.cpp) and the chance nodes (chance.cpp).
#pragma once
#include <cstddef>
#include <cstring>

#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::craftsmen {

struct Rules {
  const Game& g;
  const Edition& ed;
  int n;
  explicit Rules(const Game& game) : g(game), ed(game.ed_), n(game.n_) {}

  // ---- queries ---------------------------------------------------------------------------
  // Sum of the 12 counters of a money place: the last four added onto the first four, then one
  // multiply sums the eight bytes (a place holds at most 48 cards, so no byte lane carries).
  static int place_count(const State& s, int place) {
    uint64_t a;
    uint32_t b;
    std::memcpy(&a, s.money[place], 8);
    std::memcpy(&b, s.money[place] + 8, 4);
    return (int)(((a + b) * 0x0101010101010101ULL) >> 56);
  }
  static int hand(const State& s, int p) { return place_count(s, M_HAND0 + p); }
  // Where the cards are, as bit sets (one SSE2 compare per 16 cards, not a 70-step loop; a bit
  // set is walked lowest bit first, which is edition order). cards_at: bit b - kFirstBasic for
  // each non-mill card b at location loc; the tiers are bits [0, 24), [24, 48), [48, 64).
  static uint64_t cards_at(const State& s, uint8_t loc) { return bytes_match64(s.bloc + kFirstBasic, 0xFF, loc); }
  static unsigned mills_at(const State& s, uint8_t loc) { return (unsigned)bytes_match64(s.bloc, 0xFF, loc) & 0x3F; }
  static constexpr int kExtBit = kFirstExtended - kFirstBasic, kAdvBit = kFirstAdvanced - kFirstBasic;
  // The two reads above are exactly in bounds: 64 bytes from the first basic card end at the last
  // building, and the mills are the first six of the 64 bytes from 0.
  static_assert(kBuildings - kFirstBasic == 64 && kMills == 6, "cards_at / mills_at read 64 location bytes");
  // Tier t's slice (t not MILL) of a cards_at set: bit b - first(t) for each of its cards.
  static uint64_t tier_of(uint64_t cards, int t) {
    if (t == BASIC) return cards & ((1ULL << kExtBit) - 1);
    return t == EXTENDED ? (cards >> kExtBit) & ((1ULL << kExtended) - 1) : cards >> kAdvBit;
  }
  // Bit b - first(t) for each card b of tier t whose location byte, masked by keep, is v.
  static uint64_t tier_at(const State& s, int t, uint8_t v, uint8_t keep = 0xFF) {
    if (t == MILL) return bytes_match64(s.bloc, keep, v) & 0x3F;
    return tier_of(bytes_match64(s.bloc + kFirstBasic, keep, v), t);
  }
  // The cards of p's row (edition order); returns their number.
  static int row_cards(const State& s, int p, uint8_t* out) {
    int c = 0;
    const uint8_t want = (uint8_t)(B_ROW | p);
    for (unsigned m = mills_at(s, want); m; m &= m - 1) out[c++] = (uint8_t)lsb64(m);
    for (uint64_t m = cards_at(s, want); m; m &= m - 1) out[c++] = (uint8_t)(kFirstBasic + lsb64(m));
    return c;
  }
  static int hand_value(const State& s, int p) { return Game::value(s.money[M_HAND0 + p]); }
  static int colour_value(const State& s, int p, unsigned mask) { return Game::value(s.money[M_HAND0 + p], mask); }
  int wp(const State& s) const { return ed.c.wp[(s.year - 1) % 3]; }
  int spaces() const { return n == 2 ? 2 : 3; }
  int per_player_cap() const { return n == 2 ? ed.c.per_player_per_guild_2p : ed.c.per_player_per_guild; }
  bool winter(const State& s) const { return s.season == 3; }
  int stack_price(const State& s) const { return ed.c.stack_ap[(s.year - 1) % 3]; }

  // Building deck of tier t: top, then segments, then bottom (Craftsmen spec 6.4).
  bool deck_empty(const State& s, int t) const {
    for (int b = first(t); b < last(t); ++b) {
      const uint8_t k = s.bloc[b] & 0xF0;
      if (k == B_TOP || k == B_SEG || k == B_BOTTOM) return false;
    }
    return true;
  }
  static int first(int t) { return t == MILL ? 0 : t == BASIC ? kFirstBasic : t == EXTENDED ? kFirstExtended : kFirstAdvanced; }
  static int last(int t) { return t == MILL ? kMills : t == BASIC ? kFirstExtended : t == EXTENDED ? kFirstAdvanced : kBuildings; }
  int faceup_count(const State& s, int t) const { return popcount64(tier_at(s, t, B_FACEUP)); }
  // Leftmost / rightmost card of p's row.
  int row_end(const State& s, int p, int side) const {
    const uint8_t pos = side ? s.seat[p].row_hi : s.seat[p].row_lo;
    uint8_t row[kBuildings];
    const int c = row_cards(s, p, row);
    for (int i = 0; i < c; ++i)
      if (s.bpos[row[i]] == pos) return row[i];
    return 0;
  }
  bool in_row(const State& s, int p, int b) const { return s.bloc[b] == (B_ROW | p); }
  // First empty input icon of card b for product prod, or -1.
  int empty_icon(const State& s, int b, int prod) const {
    const BuildingData& d = ed.b[b];
    for (int i = 0; i < d.ninputs; ++i)
      if (d.inputs[i] == prod && !(s.bfill[b] & (1u << i))) return i;
    return -1;
  }
  bool full(const State& s, int b) const {
    const BuildingData& d = ed.b[b];
    return d.ninputs > 0 && s.bfill[b] == (1u << d.ninputs) - 1;
  }
  // Number of empty icons for raw `prod` over p's row.
  int raw_room(const State& s, int p, int prod) const {
    int r = 0;
    for (int b = kFirstExtended; b < kBuildings; ++b) {
      if (!in_row(s, p, b)) continue;
      const BuildingData& d = ed.b[b];
      for (int i = 0; i < d.ninputs; ++i) r += d.inputs[i] == prod && !(s.bfill[b] & (1u << i));
    }
    return r;
  }
  bool priv_available(const State& s) const { return s.priv_mode != 0 && !s.priv_used; }

  // WP uses legal for p with one WP (Craftsmen spec 10.2-10.4); `produce2` allows PRODUCE2.
  void wp_uses(const State& s, int p, bool produce2, MoveList& out) const;
  bool any_wp_use(const State& s, int p) const;
  bool token_usable(const State& s, int p) const { return s.seat[p].work > 0 && any_wp_use(s, p); }

  // ---- edits -----------------------------------------------------------------------------
  void use_privilege(State& s) const;
  void fill_icon(State& s, int b, int icon) const { s.bfill[b] |= (uint8_t)(1u << icon); }
  void take_bonus_tokens(State& s, int p) const;
  void to_bottom(State& s, int b) const;
  void to_top(State& s, int b) const;
  void place_in_row(State& s, int p, int b, int side) const;

  // ---- flow ------------------------------------------------------------------------------
  void advance(State& s) const;          // run forced steps until a decision or chance node
  void step_flow(State& s) const;
  static void clear_action_context(State& s);  // between actions: the start's values
  // The action context's bytes: h_seat .. lim_actor.
  static constexpr size_t kActionContextBytes = offsetof(State, lim_actor) + 1 - offsetof(State, h_seat);
  void after(State& s, int what) const;  // a continuation (enum After)
  void start_draw(State& s, int src, int dst, int seat, int count, int after) const;
  bool draw_step(State& s) const;        // resolve known draws; true when the sequence finished
  void deliver(State& s, int card_or_type) const;
  void open_window(State& s, int p, int kind) const;
  void after_window(State& s, int kind) const;
  void begin_action(State& s) const;
  void end_action(State& s) const;
  void wp_done(State& s) const;
  void craft_continue(State& s) const;
  void notary_done(State& s) const;
  void start_discard(State& s, int p, int count, int after) const;
  void start_pay(State& s, int p, int amount, unsigned colours, int after) const;
  void resolve_auction(State& s) const;
  void next_bidder(State& s, int from) const;
  void win_auction(State& s, int seat, int price) const;
  void helper_next(State& s) const;
  void final_phase(State& s) const;
  void year_end(State& s) const;
  void new_round(State& s) const;
  void refill_faceup(State& s, int t, int after) const;
  void limit_check(State& s) const;
};

}  // namespace atelier::craftsmen
