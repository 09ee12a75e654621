// The Craftsmen greedy baseline (docs/bots.md): the legal move whose one-step result scores best
// for the mover by a fixed heuristic, ties to a uniformly random choice. The heuristic counts AP
// and what turns into AP later (buildings in the row, filled icons, cubes on ships and in the
// warehouse, bonus tokens, money, building cards and tokens in hand, helpers waiting on a guild),
// so a move that only prepares is not a coin toss. Chance-free look-ahead only: it never peeks at hidden cards.
#include <cstring>

#include "../common/bits.hpp"
#include "game.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

namespace {
// Weights in quarter AP.
constexpr int kAp = 4, kRowCard[4] = {0, 4, 6, 10}, kIcon = 2, kMoney = 1, kHandCard = 3, kToken = 3,
              kCube = 4, kMarket = 1;
// A helper on a guild is worth its action to come (guilds I-VI); the Architects only with a
// building card in hand to build.
constexpr int kHelper[kGuilds] = {3, 4, 2, 6, 2, 2};

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "byte i of a loaded word is bits 8i..8i+7");

// Calls f(at, w) for every eight bytes w of a[0..N), w's byte i being a[at + i]; the bytes past
// N read as `pad`. Sizes known at compile time keep every load one instruction.
template <int N, class F>
inline void words(const uint8_t* a, uint8_t pad, F&& f) {
  int at = 0;
  for (; at + 8 <= N; at += 8) {
    uint64_t w;
    std::memcpy(&w, a + at, 8);
    f(at, w);
  }
  if constexpr (N % 8 != 0) {
    uint64_t w = 0x0101010101010101ULL * pad;
    std::memcpy(&w, a + at, N % 8);
    f(at, w);
  }
}

// The heuristic runs once per legal move of every greedy decision (most of a greedy playout's
// cost), so it finds the mover's pieces eight bytes at a time (SWAR) rather than byte by byte.
int heuristic(const Game& g, const State& s, int p) {
  const Edition& ed = g.edition();
  const Seat& st = s.seat[p];
  int v = kAp * st.ap + kToken * (st.priv + st.work) + kMarket * st.market;
  for (unsigned f = st.bonus; f; f &= f - 1) v += kAp * ed.bonus_ap[__builtin_ctz(f)];
  // Buildings: the row's cards with their filled icons, and the cards in hand (a zero pad is
  // neither a row nor a hand).
  const uint8_t row = (uint8_t)(B_ROW | p), hand = (uint8_t)(B_HAND | p);
  int hand_cards = 0;  // building cards in hand, mills not counted
  words<kBuildings>(s.bloc, 0, [&](int at, uint64_t w) {
    for (uint64_t m = bytes_equal(w, row); m; m &= m - 1) {
      const int b = at + lsb64(m) / 8;
      v += kRowCard[ed.b[b].tier] + kIcon * popcount64(s.bfill[b]);
    }
    uint64_t h = bytes_equal(w, hand);
    v += kHandCard * count_marked(h);
    if (at < kMills) h &= ~0ULL << (8 * (kMills - at));
    hand_cards += count_marked(h);
  });
  v += kMoney * Rules::hand_value(s, p);
  // Helpers: a disc is kNoSeat or seat | 0x80 (privileged); masked to 7 bits, kNoSeat and the
  // 0xFF pad read 0x7F, never a seat.
  const uint8_t* disc = &s.guild[0][0][0];
  words<kGuilds * kSpaces * 2>(disc, 0xFF, [&](int at, uint64_t w) {
    for (uint64_t m = bytes_equal(w & 0x7F7F7F7F7F7F7F7FULL, (uint8_t)p); m; m &= m - 1) {
      const int g2 = (at + lsb64(m) / 8) / (kSpaces * 2);
      if (g2 != 1 || hand_cards) v += kHelper[g2];
    }
  });
  // Cubes on ships (only the rows a ship has: 2 bytes each) and in the warehouse; 0 is empty,
  // so the zero pad never counts.
  const uint8_t cube = (uint8_t)(1 + p), stored = (uint8_t)(2 + p);
  for (int k = 0; k < kShips; ++k) {
    const int n = 2 * ed.ships[k].nrows;
    words<2 * kMaxShipRows>(&s.ship[k][0][0], 0, [&](int at, uint64_t w) {
      const uint64_t rows = n - at >= 8 ? ~0ULL : n <= at ? 0 : (1ULL << (8 * (n - at))) - 1;
      v += kCube * count_marked(bytes_equal(w, cube) & rows);
    });
  }
  words<kWarehouseGoods * 2>(&s.warehouse[0][0], 0,
                             [&](int, uint64_t w) { v += kCube * count_marked(bytes_equal(w, stored)); });
  return v;
}
}  // namespace

Move Game::greedy_move(const State& s, Rng& rng) const {
  MoveList ml;
  legal_moves(s, ml);
  if (ml.size <= 1) return ml.size ? ml[0] : 0;  // most decisions in a playout are forced
  const int p = s.actor;
  int best = -(1 << 30), count = 0;
  Move pick = ml[0];
  // A payment decision lists its payments once here, not once per payment tried (a PAY move is
  // an index into that list).
  Payment pays[kMaxPayments];
  const Payment* listed = nullptr;
  if (s.phase == P_PAY) payments(s, pays), listed = pays;
  for (int i = 0; i < ml.size; ++i) {
    State c = s;
    // The heuristic reads no knowledge (bknow, mknown): a playout's transition skips keeping it.
    transition<false>(c, ml[i], listed);
    const int v = heuristic(*this, c, p);
    if (v > best) {
      best = v;
      pick = ml[i];
      count = 1;
    } else if (v == best && rng.below((uint32_t)++count) == 0) {
      pick = ml[i];
    }
  }
  return pick;
}

}  // namespace atelier::craftsmen
