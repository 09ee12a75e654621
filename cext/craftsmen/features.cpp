// Craftsmen's feature vector (docs/models.md, "Features: Craftsmen"). Written once as a
// template over the writer (cext/common/features.hpp), so values, names and count agree. It
// reads the full state: the search calls it on a determinized one (concept.md, Features).
// Scales: AP over 100 (final totals run 20-100), counts over their maxima.
#include <algorithm>

#include "../common/bits.hpp"
#include "../common/features.hpp"
#include "game.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

namespace {

constexpr float kPoints = 100.0f;
const char* const kTierNames[4] = {"mill", "basic", "extended", "advanced"};
const char* const kSeasonNames[4] = {"spring", "summer", "autumn", "winter"};

// One pass over the 70 buildings and the board, per seat.
struct Context {
  int best_other[kMaxPlayers];
  int order_pos[kMaxPlayers];          // place in the turn order
  int row[kMaxPlayers][4];             // built, per tier
  int hand[kMaxPlayers][4];            // building cards in hand, per tier
  int icons[kMaxPlayers], filled[kMaxPlayers], full[kMaxPlayers], house[kMaxPlayers];
  int row_ap[kMaxPlayers];             // AP per unit of the row's producing buildings
  int makes[kMaxPlayers][kProducts];   // buildings in the row making each product
  int guild_discs[kMaxPlayers], warehouse[kMaxPlayers], shipped[kMaxPlayers];
  int deck[4], faceup[4];
};

template <class W>
void emit_global(W& w, const Game& g, const State& s, const Context& cx) {
  const Edition& ed = g.edition();
  const int n = g.num_players();
  w.block("global");
  for (int y = 1; y <= 3; ++y) w.flag(s.year == y, "year", y);
  for (int q = 0; q < 4; ++q) w.flag(s.season == q, "season", -1, kSeasonNames[q]);
  // Rounds left after this one (12 in a game), and the guild stage under way.
  w.put(frac(12 - ((s.year - 1) * 4 + s.season) - 1, 11), "rounds_left");
  w.put(s.stage / 5.0f, "stage");
  w.flag(s.phase == P_CHANCE, "chance");
  w.flag(s.phase == P_TERMINAL, "terminal");
  w.flag(s.phase <= P_WINDOW, "helper_phase");
  // The pending decision and its context, so the moves within one turn lead to different
  // vectors (a payment, work points spent, an auction's price).
  for (int ph = 0; ph < kPhases; ++ph) w.flag(s.phase == ph, "phase", ph);
  w.put(s.wp / 5.0f, "work_points");
  w.put(s.raws_left / 3.0f, "raws_left");
  w.put(s.pay_amount / 10.0f, "pay_amount");
  w.put(s.auc_high / 20.0f, "auction_high");
  w.put(s.build_count / 2.0f, "build_count");
  w.put(s.neutral_supply / (float)kNeutralCubes, "neutral_supply");
  // Each bank over its own starting size (an edition may make them unequal).
  w.put(frac(s.bank_priv, std::max(1, (int)ed.c.priv_tokens_by_players[n])), "bank_privilege");
  w.put(frac(s.bank_work, std::max(1, (int)ed.c.work_tokens_by_players[n])), "bank_work");
  for (int f = 0; f < kFinal; ++f) w.flag((s.bonus_unclaimed >> f) & 1, "bonus_open", -1, ed.product_names[kRaw + kSemi + f].c_str());
  // Warehouse: slots taken per good (0, 1, 2).
  for (int k = 0; k < kWarehouseGoods; ++k)
    w.put(((s.warehouse[k][0] != 0) + (s.warehouse[k][1] != 0)) / 2.0f, "warehouse", -1,
          ed.product_names[ed.warehouse_product[k] % kProducts].c_str());
  // Ships: the share of their slots loaded.
  for (int k = 0; k < kShips; ++k) {
    int used = 0;
    for (int r = 0; r < ed.ships[k].nrows; ++r) used += (s.ship[k][r][0] != 0) + (s.ship[k][r][1] != 0);
    w.put(frac(used, 2 * ed.ships[k].nrows), "ship", k);
  }
  for (int t = 0; t < 4; ++t) w.put(cx.deck[t] / 24.0f, "deck", -1, kTierNames[t]);
  for (int t = 0; t < 4; ++t) w.put(cx.faceup[t] / 2.0f, "faceup", -1, kTierNames[t]);
  w.put(Rules::place_count(s, M_DECK) / (float)kMoneyCards, "money_deck");
  w.put(Game::value(s.money[M_DISPLAY]) / 10.0f, "money_display");
}

template <class W>
void emit_seat(W& w, const Game& g, const State& s, const Context& cx, int p) {
  const Edition& ed = g.edition();
  const int n = g.num_players();
  const Seat& S = s.seat[p];
  w.put(S.ap / kPoints, "score");
  w.put((S.ap - cx.best_other[p]) / 20.0f, "lead");
  int bonus_ap = 0;
  for (int f = 0; f < kFinal; ++f) bonus_ap += ((S.bonus >> f) & 1) * ed.bonus_ap[f];
  w.put(bonus_ap / 20.0f, "bonus_tokens_ap");
  w.put(Rules::hand(s, p) / 10.0f, "money_cards");
  w.put(Rules::hand_value(s, p) / 20.0f, "money_value");
  w.put(S.home / 5.0f, "helpers_home");
  w.flag(S.passed, "passed");
  w.put(S.market / 3.0f, "market");
  w.put(S.priv / 2.0f, "privilege_tokens");
  w.put(S.work / 2.0f, "work_tokens");
  w.put(S.supply / (float)kCubes, "cubes");
  w.flag(S.contributed, "contributed");
  w.flag(g.current_player(s) == p, "to_move");
  w.put(cx.order_pos[p] / (float)n, "turn_order");
  for (int t = 0; t < 4; ++t) w.put(cx.row[p][t] / 4.0f, "row", -1, kTierNames[t]);
  for (int t = 0; t < 4; ++t) w.put(cx.hand[p][t] / 3.0f, "hand", -1, kTierNames[t]);
  w.put(frac(cx.filled[p], std::max(1, cx.icons[p])), "icons_filled");
  w.put(cx.icons[p] / 10.0f, "icons");
  w.put(cx.full[p] / 4.0f, "buildings_ready");
  w.put(cx.house[p] / 4.0f, "houses");
  w.put(cx.row_ap[p] / 20.0f, "row_ap");
  w.put(cx.guild_discs[p] / 5.0f, "guild_discs");
  w.put(cx.warehouse[p] / 4.0f, "warehouse_cubes");
  w.put(cx.shipped[p] / 6.0f, "ship_cubes");
  for (int k = 0; k < kProducts; ++k) w.put(cx.makes[p][k] / 2.0f, "makes", -1, ed.product_names[k].c_str());
}

template <class W>
int emit(W& w, const Game& g, const State& s, int seat) {
  const Edition& ed = g.edition();
  const int n = g.num_players();
  Context cx{};
  for (int p = 0; p < n; ++p) {
    cx.best_other[p] = -1000;
    for (int q = 0; q < n; ++q)
      if (q != p) cx.best_other[p] = std::max(cx.best_other[p], (int)s.seat[q].ap);
  }
  for (int i = 0; i < n; ++i) cx.order_pos[s.turn_order[i] % kMaxPlayers] = i;
  for (int b = 0; b < kBuildings; ++b) {
    const BuildingData& d = ed.b[b];
    const int kind = s.bloc[b] & 0xF0, who = s.bloc[b] & 0x0F;
    if (kind == B_ROW && who < n) {
      ++cx.row[who][d.tier];
      cx.icons[who] += d.ninputs;
      const int f = popcount64(s.bfill[b]);
      cx.filled[who] += f;
      cx.full[who] += d.ninputs > 0 && f == d.ninputs;
      cx.house[who] += d.house != 0;
      cx.row_ap[who] += d.ap;
      ++cx.makes[who][d.output % kProducts];
    } else if (kind == B_HAND && who < n) {
      ++cx.hand[who][d.tier];
    } else if (kind == B_TOP || kind == B_SEG || kind == B_BOTTOM) {
      ++cx.deck[d.tier];
    } else if (kind == B_FACEUP) {
      ++cx.faceup[d.tier];
    }
  }
  for (int gi = 0; gi < kGuilds; ++gi)
    for (int sp = 0; sp < kSpaces; ++sp)
      for (int l = 0; l < 2; ++l) {
        const int d = s.guild[gi][sp][l];
        if (d != kNoSeat && (d & 0x7F) < n) ++cx.guild_discs[d & 0x7F];
      }
  for (int k = 0; k < kWarehouseGoods; ++k)
    for (int l = 0; l < 2; ++l)
      if (s.warehouse[k][l] >= 2 && s.warehouse[k][l] - 2 < n) ++cx.warehouse[s.warehouse[k][l] - 2];
  for (int k = 0; k < kShips; ++k)
    for (int r = 0; r < ed.ships[k].nrows; ++r)
      for (int l = 0; l < 2; ++l)
        if (s.ship[k][r][l] >= 1 && s.ship[k][r][l] - 1 < n) ++cx.shipped[s.ship[k][r][l] - 1];
  emit_global(w, g, s, cx);
  for (int j = 0; j < n; ++j) {
    w.block(j ? "p+" : "me", j);
    emit_seat(w, g, s, cx, seat_after(seat, j, n));
  }
  return w.n;
}

// Per block: global 3 years + 4 seasons + 2 + 3 flags + phases + 5 context + 3 supplies + final goods + warehouse
// goods + ships + 8 decks/face-up + 2 money; seat 14 + 8 row/hand + 8 + one per product.
constexpr int kGlobal = 3 + 4 + 2 + 3 + kPhases + 5 + 3 + kFinal + kWarehouseGoods + kShips + 8 + 2;
constexpr int kSeat = 14 + 8 + 8 + kProducts;

}  // namespace

int feature_count(const Game& g) { return kGlobal + g.num_players() * kSeat; }

int write_features(const Game& g, const State& s, int seat, float* out) {
  FeatureWriter w(out, feature_count(g));
  return emit(w, g, s, seat);
}

std::vector<std::string> feature_names(const Game& g) {
  FeatureNamer w;
  State s{};
  s.year = 1;
  emit(w, g, s, 0);
  return w.names;
}

}  // namespace atelier::craftsmen
