// The Legendary Inventors state (spec §4): plain data, trivially copyable, <= 256 bytes.
// Configuration (players, teams, edition) lives in Game; a State only makes sense with its Game.
#pragma once
#include <cstdint>
#include <type_traits>

#include "../common/movelist.hpp"
#include "edition.hpp"

namespace atelier::inventors {

enum Phase : uint8_t { CHANCE_REVEAL = 0, MAIN = 1, REWARD = 2, TERMINAL = 3 };

// One revealed, uncompleted invention.
struct DisplayCard {
  uint8_t card;                 // card index 0..35
  uint8_t tokens;               // two kinds, low nibble <= high nibble (unordered pair, R9)
  uint8_t filled[kDisciplines]; // 0..cost[d]
  uint8_t cubes[kMaxPlayers];   // cubes per seat on this card
};

struct State {
  uint64_t hash;                 // Zobrist key, kept incrementally; == Game::compute_hash
  uint64_t levels[kMaxPlayers];  // nibble 4*(4*i+d) = level of inventor i in discipline d
  uint64_t won[kMaxPlayers];     // bit c = card index c won by that seat
  uint8_t hand[kMaxPlayers][kTokenKinds];
  uint8_t bag[kTokenKinds];
  DisplayCard display[kMaxDisplay];  // sorted by card index (edition order)
  // Reward context (phase REWARD only; zero otherwise).
  uint8_t rw_card;               // completed card index
  uint8_t rw_tokens;             // its two tokens, packed like DisplayCard::tokens
  uint8_t rw_left;               // bit0 CARD, bit1 low token, bit2 high token still there
  uint8_t rw_cubes[kMaxPlayers]; // its cubes per seat at completion
  uint8_t rw_seats[3];           // rewarded seats in priority order (5.7.3)
  uint8_t rw_count;              // number of rewarded seats, 1..3
  uint8_t rw_index;              // index into rw_seats of the seat choosing now
  // Header.
  uint8_t age;                   // 1..3
  uint8_t phase;                 // Phase
  uint8_t active;                // seat to move in MAIN; == statuette elsewhere
  uint8_t statuette;
  uint8_t ndisplay;              // cards in display
  uint8_t busy[kMaxPlayers];     // bit i = inventor i busy

  inline int level(int seat, int i, int d) const {
    return (int)((levels[seat] >> (4 * (4 * i + d))) & 0xF);
  }
};

static_assert(std::is_trivially_copyable<State>::value, "State must be memcpy-able");
static_assert(sizeof(State) <= 256, "State exceeds its 256-byte budget");

// ---- Moves (16 bits): type in bits 13..15, then fields. ----------------------------------
// FRONT  kind(4) inventor(2) discipline(2)       spend a P2/P3/P4 by its front
// BACK   kind(4) inventor(2) discipline(2)       spend any token by its back (0 -> 1)
// AVAIL                                          spend an AV: all own inventors available
// WORK   card(6) inventor(2) extra(4)            extra: 0 none, 1..4 one AK cube in d-1,
//                                                5..14 two AK cubes, pairs (0,0),(0,1),(0,2),
//                                                (0,3),(1,1),(1,2),(1,3),(2,2),(2,3),(3,3)
// REST
// CARD                                           reward: take the card
// TOKEN  kind(4)                                 reward: take one token of that kind
enum MoveType : uint8_t { FRONT = 0, BACK = 1, AVAIL = 2, WORK = 3, REST = 4, CARD = 5, TOKEN = 6 };

inline Move make_move(unsigned type, unsigned a = 0, unsigned b = 0, unsigned c = 0) {
  // a: kind or card (6 bits), b: inventor (2 bits), c: discipline or extra (4 bits)
  return (Move)((type << 13) | (a << 7) | (b << 5) | (c << 1));
}
inline unsigned move_type(Move m) { return m >> 13; }
inline unsigned move_a(Move m) { return (m >> 7) & 0x3F; }
inline unsigned move_b(Move m) { return (m >> 5) & 0x3; }
inline unsigned move_c(Move m) { return (m >> 1) & 0xF; }

// The AK extras, indexed by the WORK extra field (0 = none).
struct Extra { uint8_t count; uint8_t d[2]; };
extern const Extra kExtras[15];

// An explicit reveal outcome (spec 6.1): K cards of the age, ascending index, and the pair of
// token kinds each carries.
struct Reveal {
  int k = 0;
  uint8_t cards[kMaxDisplay];
  uint8_t tokens[kMaxDisplay][2];
};

}  // namespace atelier::inventors
