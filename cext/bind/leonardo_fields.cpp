// Dict <-> struct conversions for the Leonardo binding: the edition file's JSON (as loaded by
// json.load) into Edition, and a State's fields for tests and positions. Every value is checked
// against the width of the field it lands in; the result then passes Game::validate().
#include <cstring>

#include "common.hpp"
#include "leonardo_bind.hpp"

namespace atelier::leonardo::bind {
namespace {

const char* const kPhaseNames[] = {"FAVOUR", "LAB", "PLACE", "CLAIM", "GIFT", "CMOVE",
                                   "REORDER", "MATERIAL", "AREA", "BID", "DRAW", "GAME_OVER"};

py::object need(const py::dict& d, const char* key, const std::string& where) {
  if (!d.contains(key)) fail(where + key + ": missing");
  return d[key];
}

long as_int(py::handle h, const std::string& field, long lo, long hi) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr())) fail(field + ": expected an integer");
  long long v;
  try {
    v = py::int_(py::reinterpret_borrow<py::object>(h)).cast<long long>();
  } catch (const py::error_already_set&) {
    fail(field + ": integer out of range");
  } catch (const py::cast_error&) {
    fail(field + ": integer out of range");
  }
  if (v < lo || v > hi)
    fail(field + ": " + std::to_string(v) + " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
  return (long)v;
}

bool as_bool(py::handle h, const std::string& field) {
  if (PyBool_Check(h.ptr())) return h.cast<bool>();
  return as_int(h, field, 0, 1) != 0;
}

std::string as_str(py::handle h, const std::string& field) {
  if (!PyUnicode_Check(h.ptr())) fail(field + ": expected a string");
  return atelier::bind::as_text(h, field);  // a lone surrogate is refused in one line, not a cast error
}

py::sequence as_seq(py::handle h, const std::string& field, long n = -1) {
  if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr())) fail(field + ": expected a list");
  auto seq = py::reinterpret_borrow<py::sequence>(h);
  if (n >= 0 && (long)py::len(seq) != n)
    fail(field + ": expected " + std::to_string(n) + " entries, got " + std::to_string(py::len(seq)));
  return seq;
}

py::dict as_dict(py::handle h, const std::string& field) {
  if (!PyDict_Check(h.ptr())) fail(field + ": expected an object");
  return py::reinterpret_borrow<py::dict>(h);
}

std::string at(const std::string& f, size_t i) { return f + "[" + std::to_string(i) + "]"; }

// constants.X.value (or a plain value).
py::object value_of(const py::dict& d, const char* key, const std::string& where) {
  py::object o = need(d, key, where);
  if (PyDict_Check(o.ptr()) && py::reinterpret_borrow<py::dict>(o).contains("value")) return o["value"];
  return o;
}

// A {"2": x, "3": y, ...} table for player counts 2..5.
void per_n(py::handle h, const std::string& field, uint8_t* out, long lo, long hi, bool allow_null = false) {
  py::dict d = as_dict(h, field);
  for (int n = 2; n <= 5; ++n) {
    const std::string k = std::to_string(n);
    if (!d.contains(k.c_str())) fail(field + "." + k + ": missing");
    py::object v = d[k.c_str()];
    if (allow_null && v.is_none()) out[n] = 0;
    else out[n] = (uint8_t)as_int(v, field + "." + k, lo, hi);
  }
}

int kind_index(const Edition& ed, const std::string& name, const std::string& field) {
  for (int k = 0; k < kKinds; ++k)
    if (ed.kind_names[k] == name) return k;
  fail(field + ": unknown material '" + name + "'");
}

void read_mats(const Edition& ed, py::handle h, const std::string& field, uint8_t* out, long hi) {
  py::dict m = as_dict(h, field);
  for (auto item : m) {
    const std::string k = as_str(item.first, field);
    out[kind_index(ed, k, field)] = (uint8_t)as_int(item.second, field + "." + k, 1, hi);
  }
}

uint32_t card_set(py::handle h, const std::string& field) {
  uint32_t m = 0;
  auto seq = as_seq(h, field);
  for (size_t i = 0; i < py::len(seq); ++i) m |= 1u << (as_int(seq[i], at(field, i), 1, kCards) - 1);
  return m;
}

py::list card_list(uint32_t m) {
  py::list out;
  for (int c = 0; c < kCards; ++c)
    if ((m >> c) & 1) out.append(c + 1);
  return out;
}

}  // namespace

// ---- Edition (the JSON file as loaded) ---------------------------------------------------------

Edition edition_from_dict(const py::dict& d) {
  Edition ed{};
  const std::string E = "edition: ";
  py::dict C = as_dict(need(d, "constants", E), E + "constants");
  auto kinds = as_seq(value_of(C, "material_kinds", E), E + "material_kinds", kKinds);
  for (int k = 0; k < kKinds; ++k) ed.kind_names[k] = as_str(kinds[k], E + "material_kinds");
  if (std::string err = ed.check_kind_names(); !err.empty()) fail(err);  // before names are looked up
  ed.per_kind = (uint8_t)as_int(value_of(C, "material_cards_per_kind", E), E + "material_cards_per_kind", 1, 15);
  ed.apprentices_per_colour = (uint8_t)as_int(value_of(C, "apprentices_per_colour", E), E + "apprentices_per_colour", 1, 15);
  ed.mech_per_player = (uint8_t)as_int(value_of(C, "mechanical_men_per_player", E), E + "mechanical_men_per_player", 0, 3);
  ed.track_max = (uint8_t)as_int(value_of(C, "lab_track_max", E), E + "lab_track_max", 1, 15);
  ed.discount = (uint8_t)as_int(value_of(C, "same_type_discount_weeks", E), E + "same_type_discount_weeks", 0, 15);
  ed.pot_start = (uint8_t)as_int(value_of(C, "council_pot_start", E), E + "council_pot_start", 0, 255);
  ed.income = (uint8_t)as_int(value_of(C, "council_income_per_turn", E), E + "council_income_per_turn", 0, 255);
  ed.turns = (uint8_t)as_int(value_of(C, "turns", E), E + "turns", 1, 15);
  ed.normal_turns = (uint8_t)as_int(value_of(C, "normal_turns", E), E + "normal_turns", 0, ed.turns);
  per_n(value_of(C, "requested_row_size", E), E + "requested_row_size", ed.row_size, 1, 5);
  per_n(value_of(C, "apprentices_removed_per_player", E), E + "apprentices_removed_per_player", ed.removed_apprentices, 0, 15);
  {
    py::dict b = as_dict(value_of(C, "end_bonus_by_distinct_types", E), E + "end_bonus_by_distinct_types");
    for (int t = 0; t <= kTypes; ++t) {
      const std::string k = std::to_string(t);
      ed.type_bonus[t] = b.contains(k.c_str()) ? (uint8_t)as_int(b[k.c_str()], E + "end_bonus_by_distinct_types." + k, 0, 255) : 0;
    }
    auto pr = as_seq(value_of(C, "area_prices", E), E + "area_prices", kPrices);
    for (int i = 0; i < kPrices; ++i) ed.prices[i] = (uint8_t)as_int(pr[i], at(E + "area_prices", i), 0, 255);
  }
  // Types and tiers.
  auto types = as_seq(need(d, "types", E), E + "types", kTypes);
  for (int t = 0; t < kTypes; ++t) {
    py::dict ty = as_dict(types[t], at(E + "types", t));
    ed.type_ids[t] = as_str(need(ty, "id", E + "types."), E + "types.id");
    for (int u = 0; u < t; ++u)
      if (ed.type_ids[u] == ed.type_ids[t]) fail(E + "type \"" + ed.type_ids[t] + "\" listed twice");
    ed.type_cards[t] = card_set(need(ty, "cards", E + "types."), E + "types." + ed.type_ids[t] + ".cards");
  }
  py::dict tiers = as_dict(need(d, "tiers", E), E + "tiers");
  for (int t = 0; t < kTiers; ++t) {
    const char* name = ed.tier_names[t].c_str();
    if (!tiers.contains(name)) fail(E + "tiers must hold bronze, copper, silver and gold");
    py::dict r = as_dict(tiers[name], E + "tiers." + name);
    const std::string w = E + "tiers." + name + ".";
    ed.tier_materials[t] = (uint8_t)as_int(need(r, "materials", w), w + "materials", 1, 15);
    ed.tier_weeks[t] = (uint8_t)as_int(need(r, "weeks", w), w + "weeks", 1, 15);
    ed.tier_reward_first[t] = (uint8_t)as_int(need(r, "reward_first", w), w + "reward_first", 0, 255);
    ed.tier_reward_later[t] = (uint8_t)as_int(need(r, "reward_later", w), w + "reward_later", 0, 255);
  }
  // Inventions (§1.9 checks 1-5).
  auto inv = as_seq(need(d, "inventions", E), E + "inventions");
  if (py::len(inv) != kCards) fail(E + "card numbers must be 1..25, each once");
  uint32_t seen = 0;
  for (int i = 0; i < kCards; ++i) {
    py::dict c = as_dict(inv[i], at(E + "inventions", i));
    const long num = as_int(need(c, "number", E + "inventions."), E + "inventions.number", -1000000, 1000000);
    if (num < 1 || num > kCards || ((seen >> (num - 1)) & 1)) fail(E + "card numbers must be 1..25, each once");
    seen |= 1u << (num - 1);
    CardData& cd = ed.cards[num - 1];
    const std::string w = E + "card " + std::to_string(num) + ": ";
    const std::string tier = as_str(need(c, "tier", w), w + "tier");
    int ti = -1;
    for (int t = 0; t < kTiers; ++t)
      if (ed.tier_names[t] == tier) ti = t;
    if (ti < 0) fail(w + "tier \"" + tier + "\" is not in tiers");
    cd.tier = (uint8_t)ti;
    const std::string ty = as_str(need(c, "type", w), w + "type");
    int tyi = -1;
    for (int t = 0; t < kTypes; ++t)
      if (ed.type_ids[t] == ty) tyi = t;
    if (tyi < 0) fail(w + "type \"" + ty + "\" is not in types");
    cd.type = (uint8_t)tyi;
    const long weeks = as_int(need(c, "weeks", w), w + "weeks", -1000, 1000);
    if (weeks < 1 || weeks > ed.track_max) fail(w + "weeks must be 1.." + std::to_string(ed.track_max));
    cd.weeks = (uint8_t)weeks;
    cd.reward_first = (uint8_t)as_int(need(c, "reward_first", w), w + "reward_first", 0, 255);
    cd.reward_later = (uint8_t)as_int(need(c, "reward_later", w), w + "reward_later", 0, 255);
    read_mats(ed, need(c, "materials", w), w + "materials", cd.mats, 15);
    if (c.contains("name_en") && PyUnicode_Check(c["name_en"].ptr())) ed.card_names[num - 1] = atelier::bind::as_text(c["name_en"], w + "name_en");
  }
  // Setup.
  py::dict S = as_dict(need(d, "setup", E), E + "setup");
  py::dict db = as_dict(need(S, "deck_building", E + "setup."), E + "setup.deck_building");
  py::dict piles = as_dict(value_of(db, "piles", E), E + "piles");
  ed.bottom_cards = card_set(need(as_dict(need(piles, "bottom", E + "piles."), E + "piles.bottom"), "cards", E + "piles.bottom."), E + "piles.bottom.cards");
  py::dict mid = as_dict(need(piles, "middle", E + "piles."), E + "piles.middle");
  ed.middle_cards = card_set(need(mid, "cards", E + "piles.middle."), E + "piles.middle.cards");
  py::dict plus = as_dict(need(mid, "plus_lower_tier", E + "piles.middle."), E + "piles.middle.plus_lower_tier");
  py::dict top = as_dict(need(piles, "top", E + "piles."), E + "piles.top");
  if (!top.contains("rest") || !PyBool_Check(top["rest"].ptr()) || !top["rest"].cast<bool>())
    fail(E + "piles: top must be {\"rest\": true}");
  py::dict basic = as_dict(need(S, "basic", E + "setup."), E + "setup.basic");
  py::dict expert = as_dict(need(S, "expert", E + "setup."), E + "setup.expert");
  py::dict disc = as_dict(value_of(expert, "two_player_discard", E), E + "two_player_discard");
  for (int t = 0; t < kLowerTiers; ++t) {
    const char* name = ed.tier_names[t].c_str();
    ed.plus_lower[t] = plus.contains(name) ? (uint8_t)as_int(plus[name], E + "plus_lower_tier." + name, 0, 25) : 0;
    ed.two_player_discard[t] = disc.contains(name) ? (uint8_t)as_int(disc[name], E + "two_player_discard." + name, 0, 25) : 0;
  }
  py::dict rows = as_dict(value_of(basic, "initial_requested", E), E + "initial_requested");
  for (int n = 2; n <= 5; ++n) {
    const std::string k = std::to_string(n);
    if (!rows.contains(k.c_str())) fail(E + "initial_requested." + k + ": missing");
    auto r = as_seq(rows[k.c_str()], E + "initial_requested." + k);
    if (py::len(r) > 5) fail(E + "initial_requested." + k + ": at most 5 cards");
    ed.basic_row_len[n] = (uint8_t)py::len(r);
    for (size_t i = 0; i < py::len(r); ++i) ed.basic_row[n][i] = (uint8_t)(as_int(r[i], at(E + "initial_requested." + k, i), 1, kCards) - 1);
  }
  py::dict seats = as_dict(need(basic, "seats", E + "basic."), E + "basic.seats");
  for (int i = 0; i < kKits; ++i) {
    const std::string name(1, (char)('a' + i));
    if (!seats.contains(name.c_str())) fail(E + "basic.seats." + name + ": missing");
    py::dict k = as_dict(seats[name.c_str()], E + "kit " + name);
    const std::string w = E + "kit " + name + ": ";
    Kit& K = ed.kits[i];
    K.apprentices = (uint8_t)as_int(need(k, "apprentices", w), w + "apprentices", 0, 15);
    K.money = (uint16_t)as_int(need(k, "money", w), w + "money", 0, 65535);
    K.small_side = 0;
    auto labs = as_seq(need(k, "labs", w), w + "labs");
    for (size_t j = 0; j < py::len(labs); ++j) {
      py::dict lab = as_dict(labs[j], w + "labs");
      const std::string which = as_str(need(lab, "lab", w), w + "lab");
      const uint8_t side = (uint8_t)as_int(need(lab, "side", w), w + "side", 0, 15);
      if (which == "small") K.small_side = side;
      else if (which == "large") K.large_side = side;
      else fail(w + "unknown lab '" + which + "'");
    }
    read_mats(ed, need(k, "materials", w), w + "materials", K.mats, 15);
    auto mm = as_seq(need(k, "mechanical_men", w), w + "mechanical_men");
    for (size_t j = 0; j < py::len(mm); ++j) {
      const std::string which = as_str(need(as_dict(mm[j], w + "mechanical_men"), "lab", w), w + "mechanical_men.lab");
      if (which != "small" && which != "large") fail(w + "unknown lab '" + which + "'");
      if (++K.mech[which == "large"] > 3) fail(w + "more than 3 mechanical men");
    }
  }
  py::dict base = as_dict(value_of(expert, "base_kit", E), E + "base_kit");
  ed.base_apprentices = (uint8_t)as_int(need(base, "apprentices", E + "base_kit."), E + "base_kit.apprentices", 0, 15);
  ed.base_money = (uint16_t)as_int(need(base, "money", E + "base_kit."), E + "base_kit.money", 0, 65535);
  ed.base_small_side = (uint8_t)as_int(need(base, "small_lab_side", E + "base_kit."), E + "base_kit.small_lab_side", 3, 5);
  if (ed.base_small_side != 3 && ed.base_small_side != 5) fail(E + "base_kit.small_lab_side: must be 3 or 5");
  per_n(value_of(expert, "favours_per_player", E), E + "favours_per_player", ed.favours, 0, 3);
  per_n(value_of(expert, "same_letter_cap", E), E + "same_letter_cap", ed.letter_cap, 1, 3, true);
  const std::string err = ed.validate();
  if (!err.empty()) fail(err);
  return ed;
}

// ---- State fields ------------------------------------------------------------------------

static py::list bytes_list(const uint8_t* a, int n) {
  py::list l;
  for (int i = 0; i < n; ++i) l.append((int)a[i]);
  return l;
}

py::dict state_fields(const Game& g, const State& s) {
  const int n = g.num_players();
  py::dict o;
  o["turn"] = (int)s.turn;
  o["phase"] = s.phase <= GAME_OVER ? kPhaseNames[s.phase] : "?";
  o["actor"] = (int)s.actor;
  o["leonardo"] = (int)s.leo;
  o["pot"] = (int)s.pot;
  o["shops"] = bytes_list(s.shop, kKinds);
  o["academy"] = bytes_list(s.academy, n);
  o["mech_supply"] = (int)s.mech_supply;
  py::list row, deck;
  for (int i = 0; i < s.row_len; ++i) row.append(s.row[i] + 1);
  for (int i = 0; i < s.deck_len; ++i) deck.append(s.deck[i] + 1);
  o["row"] = row;
  o["deck"] = deck;
  o["box"] = card_list(s.box);
  o["discards"] = card_list(s.discards);
  o["completed_any"] = card_list(s.completed_any);
  o["mid_lower"] = card_list(s.mid_lower);
  o["pile_sizes"] = bytes_list(s.pile_size, 3);
  o["known_prefix"] = (int)s.known_prefix;
  py::list hist;
  for (int e = 0; e < s.hist_len; ++e) {
    if (s.hist[e] & 0x80) hist.append(py::make_tuple("look", (s.hist[e] >> 3) & 7, s.hist[e] & 7));
    else hist.append(s.hist[e] + 1);
  }
  o["history"] = hist;
  py::list looks;
  for (int i = 0; i < s.nlooks && i < 7; ++i) {
    py::list cards;
    int li = 0, m = 4;
    for (int e = 0; e < s.hist_len; ++e)
      if (s.hist[e] & 0x80 && li++ == i) m = s.hist[e] & 7;
    for (int j = 0; j < m && j < 4; ++j) cards.append(look_card(s, i, j) + 1);
    looks.append(py::make_tuple(cards, look_perm(s, i)));
  }
  o["look_cards"] = looks;
  o["step"] = (int)s.step;
  o["idx"] = (int)s.idx;
  o["area"] = (int)s.area;
  o["price"] = (int)s.price;
  o["removed"] = (int)s.removed;
  o["council_order"] = bytes_list(s.c_order, s.c_count);
  py::list claimed;
  for (int a = 0; a < 4; ++a) claimed.append(s.claimed[a] == kNone ? py::object(py::none()) : py::object(py::int_(s.claimed[a])));
  o["claimed"] = claimed;
  o["gift_done"] = (bool)s.gift_done;
  py::list pend;
  for (int i = 0; i < s.d_count && i < 5; ++i) {
    py::list seats;
    for (int p = 0; p < n; ++p)
      if ((s.d_seats[i] >> p) & 1) seats.append(p);
    pend.append(py::make_tuple(s.d_cards[i] + 1, seats));
  }
  o["pending"] = pend;
  o["pending_index"] = (int)s.d_idx;
  py::list bids;
  for (int p = 0; p < n; ++p) bids.append((int)s.bids[p]);
  o["bids"] = bids;
  py::list city;
  for (int a = 0; a < kAreas; ++a) {
    py::list area;
    for (int p = 0; p < n; ++p) {
      const uint8_t gr = s.city[a][p];
      area.append(py::make_tuple(gr & 15, (gr >> 4) & 1, gr >> 5));
    }
    city.append(area);
  }
  o["city"] = city;
  py::list players;
  for (int p = 0; p < n; ++p) {
    const Player& P = s.pl[p];
    py::dict d;
    d["money"] = (int)P.money;
    d["hand"] = bytes_list(P.hand, kKinds);
    d["apprentices"] = (int)P.apprentices;
    d["app_supply"] = (int)P.app_supply;
    d["master_in_supply"] = (bool)(P.pflags & PF_MASTER);
    d["passed"] = (bool)(P.pflags & PF_PASSED);
    d["mech_count"] = (int)P.mech_count;
    d["letters"] = (int)P.letters;
    d["placed"] = (int)P.placed;
    d["owned"] = card_list(P.owned);
    d["completed"] = card_list(P.completed);
    d["snap_turn"] = (int)P.snap_turn;
    py::list budget;
    for (int k = 0; k < kKinds; ++k) budget.append(nib(P.snap_budget, k));
    d["snap_budget"] = budget;
    py::list labs;
    for (int l = 0; l < kLabs; ++l) {
      const Lab& L = P.lab[l];
      py::dict ld;
      ld["side"] = (int)L.side;
      ld["mech"] = (int)L.mech;
      ld["apprentices"] = (int)L.app;
      ld["master"] = (bool)(L.flags & LF_MASTER);
      ld["card"] = L.card == kNone ? py::object(py::none()) : py::object(py::int_(L.card + 1));
      ld["counter"] = (int)L.counter;
      ld["start_turn"] = (int)L.start_turn;
      ld["continuing"] = (bool)(L.flags & LF_CONTINUING);
      ld["revealed"] = (bool)(L.flags & LF_REVEALED);
      ld["cand"] = card_list(L.cand);
      py::list m;
      for (int k = 0; k < kKinds; ++k) m.append(lab_mat(P, l, k));
      ld["materials"] = m;
      labs.append(ld);
    }
    d["labs"] = labs;
    players.append(d);
  }
  o["players"] = players;
  o["hash"] = s.hash;
  o["pub"] = s.pub;
  return o;
}

namespace {

void set_cards_ordered(py::handle h, const std::string& f, uint8_t* out, uint8_t& len, int cap) {
  auto seq = as_seq(h, f);
  if ((int)py::len(seq) > cap) fail(f + ": at most " + std::to_string(cap) + " cards");
  std::memset(out, 0, cap);
  len = (uint8_t)py::len(seq);
  for (size_t i = 0; i < py::len(seq); ++i) out[i] = (uint8_t)(as_int(seq[i], at(f, i), 1, kCards) - 1);
}

void set_bytes(py::handle h, const std::string& f, uint8_t* out, int n, long hi) {
  auto seq = as_seq(h, f, n);
  for (int i = 0; i < n; ++i) out[i] = (uint8_t)as_int(seq[i], at(f, i), 0, hi);
}

void set_lab(const py::dict& d, const std::string& w, Player& P, int l) {
  Lab& L = P.lab[l];
  if (d.contains("side")) L.side = (uint8_t)as_int(d["side"], w + ".side", 0, 6);
  if (d.contains("mech")) L.mech = (uint8_t)as_int(d["mech"], w + ".mech", 0, 2);
  if (d.contains("apprentices")) L.app = (uint8_t)as_int(d["apprentices"], w + ".apprentices", 0, 6);
  auto flag = [&](const char* key, uint8_t bit) {
    if (d.contains(key)) L.flags = as_bool(d[key], w + "." + key) ? (uint8_t)(L.flags | bit) : (uint8_t)(L.flags & ~bit);
  };
  flag("master", LF_MASTER);
  flag("continuing", LF_CONTINUING);
  flag("revealed", LF_REVEALED);
  if (d.contains("card")) L.card = d["card"].is_none() ? kNone : (uint8_t)(as_int(d["card"], w + ".card", 1, kCards) - 1);
  if (d.contains("counter")) L.counter = (uint8_t)as_int(d["counter"], w + ".counter", 0, 15);
  if (d.contains("start_turn")) L.start_turn = (uint8_t)as_int(d["start_turn"], w + ".start_turn", 0, 15);
  if (d.contains("cand")) L.cand = card_set(d["cand"], w + ".cand");
  if (d.contains("materials")) {
    auto seq = as_seq(d["materials"], w + ".materials", kKinds);
    for (int k = 0; k < kKinds; ++k) set_lab_mat(P, l, k, (int)as_int(seq[k], at(w + ".materials", k), 0, 15));
  }
}

}  // namespace

State state_with_fields(const Game& g, const State& base, const py::dict& d, bool placeholder) {
  const int n = g.num_players();
  State s = base;
  py::object want_hash, want_pub;   // derived: given back by fields(), checked, never set
  for (auto item : d) {
    const std::string key = as_str(item.first, "fields");
    py::handle v = item.second;
    if (key == "hash") want_hash = py::reinterpret_borrow<py::object>(v);
    else if (key == "pub") want_pub = py::reinterpret_borrow<py::object>(v);
    else if (key == "turn") s.turn = (uint8_t)as_int(v, key, 0, 15);
    else if (key == "phase") {
      int ph = -1;
      if (PyUnicode_Check(v.ptr())) {
        const std::string t = v.cast<std::string>();
        for (int i = 0; i <= GAME_OVER; ++i)
          if (t == kPhaseNames[i]) ph = i;
        if (ph < 0) fail("phase: unknown phase '" + t + "'");
      } else ph = (int)as_int(v, key, 0, GAME_OVER);
      s.phase = (uint8_t)ph;
    } else if (key == "actor") s.actor = (uint8_t)as_int(v, key, 0, n - 1);
    else if (key == "leonardo") s.leo = (uint8_t)as_int(v, key, 0, n - 1);
    else if (key == "pot") s.pot = (uint16_t)as_int(v, key, 0, 65535);
    else if (key == "shops") set_bytes(v, key, s.shop, kKinds, 15);
    else if (key == "academy") set_bytes(v, key, s.academy, n, 15);
    else if (key == "mech_supply") s.mech_supply = (uint8_t)as_int(v, key, 0, 15);
    else if (key == "row") set_cards_ordered(v, key, s.row, s.row_len, 5);
    else if (key == "deck") set_cards_ordered(v, key, s.deck, s.deck_len, kCards);
    else if (key == "box") s.box = card_set(v, key);
    else if (key == "discards") s.discards = card_set(v, key);
    else if (key == "completed_any") s.completed_any = card_set(v, key);
    else if (key == "mid_lower") s.mid_lower = card_set(v, key);
    else if (key == "pile_sizes") set_bytes(v, key, s.pile_size, 3, kCards);
    else if (key == "known_prefix") s.known_prefix = (uint8_t)as_int(v, key, 0, 4);
    else if (key == "history") {
      auto seq = as_seq(v, key);
      if (py::len(seq) > sizeof s.hist) fail(key + ": at most 32 events");
      std::memset(s.hist, 0, sizeof s.hist);
      s.hist_len = (uint8_t)py::len(seq);
      for (size_t i = 0; i < py::len(seq); ++i) {
        // A draw is a card number 1..25; a Council look is ["look", seat, m].
        py::handle e = seq[i];
        if (PyList_Check(e.ptr()) || PyTuple_Check(e.ptr())) {
          auto l = as_seq(e, at(key, i), 3);
          if (as_str(l[0], at(key, i)) != "look") fail(at(key, i) + ": expected [\"look\", seat, m]");
          const int q = (int)as_int(l[1], at(key, i) + ".seat", 0, n - 1), m = (int)as_int(l[2], at(key, i) + ".m", 1, 4);
          s.hist[i] = (uint8_t)(0x80 | (q << 3) | m);
        } else {
          s.hist[i] = (uint8_t)(as_int(e, at(key, i), 1, kCards) - 1);
        }
      }
    } else if (key == "look_cards") {
      auto seq = as_seq(v, key);
      if (py::len(seq) > 7) fail(key + ": at most 7 looks");
      std::memset(s.look_cards, 0, sizeof s.look_cards);
      s.nlooks = (uint8_t)py::len(seq);
      for (size_t i = 0; i < py::len(seq); ++i) {
        auto l = as_seq(seq[i], at(key, i), 2);
        auto cards = as_seq(l[0], at(key, i) + ".cards");
        if (py::len(cards) > 4) fail(at(key, i) + ".cards: at most 4");
        for (size_t j = 0; j < py::len(cards); ++j) s.look_cards[i][j] = (uint8_t)(as_int(cards[j], at(key, i) + ".cards", 1, kCards) - 1);
        const int perm = (int)as_int(l[1], at(key, i) + ".order", 0, 23);
        s.look_cards[i][0] |= (uint8_t)((perm & 7) << 5);
        s.look_cards[i][1] |= (uint8_t)((perm >> 3) << 5);
      }
    } else if (key == "step") s.step = (uint8_t)as_int(v, key, 0, 4);
    else if (key == "idx") s.idx = (uint8_t)as_int(v, key, 0, 5);
    else if (key == "area") s.area = (uint8_t)as_int(v, key, 0, 7);
    else if (key == "price") s.price = (uint8_t)as_int(v, key, 0, 3);
    else if (key == "removed") s.removed = (uint8_t)as_int(v, key, 0, (1 << n) - 1);
    else if (key == "council_order") {
      auto seq = as_seq(v, key);
      if ((int)py::len(seq) > n) fail(key + ": too many seats");
      std::memset(s.c_order, 0, sizeof s.c_order);
      s.c_count = (uint8_t)py::len(seq);
      for (size_t i = 0; i < py::len(seq); ++i) s.c_order[i] = (uint8_t)as_int(seq[i], at(key, i), 0, n - 1);
    } else if (key == "claimed") {
      auto seq = as_seq(v, key, 4);
      for (int a = 0; a < 4; ++a) s.claimed[a] = seq[a].is_none() ? kNone : (uint8_t)as_int(seq[a], at(key, a), 0, n - 1);
    } else if (key == "gift_done") s.gift_done = as_bool(v, key);
    else if (key == "city") {
      auto areas = as_seq(v, key, kAreas);
      std::memset(s.city, 0, sizeof s.city);
      for (int a = 0; a < kAreas; ++a) {
        auto seats = as_seq(areas[a], at(key, a), n);
        for (int p = 0; p < n; ++p) {
          auto g3 = as_seq(seats[p], at(at(key, a), p), 3);
          const int app = (int)as_int(g3[0], "city apprentices", 0, 15);
          const int m = as_bool(g3[1], "city master");
          const int pos = (int)as_int(g3[2], "city position", 0, 5);
          s.city[a][p] = (uint8_t)(app | (m << 4) | (pos << 5));
        }
      }
    } else if (key == "players") {
      auto seq = as_seq(v, key, n);
      for (int p = 0; p < n; ++p) {
        py::dict pd = as_dict(seq[p], at(key, p));
        Player& P = s.pl[p];
        const std::string w = at(key, p);
        for (auto it : pd) {
          const std::string k = as_str(it.first, w);
          py::handle x = it.second;
          if (k == "money") P.money = (uint16_t)as_int(x, w + ".money", 0, 65535);
          else if (k == "hand") set_bytes(x, w + ".hand", P.hand, kKinds, 15);
          else if (k == "apprentices") P.apprentices = (uint8_t)as_int(x, w + "." + k, 0, 15);
          else if (k == "app_supply") P.app_supply = (uint8_t)as_int(x, w + "." + k, 0, 15);
          else if (k == "master_in_supply") P.pflags = as_bool(x, w + "." + k) ? (uint8_t)(P.pflags | PF_MASTER) : (uint8_t)(P.pflags & ~PF_MASTER);
          else if (k == "passed") P.pflags = as_bool(x, w + "." + k) ? (uint8_t)(P.pflags | PF_PASSED) : (uint8_t)(P.pflags & ~PF_PASSED);
          else if (k == "mech_count") P.mech_count = (uint8_t)as_int(x, w + "." + k, 0, 3);
          else if (k == "letters") P.letters = (uint8_t)as_int(x, w + "." + k, 0, 255);
          else if (k == "placed") P.placed = (uint16_t)as_int(x, w + "." + k, 0, 0x3FF);
          else if (k == "owned") P.owned = card_set(x, w + "." + k);
          else if (k == "completed") P.completed = card_set(x, w + "." + k);
          else if (k == "snap_turn") P.snap_turn = (uint8_t)as_int(x, w + "." + k, 0, 15);
          else if (k == "snap_budget") {
            auto b = as_seq(x, w + "." + k, kKinds);
            for (int kk = 0; kk < kKinds; ++kk) set_nib(P.snap_budget, kk, (int)as_int(b[kk], at(w + "." + k, kk), 0, 15));
          } else if (k == "labs") {
            auto labs = as_seq(x, w + ".labs", kLabs);
            for (int l = 0; l < kLabs; ++l) set_lab(as_dict(labs[l], at(w + ".labs", l)), at(w + ".labs", l), P, l);
          } else fail(w + "." + k + ": unknown field");
        }
      }
    } else if (key == "bids") {
      auto seq = as_seq(v, key, n);
      for (int p = 0; p < n; ++p) s.bids[p] = (uint16_t)as_int(seq[p], at(key, p), 0, 65535);
    } else if (key == "pending") {
      auto seq = as_seq(v, key);
      if (py::len(seq) > 5) fail(key + ": at most 5 cards");
      s.d_count = (uint8_t)py::len(seq);
      std::memset(s.d_cards, 0, sizeof s.d_cards);
      std::memset(s.d_seats, 0, sizeof s.d_seats);
      for (size_t i = 0; i < py::len(seq); ++i) {
        auto e = as_seq(seq[i], at(key, i), 2);
        s.d_cards[i] = (uint8_t)(as_int(e[0], at(key, i) + ".card", 1, kCards) - 1);
        auto seats = as_seq(e[1], at(key, i) + ".seats");
        for (size_t j = 0; j < py::len(seats); ++j) s.d_seats[i] |= (uint8_t)(1u << as_int(seats[j], at(key, i) + ".seats", 0, n - 1));
      }
    } else if (key == "pending_index") s.d_idx = (uint8_t)as_int(v, key, 0, 5);
    else fail(key + ": unknown field (or not settable)");
  }
  g.rekey(s);
  const std::string err = g.validate(s, !placeholder);
  if (!err.empty()) fail(err);
  if (want_hash && atelier::bind::as_seed(want_hash, "hash") != s.hash)
    fail("hash: derived from the other fields (" + std::to_string(s.hash) + " for them), got " + py::str(want_hash).cast<std::string>());
  if (want_pub && atelier::bind::as_seed(want_pub, "pub") != s.pub)
    fail("pub: derived from the other fields (" + std::to_string(s.pub) + " for them), got " + py::str(want_pub).cast<std::string>());
  if (placeholder) return s;   // settled once the hidden parts are resampled (position.py)
  g.settle(s);
  g.rekey(s);
  return s;
}

}  // namespace atelier::leonardo::bind
