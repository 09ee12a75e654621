// "High card" test game: rules in README.md.
#include "game.hpp"

#include <stdexcept>

#include "../common/zobrist.hpp"

namespace atelier::testgame {

namespace {
constexpr uint64_t kSalt = 0x7E57;       // Zobrist salt of the full state
constexpr uint64_t kInfoSalt = 0x1F05E7; // of an information set

// Mixes byte `b` found at position `i` of a canonical byte stream into a key.
inline uint64_t mix(uint64_t salt, int i, unsigned b) { return zobrist(salt, (uint64_t)i * 256 + b); }
}  // namespace

Game::Game(int n_players, int values, int copies, int hand, bool sealed)
    : n_(n_players), v_(values), c_(copies), h_(hand), sealed_(sealed) {
  if (n_ < 2 || n_ > kMaxPlayers) throw std::invalid_argument("players: must be 2..5");
  if (v_ < 1 || v_ > kMaxValues) throw std::invalid_argument("values: must be 1..8");
  if (c_ < 1 || c_ > kMaxCopies) throw std::invalid_argument("copies: must be 1..4");
  if (h_ < 1 || h_ > kMaxHand) throw std::invalid_argument("hand: must be 1..6");
  if ((n_ + 1) * h_ > v_ * c_)
    throw std::invalid_argument("hand: (players + 1) * hand exceeds the deck of values * copies");
}

void Game::initial_state(State& s) const {
  s = State{};
  for (int v = 0; v < v_; ++v) s.deck[v] = (uint8_t)c_;
  s.prize = 0xFF;
  s.phase = DEAL;
}

int Game::current_player(const State& s) const {
  if (s.phase == TERMINAL) return kTerminalPlayer;
  if (s.phase != PLAY) return kChancePlayer;
  return (s.leader + s.turn) % n_;
}

void Game::legal_moves(const State& s, MoveList& out) const {
  out.size = 0;
  if (s.phase != PLAY) return;
  int p = (s.leader + s.turn) % n_;
  for (int v = 0; v < v_; ++v)
    if (s.hand[p][v]) out.push((Move)v);
}

void Game::finish_trick(State& s) const {
  int best = -1, winner = s.leader;
  if (sealed_)
    for (int q = 0; q < n_; ++q) s.seen[s.plays[q] - 1]++;  // the sealed plays are revealed
  for (int i = 0; i < n_; ++i) {
    int seat = (s.leader + i) % n_;
    int val = s.plays[seat] - 1;
    if (val > best) { best = val; winner = seat; }  // ties: earliest in play order wins
  }
  s.score[winner] += s.prize + 1;
  s.trick++;
  s.leader = (uint8_t)winner;
  for (int q = 0; q < kMaxPlayers; ++q) s.plays[q] = 0;
  s.prize = 0xFF;
  s.turn = 0;
  s.phase = s.trick == h_ ? TERMINAL : REVEAL;
}

void Game::apply(State& s, Move m) const {
  int p = (s.leader + s.turn) % n_;
  s.hand[p][m]--;
  s.plays[p] = (uint8_t)(m + 1);
  if (!sealed_) s.seen[m]++;
  s.turn++;
  if (s.turn == n_) finish_trick(s);
}

void Game::apply_chance(State& s, Move v) const {
  s.deck[v]--;
  if (s.phase == DEAL) {
    s.hand[s.dealt % n_][v]++;
    s.dealt++;
    if (s.dealt == n_ * h_) s.phase = REVEAL;
  } else {
    s.prize = (uint8_t)v;
    s.seen[v]++;
    s.phase = PLAY;
    s.turn = 0;
  }
}

void Game::sample_chance(State& s, Rng& rng) const {
  int total = 0;
  for (int v = 0; v < v_; ++v) total += s.deck[v];
  int r = (int)rng.below((uint32_t)total);
  int v = 0;
  while (r >= s.deck[v]) r -= s.deck[v++];
  apply_chance(s, (Move)v);
}

int Game::chance_outcomes(const State& s, Move* m, double* p, int cap) const {
  int total = 0, k = 0;
  for (int v = 0; v < v_; ++v) total += s.deck[v];
  for (int v = 0; v < v_; ++v) {
    if (!s.deck[v]) continue;
    if (k == cap) return -1;
    m[k] = (Move)v;
    p[k] = (double)s.deck[v] / total;
    ++k;
  }
  return k;
}

void Game::returns(const State& s, double* out) const {
  int best = -32768, nbest = 0;
  for (int q = 0; q < n_; ++q) {
    if (s.score[q] > best) { best = s.score[q]; nbest = 1; }
    else if (s.score[q] == best) ++nbest;
  }
  for (int q = 0; q < n_; ++q) out[q] = s.score[q] == best ? 1.0 / nbest : 0.0;
}

void Game::scores(const State& s, int* out) const {
  for (int q = 0; q < n_; ++q) out[q] = s.score[q];
}

uint64_t Game::hash(const State& s) const {
  uint64_t h = 0;
  int i = 0;
  for (int v = 0; v < v_; ++v) h ^= mix(kSalt, i++, s.deck[v]);
  for (int q = 0; q < n_; ++q)
    for (int v = 0; v < v_; ++v) h ^= mix(kSalt, i++, s.hand[q][v]);
  for (int v = 0; v < v_; ++v) h ^= mix(kSalt, i++, s.seen[v]);
  for (int q = 0; q < n_; ++q) {
    h ^= mix(kSalt, i++, s.plays[q]);
    h ^= mix(kSalt, i++, (unsigned)(uint16_t)s.score[q] & 0xFF);
    h ^= mix(kSalt, i++, (unsigned)(uint16_t)s.score[q] >> 8);
  }
  const uint8_t hdr[6] = {s.prize, s.phase, s.trick, s.leader, s.turn, s.dealt};
  for (uint8_t b : hdr) h ^= mix(kSalt, i++, b);
  return h;
}

uint64_t Game::infoset_key(const State& s, int seat) const {
  // Everything public plus the seat's own hand (and the seat itself); never the deck or
  // another hand.
  uint64_t h = mix(kInfoSalt, 0, (unsigned)seat);
  int i = 1;
  for (int v = 0; v < v_; ++v) h ^= mix(kInfoSalt, i++, s.hand[seat][v]);
  for (int v = 0; v < v_; ++v) h ^= mix(kInfoSalt, i++, s.seen[v]);
  for (int q = 0; q < n_; ++q) {
    h ^= mix(kInfoSalt, i++, sealed_ && q != seat ? (s.plays[q] ? 0xFF : 0) : s.plays[q]);
    h ^= mix(kInfoSalt, i++, (unsigned)(uint16_t)s.score[q] & 0xFF);
    h ^= mix(kInfoSalt, i++, (unsigned)(uint16_t)s.score[q] >> 8);
  }
  const uint8_t hdr[6] = {s.prize, s.phase, s.trick, s.leader, s.turn, s.dealt};
  for (uint8_t b : hdr) h ^= mix(kInfoSalt, i++, b);
  return h;
}

void Game::determinize(State& s, int seat, Rng& rng) const {
  // Everything `seat` has not seen goes back into one pool: the deck, the other hands and,
  // when sealed, the other seats' pending plays of this trick. Each other seat is redealt its
  // hand size (plus one card for a pending play, chosen uniformly among the cards it got).
  int pool[kMaxValues] = {0}, sizes[kMaxPlayers] = {0}, total = 0;
  bool pending[kMaxPlayers] = {false};
  for (int q = 0; q < n_; ++q) {
    if (q == seat) continue;
    if (sealed_ && s.plays[q]) {
      pending[q] = true;
      pool[s.plays[q] - 1]++;
      total++;
    }
  }
  for (int v = 0; v < v_; ++v) {
    pool[v] += s.deck[v];
    total += s.deck[v];
    for (int q = 0; q < n_; ++q) {
      if (q == seat) continue;
      pool[v] += s.hand[q][v];
      total += s.hand[q][v];
      sizes[q] += s.hand[q][v];
      s.hand[q][v] = 0;
    }
  }
  for (int q = 0; q < n_; ++q) {
    if (q == seat) continue;
    int got[kMaxValues] = {0};
    int draw = sizes[q] + (pending[q] ? 1 : 0);
    for (int k = 0; k < draw; ++k) {
      int r = (int)rng.below((uint32_t)total);
      int v = 0;
      while (r >= pool[v]) r -= pool[v++];
      pool[v]--;
      total--;
      got[v]++;
    }
    if (pending[q]) {
      int r = (int)rng.below((uint32_t)draw);
      int v = 0;
      while (r >= got[v]) r -= got[v++];
      got[v]--;
      s.plays[q] = (uint8_t)(v + 1);
    }
    for (int v = 0; v < v_; ++v) s.hand[q][v] = (uint8_t)got[v];
  }
  for (int v = 0; v < v_; ++v) s.deck[v] = (uint8_t)pool[v];
}

Move Game::greedy_move(const State& s, Rng&) const {
  int p = (s.leader + s.turn) % n_;
  int lo = -1, hi = -1;
  for (int v = 0; v < v_; ++v)
    if (s.hand[p][v]) { if (lo < 0) lo = v; hi = v; }
  if (s.turn == 0 || sealed_) return (Move)(2 * s.prize >= v_ - 1 ? hi : lo);
  int best = -1;
  for (int q = 0; q < n_; ++q) if (s.plays[q] && s.plays[q] - 1 > best) best = s.plays[q] - 1;
  for (int v = best + 1; v < v_; ++v)
    if (s.hand[p][v]) return (Move)v;  // cheapest card that takes the trick
  return (Move)lo;
}

std::string Game::move_to_string(const State& s, Move m) const {
  const char* kind = s.phase == DEAL ? "deal:" : s.phase == REVEAL ? "prize:" : "play:";
  return kind + std::to_string((int)m + 1);
}

}  // namespace atelier::testgame
