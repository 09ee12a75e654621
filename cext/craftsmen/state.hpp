// The Craftsmen state (Craftsmen §6.1): plain data, trivially copyable, <= 768 bytes. Card
// locations are per-card tables (Craftsmen §23 "Sizes"): no hand, row or deck can overflow.
// Configuration (players, age ranks, edition) lives in Game.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../common/movelist.hpp"
#include "edition.hpp"

namespace atelier::craftsmen {

// ---- Places -----------------------------------------------------------------------------
// Money (Craftsmen spec 1.5: cards of one type are interchangeable) is a count per type and place.
enum MoneyPlace : uint8_t { M_HAND0 = 0, M_DISPLAY = 5, M_DISCARD = 6, M_DECK = 7, M_MAYOR = 8, kMoneyPlaces = 9 };

// Building location byte: kind in the high nibble, seat or segment in the low nibble.
enum BKind : uint8_t {
  B_BOX = 0x00,     // lumber mills not in a row
  B_HAND = 0x10,    // | seat
  B_ROW = 0x20,     // | seat; bpos = position in the row (128 = the mill, lower = left)
  B_FACEUP = 0x30,
  B_SEG = 0x40,     // | segment (0 above 1); unordered
  B_TOP = 0x50,     // known top sequence; bpos ascending = top first
  B_BOTTOM = 0x60,  // known bottom sequence; bpos ascending = drawn first
  B_POOL = 0x70,    // a Notary look pool
};

// ---- Phases: the pending decision, a chance node, or the game's end ----------------------
enum Phase : uint8_t {
  P_MULLIGAN = 0, P_HELPER, P_STACK, P_STACK_PAY, P_WINDOW,
  P_BANK1, P_BANK2, P_BANK_PRIV, P_DISCARD,
  P_BUILD1, P_BUILD2, P_PAY,
  P_NOTARY1, P_NOTARY2, P_NOTARY3, P_BID, P_MAYOR_BID, P_KEEP, P_RETURN,
  P_MERCH, P_MERCH_PAY, P_COMPENSATE, P_TOWN,
  P_CRAFT, P_WPUSE, P_SEND, P_REWARD, P_LOAD,
  P_CONTRIB, P_LIMIT,
  P_CHANCE, P_TERMINAL,
  P_RUN,  // internal: no decision pending, the flow continues (never seen outside apply)
  kPhases
};

// Flow cursor: where the game continues once the pending decision chain is over.
enum Flow : uint8_t {
  F_NONE = 0, F_HELPER, F_STAGE, F_NEXT_HELPER, F_ACTION_END, F_STAGE_WINDOWS, F_FINAL,
  F_ROUND_END, F_YEAR_END, F_CONTRIB, F_NEW_ROUND, F_MULLIGAN, kFlows
};

// What a chance draw feeds.
enum Dest : uint8_t { D_NONE = 0, D_MONEY_HAND, D_DISPLAY, D_MAYOR, D_BHAND, D_FACEUP, D_POOL };

// What to do when the current draw sequence / discard / payment finishes.
enum After : uint8_t {
  A_NONE = 0, A_BANK_PRIV, A_BANK_DISCARD_DONE, A_BANK_END, A_REWARD_DONE, A_FLOW, A_LOOK_KEEP,
  A_NOTARY_DONE, A_MAYOR, A_BUILD_PAID, A_BUY_PAID, A_WIN_PAID, A_MULLIGAN, A_STACK_PLACE,
  kAfters
};

constexpr uint8_t kNoSeat = 0xFF;

struct Seat {
  int16_t ap;
  uint8_t home, passed, market, priv, work, supply;
  uint8_t bonus;        // bit f: bonus token of final good f held
  uint8_t contributed;  // this year end
  uint8_t row_lo, row_hi;  // bpos range of the row (inclusive)
  uint8_t mulliganed;
};

struct State {
  // Per-card tables.
  uint8_t bloc[kBuildings];
  uint8_t bpos[kBuildings];
  uint8_t bfill[kBuildings];          // bit i: input icon i filled
  uint8_t money[kMoneyPlaces][kMoneyTypes];
  uint8_t deck_top[4], deck_bottom[4];  // next free bpos at the top (decreasing) / bottom (increasing)
  Seat seat[kMaxPlayers];
  // Board.
  uint8_t guild[kGuilds][kSpaces][2];  // disc: kNoSeat or seat | 0x80 when privileged
  uint8_t order_track[3];              // seats, kNoSeat when empty
  uint8_t warehouse[kWarehouseGoods][2];  // [bottom, top]: 0 empty, 1 neutral, 2 + seat
  uint8_t ship[kShips][kMaxShipRows][2];  // [left, right]: 0 empty, 1 + seat
  uint8_t neutral_supply;
  uint8_t bank_priv, bank_work;
  uint8_t bonus_unclaimed;             // bit f
  uint8_t turn_order[kMaxPlayers];
  uint8_t year, season;                // 1..3, 0..3
  // Control.
  uint8_t phase, flow;
  uint8_t actor;                       // seat deciding (decision phases)
  uint8_t idx;                         // flow index: turn position / helper slot / stage-window position
  uint8_t stage;                       // 0..5 (guild I..VI)
  uint8_t last_end;                    // seat whose END was the last decision, else kNoSeat
  // Helper action context.
  uint8_t h_seat, h_space, h_layer;    // acting helper (h_space 0xFF: winter virtual helper)
  uint8_t priv_mode;                   // 0 none, 1 free (space 1), 2 by token
  uint8_t priv_used;
  uint8_t win_kind;                    // window: 0 start of action, 1 end of action, 2 stage window
  uint8_t wp, token_wp, produce2_used, wp_return;  // wp_return: phase after a token WP use
  uint8_t raws_left, raw_product, raw_card;        // raws awaiting SEND
  uint8_t good, good_card;             // a made good awaiting its destination (0xFF none)
  uint8_t banker_taken;
  uint8_t build_count, build_cost, builds[2];
  uint8_t notary_done, looked, look_tier, returns_left;
  uint8_t pay_amount, pay_colours, pay_seat, pay_after, pay_card;
  uint8_t auc_card, auc_high, auc_bidder, auc_open, auc_raised, auc_dropped, auc_init;
  uint8_t auc_max[kMaxPlayers];
  uint8_t comp_seat;
  // Discards.
  uint8_t disc_seat, disc_left, disc_after;
  // Chance.
  uint8_t ch_src;                      // 0 money, else building tier
  uint8_t ch_dst, ch_seat, ch_left, ch_after;
  uint8_t stack_space, stack_pay;      // pending stacking (P_STACK_PAY)
  uint8_t stack_guild;
  uint8_t lim_seat, lim_saved;       // the 10-card limit discard (A23) and the phase it interrupted
  uint8_t lim_actor;
  uint8_t pad_[1];
  // What each seat knows of the cards it cannot see (Craftsmen §6.2; knowledge.cpp).
  // mknown[pair(o, q)]: 3-bit counts per money type, 12 in 5 bytes: the cards of q's hand that o
  // has seen go in (a Banker's face-up take, a reward, a card o handed to q, A25).
  uint8_t mknown[kMaxPlayers * (kMaxPlayers - 1)][5];
  // bknow[b]: bits 0-4 the seats that know where building b is (everyone for a public place);
  // kKnowGroup: b went back under a Notary look (A26), its slot is one of the look's returns;
  // kKnowFaceUp: b was face up when the look took it, so everyone knows it is among the returns.
  uint8_t bknow[kBuildings];
};
constexpr uint8_t kKnowGroup = 0x20, kKnowFaceUp = 0x40;

static_assert(std::is_trivially_copyable<State>::value, "State must be memcpy-able");
static_assert(sizeof(State) <= 768, "State exceeds its 768-byte budget");

// ---- Moves (16 bits): type in bits 10..15, argument in bits 0..9 -------------------------
enum MoveType : uint8_t {
  KEEP = 0, SWAP_BASIC, SWAP_EXTENDED, SWAP_MILL, PASS, PLACE, STACK, PAY_CARD, PAY_AP,
  WORK_TOKEN, END, SKIP, TAKE_FACEUP, TAKE_DECK, STOP, PRIVILEGE, NO_PRIVILEGE, DISCARD,
  BUILD,      // card(7) | side << 7 (0 L, 1 R)
  DONE, PAY,  // PAY: index into the canonical list of minimal payments of this position
  LOOK,       // tier
  BUY,        // card
  AUCTION,    // card(7) | (bid-1) << 7 ... see auction_move()
  BID, DROP,
  KEEP_LOOK,  // a | b << 3: indices into the pool (sorted by card); b = 7 for a one-card keep
  RETURN,     // card(7) | end << 7 (0 TOP, 1 BOTTOM)
  PURCHASE,   // card(7) | warehouse good << 7
  PAY_MARKET, MARKET_PLACE, DECLINE, TAKE_PRIVILEGE, TAKE_WORK, ORDER_CHANGE,
  PRODUCE, PRODUCE2,
  TRADE,      // card(7) | icon << 7
  MAKE,
  SEND_MARKET,
  SEND_ICON,  // card(7) | icon << 7
  SEND_WAREHOUSE, REWARD, REWARD_DECK,
  LOAD,       // ship
  LOAD_BRIBE, // ship | type << 2
  LOSE,
  CONTRIBUTE, // (value-1) per colour, 2 bits each, P lowest
  DRAW,       // chance: money type, or 16 + building card
  kMoveTypes
};

inline Move mk(unsigned type, unsigned arg = 0) { return (Move)((type << 10) | (arg & 0x3FF)); }
inline unsigned mtype(Move m) { return m >> 10; }
inline unsigned marg(Move m) { return m & 0x3FF; }
// AUCTION: the face-up card's rank among the face-up cards (by index, 0..5) and the bid 1..64.
inline Move auction_move(unsigned rank, unsigned bid) { return mk(AUCTION, rank | ((bid - 1) << 3)); }

}  // namespace atelier::craftsmen
