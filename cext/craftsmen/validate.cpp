// Craftsmen state validation: every packed field in bounds and every conservation law of
// Craftsmen spec 17.11, so that packed bytes from outside can never make the core index out of range.
#include <cstring>
#include <string>

#include "claims.hpp"
#include "game.hpp"
#include "knowledge.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

#define CHECK(cond, msg) \
  do {                   \
    if (!(cond)) return std::string(msg); \
  } while (0)

static bool seat_or_none(uint8_t v, int n) { return v == kNoSeat || v < n; }

std::string Game::validate(const State& s, bool resumed) const {
  const Rules R(*this);
  const int n = n_;
  CHECK(s.year >= 1 && s.year <= 3, "year: must be 1..3");
  CHECK(s.season <= 3, "season: must be 0..3");
  CHECK(s.phase < kPhases && s.phase != P_RUN, "phase: unknown");
  CHECK(s.flow < kFlows, "flow: unknown");
  // Turn order: a permutation of the seats.
  unsigned seen = 0;
  for (int i = 0; i < n; ++i) {
    CHECK(s.turn_order[i] < n && !(seen & (1u << s.turn_order[i])), "turn_order: must be a permutation of the seats");
    seen |= 1u << s.turn_order[i];
  }
  for (int i = n; i < kMaxPlayers; ++i) CHECK(s.turn_order[i] == kNoSeat, "turn_order: unused entries must be empty");
  // Money: 48 cards by type.
  for (int k = 0; k < kMoneyTypes; ++k) {
    int c = 0;
    for (int pl = 0; pl < kMoneyPlaces; ++pl) c += s.money[pl][k];
    CHECK(c == ed_.money_count[k], "money: the cards of each type must add up to the edition's count");
    for (int q = n; q < kMaxPlayers; ++q) CHECK(s.money[M_HAND0 + q][k] == 0, "money: a hand of an absent seat");
  }
  CHECK(R.place_count(s, M_DISPLAY) <= ed_.c.display, "money.display: too many cards");
  for (int q = 0; q < n; ++q) CHECK(R.hand(s, q) <= ed_.c.hand_limit + ed_.c.banker_take, "money.hand: above the hand limit");
  // Above the hand limit only while it is being dealt with (rules §7.3, A23), as the loader says;
  // a limit discard may queue several seats, and the decision it interrupted (resumed) waits on it.
  for (int q = 0; q < n && !resumed && s.phase != P_LIMIT; ++q)
    CHECK(R.hand(s, q) <= ed_.c.hand_limit || (s.phase == P_DISCARD && s.disc_seat == q) ||
              ((s.phase == P_BANK1 || s.phase == P_BANK2 || s.phase == P_BANK_PRIV) && s.actor == q) ||
              (s.phase == P_CHANCE && s.ch_seat == q),
          "money.hand: above the hand limit outside a discard down to it");
  // Buildings.
  int mills[kMaxPlayers] = {};
  for (int b = 0; b < kBuildings; ++b) {
    const uint8_t loc = s.bloc[b], kind = loc & 0xF0, low = loc & 0x0F;
    const bool mill = b < kMills;
    CHECK(kind <= B_POOL, "buildings: unknown location");
    if (kind == B_BOX) CHECK(mill && low == 0, "buildings: only lumber mills lie in the box");
    if (kind == B_HAND) CHECK(!mill && low < n, "buildings: a hand card must be a building of a seat");
    if (kind == B_ROW) {
      CHECK(low < n, "buildings: a row of an absent seat");
      CHECK(s.bpos[b] >= s.seat[low].row_lo && s.bpos[b] <= s.seat[low].row_hi, "buildings: row position outside the row");
      if (mill) ++mills[low];
    }
    if (kind >= B_FACEUP) CHECK(!mill, "buildings: lumber mills are never in a deck");
    if (kind == B_SEG) CHECK(low <= 1, "buildings: segment must be 0 or 1");
    if (kind == B_FACEUP || kind == B_TOP || kind == B_BOTTOM || kind == B_POOL) CHECK(low == 0, "buildings: bad location");
    if (kind != B_ROW) CHECK(s.bfill[b] == 0, "buildings: filled icons on a card not in a row");
    else CHECK(s.bfill[b] < (1u << ed_.b[b].ninputs), "buildings: filled icon beyond the card's inputs");
    if (kind == B_TOP) CHECK(s.bpos[b] > s.deck_top[ed_.b[b].tier] && s.bpos[b] < 128, "buildings: top position");
    if (kind == B_BOTTOM) CHECK(s.bpos[b] >= 128 && s.bpos[b] < s.deck_bottom[ed_.b[b].tier], "buildings: bottom position");
  }
  for (int q = 0; q < n; ++q) {
    CHECK(mills[q] == 1, "buildings: every row holds exactly one lumber mill");
    const Seat& st = s.seat[q];
    CHECK(st.row_lo <= st.row_hi, "seat.row: bounds");
    for (int pos = st.row_lo; pos <= st.row_hi; ++pos) {
      int c = 0;
      for (int b = 0; b < kBuildings; ++b) c += s.bloc[b] == (B_ROW | q) && s.bpos[b] == pos;
      CHECK(c == 1, "seat.row: every position of a row holds one card");
    }
  }
  for (int t = 0; t < 4; ++t) CHECK(s.deck_top[t] <= 127 && s.deck_bottom[t] >= 128, "deck: sequence counters");
  int pool = 0;
  for (int b = 0; b < kBuildings; ++b) pool += s.bloc[b] == B_POOL;
  CHECK(pool == 0 || s.phase == P_KEEP || s.phase == P_RETURN || (s.phase == P_CHANCE && s.ch_dst == D_POOL) ||
            (s.phase == P_LIMIT && (s.lim_saved == P_KEEP || s.lim_saved == P_RETURN)),
        "buildings: a look pool outside a Notary look");
  CHECK(pool <= 5, "buildings: a look pool holds at most 5 cards");
  // Seats, cubes, tokens.
  int priv = s.bank_priv, work = s.bank_work, neutral = s.neutral_supply;
  uint8_t bonus_seen = s.bonus_unclaimed;
  for (int q = 0; q < kMaxPlayers; ++q) {
    const Seat& st = s.seat[q];
    if (q >= n) continue;
    CHECK(st.ap >= 0 && st.ap <= 5000, "seat.ap: out of range");
    CHECK(st.home <= 5 && st.passed <= 1 && st.contributed <= 1 && st.mulliganed <= 1, "seat: flag or helper count out of range");
    CHECK(st.market <= ed_.c.market_max, "seat.market: too many cubes");
    CHECK(st.priv <= ed_.c.max_priv_held && st.work <= ed_.c.max_work_held, "seat: too many tokens");
    CHECK(!(st.bonus & bonus_seen), "seat.bonus: a bonus token held twice");
    bonus_seen |= st.bonus;
    priv += st.priv;
    work += st.work;
    int cubes = st.supply + st.market;
    for (int b = 0; b < kBuildings; ++b)
      if (s.bloc[b] == (B_ROW | q)) cubes += __builtin_popcount(s.bfill[b]);
    for (int w = 0; w < kWarehouseGoods; ++w) cubes += (s.warehouse[w][0] == 2 + q) + (s.warehouse[w][1] == 2 + q);
    for (int k = 0; k < kShips; ++k)
      for (int r = 0; r < kMaxShipRows; ++r) cubes += (s.ship[k][r][0] == 1 + q) + (s.ship[k][r][1] == 1 + q);
    int transit = 0;  // a raw or good between its making and its destination
    const int ph = s.phase == P_LIMIT ? s.lim_saved : s.phase;
    const int who = s.phase == P_LIMIT ? s.lim_actor : s.actor;
    if (who == q && ph == P_SEND) transit = s.raws_left ? s.raws_left : 1;
    if (who == q && ph == P_LOAD) transit = 1;
    CHECK(cubes + transit == kCubes, "seat.supply: the 20 cubes of a seat must be accounted for");
  }
  CHECK(bonus_seen == 0xFF, "bonus_unclaimed: every bonus token is unclaimed or held once");
  CHECK(priv == ed_.c.priv_tokens_by_players[n], "bank: privilege tokens in the bank and held must add up");
  CHECK(work == ed_.c.work_tokens_by_players[n], "bank: work tokens in the bank and held must add up");
  for (int w = 0; w < kWarehouseGoods; ++w) {
    CHECK(s.warehouse[w][0] <= 1 + n && s.warehouse[w][1] <= 1 + n, "warehouse: unknown cube");
    CHECK(s.warehouse[w][0] != 0 || s.warehouse[w][1] == 0, "warehouse: a top cube above an empty slot");
    neutral += (s.warehouse[w][0] == 1) + (s.warehouse[w][1] == 1);
  }
  CHECK(neutral == kNeutralCubes, "neutral_supply: the 14 neutral cubes must be accounted for");
  for (int k = 0; k < kShips; ++k)
    for (int r = 0; r < kMaxShipRows; ++r) {
      CHECK(s.ship[k][r][0] <= n && s.ship[k][r][1] <= n, "ships: unknown cube");
      CHECK(r < ed_.ships[k].nrows || (s.ship[k][r][0] == 0 && s.ship[k][r][1] == 0), "ships: a cube on a missing row");
      CHECK(s.ship[k][r][0] != 0 || s.ship[k][r][1] == 0, "ships: a right cube beside an empty left slot");
    }
  for (int g = 0; g < kGuilds; ++g)
    for (int sp = 0; sp < kSpaces; ++sp) {
      const uint8_t b = s.guild[g][sp][0], t = s.guild[g][sp][1];
      CHECK(b == kNoSeat || (b & 0x7F) < n, "guild: unknown disc");
      CHECK(t == kNoSeat || (t & 0x7F) < n, "guild: unknown disc");
      CHECK(b != kNoSeat || t == kNoSeat, "guild: a top disc on an empty space");
      CHECK(sp < R.spaces() || b == kNoSeat, "guild: a disc on a space this player count does not use");
    }
  for (int i = 0; i < 3; ++i) CHECK(seat_or_none(s.order_track[i], n), "order_track: unknown seat");
  CHECK(s.bank_priv <= 15 && s.bank_work <= 15, "bank: out of range");
  // Context fields that index arrays.
  CHECK(s.actor < n, "actor: unknown seat");
  CHECK(s.h_seat < n && s.stage <= kGuilds, "helper: unknown seat or stage");
  CHECK(s.h_space == kNoSeat || (s.h_space < R.spaces() && s.h_layer < 2), "helper: unknown space");
  CHECK(s.priv_mode <= 2 && s.priv_used <= 1 && s.win_kind <= 2, "context: flag out of range");
  CHECK(s.wp <= 15 && s.produce2_used <= 1 && s.token_wp <= 1, "context: work points out of range");
  CHECK(s.wp_return == P_CRAFT || s.wp_return == P_WINDOW || s.wp_return == 0, "context: wp_return");
  CHECK(s.raws_left <= 2 && s.raw_product < kProducts && s.raw_card < kBuildings, "context: pending raw");
  CHECK(s.good == kNoSeat || s.good < kProducts, "context: pending good");
  CHECK(s.good_card == kNoSeat || s.good_card < kBuildings, "context: pending good's card");
  CHECK(s.build_count <= 2 && s.builds[0] < kBuildings && s.builds[1] < kBuildings, "context: builds");
  CHECK(s.look_tier <= ADVANCED && s.returns_left <= 5, "context: look");
  CHECK(s.pay_seat < n && s.pay_after < kAfters && s.pay_card < kBuildings && s.pay_colours <= 0xF, "context: payment");
  CHECK(s.auc_card == kNoSeat || (s.auc_card >= kFirstBasic && s.auc_card < kBuildings && s.bloc[s.auc_card] == B_FACEUP),
        "context: auction card");
  CHECK(s.auc_bidder < n && s.auc_init < n && s.auc_high <= 63 && s.auc_open <= 63, "context: auction");
  CHECK(s.comp_seat < n && s.disc_seat < n && s.disc_after < kAfters && s.disc_left <= 14, "context: discard");
  CHECK(s.ch_src <= ADVANCED && s.ch_dst <= D_POOL && s.ch_seat < n && s.ch_after < kAfters, "context: chance");
  CHECK(s.stack_guild < kGuilds && s.stack_space < kSpaces && s.stack_pay <= 1, "context: stacking");
  CHECK(seat_or_none(s.last_end, n), "last_end: unknown seat");
  CHECK(s.idx <= 2 * kSpaces, "context: flow index");
  if (s.phase == P_LIMIT) {
    CHECK(s.lim_seat < n && s.lim_actor < n && s.lim_saved <= P_CHANCE && s.lim_saved != P_LIMIT, "context: limit discard");
    CHECK(R.hand(s, s.lim_seat) > ed_.c.hand_limit && s.actor == s.lim_seat, "context: limit discard without excess");
  } else {
    CHECK(s.lim_seat == kNoSeat && s.lim_actor == kNoSeat && s.lim_saved == 0, "context: limit fields outside a limit discard");
  }
  const int ph = s.phase == P_LIMIT ? s.lim_saved : s.phase;
  if (ph == P_PAY) CHECK(R.hand(s, s.pay_seat) <= ed_.c.hand_limit && s.pay_seat == s.actor, "context: a payment from a hand above the limit");
  if (ph == P_MERCH_PAY)
    CHECK(s.good < kWarehouseGoods && s.good_card >= kFirstAdvanced && s.good_card < kBuildings &&
              R.in_row(s, s.actor, s.good_card) && R.empty_icon(s, s.good_card, ed_.warehouse_product[s.good]) >= 0 &&
              s.warehouse[s.good][0] != 0,
          "context: a Merchants payment without its purchase");
  // Counters of an action under way are zero once it is done: a leftover count would be read by
  // the next action of its kind (a raw pending SEND with nothing to send, a return with no look).
  CHECK(ph == P_SEND || s.raws_left == 0, "context.raws_left: raws pending outside a SEND");
  CHECK(ph == P_RETURN || s.returns_left == 0, "context.returns_left: returns pending outside a RETURN");
  CHECK(ph == P_DISCARD || s.disc_left == 0, "context.discard_left: discards pending outside a DISCARD");
  CHECK(ph == P_CHANCE || s.ch_left == 0, "context.chance_left: draws pending outside a chance node");
  CHECK(ph == P_WPUSE || s.token_wp == 0, "context.token_wp: a token's work point outside its use");
  CHECK(ph == P_SEND || ph == P_LOAD || ph == P_MERCH_PAY || (s.good == kNoSeat && s.good_card == kNoSeat),
        "context.good: a good awaiting its destination outside SEND, LOAD or a Merchants payment");
  if (ph == P_SEND && !s.raws_left) CHECK(s.good < kProducts && ed_.is_semi(s.good) && !ed_.is_meat(s.good), "context: a semi-finished good to send");
  if (ph == P_LOAD) CHECK(s.good < kProducts && ed_.shippable(s.good) && s.good_card < kBuildings, "context: a good to load");
  if (ph == P_STACK_PAY) CHECK(s.guild[s.stack_guild][s.stack_space][0] != kNoSeat, "context: stacking on an empty space");
  if (s.phase == P_CHANCE || (s.phase == P_LIMIT && s.lim_saved == P_CHANCE)) {
    // A draw feeds what its source can feed, and continues as that destination's draws do
    // (the start_draw calls of apply.cpp and flow.cpp).
    const int d = s.ch_dst, a = s.ch_after;
    CHECK(s.ch_src == 0 ? (d == D_MONEY_HAND || d == D_DISPLAY || d == D_MAYOR) : (d == D_BHAND || d == D_FACEUP || d == D_POOL),
          "context.chance_dest: not a destination of this source");
    CHECK((d == D_MAYOR) == (a == A_MAYOR) && (d == D_POOL) == (a == A_LOOK_KEEP), "context.chance_after: not what this draw continues with");
    CHECK(d != D_DISPLAY || a == A_REWARD_DONE || a == A_BANK_END, "context.chance_after: not what a display refill continues with");
    CHECK(d != D_BHAND || a == A_FLOW, "context.chance_after: not what a mulligan draw continues with");
    CHECK(d != D_MONEY_HAND || a == A_FLOW || a == A_BANK_PRIV || a == A_REWARD_DONE, "context.chance_after: not what a money draw continues with");
    CHECK(d != D_FACEUP || a == A_NOTARY_DONE || a == A_FLOW, "context.chance_after: not what a face-up refill continues with");
  }
  if (s.phase == P_CHANCE && resumed) {
    // Not yet resolved: known draws and a reshuffle come first when it resumes (draw_step).
    CHECK(s.ch_left <= 8, "chance: too many draws");
  } else if (s.phase == P_CHANCE) {
    CHECK(s.ch_left > 0 && s.ch_left <= 8, "chance: nothing to draw");
    if (s.ch_src == 0) CHECK(R.place_count(s, M_DECK) > 0, "chance: the money deck is empty");
    else {
      bool seg = false, top = false;
      for (int b = Rules::first(s.ch_src); b < Rules::last(s.ch_src); ++b)
        seg |= (s.bloc[b] & 0xF0) == B_SEG, top |= s.bloc[b] == B_TOP;
      CHECK(seg && !top, "chance: no segment to draw from");
    }
  }
  // Continuations and phases that read the auction card.
  const bool auction = s.phase == P_BID || s.phase == P_MAYOR_BID || (s.phase == P_CHANCE && s.ch_dst == D_MAYOR) ||
                       (s.phase == P_PAY && s.pay_after == A_WIN_PAID) ||
                       (s.phase == P_DISCARD && s.disc_after == A_WIN_PAID) ||
                       (s.phase == P_CHANCE && (s.ch_after == A_WIN_PAID || s.ch_after == A_MAYOR));
  if (auction) CHECK(s.auc_card != kNoSeat, "context: an auction without its card");
  if (s.auc_card != kNoSeat) {
    // Every bid raises the high bid (9.4): the seats' bids differ and the opening bid is the
    // initiator's; while seats bid, none is above the high bid, which the high bidder holds.
    // (Against the mayor the initiator's bid is kept in its own slot: auction_high stays the
    // mayor's, so the two bounds below hold in BID only.)
    const bool bidding = (s.phase == P_LIMIT ? s.lim_saved : s.phase) == P_BID;
    CHECK(s.auc_open > 0 && s.auc_max[s.auc_init] >= s.auc_open && s.auc_open <= s.auc_high,
          "context.auction_open: not the initiator's opening bid");
    for (int q = 0; q < n; ++q) {
      CHECK(!bidding || s.auc_max[q] <= s.auc_high, "context.auction_max_bids: a bid above the high bid");
      for (int r = 0; r < q; ++r) CHECK(s.auc_max[q] == 0 || s.auc_max[q] != s.auc_max[r], "context.auction_max_bids: two equal bids");
      CHECK(s.auc_raised || q == s.auc_init || s.auc_max[q] == 0, "context.auction_raised: another seat bid, so the opening bid was raised");
    }
    for (int q = n; q < kMaxPlayers; ++q) CHECK(s.auc_max[q] == 0, "context.auction_max_bids: a bid of an absent seat");
    if (bidding) {
      CHECK(s.auc_max[s.auc_bidder] == s.auc_high, "context.auction_bidder: the high bidder must hold the high bid");
      CHECK(s.auc_raised || s.auc_high == s.auc_open, "context.auction_high: unraised, the high bid is the opening bid");
    }
  }
  const bool mayor = s.phase == P_MAYOR_BID || (s.phase == P_CHANCE && s.ch_dst == D_MAYOR) ||
                     (s.phase == P_LIMIT && s.lim_saved == P_MAYOR_BID);
  CHECK(mayor || R.place_count(s, M_MAYOR) == 0, "money.mayor: the mayor's cards outside an auction");
  CHECK(R.place_count(s, M_MAYOR) <= 6, "money.mayor: too many cards");
  if (s.phase == P_LIMIT) {
    // The interrupted decision must itself be a valid position once the discard is over.
    State t = s;
    t.phase = s.lim_saved;
    t.actor = s.lim_actor;
    t.lim_seat = t.lim_actor = kNoSeat;
    t.lim_saved = 0;
    const std::string inner = validate(t, true);
    if (!inner.empty()) return "limit discard: " + inner;
  }
  // The flow cursor must match the pending decision (bytes from outside could pair any two).
  const int eff = s.phase == P_LIMIT ? s.lim_saved : s.phase;
  // ... and its seat: a limit discard (A23) interrupts whoever was to decide, at once.
  const int actor = s.phase == P_LIMIT ? s.lim_actor : s.actor;
  const bool in_action = (eff >= P_WINDOW && eff <= P_LOAD && eff != P_DISCARD) ||
                         (eff == P_DISCARD && s.disc_after != A_FLOW) ||
                         (eff == P_CHANCE && s.ch_after != A_FLOW) || eff == P_PAY;
  if (in_action) {
    CHECK(s.stage < kGuilds && (s.flow == F_NEXT_HELPER || s.flow == F_STAGE_WINDOWS), "flow: a guild action outside the guild phase");
    CHECK(!R.winter(s) || s.stage == 1 || s.stage == 3, "stage: winter has only stages II and IV");
    int want = -1;
    if (eff >= P_BANK1 && eff <= P_BANK_PRIV) want = 0;
    if (eff == P_BUILD1 || eff == P_BUILD2) want = 1;
    if (eff >= P_NOTARY1 && eff <= P_RETURN) want = 2;
    if (eff == P_CRAFT) want = 3;
    if (eff >= P_MERCH && eff <= P_COMPENSATE) want = 4;
    if (eff == P_TOWN) want = 5;
    if (want >= 0) CHECK(s.stage == want && s.flow == F_NEXT_HELPER, "stage: the decision does not belong to this stage");
    // A discard or draw in the middle of an action continues that action: its stage too.
    const int after = eff == P_DISCARD ? s.disc_after : eff == P_CHANCE ? s.ch_after : A_NONE;
    int after_stage = -1;
    if (after == A_BANK_PRIV || after == A_BANK_DISCARD_DONE || after == A_BANK_END) after_stage = 0;
    if (after == A_LOOK_KEEP || after == A_NOTARY_DONE) after_stage = 2;
    if (after_stage >= 0) CHECK(s.stage == after_stage, "stage: the action this discard or draw continues is not this stage's");
    if (s.flow == F_NEXT_HELPER) {
      CHECK(R.winter(s) ? s.idx < n : s.idx < 2 * R.spaces(), "flow: helper index out of range");
      if (!R.winter(s)) {
        const uint8_t d = s.guild[s.stage][s.idx / 2][s.idx % 2];
        CHECK(d != kNoSeat && (d & 0x7F) == s.h_seat && s.h_space == s.idx / 2 && s.h_layer == s.idx % 2,
              "flow: the acting helper is not on the board");
      } else {
        CHECK(s.turn_order[s.idx] == s.h_seat && s.h_space == kNoSeat, "flow: the acting virtual helper");
      }
    } else {
      CHECK(s.idx < n && s.turn_order[s.idx] == actor, "flow: a stage window of another seat");
    }
  }
  if (eff == P_MULLIGAN) CHECK(s.flow == F_MULLIGAN && s.idx < n && s.turn_order[s.idx] == actor, "flow: mulligan");
  if (eff == P_HELPER)
    CHECK(s.flow == F_HELPER && !R.winter(s) && s.seat[actor].home > 0 && !s.seat[actor].passed, "flow: helper phase");
  if (eff == P_STACK || eff == P_STACK_PAY) CHECK(s.flow == F_HELPER && !R.winter(s), "flow: stacking");
  // In the helper phase `index` is the turn-order position after the seat placing (where the
  // search for the next seat starts, flow.cpp helper_next): any other value skips or repeats a seat.
  if (eff == P_HELPER || eff == P_STACK || eff == P_STACK_PAY)
    CHECK(s.idx < n && s.turn_order[(s.idx + n - 1) % n] == actor,
          "context.index: in the helper phase, the turn-order position after the seat placing");
  if (eff == P_CONTRIB) CHECK(s.flow == F_CONTRIB && s.idx < n && s.turn_order[s.idx] == actor, "flow: contribution");
  if (eff == P_DISCARD && s.disc_after == A_FLOW) CHECK(s.flow == F_ROUND_END && s.disc_seat == actor, "flow: end-of-round discard");
  if (eff == P_CHANCE && s.ch_after == A_FLOW) CHECK(s.flow == F_MULLIGAN || s.flow == F_HELPER, "flow: a draw outside the setup or helper phase");
  if (eff == P_TERMINAL) CHECK(s.flow == F_NONE && s.year == 3, "flow: terminal");
  if (eff == P_DISCARD) CHECK(s.disc_seat == actor && s.disc_left >= 1, "context: discard");
  // A discard never asks for more cards than the hand holds (flow.cpp start_discard).
  if (eff == P_DISCARD) CHECK(s.disc_left <= R.hand(s, s.disc_seat), "context.discard_left: more discards than cards in hand");
  // Between actions the last action's context is gone (flow.cpp clear_action_context): a
  // leftover would make two equal positions differ in equality, hash and infoset key.
  if (eff == P_MULLIGAN || eff == P_HELPER || eff == P_CONTRIB || eff == P_TERMINAL) {
    State t = s, c = s;
    Rules::clear_action_context(c);
    if (s.phase == P_LIMIT) t.lim_seat = t.lim_actor = kNoSeat, t.lim_saved = 0;
    CHECK(std::memcmp(&t.h_seat, &c.h_seat, Rules::kActionContextBytes) == 0,
          "context: a finished action's fields must be back at their start values between actions");
  }
  // Helpers: at home or on the board, 5 a seat.
  for (int q = 0; q < n; ++q) {
    int on = s.seat[q].home + ((eff == P_STACK || eff == P_STACK_PAY) && q == s.actor);  // disc in hand
    for (int g = 0; g < kGuilds; ++g)
      for (int sp = 0; sp < kSpaces; ++sp)
        for (int l = 0; l < 2; ++l) on += s.guild[g][sp][l] != kNoSeat && (s.guild[g][sp][l] & 0x7F) == q;
    CHECK(on == 5, "seat.home: each seat's 5 helpers are at home or on the board");
  }
  // The binding claims (claims.hpp: bids, a payment under way, a first build) hold: every
  // determinization keeps them, so a position that breaks one has no deal of any view.
  Claim cl[kMaxClaims];
  const int ncl = claims_of(s, n, cl);
  for (int i = 0; i < ncl; ++i)
    CHECK(R.colour_value(s, cl[i].seat, cl[i].colours) >= cl[i].need,
          cl[i].kind == CLAIM_BID   ? "context.auction: a bid above what the bidder's hand is worth"
          : cl[i].kind == CLAIM_PAY ? "context.pay_amount: more than the payer's hand is worth (in the payment's colours)"
                                    : "context.build_cost: the first build costs more than the builder's hand is worth");
  // Knowledge (knowledge.hpp): only of seats that play, never more than a hand holds.
  for (int o = 0; o < kMaxPlayers; ++o)
    for (int q = 0; q < kMaxPlayers; ++q) {
      if (o == q) continue;
      for (int t = 0; t < kMoneyTypes; ++t) {
        const int k = known_money(s, o, q, t);
        CHECK(o < n && q < n ? k <= s.money[M_HAND0 + q][t] : k == 0, "known.money: more known cards than the hand holds");
      }
      uint64_t w = 0;
      std::memcpy(&w, s.mknown[known_pair(o, q)], 5);
      CHECK(w >> (3 * kMoneyTypes) == 0, "known.money: unused bits must be zero");
    }
  const uint8_t all = (uint8_t)((1u << n) - 1);
  for (int b = 0; b < kBuildings; ++b) {
    const uint8_t k = s.bknow[b], kind = s.bloc[b] & 0xF0;
    CHECK((k & ~(all | kKnowGroup | kKnowFaceUp)) == 0, "known.buildings: a knower that does not play");
    CHECK(!(k & kKnowFaceUp) || (k & kKnowGroup), "known.buildings: a face-up return outside the returns");
    if (kind == B_BOX || kind == B_ROW || kind == B_FACEUP) CHECK(k == all, "known.buildings: a public card must be known to all");
    if (kind == B_HAND) CHECK((k >> (s.bloc[b] & 0xF)) & 1, "known.buildings: a hand card unknown to its holder");
    if (kind == B_POOL) CHECK(s.h_seat < n && ((k >> s.h_seat) & 1), "known.buildings: a look card unknown to the looker");
    if (kind == B_SEG) CHECK(!(k & kKnowGroup), "known.buildings: a look return inside a shuffled segment");
  }
  if (s.phase < P_CHANCE) {
    MoveList ml;
    legal_moves(s, ml);
    CHECK(ml.size > 0, "phase: a decision without a legal move");
  }
  return "";
}

}  // namespace atelier::craftsmen
