// State keys. hash: every byte of the full state. pub: a canonical projection of what every
// seat sees (§3.2): hands become per-kind totals, hidden labs keep only "working", the deck
// keeps only its card set, pending bids and Council looks drop out. private_key(seat): what
// only that seat sees (§3.3: its hand, its hidden labs, its pending bid, its own looks).
// infoset_key(seat) = pub ^ private_key(seat), O(1) given the stored pub.
//
// Hand-over note: these are recomputed from scratch after each transition (a word hash over
// the projection), not updated incrementally as Zobrist keys; correct by construction, and
// the cost is one hash of the state (the seats in play) per keyed move. Playouts skip them,
// and the ISMCTS descent computes only the public key a node lookup needs (Position::tree_key).
#include <cstddef>
#include <cstring>

#include "game.hpp"

namespace atelier::leonardo {

static inline uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xFF51AFD7ED558CCDULL;
  h ^= h >> 33;
  h *= 0xC4CEB9FE1A85EC53ULL;
  h ^= h >> 33;
  return h;
}

// Four independent multiply lanes (the CPU overlaps them), then a position-sensitive merge.
static uint64_t hash_bytes(const void* p, size_t n, uint64_t seed) {
  const uint8_t* b = static_cast<const uint8_t*>(p);
  uint64_t h[4] = {seed, seed ^ 0x243F6A8885A308D3ULL, seed ^ 0x13198A2E03707344ULL, seed ^ 0xA4093822299F31D0ULL};
  size_t i = 0;
  for (; i + 32 <= n; i += 32)
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, b + i + 8 * l, 8);
      h[l] = (h[l] ^ w) * 0x9E3779B97F4A7C15ULL;
      h[l] ^= h[l] >> 29;
    }
  uint64_t tail[4] = {0, 0, 0, 0};
  std::memcpy(tail, b + i, n - i);
  for (int l = 0; l < 4; ++l) h[l] = (h[l] ^ tail[l]) * 0x9E3779B97F4A7C15ULL;
  return mix(h[0] ^ mix(h[1] + 1) ^ mix(h[2] + 2) ^ mix(h[3] + 3) ^ n);
}

// The full key: the public key combined with a key of every byte the public projection drops
// (hands, lab contents, deck order, pile draws, looked cards, bids). Together they determine
// the whole state, and the public part is hashed only once per transition.
uint64_t Game::compute_hash(const State& s) const { return hash_with_public(s, compute_public(s)); }

uint64_t Game::hash_with_public(const State& s, uint64_t pub) const {
  uint8_t buf[160];
  int n = 0;
  for (int p = 0; p < n_; ++p) {
    const Player& P = s.pl[p];
    for (int k = 0; k < kKinds; ++k) buf[n++] = P.hand[k];
    for (int k = 0; k < kKinds; ++k) buf[n++] = P.lab_mats[k];
    buf[n++] = P.lab[0].card;
    buf[n++] = P.lab[1].card;
  }
  std::memcpy(buf + n, s.deck, kCards);
  n += kCards;
  std::memcpy(buf + n, &s.mid_lower, 4);
  n += 4;
  std::memcpy(buf + n, s.look_cards, sizeof s.look_cards);
  n += sizeof s.look_cards;
  std::memcpy(buf + n, s.bids, sizeof s.bids);
  n += sizeof s.bids;
  return pub ^ hash_bytes(buf, (size_t)n, 0x1EA0ULL);
}

// Built from the seats in play and the region after the seats, never a copy of the whole state:
// the descent asks for this key at every decision it looks up.
uint64_t Game::compute_public(const State& s) const {
  constexpr size_t seats = offsetof(State, pl), rest = seats + sizeof(Player) * kMaxPlayers;
  constexpr size_t nrest = sizeof(State) - rest;
  // Only the seats in play: the slots after them are not part of this Game's states, and at
  // two players hashing them was a third of this function's bytes.
  Player pl[kMaxPlayers];
  std::memcpy(pl, s.pl, sizeof(Player) * n_);
  for (int p = 0; p < n_; ++p) {
    Player& P = pl[p];
    for (int k = 0; k < kKinds; ++k) P.hand[k] = (uint8_t)(P.hand[k] + lab_mat(P, 0, k) + lab_mat(P, 1, k));
    for (int l = 0; l < kLabs; ++l)
      if (P.lab[l].hidden()) {
        P.lab[l].card = 0xFE;
        for (int k = 0; k < kKinds; ++k) set_lab_mat(P, l, k, 0);
      }
  }
  alignas(8) uint8_t r[nrest];
  std::memcpy(r, reinterpret_cast<const uint8_t*>(&s) + rest, nrest);
  auto at = [&r](size_t field) { return r + (field - rest); };
  const uint32_t deck = deck_cards(s);  // the deck as its card set
  std::memset(at(offsetof(State, deck)), 0, sizeof s.deck);
  std::memcpy(at(offsetof(State, deck)), &deck, 4);
  std::memset(at(offsetof(State, mid_lower)), 0, sizeof s.mid_lower);
  std::memset(at(offsetof(State, look_cards)), 0, sizeof s.look_cards);
  std::memset(at(offsetof(State, bids)), 0, sizeof s.bids);
  return hash_bytes(pl, sizeof(Player) * (size_t)n_, 0x9B1CULL) ^ mix(hash_bytes(r, nrest, 0x9B1DULL) + 1);
}

uint64_t Game::private_key(const State& s, int seat) const {
  uint8_t buf[64] = {0};
  int n = 0;
  buf[n++] = (uint8_t)seat;
  const Player& P = s.pl[seat];
  for (int k = 0; k < kKinds; ++k) buf[n++] = P.hand[k];
  for (int l = 0; l < kLabs; ++l)
    if (P.lab[l].hidden()) {
      buf[n++] = P.lab[l].card;
      for (int k = 0; k < kKinds; ++k) buf[n++] = (uint8_t)lab_mat(P, l, k);
    }
  if (s.phase == REORDER && s.actor == seat)  // the cards it is looking at (§3.4), in order
    for (int i = 0; i < 4 && i < s.deck_len; ++i) buf[n++] = (uint8_t)(0xC0 | s.deck[i]);
  if (s.phase == BID) {  // its own pending bid, once entered
    int i = 0;
    for (int j = 0; j < n_; ++j) {
      const int q = (s.leo + j) % n_;
      if (!((s.d_seats[s.d_idx] >> q) & 1)) continue;
      if (q == seat && i < s.idx) {
        buf[n++] = 0xB1;
        buf[n++] = (uint8_t)(s.bids[q] & 0xFF);
        buf[n++] = (uint8_t)(s.bids[q] >> 8);
      }
      ++i;
    }
  }
  uint64_t h = hash_bytes(buf, (size_t)n, 0x5EA7ULL + (uint64_t)seat);
  int look = 0;
  for (int e = 0; e < s.hist_len && e < (int)sizeof s.hist; ++e) {
    if (!(s.hist[e] & 0x80)) continue;
    if (((s.hist[e] >> 3) & 7) == seat && look < 7)
      h ^= hash_bytes(s.look_cards[look], 4, 0x100ULL + (uint64_t)look);
    ++look;
  }
  return h;
}

}  // namespace atelier::leonardo
