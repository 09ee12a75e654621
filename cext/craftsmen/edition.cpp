// Craftsmen edition checks (Craftsmen §3): one line per field, so a bad edition names what is wrong.
#include "edition.hpp"

#include <cstring>
#include <set>

#include "../common/movelist.hpp"

namespace atelier::craftsmen {

const char* const kColourLetters = "PGBR";
const char* const kTierNames[4] = {"lumber_mill", "basic", "extended", "advanced"};
const char* const kGuildNumerals[kGuilds] = {"I", "II", "III", "IV", "V", "VI"};

static bool id_ok(const std::string& id) {
  if (id.empty() || id.size() > 16) return false;
  for (char ch : id)
    if (!(std::isalnum((unsigned char)ch) || ch == '_')) return false;
  return true;
}

// "P1" ... "R3" in any case: the notation's money types (DRAW(R1) draws a money card).
static bool is_money_type(const std::string& id) {
  return id.size() == 2 && std::strchr("PGBRpgbr", id[0]) && id[0] && id[1] >= '1' && id[1] <= '3';
}

static std::string lower(std::string s) {
  for (char& c : s) c = (char)std::tolower((unsigned char)c);
  return s;
}

std::string Edition::validate() {
  std::set<std::string> ids;
  int house[4] = {};
  bool made[kProducts] = {};
  for (int b = 0; b < kBuildings; ++b) {
    const BuildingData& d = this->b[b];
    const std::string where = "buildings[" + building_ids[b] + "]";
    const int want = b < kFirstBasic ? MILL : b < kFirstExtended ? BASIC : b < kFirstAdvanced ? EXTENDED : ADVANCED;
    if (!id_ok(building_ids[b])) return where + ".id: letters, digits and _ only";
    if (!ids.insert(lower(building_ids[b])).second) return where + ".id: duplicate (ids ignore letter case)";
    if (is_money_type(building_ids[b])) return where + ".id: a money type's name (DRAW(" + building_ids[b] + ") would name a money card)";
    if (d.tier != want) return where + ".tier: expected " + kTierNames[want];
    if (d.top >= kColours) return where + ".top: not one of the 4 colours";
    if (d.bottom >= kColours) return where + ".bottom: not one of the 4 colours";
    if (d.output >= kProducts) return where + ".output: unknown product";
    if (want <= BASIC && (d.ninputs != 0 || !is_raw(d.output))) return where + ".inputs: lumber mills and basic cards take no input and make a raw material";
    if (want == MILL && d.output != 0) return where + ".output: a lumber mill produces wood";
    if (want == EXTENDED && (d.ninputs != 1 || !is_raw(d.inputs[0]) || !is_semi(d.output)))
      return where + ".inputs: an extended card turns one raw material into a semi-finished good";
    if (want == ADVANCED) {
      if (d.ninputs < 1 || d.ninputs > 2 || !is_final(d.output)) return where + ".inputs: an advanced card turns 1-2 inputs into a final good";
      for (int i = 0; i < d.ninputs; ++i)
        if (!(is_raw(d.inputs[i]) || (is_semi(d.inputs[i]) && warehouse_of[d.inputs[i]] >= 0)))
          return where + ".inputs: every input of an advanced card is raw or a warehouse good";
    }
    if (d.ap > 63) return where + ".ap: must be 0..63";
    if (d.house) ++house[want];
    made[d.output] = true;
  }
  if (house[MILL] || house[BASIC]) return "buildings.house: only extended and advanced cards carry the house symbol";
  if (house[EXTENDED] != 8) return "extended_buildings.house: exactly 8 house cards";
  if (house[ADVANCED] != 8) return "advanced_buildings.house: exactly 8 house cards";
  for (int p = 0; p < kProducts; ++p)
    if (!made[p]) return "products." + product_names[p] + ": no building produces it";
  int total = 0;
  for (int k = 0; k < kMoneyTypes; ++k) total += money_count[k];
  if (total != kMoneyCards) return "money_cards: expected 48 cards";
  int wh = 0;
  for (int p = 0; p < kProducts; ++p) {
    if (warehouse_of[p] >= 0) {
      if (!is_semi(p) || warehouse_of[p] >= kWarehouseGoods) return "products.warehouse: only semi-finished goods";
      warehouse_product[warehouse_of[p]] = (uint8_t)p;
      ++wh;
    }
  }
  if (wh != kWarehouseGoods) return "products.warehouse: expected the 7 semi-finished goods other than meat";
  for (int p = 0; p < kProducts; ++p) {
    if (!shippable(p)) continue;
    bool row = false;
    for (int k = 0; k < kShips; ++k)
      for (int r = 0; r < ships[k].nrows; ++r) row |= ships[k].product[r] == p;
    if (!row) return "ships: " + product_names[p] + " has no ship row";
  }
  for (int k = 0; k < kShips; ++k) {
    const ShipData& sh = ships[k];
    const std::string where = "ships[" + std::to_string(k + 1) + "]";
    if (sh.nrows < 1 || sh.nrows > kMaxShipRows) return where + ".rows: 1.." + std::to_string(kMaxShipRows) + " rows";
    if (sh.nbonus > kMaxBonuses) return where + ".bonuses: at most " + std::to_string(kMaxBonuses);
    for (int r = 0; r < sh.nrows; ++r) {
      if (sh.product[r] >= kProducts || !shippable(sh.product[r])) return where + ".rows: a row holds a shippable product";
      for (int q = 0; q < r; ++q)
        if (sh.product[q] == sh.product[r]) return where + ".rows: at most one row per product";
      if (sh.ap[r] > 63) return where + ".rows.ap: must be 0..63";
    }
  }
  for (int f = 0; f < kFinal; ++f)
    if (bonus_ap[f] > 63) return "bonus_tokens[" + product_names[kRaw + kSemi + f] + "].ap: must be 0..63";
  const Constants& k = c;
  if (k.display < 1 || k.display > 6) return "constants.money_display_size: 1..6";
  if (k.money_dealt > 8) return "constants.money_cards_dealt: 0..8";
  if (k.faceup < 1 || k.faceup > 2) return "constants.faceup_per_building_deck: 1..2";
  if (k.basic_dealt > 4) return "constants.basic_cards_dealt: 0..4";
  if (k.house_dealt != 1) return "constants.extended_house_cards_dealt: must be 1";
  if (k.max_priv_held > 15) return "constants.max_privilege_tokens_held: 0..15";
  if (k.max_work_held > 15) return "constants.max_work_tokens_held: 0..15";
  if (k.priv_tokens_total > 15) return "constants.privilege_tokens_total: 0..15";
  if (k.work_tokens_total > 15) return "constants.work_tokens_total: 0..15";
  if (k.min_bid < 1 || k.min_bid > 45) return "constants.notary_min_bid: 1..45";
  for (int n = 2; n <= kMaxPlayers; ++n) {
    const std::string np = std::to_string(n);
    if (k.priv_tokens_by_players[n] > k.priv_tokens_total)
      return "constants.privilege_tokens_by_players." + np + ": more than privilege_tokens_total (" + std::to_string(k.priv_tokens_total) + ")";
    if (k.work_tokens_by_players[n] > k.work_tokens_total)
      return "constants.work_tokens_by_players." + np + ": more than work_tokens_total (" + std::to_string(k.work_tokens_total) + ")";
    if (k.capacity[n] < 1 || k.capacity[n] > (n == 2 ? 4 : 6)) return "constants.guild_capacity_by_players: 1..2 discs per space";
  }
  if (k.per_player_per_guild > 5 || k.per_player_per_guild_2p > 5) return "constants.max_helpers_per_player_per_guild: 0..5";
  if (k.banker_take > 8 || k.banker_discard > 8 || k.banker_discard_priv > 8) return "constants.banker_take: 0..8";
  if (k.hand_limit < 4 || k.hand_limit > 10) return "constants.hand_limit: 4..10 (payment lists must fit)";
  if (k.hand_limit_round > k.hand_limit) return "constants.hand_limit_end_of_round: at most hand_limit";
  for (int t = 1; t < 4; ++t) {
    if (k.build_cost[t] < 1 || k.build_cost[t] > 45) return "constants.build_cost: 1..45";
    if (k.buy_price[t] < 1 || k.buy_price[t] > 45) return "constants.notary_buy_price: 1..45";
    if (k.mayor_cards[t] > 6) return "constants.mayor_cards: 0..6";
  }
  if (k.look_draw > 3) return "constants.notary_privilege.from_deck: 0..3";
  for (int y = 0; y < 3; ++y) {
    if (k.wp[y] < 1 || k.wp[y] > 15) return "constants.work_points_by_year: 1..15";
    if (k.stack_ap[y] > 63) return "constants.stack_payment_ap_by_year: 0..63";
  }
  if (k.market_max > 15) return "constants.market_max_cubes: 0..15";
  for (int i = 0; i < kMaxPlayers; ++i)
    if (k.start_ap[i] > 63) return "constants.starting_ap_by_turn_position: 0..63";
  return "";
}

}  // namespace atelier::craftsmen
