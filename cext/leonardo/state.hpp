// The Leonardo da Vinci full state (spec §3.1): plain data, trivially copyable, <= 512 bytes.
// It holds every hidden part (hands, hidden labs, deck order, pending bids) plus the public
// records the determinizer needs (cand, snap, deck history). Configuration lives in Game.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../common/movelist.hpp"
#include "edition.hpp"

namespace atelier::leonardo {

// Decision (and automatic) points. Values are part of the packed state: never reorder.
enum Phase : uint8_t {
  FAVOUR = 0,     // expert favour picks (§5.1)
  LAB = 1,        // Phase A: keep/cancel then start, per lab (§5.2)
  PLACE = 2,      // Phase B (§5.3)
  CLAIM = 3,      // Council claim or decline (§5.4.2)
  GIFT = 4,       // Leonardo gift by the first claimant
  CMOVE = 5,      // Council action 1 (standard or Codex)
  REORDER = 6,    // Council action 3
  MATERIAL = 7,   // Council action 4
  AREA = 8,       // areas B-H (§5.4.3)
  BID = 9,        // D5 sealed bid (§5.5)
  DRAW = 10,      // end-of-turn refill draw: a chance node (§5.6)
  GAME_OVER = 11,
};

// Lab flags.
enum : uint8_t { LF_MASTER = 1, LF_CONTINUING = 2, LF_REVEALED = 4 };

struct Lab {                // 12 bytes
  uint8_t side;             // 0 not owned, else 3/4 (small/large start side) or 5/6
  uint8_t mech;             // mechanical men in it
  uint8_t app;              // apprentices placed this turn
  uint8_t flags;            // LF_*
  uint8_t card;             // invention index, kNone when idle
  uint8_t counter;          // week track 0..track_max
  uint8_t start_turn;       // turn of START (0 setup / idle)
  uint8_t pad;
  uint32_t cand;            // hidden lab: cards it may be working on (§3.5.2), else 0
  inline bool working() const { return card != kNone; }
  inline bool hidden() const { return card != kNone && !(flags & LF_REVEALED); }
};

struct Player {             // 56 bytes
  uint16_t money;
  uint8_t hand[kKinds];
  uint8_t apprentices;      // owned
  uint8_t app_supply;       // not placed this turn
  uint8_t pflags;           // PF_*
  uint8_t mech_count;
  uint8_t letters;          // favour letters used, 2 bits each: a, b, c, d
  uint8_t snap_turn;        // 0 = no live snapshot
  uint8_t pad;
  uint16_t placed;          // bit = place (0..7 areas, 8 small, 9 large) given apprentices this turn
  uint32_t owned;           // bit c: card c owned
  uint32_t completed;       // bit c: card c completed by this player
  uint8_t snap_budget[3];   // nibbles: kind k in byte k/2, nibble k%2
  uint8_t lab_mats[kKinds]; // materials under the labs: small in the low nibble, large high
  Lab lab[kLabs];
};

enum : uint8_t { PF_MASTER = 1, PF_PASSED = 2 };

inline int nib(const uint8_t* a, int k) { return (a[k >> 1] >> (4 * (k & 1))) & 0xF; }
inline void set_nib(uint8_t* a, int k, int v) {
  a[k >> 1] = (uint8_t)((a[k >> 1] & ~(0xF << (4 * (k & 1)))) | ((v & 0xF) << (4 * (k & 1))));
}
inline int lab_mat(const Player& p, int l, int k) { return (p.lab_mats[k] >> (4 * l)) & 0xF; }
inline void set_lab_mat(Player& p, int l, int k, int v) {
  p.lab_mats[k] = (uint8_t)((p.lab_mats[k] & ~(0xF << (4 * l))) | ((v & 0xF) << (4 * l)));
}

struct State {
  uint64_t hash;              // Zobrist key of the full state (== Game::compute_hash)
  uint64_t pub;               // key of the public part (infoset_key = pub ^ private key of seat)
  Player pl[kMaxPlayers];
  // City: per area and seat, bits 0-3 apprentices, bit 4 master, bits 5-7 line position
  // (1 = next to the arrow; 0 = no group).
  uint8_t city[kAreas][kMaxPlayers];
  // Board.
  uint8_t deck[kCards];       // index 0 is the top
  uint8_t row[5];
  uint8_t deck_len, row_len;
  uint8_t shop[kKinds];
  uint8_t academy[kMaxPlayers];
  uint8_t mech_supply;
  uint8_t pile_size[3];       // top, middle, bottom as built (§3.5.1 slots)
  uint8_t known_prefix;       // top positions some player has seen (a prefix, always)
  uint8_t turn;               // 1..9 (0 during favour picks)
  uint8_t phase;              // Phase
  uint8_t actor;              // seat to decide (decision phases)
  uint8_t leo;                // L
  uint16_t pot;
  uint32_t box;               // cards out of the game (2p discards included)
  uint32_t discards;          // the expert 2p discards (subset of box)
  uint32_t completed_any;
  uint32_t mid_lower;         // lower-tier cards built into the middle pile (the rest of the
                              // pile labels follow from the edition's pile members)
  // Deck history (§3.1): events in order; < 0x80 a draw of card e, else a Council look:
  // 0x80 | seat << 3 | m. look_cards: each look's cards in the chosen order (private to looker).
  uint8_t hist[32];
  uint8_t hist_len, nlooks;
  uint8_t look_cards[7][4];
  // Phase pointers.
  uint8_t step;               // LAB: 0 keep small, 1 keep large, 2 start small, 3 start large;
                              // FAVOUR: round
  uint8_t idx;                // LAB: players done from L; CLAIM: index in c_order; AREA: index
                              // in the area's rank list; BID: bids entered
  uint8_t area;               // AREA: 1..7
  uint8_t price;              // AREA: price index 0..3
  uint8_t removed;            // AREA: seats that passed
  uint8_t c_order[kMaxPlayers], c_count;  // Council actors in rank order (excluded one left out)
  uint8_t claimed[4];         // owner of Council action 1..4, kNone if unclaimed
  uint8_t gift_done;          // a first claim has been made (Leonardo given)
  uint8_t d_cards[5], d_seats[5], d_count, d_idx;  // D5: cards to hand out and their completers
  uint16_t bids[kMaxPlayers]; // pending bids in the running auction, by seat
};

static_assert(std::is_trivially_copyable<State>::value, "State must be memcpy-able");
static_assert(sizeof(Player) == 56, "Player layout");
static_assert(sizeof(State) <= 512, "State exceeds its 512-byte budget");

// ---- Moves (16 bits): kind in bits 11..15, argument in bits 0..10 --------------------------
enum MoveKind : uint8_t {
  M_FAV_A = 0, M_FAV_B, M_FAV_C, M_FAV_D1, M_FAV_D2, M_FAV_D3, M_FAV_D4,
  M_KEEP, M_CANCEL, M_START, M_PLACE, M_MASTER, M_PASS, M_CLAIM, M_DECLINE, M_GIFT,
  M_MOVE, M_CODEX, M_REORDER, M_MATERIAL, M_BUY, M_BID, M_DRAW,
};
// M_FAV_B arg: base-3 counts, kind k weight 3^k. M_FAV_D1..3 arg: kind, 7 = no material.
// M_START arg: lab * 32 + card (card 31 = none). M_PLACE: place * 16 + k. M_MASTER: place.
// M_CODEX: victim * 64 + source * 8 + target. M_REORDER: permutation index (lexicographic).
// M_BUY: 0 flip small, 1 take large, 2 flip large, 3 mech small, 4 mech large, 5 recruit,
// 8 + kind take material.
constexpr unsigned kStartNone = 31, kNoKind = 7;
constexpr int kMaxBid = kMaxMoves - 1;  // a bid move lists 0..min(money, kMaxBid)

inline Move mk(unsigned kind, unsigned arg = 0) { return (Move)((kind << 11) | (arg & 0x7FF)); }
inline unsigned mkind(Move m) { return m >> 11; }
inline unsigned marg(Move m) { return m & 0x7FF; }

inline int look_card(const State& s, int look, int i) { return s.look_cards[look][i] & 31; }
inline int look_perm(const State& s, int look) {
  return (s.look_cards[look][0] >> 5) | ((s.look_cards[look][1] >> 5) << 3);
}

// The cards in the deck, as a set (cards are < 32). Two a step: the public key computes it at
// every decision the ISMCTS descent looks up.
inline uint32_t deck_cards(const State& s) {
  uint32_t m = 0;
  int i = 0;
  for (; i + 2 <= s.deck_len; i += 2) m |= (1u << s.deck[i]) | (1u << s.deck[i + 1]);
  if (i < s.deck_len) m |= 1u << s.deck[i];
  return m;
}

// Permutations of up to 4 items in lexicographic order (index -> sequence).
struct Perms {
  uint8_t count[5];
  uint8_t seq[5][24][4];
  Perms();
};
extern const Perms kPerms;

}  // namespace atelier::leonardo
