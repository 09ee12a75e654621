// The Craftsmen edition JSON (src/atelier/data/editions/craftsmen.json, Craftsmen §3) -> Edition.
// Names become indices here; every number is range-checked before it lands in a uint8_t, and
// Edition::validate() then checks the rules of Craftsmen §3.
#include <map>
#include <set>

#include "common.hpp"
#include "craftsmen_bind.hpp"

namespace atelier::craftsmen::bind {
namespace {

py::object need(const py::dict& d, const char* key, const std::string& where) {
  if (!d.contains(key)) fail(where + key + ": missing");
  return d[key];
}

long as_int(py::handle h, const std::string& field, long lo, long hi) {
  if (PyBool_Check(h.ptr()) || !PyLong_Check(h.ptr())) fail(field + ": expected an integer");
  long long v;
  try {
    v = h.cast<long long>();
  } catch (const py::cast_error&) {
    fail(field + ": integer out of range");
  }
  if (v < lo || v > hi) fail(field + ": " + std::to_string(v) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return (long)v;
}

std::string as_str(py::handle h, const std::string& field) {
  if (!PyUnicode_Check(h.ptr())) fail(field + ": expected a string");
  return atelier::bind::as_text(h, field);  // a lone surrogate is refused in one line, not a cast error
}

py::list as_list(py::handle h, const std::string& field) {
  if (!PyList_Check(h.ptr())) fail(field + ": expected a list");
  return py::reinterpret_borrow<py::list>(h);
}

py::dict as_dict(py::handle h, const std::string& field) {
  if (!PyDict_Check(h.ptr())) fail(field + ": expected an object");
  return py::reinterpret_borrow<py::dict>(h);
}

// A constant's value (Craftsmen §3: {value, provenance}).
py::object constant(const py::dict& c, const char* name) {
  const py::dict e = as_dict(need(c, name, "constants."), std::string("constants.") + name);
  return need(e, "value", std::string("constants.") + name + ".");
}

uint8_t cint(const py::dict& c, const char* name, long lo, long hi) {
  return (uint8_t)as_int(constant(c, name), std::string("constants.") + name, lo, hi);
}

// Constants the core builds into its structure (the State's fixed arrays, the shape of a
// decision): an edition may state them only with the bundled value (docs/editions.md), so none
// is silently ignored. The value is the bundled one as JSON, compared as parsed JSON data.
const std::pair<const char*, const char*> kFixedConstants[] = {
    {"players", "[2, 5]"},
    {"extended_house_cards_dealt", "1"},
    {"money_set", "{\"min_cards\": 2, \"value_per_card_after_first\": 5}"},
    {"years", "3"},
    {"seasons_per_year", "4"},
    {"helpers_per_player", "5"},
    {"discs_per_player", "8"},
    {"cubes_per_player", "20"},
    {"neutral_cubes", "14"},
    {"work_token_wp", "1"},
    {"mulligan_max_swaps", "1"},
    {"guild_spaces", "3"},
    {"guild_spaces_2p", "2"},
    {"max_discs_per_space", "2"},
    {"stack_payment_cards", "1"},
    {"banker_faceup_take", "[1, 2]"},
    {"privileges_per_helper_per_round", "1"},
    {"money_values", "[1, 2, 3]"},
    {"max_builds_per_action", "2"},
    {"market_trade_cost_wp", "1"},
    {"privilege_produce_raws", "2"},
    {"warehouse_slots_per_good", "2"},
    {"warehouse_reward_cards", "1"},
    {"merchants_price_cards", "1"},
    {"ship_row_slots", "2"},
    {"bribe_cards", "1"},
    {"colour_set_size", "4"},
    {"contribution", "{\"cards\": 4, \"distinct_colours\": 4, \"per_year\": 1}"},
    {"order_change_spaces", "3"},
    {"catch_up_tokens_per_seat", "1"},
    {"season_guilds", "{\"spring\": [1, 2, 3, 4, 5, 6], \"summer\": [1, 2, 3, 4, 5, 6], "
                      "\"autumn\": [1, 2, 3, 4, 5, 6], \"winter\": [2, 4]}"},
    {"winter_virtual_helpers_per_stage", "1"},
    {"town_hall_options_by_players", "{\"2\": 2, \"3\": 3, \"4\": 3, \"5\": 3}"},
};

// Plain JSON equality: a bool is not the integer 1, 1.0 is not 1 (Python's == says both are).
bool same_json(py::handle a, py::handle b) {
  if (PyBool_Check(a.ptr()) != PyBool_Check(b.ptr()) || PyFloat_Check(a.ptr()) != PyFloat_Check(b.ptr())) return false;
  if (PyDict_Check(a.ptr()) && PyDict_Check(b.ptr())) {
    const auto da = py::reinterpret_borrow<py::dict>(a), db = py::reinterpret_borrow<py::dict>(b);
    if (py::len(da) != py::len(db)) return false;
    for (auto item : da)
      if (!db.contains(item.first) || !same_json(item.second, db[item.first])) return false;
    return true;
  }
  if (PyList_Check(a.ptr()) && PyList_Check(b.ptr())) {
    const auto la = py::reinterpret_borrow<py::list>(a), lb = py::reinterpret_borrow<py::list>(b);
    if (py::len(la) != py::len(lb)) return false;
    for (size_t i = 0; i < py::len(la); ++i)
      if (!same_json(la[i], lb[i])) return false;
    return true;
  }
  if (PyDict_Check(a.ptr()) || PyDict_Check(b.ptr()) || PyList_Check(a.ptr()) || PyList_Check(b.ptr())) return false;
  return a.equal(b);
}

void fixed(py::handle v, const std::string& field, const char* json) {
  if (!same_json(v, py::module_::import("json").attr("loads")(json))) fail(field + ": this core supports only " + json);
}

}  // namespace

Edition edition_from_dict(const py::dict& d) {
  Edition e{};
  const std::map<std::string, int> colours = {{"purple", 0}, {"green", 1}, {"blue", 2}, {"red", 3}};
  {
    const py::list cl = as_list(need(d, "colours", ""), "colours");
    if (py::len(cl) != 4) fail("colours: expected the 4 colours purple, green, blue, red");
    const char* want[4] = {"purple", "green", "blue", "red"};
    for (int i = 0; i < 4; ++i)
      if (as_str(cl[i], "colours") != want[i]) fail("colours: expected purple, green, blue, red in this order");
  }
  const py::dict pr = as_dict(need(d, "products", ""), "products");
  std::map<std::string, int> prod;
  std::set<std::string> folded_names;
  const char* groups[3] = {"raw", "semi_finished", "final"};
  const int sizes[3] = {kRaw, kSemi, kFinal};
  int idx = 0;
  for (int gi = 0; gi < 3; ++gi) {
    const py::list l = as_list(need(pr, groups[gi], "products."), std::string("products.") + groups[gi]);
    if ((int)py::len(l) != sizes[gi]) fail(std::string("products.") + groups[gi] + ": expected " + std::to_string(sizes[gi]) + " products");
    for (auto h : l) {
      const std::string name = as_str(h, std::string("products.") + groups[gi]);
      if (name.empty() || name.size() > 24) fail("products: a product name must have 1..24 characters");
      for (char ch : name)
        if (!(std::isalnum((unsigned char)ch) || ch == '_')) fail("products." + name + ": letters, digits and _ only");
      std::string folded = name;  // the notation ignores letter case (docs/notation.md)
      for (char& ch : folded) ch = (char)std::tolower((unsigned char)ch);
      if (!folded_names.insert(folded).second) fail("products." + name + ": duplicate (names ignore letter case)");
      prod.emplace(name, idx);
      e.product_names[idx++] = name;
    }
  }
  for (int p = 0; p < kProducts; ++p) e.warehouse_of[p] = -1;
  {
    const py::list wl = as_list(need(pr, "warehouse", "products."), "products.warehouse");
    if (py::len(wl) != kWarehouseGoods) fail("products.warehouse: expected 7 goods");
    int w = 0;
    for (auto h : wl) {
      const std::string name = as_str(h, "products.warehouse");
      auto it = prod.find(name);
      if (it == prod.end()) fail("products.warehouse: unknown product " + name);
      if (e.warehouse_of[it->second] >= 0) fail("products.warehouse: duplicate " + name);
      e.warehouse_of[it->second] = (int8_t)w++;
    }
  }
  auto product = [&](py::handle h, const std::string& field) {
    const std::string name = as_str(h, field);
    auto it = prod.find(name);
    if (it == prod.end()) fail(field + ": unknown product '" + name + "'");
    return (uint8_t)it->second;
  };
  auto colour = [&](py::handle h, const std::string& field) {
    const std::string name = as_str(h, field);
    auto it = colours.find(name);
    if (it == colours.end()) fail(field + ": not one of the 4 colours");
    return (uint8_t)it->second;
  };
  const char* tiers[4] = {"lumber_mills", "basic_buildings", "extended_buildings", "advanced_buildings"};
  const int counts[4] = {kMills, kBasic, kExtended, kAdvanced};
  const char* tier_names[4] = {"lumber_mill", "basic", "extended", "advanced"};
  int b = 0;
  for (int t = 0; t < 4; ++t) {
    const py::list l = as_list(need(d, tiers[t], ""), tiers[t]);
    if ((int)py::len(l) != counts[t]) fail(std::string(tiers[t]) + ": expected " + std::to_string(counts[t]) + " cards");
    for (auto h : l) {
      const py::dict c = as_dict(h, tiers[t]);
      const std::string id = as_str(need(c, "id", std::string(tiers[t]) + "[]."), std::string(tiers[t]) + "[].id");
      const std::string where = std::string(tiers[t]) + "[" + id + "].";
      e.building_ids[b] = id;
      BuildingData& bd = e.b[b];
      const std::string tn = as_str(need(c, "tier", where), where + "tier");
      if (tn != tier_names[t]) fail(where + "tier: expected " + tier_names[t]);
      bd.tier = (uint8_t)t;
      bd.top = colour(need(c, "top", where), where + "top");
      bd.bottom = colour(need(c, "bottom", where), where + "bottom");
      const py::list ins = as_list(need(c, "inputs", where), where + "inputs");
      if (py::len(ins) > 2) fail(where + "inputs: at most 2 inputs");
      bd.ninputs = (uint8_t)py::len(ins);
      for (int i = 0; i < bd.ninputs; ++i) bd.inputs[i] = product(ins[i], where + "inputs");
      bd.output = product(need(c, "output", where), where + "output");
      bd.ap = (uint8_t)as_int(need(c, "ap", where), where + "ap", 0, 63);
      const py::object house = need(c, "house", where);
      if (!PyBool_Check(house.ptr())) fail(where + "house: expected true or false");
      bd.house = house.cast<bool>();
      ++b;
    }
  }
  const py::list money = as_list(need(d, "money_cards", ""), "money_cards");
  if (py::len(money) != kMoneyCards) fail("money_cards: expected 48 cards");
  for (auto h : money) {
    const py::dict m = as_dict(h, "money_cards");
    const int c = colour(need(m, "colour", "money_cards[]."), "money_cards[].colour");
    const int v = (int)as_int(need(m, "value", "money_cards[]."), "money_cards[].value", 1, 3);
    ++e.money_count[c * kValues + v - 1];
  }
  const py::list ships = as_list(need(d, "ships", ""), "ships");
  if (py::len(ships) != kShips) fail("ships: expected 4 ships");
  for (int k = 0; k < kShips; ++k) {
    const py::dict sh = as_dict(ships[k], "ships");
    const std::string where = "ships[" + std::to_string(k + 1) + "].";
    if (as_int(need(sh, "id", where), where + "id", 1, 4) != k + 1) fail(where + "id: ships must be listed 1..4");
    const py::list rows = as_list(need(sh, "rows", where), where + "rows");
    if (py::len(rows) < 1 || py::len(rows) > kMaxShipRows) fail(where + "rows: 1..8 rows");
    e.ships[k].nrows = (uint8_t)py::len(rows);
    for (int r = 0; r < e.ships[k].nrows; ++r) {
      const py::dict row = as_dict(rows[r], where + "rows");
      e.ships[k].product[r] = product(need(row, "product", where + "rows[]."), where + "rows[].product");
      e.ships[k].ap[r] = (uint8_t)as_int(need(row, "ap", where + "rows[]."), where + "rows[].ap", 0, 63);
      if (row.contains("slots") && as_int(row["slots"], where + "rows[].slots", 2, 2) != 2) fail(where + "rows[].slots: must be 2");
    }
    const py::list bon = as_list(need(sh, "bonuses", where), where + "bonuses");
    if (py::len(bon) > kMaxBonuses) fail(where + "bonuses: at most 5");
    e.ships[k].nbonus = (uint8_t)py::len(bon);
    for (int i = 0; i < e.ships[k].nbonus; ++i) e.ships[k].bonus[i] = (uint8_t)as_int(bon[i], where + "bonuses", 0, 63);
  }
  const py::list tokens = as_list(need(d, "bonus_tokens", ""), "bonus_tokens");
  bool have[kFinal] = {};
  for (auto h : tokens) {
    const py::dict t = as_dict(h, "bonus_tokens");
    const int p = product(need(t, "good", "bonus_tokens[]."), "bonus_tokens[].good");
    if (p < kRaw + kSemi) fail("bonus_tokens[].good: must be a final good");
    if (have[p - kRaw - kSemi]) fail("bonus_tokens: two tokens for " + e.product_names[p]);
    have[p - kRaw - kSemi] = true;
    e.bonus_ap[p - kRaw - kSemi] = (uint8_t)as_int(need(t, "ap", "bonus_tokens[]."), "bonus_tokens[].ap", 0, 63);
  }
  for (int f = 0; f < kFinal; ++f)
    if (!have[f]) fail("bonus_tokens: " + e.product_names[kRaw + kSemi + f] + " has no bonus token");

  const py::dict c = as_dict(need(d, "constants", ""), "constants");
  Constants& k = e.c;
  k.money_dealt = cint(c, "money_cards_dealt", 0, 8);
  k.display = cint(c, "money_display_size", 1, 6);
  k.basic_dealt = cint(c, "basic_cards_dealt", 0, 4);
  k.faceup = cint(c, "faceup_per_building_deck", 1, 2);
  {
    const py::dict pt = as_dict(constant(c, "privilege_tokens_by_players"), "constants.privilege_tokens_by_players");
    const py::dict wt = as_dict(constant(c, "work_tokens_by_players"), "constants.work_tokens_by_players");
    const py::dict cap = as_dict(constant(c, "guild_capacity_by_players"), "constants.guild_capacity_by_players");
    for (int n = 2; n <= kMaxPlayers; ++n) {
      const std::string key = std::to_string(n);
      const long pv = as_int(need(pt, key.c_str(), "constants.privilege_tokens_by_players."), "constants.privilege_tokens_by_players." + key, 0, 15);
      const long wv = as_int(need(wt, key.c_str(), "constants.work_tokens_by_players."), "constants.work_tokens_by_players." + key, 0, 15);
      k.priv_tokens_by_players[n] = (uint8_t)pv;
      k.work_tokens_by_players[n] = (uint8_t)wv;
      k.capacity[n] = (uint8_t)as_int(need(cap, key.c_str(), "constants.guild_capacity_by_players."), "constants.guild_capacity_by_players." + key, 1, 6);
    }
  }
  k.priv_tokens_total = cint(c, "privilege_tokens_total", 0, 15);
  k.work_tokens_total = cint(c, "work_tokens_total", 0, 15);
  k.max_priv_held = cint(c, "max_privilege_tokens_held", 0, 15);
  k.max_work_held = cint(c, "max_work_tokens_held", 0, 15);
  k.min_bid = cint(c, "notary_min_bid", 1, 45);
  {
    const py::list l = as_list(constant(c, "starting_ap_by_turn_position"), "constants.starting_ap_by_turn_position");
    if (py::len(l) != 5) fail("constants.starting_ap_by_turn_position: expected 5 numbers");
    for (int i = 0; i < 5; ++i) k.start_ap[i] = (uint8_t)as_int(l[i], "constants.starting_ap_by_turn_position", 0, 63);
  }
  k.per_player_per_guild = cint(c, "max_helpers_per_player_per_guild", 0, 5);
  k.per_player_per_guild_2p = cint(c, "max_helpers_per_player_per_guild_2p", 0, 5);
  {
    const py::list l = as_list(constant(c, "stack_payment_ap_by_year"), "constants.stack_payment_ap_by_year");
    if (py::len(l) != 3) fail("constants.stack_payment_ap_by_year: expected 3 numbers");
    for (int i = 0; i < 3; ++i) k.stack_ap[i] = (uint8_t)as_int(l[i], "constants.stack_payment_ap_by_year", 0, 63);
    const py::list w = as_list(constant(c, "work_points_by_year"), "constants.work_points_by_year");
    if (py::len(w) != 3) fail("constants.work_points_by_year: expected 3 numbers");
    for (int i = 0; i < 3; ++i) k.wp[i] = (uint8_t)as_int(w[i], "constants.work_points_by_year", 1, 15);
  }
  {
    const py::dict pb = as_dict(constant(c, "pass_bonus"), "constants.pass_bonus");
    k.pass_bonus_min = (uint8_t)as_int(need(pb, "min_unplaced_helpers", "constants.pass_bonus."), "constants.pass_bonus.min_unplaced_helpers", 1, 5);
    k.pass_bonus_ap = (uint8_t)as_int(need(pb, "ap", "constants.pass_bonus."), "constants.pass_bonus.ap", 0, 63);
  }
  k.banker_take = cint(c, "banker_take", 0, 8);
  k.banker_discard = cint(c, "banker_discard", 0, 8);
  k.banker_discard_priv = cint(c, "banker_discard_privilege", 0, 8);
  k.hand_limit = cint(c, "hand_limit", 4, 10);
  k.hand_limit_round = cint(c, "hand_limit_end_of_round", 0, 10);
  const char* tn[3] = {"basic", "extended", "advanced"};
  auto by_tier = [&](const char* name, uint8_t* out, long lo, long hi) {
    const py::dict m = as_dict(constant(c, name), std::string("constants.") + name);
    for (int t = 0; t < 3; ++t)
      out[t + 1] = (uint8_t)as_int(need(m, tn[t], (std::string("constants.") + name + ".").c_str()), std::string("constants.") + name + "." + tn[t], lo, hi);
  };
  by_tier("build_cost", k.build_cost, 1, 45);
  by_tier("notary_buy_price", k.buy_price, 1, 45);
  by_tier("mayor_cards", k.mayor_cards, 0, 6);
  {
    const py::dict np = as_dict(constant(c, "notary_privilege"), "constants.notary_privilege");
    k.look_draw = (uint8_t)as_int(need(np, "from_deck", "constants.notary_privilege."), "constants.notary_privilege.from_deck", 0, 3);
    fixed(need(np, "faceup", "constants.notary_privilege."), "constants.notary_privilege.faceup", "2");
    fixed(need(np, "keep_faceup", "constants.notary_privilege."), "constants.notary_privilege.keep_faceup", "2");
  }
  for (const auto& [name, json] : kFixedConstants) fixed(constant(c, name), std::string("constants.") + name, json);
  k.market_max = cint(c, "market_max_cubes", 0, 15);
  k.colour_set_ap = cint(c, "colour_set_ap", 0, 63);
  k.warehouse_ap = cint(c, "warehouse_year_end_ap_per_cube", 0, 63);

  const std::string err = e.validate();
  if (!err.empty()) fail(err);  // Python adds "edition: "
  return e;
}

}  // namespace atelier::craftsmen::bind
