// The full Craftsmen state as a Python dict (tests, debugging): every field, with names.
#include "craftsmen_bind.hpp"

#include <algorithm>
#include <vector>

namespace atelier::craftsmen::bind {

namespace {
const char* const kPhaseNames[kPhases] = {
    "MULLIGAN", "HELPER", "STACK", "STACK_PAY", "WINDOW", "BANK1", "BANK2", "BANK_PRIV", "DISCARD",
    "BUILD1", "BUILD2", "PAY", "NOTARY1", "NOTARY2", "NOTARY3", "BID", "MAYOR_BID", "KEEP", "RETURN",
    "MERCH", "MERCH_PAY", "COMPENSATE", "TOWN", "CRAFT", "WPUSE", "SEND", "REWARD", "LOAD", "CONTRIB",
    "LIMIT", "CHANCE", "TERMINAL", "RUN"};

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

py::dict state_fields(const Game& g, const State& s) {
  const Edition& e = g.edition();
  const int n = g.num_players();
  py::dict d;
  d["year"] = (int)s.year;
  d["season"] = (int)s.season;
  d["phase"] = s.phase < kPhases ? kPhaseNames[s.phase] : "?";
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
  py::dict ctx;
  ctx["stage"] = (int)s.stage;
  ctx["wp"] = (int)s.wp;
  ctx["helper_seat"] = (int)s.h_seat;
  ctx["helper_space"] = s.h_space == kNoSeat ? py::object(py::none()) : py::object(py::int_((int)s.h_space));
  ctx["priv_mode"] = (int)s.priv_mode;
  ctx["priv_used"] = (bool)s.priv_used;
  ctx["auction_high"] = (int)s.auc_high;
  ctx["auction_bidder"] = (int)s.auc_bidder;
  ctx["auction_card"] = s.auc_card == kNoSeat ? py::object(py::none()) : py::object(py::str(e.building_ids[s.auc_card]));
  std::vector<int> mx(s.auc_max, s.auc_max + n);
  ctx["auction_max_bids"] = mx;
  ctx["pay_amount"] = (int)s.pay_amount;
  d["context"] = ctx;
  return d;
}

}  // namespace atelier::craftsmen::bind
