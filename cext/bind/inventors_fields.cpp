// Dict <-> struct conversions for the Inventors binding. Every value from Python is checked
// against the width of the packed field it lands in before it is stored (a level of 300 must
// be an error, not a silent wrap to 44), and the result then goes through the core's own
// validate(), so nothing unchecked ever reaches the rules.
#include <algorithm>
#include <cstring>

#include "inventors_bind.hpp"

namespace atelier::inventors::bind {

namespace {

const char* const kPhaseNames[4] = {"CHANCE_REVEAL", "MAIN", "REWARD", "TERMINAL"};

py::object need(const py::dict& d, const char* key, const std::string& where) {
  if (!d.contains(key)) fail(where + key + ": missing");
  return d[key];
}

std::string as_str(py::handle h, const std::string& field) { return as_text(h, field); }

// Ids are typed in moves ("work:tesla:II07"); bounded so that every move and reveal of any
// edition stays within the binding's move-text limit (8 cards * (64 + 9) + 7 < 4096 bytes).
constexpr size_t kMaxIdBytes = 64;
std::string as_id(py::handle h, const std::string& field) { return as_text(h, field, kMaxIdBytes); }

uint8_t pack_pair(py::handle h, const std::string& field) {
  auto seq = as_seq(h, field, 2);
  long a = as_int(seq[0], at(field, 0), 0, kTokenKinds - 1);
  long b = as_int(seq[1], at(field, 1), 0, kTokenKinds - 1);
  return (uint8_t)(std::min(a, b) | (std::max(a, b) << 4));
}

py::list unpack_pair(uint8_t t) { return py::cast(std::vector<int>{t & 0xF, t >> 4}); }

}  // namespace

// ---- Edition -------------------------------------------------------------------------------

Edition edition_from_dict(const py::dict& d) {  // d: checked by the caller
  Edition ed{};
  auto invs = as_seq(need(d, "inventors", ""), "inventors", kTeams);
  for (int t = 0; t < kTeams; t++) {
    auto team = as_seq(invs[t], at("inventors", t), kInventorsPerTeam);
    for (int i = 0; i < kInventorsPerTeam; i++) {
      std::string f = at(at("inventors", t), i);
      auto inv = as_dict(team[i], f);
      auto start = as_seq(need(inv, "start", f + "."), f + ".start", kDisciplines);
      auto goal = as_seq(need(inv, "goal", f + "."), f + ".goal", kDisciplines);
      for (int k = 0; k < kDisciplines; k++) {
        ed.inventors[t][i].start[k] = (uint8_t)as_int(start[k], at(f + ".start", k), 0, 4);
        ed.inventors[t][i].goal[k] = (uint8_t)as_int(goal[k], at(f + ".goal", k), 0, 4);
      }
      ed.inventors[t][i].goal_vp = (uint8_t)as_int(need(inv, "goal_vp", f + "."), f + ".goal_vp", 0, 63);
    }
  }
  auto cards = as_seq(need(d, "cards", ""), "cards", kCards);
  for (int c = 0; c < kCards; c++) {
    std::string f = at("cards", c);
    auto card = as_dict(cards[c], f);
    ed.cards[c].age = (uint8_t)as_int(need(card, "age", f + "."), f + ".age", 1, 3);
    ed.cards[c].type = (uint8_t)as_int(need(card, "type", f + "."), f + ".type", 0, kTypes - 1);
    auto cost = as_seq(need(card, "cost", f + "."), f + ".cost", kDisciplines);
    for (int k = 0; k < kDisciplines; k++)
      ed.cards[c].cost[k] = (uint8_t)as_int(cost[k], at(f + ".cost", k), 0, 7);
  }
  auto tc = as_seq(need(d, "token_count", ""), "token_count", kTokenKinds);
  for (int k = 0; k < kTokenKinds; k++) ed.token_count[k] = (uint8_t)as_int(tc[k], at("token_count", k), 0, 15);

  auto team_ids = as_seq(need(d, "team_ids", ""), "team_ids", kTeams);
  auto inv_ids = as_seq(need(d, "inventor_ids", ""), "inventor_ids", kTeams);
  auto inv_names = as_seq(need(d, "inventor_names", ""), "inventor_names", kTeams);
  for (int t = 0; t < kTeams; t++) {
    ed.team_ids[t] = as_id(team_ids[t], at("team_ids", t));
    auto ids = as_seq(inv_ids[t], at("inventor_ids", t), kInventorsPerTeam);
    auto names = as_seq(inv_names[t], at("inventor_names", t), kInventorsPerTeam);
    for (int i = 0; i < kInventorsPerTeam; i++) {
      ed.inventor_ids[t][i] = as_id(ids[i], at(at("inventor_ids", t), i));
      ed.inventor_names[t][i] = as_str(names[i], at(at("inventor_names", t), i));
    }
  }
  auto card_ids = as_seq(need(d, "card_ids", ""), "card_ids", kCards);
  auto card_names = as_seq(need(d, "card_names", ""), "card_names", kCards);
  for (int c = 0; c < kCards; c++) {
    ed.card_ids[c] = as_id(card_ids[c], at("card_ids", c));
    ed.card_names[c] = as_str(card_names[c], at("card_names", c));
  }
  std::string err = ed.validate();
  if (!err.empty()) fail(err);
  return ed;
}

py::dict edition_to_dict(const Edition& ed) {
  py::list invs, cards, tc, team_ids, inv_ids, inv_names, card_ids, card_names;
  for (int t = 0; t < kTeams; t++) {
    py::list team, ids, names;
    for (int i = 0; i < kInventorsPerTeam; i++) {
      const auto& v = ed.inventors[t][i];
      py::dict inv;
      inv["start"] = std::vector<int>(v.start, v.start + kDisciplines);
      inv["goal"] = std::vector<int>(v.goal, v.goal + kDisciplines);
      inv["goal_vp"] = (int)v.goal_vp;
      team.append(inv);
      ids.append(ed.inventor_ids[t][i]);
      names.append(ed.inventor_names[t][i]);
    }
    invs.append(team);
    inv_ids.append(ids);
    inv_names.append(names);
    team_ids.append(ed.team_ids[t]);
  }
  for (int c = 0; c < kCards; c++) {
    py::dict card;
    card["age"] = (int)ed.cards[c].age;
    card["type"] = (int)ed.cards[c].type;
    card["cost"] = std::vector<int>(ed.cards[c].cost, ed.cards[c].cost + kDisciplines);
    cards.append(card);
    card_ids.append(ed.card_ids[c]);
    card_names.append(ed.card_names[c]);
  }
  for (int k = 0; k < kTokenKinds; k++) tc.append((int)ed.token_count[k]);
  py::dict d;
  d["inventors"] = invs;
  d["cards"] = cards;
  d["token_count"] = tc;
  d["team_ids"] = team_ids;
  d["inventor_ids"] = inv_ids;
  d["inventor_names"] = inv_names;
  d["card_ids"] = card_ids;
  d["card_names"] = card_names;
  return d;
}

// ---- State ---------------------------------------------------------------------------------

py::dict state_fields(const Game& g, const State& s) {
  const int n = g.num_players();
  py::dict d;
  d["age"] = (int)s.age;
  d["phase"] = s.phase < 4 ? kPhaseNames[s.phase] : "?";
  d["active"] = (int)s.active;
  d["statuette"] = (int)s.statuette;
  py::list levels, busy, hand, won;
  for (int p = 0; p < n; p++) {
    py::list lv, bz;
    for (int i = 0; i < kInventorsPerTeam; i++) {
      std::vector<int> row(kDisciplines);
      for (int k = 0; k < kDisciplines; k++) row[k] = s.level(p, i, k);
      lv.append(py::cast(row));
      bz.append(py::bool_(((s.busy[p] >> i) & 1) != 0));
    }
    levels.append(lv);
    busy.append(bz);
    hand.append(py::cast(std::vector<int>(s.hand[p], s.hand[p] + kTokenKinds)));
    py::list w;
    for (int c = 0; c < kCards; c++)
      if ((s.won[p] >> c) & 1) w.append(c);
    won.append(w);
  }
  d["levels"] = levels;
  d["busy"] = busy;
  d["hand"] = hand;
  d["won"] = won;
  d["bag"] = std::vector<int>(s.bag, s.bag + kTokenKinds);
  py::list display;
  for (int j = 0; j < s.ndisplay && j < kMaxDisplay; j++) {
    const auto& dc = s.display[j];
    py::dict c;
    c["card"] = (int)dc.card;
    c["tokens"] = unpack_pair(dc.tokens);
    c["filled"] = std::vector<int>(dc.filled, dc.filled + kDisciplines);
    c["cubes"] = std::vector<int>(dc.cubes, dc.cubes + n);
    display.append(c);
  }
  d["display"] = display;
  if (s.phase == REWARD) {
    py::dict r, left;
    r["card"] = (int)s.rw_card;
    r["tokens"] = unpack_pair(s.rw_tokens);
    left["card"] = py::bool_((s.rw_left & 1) != 0);
    py::list lt;
    if (s.rw_left & 2) lt.append(s.rw_tokens & 0xF);
    if (s.rw_left & 4) lt.append(s.rw_tokens >> 4);
    left["tokens"] = lt;
    r["left"] = left;
    r["cubes"] = std::vector<int>(s.rw_cubes, s.rw_cubes + n);
    r["seats"] = std::vector<int>(s.rw_seats, s.rw_seats + std::min<int>(s.rw_count, 3));
    r["index"] = (int)s.rw_index;
    d["reward"] = r;
  } else {
    d["reward"] = py::none();
  }
  return d;
}

State state_from_fields(const Game& g, const py::dict& d) {
  const int n = g.num_players();
  State s{};
  s.age = (uint8_t)as_int(need(d, "age", ""), "age", 1, kAges);
  py::object ph = need(d, "phase", "");
  if (PyUnicode_Check(ph.ptr())) {
    std::string name = as_text(ph, "phase", 64);
    auto it = std::find(kPhaseNames, kPhaseNames + 4, name);
    if (it == kPhaseNames + 4)
      fail("phase: " + quoted(ph) + " is not one of CHANCE_REVEAL, MAIN, REWARD, TERMINAL");
    s.phase = (uint8_t)(it - kPhaseNames);
  } else {
    s.phase = (uint8_t)as_int(ph, "phase", 0, 3);
  }
  s.active = (uint8_t)as_int(need(d, "active", ""), "active", 0, n - 1);
  s.statuette = (uint8_t)as_int(need(d, "statuette", ""), "statuette", 0, n - 1);

  auto levels = as_seq(need(d, "levels", ""), "levels", n);
  auto busy = as_seq(need(d, "busy", ""), "busy", n);
  auto hand = as_seq(need(d, "hand", ""), "hand", n);
  auto won = as_seq(need(d, "won", ""), "won", n);
  for (int p = 0; p < n; p++) {
    auto lv = as_seq(levels[p], at("levels", p), kInventorsPerTeam);
    auto bz = as_seq(busy[p], at("busy", p), kInventorsPerTeam);
    for (int i = 0; i < kInventorsPerTeam; i++) {
      auto row = as_seq(lv[i], at(at("levels", p), i), kDisciplines);
      for (int k = 0; k < kDisciplines; k++) {
        uint64_t v = (uint64_t)as_int(row[k], at(at(at("levels", p), i), k), 0, 4);
        s.levels[p] |= v << (4 * (4 * i + k));
      }
      if (as_bool(bz[i], at(at("busy", p), i))) s.busy[p] |= (uint8_t)(1u << i);
    }
    auto h = as_seq(hand[p], at("hand", p), kTokenKinds);
    for (int k = 0; k < kTokenKinds; k++) s.hand[p][k] = (uint8_t)as_int(h[k], at(at("hand", p), k), 0, 15);
    auto w = as_seq(won[p], at("won", p));
    for (size_t j = 0; j < py::len(w); j++) {
      long c = as_int(w[j], at(at("won", p), j), 0, kCards - 1);
      if ((s.won[p] >> c) & 1) fail(at(at("won", p), j) + ": card " + std::to_string(c) + " listed twice");
      s.won[p] |= 1ULL << c;
    }
  }
  auto bag = as_seq(need(d, "bag", ""), "bag", kTokenKinds);
  for (int k = 0; k < kTokenKinds; k++) s.bag[k] = (uint8_t)as_int(bag[k], at("bag", k), 0, 15);

  auto display = as_seq(need(d, "display", ""), "display");
  if ((long)py::len(display) > kMaxDisplay)
    fail("display: " + std::to_string(py::len(display)) + " cards, at most " + std::to_string(kMaxDisplay));
  s.ndisplay = (uint8_t)py::len(display);
  uint64_t seen = 0;
  for (int j = 0; j < s.ndisplay; j++) {
    std::string f = at("display", j);
    auto c = as_dict(display[j], f);
    DisplayCard& dc = s.display[j];
    dc.card = (uint8_t)as_int(need(c, "card", f + "."), f + ".card", 0, kCards - 1);
    if ((seen >> dc.card) & 1) fail(f + ".card: card " + std::to_string(dc.card) + " shown twice");
    seen |= 1ULL << dc.card;
    dc.tokens = pack_pair(need(c, "tokens", f + "."), f + ".tokens");
    auto filled = as_seq(need(c, "filled", f + "."), f + ".filled", kDisciplines);
    for (int k = 0; k < kDisciplines; k++) dc.filled[k] = (uint8_t)as_int(filled[k], at(f + ".filled", k), 0, 7);
    auto cubes = as_seq(need(c, "cubes", f + "."), f + ".cubes", n);
    for (int p = 0; p < n; p++) dc.cubes[p] = (uint8_t)as_int(cubes[p], at(f + ".cubes", p), 0, 28);
  }
  // The core keeps the display in edition order (canonical move order depends on it).
  std::sort(s.display, s.display + s.ndisplay,
            [](const DisplayCard& a, const DisplayCard& b) { return a.card < b.card; });

  py::object rw = d.contains("reward") ? py::object(d["reward"]) : py::object(py::none());
  if (s.phase == REWARD && rw.is_none()) fail("reward: required in phase REWARD");
  if (s.phase != REWARD && !rw.is_none()) fail("reward: only allowed in phase REWARD");
  if (!rw.is_none()) {
    auto r = as_dict(rw, "reward");
    s.rw_card = (uint8_t)as_int(need(r, "card", "reward."), "reward.card", 0, kCards - 1);
    s.rw_tokens = pack_pair(need(r, "tokens", "reward."), "reward.tokens");
    auto left = as_dict(need(r, "left", "reward."), "reward.left");
    if (as_bool(need(left, "card", "reward.left."), "reward.left.card")) s.rw_left |= 1;
    auto lt = as_seq(need(left, "tokens", "reward.left."), "reward.left.tokens");
    const unsigned lo = s.rw_tokens & 0xF, hi = s.rw_tokens >> 4;
    for (size_t j = 0; j < py::len(lt); j++) {
      std::string f = at("reward.left.tokens", j);
      unsigned k = (unsigned)as_int(lt[j], f, 0, kTokenKinds - 1);
      // Of two equal tokens, the low one is taken first; the one left is the high one.
      if (k == hi && !(s.rw_left & 4)) s.rw_left |= 4;
      else if (k == lo && !(s.rw_left & 2)) s.rw_left |= 2;
      else fail(f + ": no such token left on the card");
    }
    auto cubes = as_seq(need(r, "cubes", "reward."), "reward.cubes", n);
    for (int p = 0; p < n; p++) s.rw_cubes[p] = (uint8_t)as_int(cubes[p], at("reward.cubes", p), 0, 28);
    auto seats = as_seq(need(r, "seats", "reward."), "reward.seats");
    if (py::len(seats) < 1 || py::len(seats) > 3) fail("reward.seats: expected 1 to 3 seats");
    s.rw_count = (uint8_t)py::len(seats);
    for (int j = 0; j < s.rw_count; j++) s.rw_seats[j] = (uint8_t)as_int(seats[j], at("reward.seats", j), 0, n - 1);
    s.rw_index = (uint8_t)as_int(need(r, "index", "reward."), "reward.index", 0, s.rw_count - 1);
  }
  // Every index is in range now, so hashing is safe; validate() then checks spec 4.1.
  s.hash = g.compute_hash(s);
  std::string err = g.validate(s);
  if (!err.empty()) fail(err);
  return s;
}

}  // namespace atelier::inventors::bind
