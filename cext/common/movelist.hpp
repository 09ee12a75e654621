// Fixed-capacity move buffer, filled by a ruleset's legal_moves (Stockfish's MoveList idea):
// no heap allocation on the hot path, and one size for every ruleset so the search can keep
// move lists on its own stack.
#pragma once
#include <cstdint>

namespace atelier {

using Move = uint16_t;              // a ruleset packs its atomic decision into 16 bits
constexpr int kMaxMoves = 1024;     // inventors needs <= 498 (spec 8.12)
constexpr int kMaxPlayers = 5;
constexpr int kChancePlayer = -1;   // current_player() at a chance node
constexpr int kTerminalPlayer = -2; // current_player() at a terminal state
constexpr int kNoScoreBound = 100000;  // score_bounds of a ruleset that knows none: +-this

struct MoveList {
  int size = 0;
  Move moves[kMaxMoves];
  inline void push(Move m) { moves[size++] = m; }
  inline Move operator[](int i) const { return moves[i]; }
};

}  // namespace atelier
