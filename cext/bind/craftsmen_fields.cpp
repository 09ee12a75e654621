// The full Craftsmen state as a Python dict and back (tests, positions): every field, with
// names. state_fields writes every byte of State that can differ between two states (stale
// bookkeeping such as a finished payment's card included), so state_with_fields(fields(s)) == s;
// state_with_fields checks each value against its field's width and then the core's validate.
#include "craftsmen_bind.hpp"
#include "craftsmen/knowledge.hpp"

#include <algorithm>
#include <vector>

#include "common.hpp"

namespace atelier::craftsmen::bind {

namespace {
const char* const kPhaseNames[kPhases] = {
    "MULLIGAN", "HELPER", "STACK", "STACK_PAY", "WINDOW", "BANK1", "BANK2", "BANK_PRIV", "DISCARD",
    "BUILD1", "BUILD2", "PAY", "NOTARY1", "NOTARY2", "NOTARY3", "BID", "MAYOR_BID", "KEEP", "RETURN",
    "MERCH", "MERCH_PAY", "COMPENSATE", "TOWN", "CRAFT", "WPUSE", "SEND", "REWARD", "LOAD", "CONTRIB",
    "LIMIT", "CHANCE", "TERMINAL", "RUN"};
const char* const kFlowNames[kFlows] = {"NONE", "HELPER", "STAGE", "NEXT_HELPER", "ACTION_END", "STAGE_WINDOWS",
                                        "FINAL", "ROUND_END", "YEAR_END", "CONTRIB", "NEW_ROUND", "MULLIGAN"};
const char* const kDestNames[] = {"NONE", "MONEY_HAND", "DISPLAY", "MAYOR", "BUILDING_HAND", "FACEUP", "POOL"};
constexpr int kDests = 7;
const char* const kAfterNames[kAfters] = {"NONE", "BANK_PRIV", "BANK_DISCARD_DONE", "BANK_END", "REWARD_DONE", "FLOW",
                                          "LOOK_KEEP", "NOTARY_DONE", "MAYOR", "BUILD_PAID", "BUY_PAID", "WIN_PAID",
                                          "MULLIGAN", "STACK_PLACE"};
const char* const kWindowNames[3] = {"action_start", "action_end", "stage"};

py::object seat_or_none(uint8_t v) { return v == kNoSeat ? py::object(py::none()) : py::object(py::int_((int)v)); }
py::object name_or_none(uint8_t v, const std::string* names, int count) {
  return v < count ? py::object(py::str(names[v])) : py::object(py::none());
}

py::dict money_dict(const uint8_t* c) {
  py::dict d;
  for (int t = 0; t < kMoneyTypes; ++t)
    if (c[t]) d[py::str(std::string(1, kColourLetters[t / kValues]) + std::to_string(t % kValues + 1))] = (int)c[t];
  return d;
}

std::vector<std::string> ids_sorted_by_pos(const Game& g, const State& s, uint8_t loc, int lo, int hi) {
  std::vector<std::pair<int, int>> v;
  for (int b = lo; b < hi; ++b)
    if (s.bloc[b] == loc) v.push_back({s.bpos[b], b});
  std::sort(v.begin(), v.end());
  std::vector<std::string> out;
  for (auto& x : v) out.push_back(g.edition().building_ids[x.second]);
  return out;
}
}  // namespace

// What each seat knows beyond what the places say (knowledge.hpp, spec 6.2): cards of other hands
// it has seen, by type; and each building whose knowers differ from its place's default (a
// public place: all; a hand: its holder; a look pool: the looker; a deck: nobody).
uint8_t default_knowers(const State& s, int b, int n) {
  const uint8_t k = s.bloc[b] & 0xF0;
  if (k == B_BOX || k == B_ROW || k == B_FACEUP) return (uint8_t)((1u << n) - 1);
  if (k == B_HAND) return (uint8_t)(1u << (s.bloc[b] & 0xF));
  if (k == B_POOL) return s.h_seat < n ? (uint8_t)(1u << s.h_seat) : 0;
  return 0;
}

py::dict knowledge_fields(const Game& g, const State& s) {
  const int n = g.num_players();
  py::list money;
  for (int o = 0; o < n; ++o)
    for (int q = 0; q < n; ++q) {
      if (o == q) continue;
      uint8_t c[kMoneyTypes];
      bool any = false;
      for (int t = 0; t < kMoneyTypes; ++t) any |= (c[t] = (uint8_t)known_money(s, o, q, t)) != 0;
      if (!any) continue;
      py::dict e;
      e["seat"] = o;
      e["of"] = q;
      e["cards"] = money_dict(c);
      money.append(e);
    }
  py::dict buildings;
  for (int b = 0; b < kBuildings; ++b) {
    if (s.bknow[b] == default_knowers(s, b, n)) continue;
    py::dict e;
    std::vector<int> seats;
    for (int q = 0; q < n; ++q)
      if ((s.bknow[b] >> q) & 1) seats.push_back(q);
    e["known_to"] = seats;
    if (s.bknow[b] & kKnowGroup) e["returns"] = (s.bknow[b] & kKnowFaceUp) ? "face_up" : "drawn";
    buildings[py::str(g.edition().building_ids[b])] = e;
  }
  py::dict d;
  d["money"] = money;
  d["buildings"] = buildings;
  return d;
}

py::dict state_fields(const Game& g, const State& s) {
  const Edition& e = g.edition();
  const int n = g.num_players();
  py::dict d;
  d["year"] = (int)s.year;
  d["season"] = (int)s.season;
  d["phase"] = s.phase < kPhases ? kPhaseNames[s.phase] : "?";
  d["flow"] = s.flow < kFlows ? kFlowNames[s.flow] : "?";
  d["actor"] = (int)s.actor;
  std::vector<int> order(s.turn_order, s.turn_order + n);
  d["turn_order"] = order;
  py::list seats;
  for (int p = 0; p < n; ++p) {
    const Seat& st = s.seat[p];
    py::dict q;
    q["ap"] = (int)st.ap;
    q["home"] = (int)st.home;
    q["passed"] = (bool)st.passed;
    q["market"] = (int)st.market;
    q["priv_tokens"] = (int)st.priv;
    q["work_tokens"] = (int)st.work;
    q["supply"] = (int)st.supply;
    q["contributed"] = (bool)st.contributed;
    q["mulliganed"] = (bool)st.mulliganed;
    std::vector<std::string> bonus;
    for (int f = 0; f < kFinal; ++f)
      if (st.bonus & (1u << f)) bonus.push_back(e.product_names[kRaw + kSemi + f]);
    q["bonus"] = bonus;
    q["money"] = money_dict(s.money[M_HAND0 + p]);
    q["hand"] = ids_sorted_by_pos(g, s, (uint8_t)(B_HAND | p), 0, kBuildings);
    q["row"] = ids_sorted_by_pos(g, s, (uint8_t)(B_ROW | p), 0, kBuildings);
    py::dict filled;
    for (int b = 0; b < kBuildings; ++b)
      if (s.bloc[b] == (B_ROW | p) && s.bfill[b]) {
        std::vector<std::string> icons;
        for (int i = 0; i < e.b[b].ninputs; ++i)
          if (s.bfill[b] & (1u << i)) icons.push_back(e.product_names[e.b[b].inputs[i]]);
        filled[py::str(e.building_ids[b])] = icons;
      }
    q["filled"] = filled;
    seats.append(q);
  }
  d["seats"] = seats;
  d["display"] = money_dict(s.money[M_DISPLAY]);
  d["discard"] = money_dict(s.money[M_DISCARD]);
  d["money_deck"] = money_dict(s.money[M_DECK]);
  d["mayor"] = money_dict(s.money[M_MAYOR]);
  py::dict decks;
  for (int t = BASIC; t <= ADVANCED; ++t) {
    const int lo = t == BASIC ? kFirstBasic : t == EXTENDED ? kFirstExtended : kFirstAdvanced;
    const int hi = t == BASIC ? kFirstExtended : t == EXTENDED ? kFirstAdvanced : kBuildings;
    py::dict k;
    k["faceup"] = ids_sorted_by_pos(g, s, B_FACEUP, lo, hi);
    k["top"] = ids_sorted_by_pos(g, s, B_TOP, lo, hi);
    py::list segs;
    for (int sg = 0; sg < 2; ++sg) segs.append(ids_sorted_by_pos(g, s, (uint8_t)(B_SEG | sg), lo, hi));
    k["segments"] = segs;
    k["bottom"] = ids_sorted_by_pos(g, s, B_BOTTOM, lo, hi);
    k["pool"] = ids_sorted_by_pos(g, s, B_POOL, lo, hi);
    // Where the known sequences sit (6.4 bookkeeping): only their order matters to the rules,
    // but a state is equal to another only with the same slots.
    std::vector<int> ts, bs;
    for (int b = lo; b < hi; ++b) {
      if (s.bloc[b] == B_TOP) ts.push_back(s.bpos[b]);
      if (s.bloc[b] == B_BOTTOM) bs.push_back(s.bpos[b]);
    }
    std::sort(ts.begin(), ts.end());
    std::sort(bs.begin(), bs.end());
    k["top_slots"] = ts;
    k["bottom_slots"] = bs;
    k["next_top"] = (int)s.deck_top[t];
    k["next_bottom"] = (int)s.deck_bottom[t];
    decks[kTierNames[t]] = k;
  }
  d["decks"] = decks;
  d["box"] = ids_sorted_by_pos(g, s, B_BOX, 0, kMills);
  py::list guilds;
  for (int gi = 0; gi < kGuilds; ++gi) {
    py::list spaces;
    for (int sp = 0; sp < kSpaces; ++sp) {
      py::list discs;
      for (int l = 0; l < 2; ++l) {
        const uint8_t v = s.guild[gi][sp][l];
        if (v == kNoSeat) discs.append(py::none());
        else {
          py::dict disc;
          disc["seat"] = (int)(v & 0x7F);
          disc["privileged"] = (bool)(v & 0x80);
          discs.append(disc);
        }
      }
      spaces.append(discs);
    }
    guilds.append(spaces);
  }
  d["guilds"] = guilds;
  std::vector<int> track;
  for (int i = 0; i < 3; ++i)
    if (s.order_track[i] != kNoSeat) track.push_back(s.order_track[i]);
  d["order_track"] = track;
  // Warehouse and ships: None = empty, "neutral", or a seat number.
  py::dict wh;
  for (int w = 0; w < kWarehouseGoods; ++w) {
    py::list slots;
    for (int l = 0; l < 2; ++l) {
      const uint8_t v = s.warehouse[w][l];
      if (v == 0) slots.append(py::none());
      else if (v == 1) slots.append("neutral");
      else slots.append((int)(v - 2));
    }
    wh[py::str(e.product_names[e.warehouse_product[w]])] = slots;
  }
  d["warehouse"] = wh;
  py::list ships;
  for (int k = 0; k < kShips; ++k) {
    py::dict rows;
    for (int r = 0; r < e.ships[k].nrows; ++r) {
      py::list slots;
      for (int l = 0; l < 2; ++l) {
        const uint8_t v = s.ship[k][r][l];
        if (v == 0) slots.append(py::none());
        else slots.append((int)(v - 1));
      }
      rows[py::str(e.product_names[e.ships[k].product[r]])] = slots;
    }
    ships.append(rows);
  }
  d["ships"] = ships;
  d["neutral_supply"] = (int)s.neutral_supply;
  d["bank_priv"] = (int)s.bank_priv;
  d["bank_work"] = (int)s.bank_work;
  std::vector<std::string> unclaimed;
  for (int f = 0; f < kFinal; ++f)
    if (s.bonus_unclaimed & (1u << f)) unclaimed.push_back(e.product_names[kRaw + kSemi + f]);
  d["bonus_unclaimed"] = unclaimed;
  const std::string* P = e.product_names;
  const std::string* B = e.building_ids;
  py::dict ctx;
  ctx["stage"] = (int)s.stage;
  ctx["index"] = (int)s.idx;
  ctx["last_end"] = seat_or_none(s.last_end);
  ctx["helper_seat"] = (int)s.h_seat;
  ctx["helper_space"] = seat_or_none(s.h_space);
  ctx["helper_layer"] = (int)s.h_layer;
  ctx["priv_mode"] = (int)s.priv_mode;  // 0 none, 1 free (space 1), 2 by token; a number, as tests read it
  ctx["priv_used"] = (bool)s.priv_used;
  ctx["window"] = s.win_kind < 3 ? kWindowNames[s.win_kind] : "?";
  ctx["wp"] = (int)s.wp;
  ctx["token_wp"] = (bool)s.token_wp;
  ctx["produce2_used"] = (bool)s.produce2_used;
  ctx["wp_return"] = s.wp_return ? py::object(py::str(kPhaseNames[s.wp_return < kPhases ? s.wp_return : 0])) : py::object(py::none());
  ctx["raws_left"] = (int)s.raws_left;
  ctx["raw_product"] = name_or_none(s.raw_product, P, kProducts);
  ctx["raw_card"] = name_or_none(s.raw_card, B, kBuildings);
  ctx["good"] = name_or_none(s.good, P, kProducts);
  ctx["good_card"] = name_or_none(s.good_card, B, kBuildings);
  ctx["banker_taken"] = (int)s.banker_taken;
  ctx["build_count"] = (int)s.build_count;
  ctx["build_cost"] = (int)s.build_cost;
  py::list builds;
  for (int i = 0; i < 2; ++i) builds.append(name_or_none(s.builds[i], B, kBuildings));
  ctx["builds"] = builds;
  ctx["notary_done"] = (bool)s.notary_done;
  ctx["looked"] = (bool)s.looked;
  ctx["look_tier"] = s.look_tier < 4 ? kTierNames[s.look_tier] : "?";
  ctx["returns_left"] = (int)s.returns_left;
  ctx["pay_amount"] = (int)s.pay_amount;
  std::string colours;
  for (int c = 0; c < kColours; ++c)
    if (s.pay_colours & (1u << c)) colours += kColourLetters[c];
  ctx["pay_colours"] = colours;
  ctx["pay_seat"] = (int)s.pay_seat;
  ctx["pay_after"] = s.pay_after < kAfters ? kAfterNames[s.pay_after] : "?";
  ctx["pay_card"] = name_or_none(s.pay_card, B, kBuildings);
  ctx["auction_card"] = name_or_none(s.auc_card, B, kBuildings);
  ctx["auction_high"] = (int)s.auc_high;
  ctx["auction_bidder"] = (int)s.auc_bidder;
  ctx["auction_open"] = (int)s.auc_open;
  ctx["auction_raised"] = (bool)s.auc_raised;
  std::vector<int> dropped;
  for (int p = 0; p < 8; ++p)
    if (s.auc_dropped & (1u << p)) dropped.push_back(p);
  ctx["auction_dropped"] = dropped;
  ctx["auction_initiator"] = (int)s.auc_init;
  std::vector<int> mx(s.auc_max, s.auc_max + n);
  ctx["auction_max_bids"] = mx;
  ctx["compensate_seat"] = (int)s.comp_seat;
  ctx["discard_seat"] = (int)s.disc_seat;
  ctx["discard_left"] = (int)s.disc_left;
  ctx["discard_after"] = s.disc_after < kAfters ? kAfterNames[s.disc_after] : "?";
  ctx["chance_source"] = s.ch_src == 0 ? "money" : s.ch_src < 4 ? kTierNames[s.ch_src] : "?";
  ctx["chance_dest"] = s.ch_dst < kDests ? kDestNames[s.ch_dst] : "?";
  ctx["chance_seat"] = (int)s.ch_seat;
  ctx["chance_left"] = (int)s.ch_left;
  ctx["chance_after"] = s.ch_after < kAfters ? kAfterNames[s.ch_after] : "?";
  ctx["stack_guild"] = (int)s.stack_guild;
  ctx["stack_space"] = (int)s.stack_space;
  ctx["stack_pay"] = (bool)s.stack_pay;
  ctx["limit_seat"] = seat_or_none(s.lim_seat);
  ctx["limit_saved"] = s.lim_seat == kNoSeat && s.lim_saved == 0 ? py::object(py::none())
                                                                 : py::object(py::str(kPhaseNames[s.lim_saved < kPhases ? s.lim_saved : 0]));
  ctx["limit_actor"] = seat_or_none(s.lim_actor);
  d["context"] = ctx;
  d["knowledge"] = knowledge_fields(g, s);
  return d;
}

}  // namespace atelier::craftsmen::bind

// ---- State from fields (the inverse of state_fields) -------------------------------------

namespace atelier::craftsmen::bind {
namespace {

using atelier::bind::as_bool;
using atelier::bind::as_dict;
using atelier::bind::as_seq;
using atelier::bind::as_text;
using atelier::bind::at;

uint8_t u8(py::handle h, const std::string& f, long long lo, long long hi) {
  return (uint8_t)atelier::bind::as_int(h, f, lo, hi);
}

// An index into a table of names (phases, flows, ...), by name.
int named(py::handle h, const std::string& f, const char* const* names, int count) {
  const std::string t = as_text(h, f, 64);
  for (int i = 0; i < count; ++i)
    if (t == names[i]) return i;
  std::string all;
  for (int i = 0; i < count; ++i) all += (i ? ", " : "") + std::string(names[i]);
  fail(f + ": unknown value '" + t + "' (expected one of " + all + ")");
}

int named(py::handle h, const std::string& f, const std::string* names, int count, const char* what,
          const char* hint = "") {
  const std::string t = as_text(h, f, 64);
  for (int i = 0; i < count; ++i)
    if (t == names[i]) return i;
  fail(f + ": unknown " + what + " '" + t + "'" + hint);
}

int card_of(const Game& g, py::handle h, const std::string& f) {
  return named(h, f, g.edition().building_ids, kBuildings, "card", " (cards are the edition's ids: L1..L6, B01..B24, E01..E24, A01..A16)");
}
int product_of(const Game& g, py::handle h, const std::string& f) {
  return named(h, f, g.edition().product_names, kProducts, "product");
}
uint8_t seat_of(py::handle h, const std::string& f, int n) { return u8(h, f, 0, n - 1); }
uint8_t seat_or_none_of(py::handle h, const std::string& f, int n) {
  return h.is_none() ? kNoSeat : seat_of(h, f, n);
}
uint8_t card_or_none(const Game& g, py::handle h, const std::string& f) {
  return h.is_none() ? kNoSeat : (uint8_t)card_of(g, h, f);
}
uint8_t product_or_none(const Game& g, py::handle h, const std::string& f) {
  return h.is_none() ? kNoSeat : (uint8_t)product_of(g, h, f);
}

// {"R2": 1, ...}: a type left out is 0.
void money_of(py::handle h, const std::string& f, uint8_t* out) {
  py::dict d = as_dict(h, f);
  std::memset(out, 0, kMoneyTypes);
  for (auto it : d) {
    const std::string k = as_text(it.first, f, 16);
    const char* c = k.size() == 2 ? std::strchr(kColourLetters, k[0]) : nullptr;
    if (!c || !*c || k[1] < '1' || k[1] > '3') fail(f + "." + k + ": not a money type (P1..P3, G1..G3, B1..B3, R1..R3)");
    out[(c - kColourLetters) * kValues + (k[1] - '1')] = u8(it.second, f + "." + k, 0, kMoneyCards);
  }
}

constexpr uint8_t kUnplaced = 0xFE;

// Card placement: each list given replaces what the base held there; every card must end up in
// exactly one place.
struct Placer {
  const Game& g;
  State& s;
  std::string where[kBuildings];  // the field that placed each card
  explicit Placer(const Game& game, State& st) : g(game), s(st) {}

  void clear(uint8_t loc, int lo = 0, int hi = kBuildings) {
    for (int b = lo; b < hi; ++b)
      if (s.bloc[b] == loc) s.bloc[b] = kUnplaced, s.bpos[b] = 0, s.bfill[b] = 0;
  }
  int put(py::handle h, const std::string& f, uint8_t loc, int lo, int hi, const char* what) {
    const int b = card_of(g, h, f);
    if (b < lo || b >= hi) fail(f + ": " + g.edition().building_ids[b] + " is not " + what);
    if (!where[b].empty()) fail(f + ": " + g.edition().building_ids[b] + " is already in " + where[b]);
    where[b] = f;
    s.bloc[b] = loc;
    s.bpos[b] = 0;
    s.bfill[b] = 0;
    return b;
  }
  std::vector<int> list(py::handle h, const std::string& f, uint8_t loc, int lo, int hi, const char* what) {
    clear(loc, lo, hi);
    auto seq = as_seq(h, f);
    if (py::len(seq) > (size_t)kBuildings) fail(f + ": more cards than the game has");
    std::vector<int> out;
    for (size_t i = 0; i < py::len(seq); ++i) out.push_back(put(seq[i], at(f, i), loc, lo, hi, what));
    return out;
  }
};

void set_row(Placer& pl, int p, py::handle h, const std::string& f) {
  State& s = pl.s;
  auto cards = pl.list(h, f, (uint8_t)(B_ROW | p), 0, kBuildings, "a building");
  int mill = -1;
  for (size_t i = 0; i < cards.size(); ++i)
    if (cards[i] < kMills) {
      if (mill >= 0) fail(f + ": a row holds exactly one lumber mill");
      mill = (int)i;
    }
  if (mill < 0) fail(f + ": a row holds exactly one lumber mill (it is built around it)");
  if (cards.size() > 100) fail(f + ": too many cards");
  // The mill sits at 128; the row grows left (lower) and right (higher) from it.
  for (size_t i = 0; i < cards.size(); ++i) s.bpos[cards[i]] = (uint8_t)(128 - mill + (int)i);
  s.seat[p].row_lo = (uint8_t)(128 - mill);
  s.seat[p].row_hi = (uint8_t)(128 - mill + (int)cards.size() - 1);
}

void set_filled(const Game& g, State& s, int p, py::handle h, const std::string& f) {
  const Edition& e = g.edition();
  for (int b = 0; b < kBuildings; ++b)
    if (s.bloc[b] == (B_ROW | p)) s.bfill[b] = 0;
  for (auto it : as_dict(h, f)) {
    const std::string k = as_text(it.first, f, 16);
    const int b = card_of(g, it.first, f + "." + k);
    if (s.bloc[b] != (B_ROW | p)) fail(f + "." + k + ": not in this seat's row");
    auto icons = as_seq(it.second, f + "." + k);
    // Identical icons fill first to last (1.4): a product named twice fills two of them.
    for (size_t i = 0; i < py::len(icons); ++i) {
      const int prod = product_of(g, icons[i], at(f + "." + k, i));
      int icon = -1;
      for (int j = 0; j < e.b[b].ninputs && icon < 0; ++j)
        if (e.b[b].inputs[j] == prod && !(s.bfill[b] & (1u << j))) icon = j;
      if (icon < 0) fail(at(f + "." + k, i) + ": " + k + " has no empty " + e.product_names[prod] + " icon");
      s.bfill[b] |= (uint8_t)(1u << icon);
    }
  }
}

uint8_t final_goods(const Game& g, py::handle h, const std::string& f) {
  uint8_t m = 0;
  auto seq = as_seq(h, f);
  for (size_t i = 0; i < py::len(seq); ++i) {
    const int prod = product_of(g, seq[i], at(f, i));
    if (!g.edition().is_final(prod)) fail(at(f, i) + ": " + g.edition().product_names[prod] + " is not a final good");
    m |= (uint8_t)(1u << (prod - kRaw - kSemi));
  }
  return m;
}

void set_seat(const Game& g, Placer& pl, int p, const py::dict& d, const std::string& w) {
  State& s = pl.s;
  Seat& st = s.seat[p];
  for (auto it : d) {
    const std::string k = as_text(it.first, w, 64);
    const std::string f = w + "." + k;
    py::handle v = it.second;
    if (k == "ap") st.ap = (int16_t)atelier::bind::as_int(v, f, 0, 5000);
    else if (k == "home") st.home = u8(v, f, 0, 5);
    else if (k == "passed") st.passed = as_bool(v, f);
    else if (k == "market") st.market = u8(v, f, 0, g.edition().c.market_max);
    else if (k == "priv_tokens") st.priv = u8(v, f, 0, g.edition().c.max_priv_held);
    else if (k == "work_tokens") st.work = u8(v, f, 0, g.edition().c.max_work_held);
    else if (k == "supply") st.supply = u8(v, f, 0, kCubes);
    else if (k == "contributed") st.contributed = as_bool(v, f);
    else if (k == "mulliganed") st.mulliganed = as_bool(v, f);
    else if (k == "bonus") st.bonus = final_goods(g, v, f);
    else if (k == "money") money_of(v, f, s.money[M_HAND0 + p]);
    else if (k == "hand") pl.list(v, f, (uint8_t)(B_HAND | p), kFirstBasic, kBuildings, "a basic, extended or advanced building");
    else if (k == "row") set_row(pl, p, v, f);
    else if (k != "filled") fail(f + ": unknown field");
  }
  // After the row, whose cards it names.
  if (d.contains("filled")) set_filled(g, s, p, d["filled"], w + ".filled");
}

void set_deck(const Game& g, Placer& pl, int t, const py::dict& d, const std::string& w) {
  State& s = pl.s;
  const int lo = t == BASIC ? kFirstBasic : t == EXTENDED ? kFirstExtended : kFirstAdvanced;
  const int hi = t == BASIC ? kFirstExtended : t == EXTENDED ? kFirstAdvanced : kBuildings;
  const std::string what = std::string("a card of the ") + kTierNames[t] + " deck";
  for (auto it : d) {
    const std::string k = as_text(it.first, w, 64);
    if (k != "faceup" && k != "top" && k != "segments" && k != "bottom" && k != "pool" && k != "top_slots" &&
        k != "bottom_slots" && k != "next_top" && k != "next_bottom")
      fail(w + "." + k + ": unknown field");
  }
  if (d.contains("faceup")) pl.list(d["faceup"], w + ".faceup", B_FACEUP, lo, hi, what.c_str());
  if (d.contains("pool")) pl.list(d["pool"], w + ".pool", B_POOL, lo, hi, what.c_str());
  if (d.contains("segments")) {
    auto segs = as_seq(d["segments"], w + ".segments", 2);
    for (int sg = 0; sg < 2; ++sg) pl.list(segs[sg], at(w + ".segments", sg), (uint8_t)(B_SEG | sg), lo, hi, what.c_str());
  }
  // Known sequences: top first / drawn first; slots default to a packed run next to the segments.
  for (int end = 0; end < 2; ++end) {
    const char* key = end ? "bottom" : "top";
    const std::string slots_key = std::string(key) + "_slots", next_key = end ? "next_bottom" : "next_top";
    std::vector<int> cards;
    const uint8_t loc = end ? B_BOTTOM : B_TOP;
    if (d.contains(key)) cards = pl.list(d[key], w + "." + key, loc, lo, hi, what.c_str());
    else {
      std::vector<std::pair<int, int>> v;
      for (int b = lo; b < hi; ++b)
        if (s.bloc[b] == loc) v.push_back({s.bpos[b], b});
      std::sort(v.begin(), v.end());
      for (auto& x : v) cards.push_back(x.second);
    }
    const int k = (int)cards.size();
    std::vector<int> slots;
    if (d.contains(slots_key.c_str())) {
      auto seq = as_seq(d[slots_key.c_str()], w + "." + slots_key, k);
      for (int i = 0; i < k; ++i) {
        slots.push_back(end ? u8(seq[i], at(w + "." + slots_key, i), 128, 254) : u8(seq[i], at(w + "." + slots_key, i), 1, 127));
        if (i && slots[i] <= slots[i - 1]) fail(w + "." + slots_key + ": must be ascending");
      }
    } else {
      for (int i = 0; i < k; ++i) slots.push_back(end ? 128 + i : 128 - k + i);
    }
    int next;
    if (d.contains(next_key.c_str())) {
      next = end ? u8(d[next_key.c_str()], w + "." + next_key, 128, 255) : u8(d[next_key.c_str()], w + "." + next_key, 0, 127);
    } else {
      next = end ? (k ? slots.back() + 1 : 128) : (k ? slots.front() - 1 : 127);
    }
    if (k && (end ? slots.back() >= next : slots.front() <= next))
      fail(w + "." + next_key + ": must lie beyond the " + key + " slots");
    for (int i = 0; i < k; ++i) s.bpos[cards[i]] = (uint8_t)slots[i];
    (end ? s.deck_bottom : s.deck_top)[t] = (uint8_t)next;
  }
}

// A guild disc: null or {"seat": s, "privileged": bool}.
uint8_t disc_of(py::handle h, const std::string& f, int n) {
  if (h.is_none()) return kNoSeat;
  py::dict d = as_dict(h, f);
  for (auto it : d) {
    const std::string k = as_text(it.first, f, 32);
    if (k != "seat" && k != "privileged") fail(f + "." + k + ": unknown field");
  }
  if (!d.contains("seat")) fail(f + ".seat: missing");
  const uint8_t seat = seat_of(d["seat"], f + ".seat", n);
  const bool priv = d.contains("privileged") && as_bool(d["privileged"], f + ".privileged");
  return (uint8_t)(seat | (priv ? 0x80 : 0));
}

// A warehouse or ship slot: null (empty), "neutral" (warehouse only) or a seat.
uint8_t slot_of(py::handle h, const std::string& f, int n, bool warehouse) {
  if (h.is_none()) return 0;
  if (warehouse && PyUnicode_Check(h.ptr())) {
    if (as_text(h, f, 16) != "neutral") fail(f + ": expected null, \"neutral\" or a seat");
    return 1;
  }
  return (uint8_t)((warehouse ? 2 : 1) + seat_of(h, f, n));
}

void set_context(const Game& g, State& s, const py::dict& d) {
  const int n = g.num_players();
  for (auto it : d) {
    const std::string k = as_text(it.first, "context", 64);
    const std::string f = "context." + k;
    py::handle v = it.second;
    if (k == "stage") s.stage = u8(v, f, 0, kGuilds);
    else if (k == "index") s.idx = u8(v, f, 0, 2 * kSpaces);
    else if (k == "last_end") s.last_end = seat_or_none_of(v, f, n);
    else if (k == "helper_seat") s.h_seat = seat_of(v, f, n);
    else if (k == "helper_space") s.h_space = v.is_none() ? kNoSeat : u8(v, f, 0, kSpaces - 1);
    else if (k == "helper_layer") s.h_layer = u8(v, f, 0, 1);
    else if (k == "priv_mode") s.priv_mode = u8(v, f, 0, 2);
    else if (k == "priv_used") s.priv_used = as_bool(v, f);
    else if (k == "window") s.win_kind = (uint8_t)named(v, f, kWindowNames, 3);
    else if (k == "wp") s.wp = u8(v, f, 0, 15);
    else if (k == "token_wp") s.token_wp = as_bool(v, f);
    else if (k == "produce2_used") s.produce2_used = as_bool(v, f);
    else if (k == "wp_return") s.wp_return = v.is_none() ? 0 : (uint8_t)named(v, f, kPhaseNames, P_RUN);
    else if (k == "raws_left") s.raws_left = u8(v, f, 0, 2);
    else if (k == "raw_product") s.raw_product = (uint8_t)product_of(g, v, f);
    else if (k == "raw_card") s.raw_card = (uint8_t)card_of(g, v, f);
    else if (k == "good") s.good = product_or_none(g, v, f);
    else if (k == "good_card") s.good_card = card_or_none(g, v, f);
    else if (k == "banker_taken") s.banker_taken = u8(v, f, 0, 15);
    else if (k == "build_count") s.build_count = u8(v, f, 0, 2);
    else if (k == "build_cost") s.build_cost = u8(v, f, 0, 255);
    else if (k == "builds") {
      auto seq = as_seq(v, f, 2);
      for (int i = 0; i < 2; ++i) s.builds[i] = (uint8_t)card_of(g, seq[i], at(f, i));
    } else if (k == "notary_done") s.notary_done = as_bool(v, f);
    else if (k == "looked") s.looked = as_bool(v, f);
    else if (k == "look_tier") s.look_tier = (uint8_t)named(v, f, kTierNames, 4);
    else if (k == "returns_left") s.returns_left = u8(v, f, 0, 5);
    else if (k == "pay_amount") s.pay_amount = u8(v, f, 0, 255);
    else if (k == "pay_colours") {
      const std::string t = as_text(v, f, 8);
      uint8_t m = 0;
      for (char c : t) {
        const char* x = c ? std::strchr(kColourLetters, c) : nullptr;
        if (!x) fail(f + ": expected colour letters from PGBR, e.g. \"GR\"");
        m |= (uint8_t)(1u << (x - kColourLetters));
      }
      s.pay_colours = m;
    } else if (k == "pay_seat") s.pay_seat = seat_of(v, f, n);
    else if (k == "pay_after") s.pay_after = (uint8_t)named(v, f, kAfterNames, kAfters);
    else if (k == "pay_card") s.pay_card = (uint8_t)card_of(g, v, f);
    else if (k == "auction_card") s.auc_card = card_or_none(g, v, f);
    else if (k == "auction_high") s.auc_high = u8(v, f, 0, 63);
    else if (k == "auction_bidder") s.auc_bidder = seat_of(v, f, n);
    else if (k == "auction_open") s.auc_open = u8(v, f, 0, 63);
    else if (k == "auction_raised") s.auc_raised = as_bool(v, f);
    else if (k == "auction_dropped") {
      auto seq = as_seq(v, f);
      uint8_t m = 0;
      for (size_t i = 0; i < py::len(seq); ++i) m |= (uint8_t)(1u << seat_of(seq[i], at(f, i), n));
      s.auc_dropped = m;
    } else if (k == "auction_initiator") s.auc_init = seat_of(v, f, n);
    else if (k == "auction_max_bids") {
      auto seq = as_seq(v, f, n);
      for (int p = 0; p < n; ++p) s.auc_max[p] = u8(seq[p], at(f, p), 0, 63);
    } else if (k == "compensate_seat") s.comp_seat = seat_of(v, f, n);
    else if (k == "discard_seat") s.disc_seat = seat_of(v, f, n);
    else if (k == "discard_left") s.disc_left = u8(v, f, 0, 14);
    else if (k == "discard_after") s.disc_after = (uint8_t)named(v, f, kAfterNames, kAfters);
    else if (k == "chance_source") {
      const char* const src[4] = {"money", "basic", "extended", "advanced"};
      s.ch_src = (uint8_t)named(v, f, src, 4);
    } else if (k == "chance_dest") s.ch_dst = (uint8_t)named(v, f, kDestNames, kDests);
    else if (k == "chance_seat") s.ch_seat = seat_of(v, f, n);
    else if (k == "chance_left") s.ch_left = u8(v, f, 0, 8);
    else if (k == "chance_after") s.ch_after = (uint8_t)named(v, f, kAfterNames, kAfters);
    else if (k == "stack_guild") s.stack_guild = u8(v, f, 0, kGuilds - 1);
    else if (k == "stack_space") s.stack_space = u8(v, f, 0, kSpaces - 1);
    else if (k == "stack_pay") s.stack_pay = as_bool(v, f);
    else if (k == "limit_seat") s.lim_seat = seat_or_none_of(v, f, n);
    else if (k == "limit_saved") s.lim_saved = v.is_none() ? 0 : (uint8_t)named(v, f, kPhaseNames, P_RUN);
    else if (k == "limit_actor") s.lim_actor = seat_or_none_of(v, f, n);
    else fail(f + ": unknown field");
  }
}

}  // namespace

// Knowledge from its fields (knowledge_fields); what is not listed is the places' default.
void set_knowledge(const Game& g, State& s, const py::dict& d) {
  const int n = g.num_players();
  std::memset(s.mknown, 0, sizeof s.mknown);
  for (int b = 0; b < kBuildings; ++b) s.bknow[b] = default_knowers(s, b, n);
  for (auto item : d) {
    const std::string k = as_text(item.first, "knowledge", 32);
    if (k != "money" && k != "buildings") fail("knowledge." + k + ": unknown field (money, buildings)");
  }
  if (d.contains("money")) {
    auto seq = as_seq(d["money"], "knowledge.money");
    for (size_t i = 0; i < py::len(seq); ++i) {
      const std::string f = at("knowledge.money", (int)i);
      py::dict e = as_dict(seq[i], f);
      for (const char* need : {"seat", "of", "cards"})
        if (!e.contains(need)) fail(f + "." + need + ": missing");
      const int o = seat_of(e["seat"], f + ".seat", n), q = seat_of(e["of"], f + ".of", n);
      if (o == q) fail(f + ": a seat's own hand is not knowledge of another");
      uint8_t c[kMoneyTypes];
      money_of(e["cards"], f + ".cards", c);
      for (int t = 0; t < kMoneyTypes; ++t) {
        if (c[t] > 7) fail(f + ".cards: at most 7 known cards of one type");
        if (c[t] > s.money[M_HAND0 + q][t]) fail(f + ".cards: more known cards than seat " + std::to_string(q) + "'s hand holds");
        set_known_money(s, o, q, t, c[t]);
      }
    }
  }
  if (d.contains("buildings")) {
    py::dict bs = as_dict(d["buildings"], "knowledge.buildings");
    for (auto it : bs) {
      const std::string f = "knowledge.buildings." + as_text(it.first, "knowledge.buildings", 16);
      const int b = card_of(g, it.first, f);
      py::dict e = as_dict(it.second, f);
      uint8_t k = 0;
      for (auto x : e) {
        const std::string key = as_text(x.first, f, 32);
        if (key == "known_to") {
          auto seats = as_seq(x.second, f + ".known_to");
          for (size_t i = 0; i < py::len(seats); ++i) k |= (uint8_t)(1u << seat_of(seats[i], at(f + ".known_to", (int)i), n));
        } else if (key == "returns") {
          const std::string r = as_text(x.second, f + ".returns", 16);
          if (r != "face_up" && r != "drawn") fail(f + ".returns: face_up or drawn");
          k |= (uint8_t)(kKnowGroup | (r == "face_up" ? kKnowFaceUp : 0));
        } else {
          fail(f + "." + key + ": unknown field (known_to, returns)");
        }
      }
      s.bknow[b] = k;
    }
  }
}

static State fields_over(const Game& g, const State& base, const py::dict& d, int deal_seat, uint64_t seed) {
  const Edition& e = g.edition();
  const int n = g.num_players();
  State s = base;
  Placer pl(g, s);
  for (auto item : d) {
    const std::string key = as_text(item.first, "fields", 64);
    py::handle v = item.second;
    if (key == "year") s.year = u8(v, key, 1, 3);
    else if (key == "season") s.season = u8(v, key, 0, 3);
    else if (key == "phase") {
      s.phase = (uint8_t)named(v, key, kPhaseNames, P_RUN);  // RUN is internal, never a position
    } else if (key == "flow") s.flow = (uint8_t)named(v, key, kFlowNames, kFlows);
    else if (key == "actor") s.actor = seat_of(v, key, n);
    else if (key == "turn_order") {
      auto seq = as_seq(v, key, n);
      for (int i = 0; i < n; ++i) s.turn_order[i] = seat_of(seq[i], at(key, i), n);
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < i; ++j)
          if (s.turn_order[i] == s.turn_order[j]) fail(key + ": seat " + std::to_string(s.turn_order[i]) + " listed twice");
    } else if (key == "seats") {
      auto seq = as_seq(v, key, n);
      for (int p = 0; p < n; ++p) set_seat(g, pl, p, as_dict(seq[p], at(key, p)), at(key, p));
    } else if (key == "display") money_of(v, key, s.money[M_DISPLAY]);
    else if (key == "discard") money_of(v, key, s.money[M_DISCARD]);
    else if (key == "money_deck") money_of(v, key, s.money[M_DECK]);
    else if (key == "mayor") money_of(v, key, s.money[M_MAYOR]);
    else if (key == "decks") {
      py::dict dd = as_dict(v, key);
      for (auto it : dd) {
        const std::string t = as_text(it.first, key, 32);
        if (t != "basic" && t != "extended" && t != "advanced") fail(key + "." + t + ": unknown deck (basic, extended, advanced)");
      }
      for (int t = BASIC; t <= ADVANCED; ++t)
        if (dd.contains(kTierNames[t])) set_deck(g, pl, t, as_dict(dd[kTierNames[t]], key + "." + kTierNames[t]), key + "." + kTierNames[t]);
    } else if (key == "box") pl.list(v, key, B_BOX, 0, kMills, "a lumber mill");
    else if (key == "guilds") {
      auto gs = as_seq(v, key, kGuilds);
      for (int gi = 0; gi < kGuilds; ++gi) {
        auto sps = as_seq(gs[gi], at(key, gi), kSpaces);
        for (int sp = 0; sp < kSpaces; ++sp) {
          auto discs = as_seq(sps[sp], at(at(key, gi), sp), 2);
          for (int l = 0; l < 2; ++l) s.guild[gi][sp][l] = disc_of(discs[l], at(at(at(key, gi), sp), l), n);
        }
      }
    } else if (key == "order_track") {
      auto seq = as_seq(v, key);
      if (py::len(seq) > 3) fail(key + ": at most 3 seats");
      std::memset(s.order_track, kNoSeat, sizeof s.order_track);
      for (size_t i = 0; i < py::len(seq); ++i) s.order_track[i] = seat_of(seq[i], at(key, i), n);
    } else if (key == "warehouse") {
      py::dict wh = as_dict(v, key);
      for (auto it : wh) {
        const std::string k = as_text(it.first, key, 64);
        const int prod = product_of(g, it.first, key + "." + k);
        if (e.warehouse_of[prod] < 0) fail(key + "." + k + ": not a warehouse good");
      }
      for (int w = 0; w < kWarehouseGoods; ++w) {
        const std::string& name = e.product_names[e.warehouse_product[w]];
        if (!wh.contains(name.c_str())) continue;
        auto slots = as_seq(wh[name.c_str()], key + "." + name, 2);
        for (int l = 0; l < 2; ++l) s.warehouse[w][l] = slot_of(slots[l], at(key + "." + name, l), n, true);
      }
    } else if (key == "ships") {
      auto seq = as_seq(v, key, kShips);
      for (int k = 0; k < kShips; ++k) {
        py::dict rows = as_dict(seq[k], at(key, k));
        const ShipData& sd = e.ships[k];
        for (auto it : rows) {
          const std::string r = as_text(it.first, at(key, k), 64);
          bool found = false;
          for (int i = 0; i < sd.nrows; ++i) found |= e.product_names[sd.product[i]] == r;
          if (!found) fail(at(key, k) + "." + r + ": ship " + std::to_string(k + 1) + " has no such row");
        }
        for (int r = 0; r < sd.nrows; ++r) {
          const std::string& name = e.product_names[sd.product[r]];
          if (!rows.contains(name.c_str())) continue;
          auto slots = as_seq(rows[name.c_str()], at(key, k) + "." + name, 2);
          for (int l = 0; l < 2; ++l) s.ship[k][r][l] = slot_of(slots[l], at(at(key, k) + "." + name, l), n, false);
        }
      }
    } else if (key == "neutral_supply") s.neutral_supply = u8(v, key, 0, kNeutralCubes);
    else if (key == "bank_priv") s.bank_priv = u8(v, key, 0, 15);
    else if (key == "bank_work") s.bank_work = u8(v, key, 0, 15);
    else if (key == "bonus_unclaimed") s.bonus_unclaimed = final_goods(g, v, key);
    else if (key == "context") set_context(g, s, as_dict(v, key));
    else if (key == "knowledge") continue;  // after the cards have their places
    else fail(key + ": unknown field (or not settable)");
  }
  for (int b = 0; b < kBuildings; ++b)
    if (s.bloc[b] == kUnplaced)
      fail(std::string("buildings: ") + e.building_ids[b] + " is in no place (list it in a hand, a row, a deck or the box)");
  set_knowledge(g, s, d.contains("knowledge") ? as_dict(d["knowledge"], "knowledge") : py::dict());
  if (deal_seat >= 0) {
    Rng rng(seed);
    if (!g.determinize(s, deal_seat, rng))
      fail("viewpoint: no deal of the cards seat " + std::to_string(deal_seat) +
           " has not seen meets the running auction's bids (or the payment under way): a bid above what the bidder could hold");
  }
  // Derived: a mill's slot in the box is 0 (the box is unordered); a row's mill stays at 128.
  const std::string err = g.validate(s);
  if (!err.empty()) fail(err);
  return s;
}

// The one validation of every way in (from_bytes, with_fields, the position loader through
// with_fields): validate, and then the state must be what its own fields() describe, read over
// the start state: a packing the position format cannot write (a leftover byte, an unused bit,
// a value out of a field's range) is refused, so every accepted state round-trips.
void check_round_trip(const Game& g, const State& s) {
  Rng rng(0);
  State base{};
  g.initial_state(base, rng);
  const State t = fields_over(g, base, state_fields(g, s), -1, 0);
  const auto* a = reinterpret_cast<const uint8_t*>(&s);
  const auto* b = reinterpret_cast<const uint8_t*>(&t);
  for (size_t i = 0; i < sizeof(State); ++i)
    if (a[i] != b[i])
      fail("bytes: byte " + std::to_string(i) + " of the packing is not what its fields say (" + std::to_string(a[i]) +
           ", the fields give " + std::to_string(b[i]) + "): not a state the position format can write");
}

State state_with_fields(const Game& g, const State& base, const py::dict& d, int deal_seat, uint64_t seed) {
  const State s = fields_over(g, base, d, deal_seat, seed);
  check_round_trip(g, s);
  return s;
}

}  // namespace atelier::craftsmen::bind
