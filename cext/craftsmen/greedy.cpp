// The Craftsmen greedy baseline (docs/bots.md): the legal move whose one-step result scores best
// for the mover by a fixed heuristic, ties to a uniformly random choice. The heuristic counts AP
// and what turns into AP later (buildings in the row, filled icons, cubes on ships and in the
// warehouse, bonus tokens, money, building cards and tokens in hand, helpers waiting on a guild),
// so a move that only prepares is not a coin toss. Chance-free look-ahead only: it never peeks at hidden cards.
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

int heuristic(const Game& g, const State& s, int p) {
  const Edition& ed = g.edition();
  const Seat& st = s.seat[p];
  int v = kAp * st.ap + kToken * (st.priv + st.work) + kMarket * st.market;
  for (int f = 0; f < kFinal; ++f)
    if (st.bonus & (1u << f)) v += kAp * ed.bonus_ap[f];
  for (int b = 0; b < kBuildings; ++b) {
    if (s.bloc[b] == (B_ROW | p)) v += kRowCard[ed.b[b].tier] + kIcon * __builtin_popcount(s.bfill[b]);
    else if (s.bloc[b] == (B_HAND | p)) v += kHandCard;
  }
  v += kMoney * Rules::hand_value(s, p);
  int hand_cards = 0;
  for (int b = kMills; b < kBuildings; ++b) hand_cards += s.bloc[b] == (B_HAND | p);
  for (int g2 = 0; g2 < kGuilds; ++g2)
    for (int sp = 0; sp < kSpaces; ++sp)
      for (int l = 0; l < 2; ++l)
        if (s.guild[g2][sp][l] != kNoSeat && (s.guild[g2][sp][l] & 0x7F) == p && (g2 != 1 || hand_cards))
          v += kHelper[g2];
  for (int k = 0; k < kShips; ++k)
    for (int r = 0; r < ed.ships[k].nrows; ++r) v += kCube * ((s.ship[k][r][0] == 1 + p) + (s.ship[k][r][1] == 1 + p));
  for (int w = 0; w < kWarehouseGoods; ++w) v += kCube * ((s.warehouse[w][0] == 2 + p) + (s.warehouse[w][1] == 2 + p));
  return v;
}
}  // namespace

Move Game::greedy_move(const State& s, Rng& rng) const {
  MoveList ml;
  legal_moves(s, ml);
  if (ml.size == 0) return 0;
  const int p = s.actor;
  int best = -(1 << 30), count = 0;
  Move pick = ml[0];
  for (int i = 0; i < ml.size; ++i) {
    State c = s;
    apply(c, ml[i]);
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
