// Leonardo da Vinci's feature vector (docs/models.md, "Features: Leonardo"). Written once as a
// template over the writer (cext/common/features.hpp), so values, names and count agree. It
// reads the full state: the search calls it on a determinized one (concept.md, Features).
// Scales: Florins over 40 (a strong final score is 30-60), counts over their maxima.
#include <algorithm>

#include "../common/bits.hpp"
#include "../common/features.hpp"
#include "game.hpp"

namespace atelier::leonardo {

namespace {

constexpr float kFlorins = 40.0f;
constexpr int kPhases = GAME_OVER + 1;
const char* const kPhaseNames[kPhases] = {"favour", "lab", "place", "claim", "gift", "cmove",
                                          "reorder", "material", "area", "bid", "draw", "game_over"};
const char* const kTierNames[kTiers] = {"tier_bronze", "tier_copper", "tier_silver", "tier_gold"};
const char* const kTypeNames[kTypes] = {"type0", "type1", "type2", "type3", "type4"};
const char* const kKindNames[kKinds] = {"iron", "glass", "wood", "brick", "rope"};
const char* const kAreaNames[kAreas] = {"council", "workshop", "academy", "iron", "glass", "wood", "brick", "rope"};
const char* const kLabNames[kLabs] = {"small", "large"};

struct Context {
  ScoreDetail sd[kMaxPlayers];
  int best_other[kMaxPlayers];
  int row_slots;
};

template <class W>
void emit_global(W& w, const Game& g, const State& s, const Context& cx) {
  const Edition& ed = g.edition();
  w.block("global");
  w.put(s.turn / (float)ed.turns, "turn");
  w.flag(s.turn > ed.normal_turns, "pure_research");
  for (int ph = 0; ph < kPhases; ++ph) w.flag(s.phase == ph, "phase", -1, kPhaseNames[ph]);
  w.put(s.pot / 10.0f, "pot");
  w.put(frac(s.deck_len, kCards), "deck");
  w.put(frac(s.row_len, cx.row_slots), "row");
  for (int k = 0; k < kKinds; ++k) w.put(frac(s.shop[k], ed.per_kind), "shop", -1, kKindNames[k]);
  w.put(frac(s.mech_supply, ed.mech_per_player * g.num_players()), "mech_supply");
  for (int a = 0; a < 4; ++a) w.flag(s.claimed[a] != kNone, "council_claimed", a + 1);
  // The requested row, slot by slot (empty slots are zeros): what each card is worth, needs and
  // takes. Who is on it is in the seat blocks.
  for (int i = 0; i < cx.row_slots; ++i) {
    const bool on = i < s.row_len;
    const CardData& c = g.card(on ? s.row[i] : 0);
    w.flag(on, "row", i, "present");
    for (int t = 0; t < kTiers; ++t) w.flag(on && c.tier == t, "row", i, kTierNames[t]);
    for (int t = 0; t < kTypes; ++t) w.flag(on && c.type == t, "row", i, kTypeNames[t]);
    w.put(on ? c.weeks / 15.0f : 0.0f, "row", i, "weeks");
    w.put(on ? c.reward_first / kFlorins : 0.0f, "row", i, "reward");
  }
}

template <class W>
void emit_seat(W& w, const Game& g, const State& s, const Context& cx, int p) {
  const Edition& ed = g.edition();
  const int n = g.num_players();
  const Player& P = s.pl[p];
  const ScoreDetail& sd = cx.sd[p];
  w.put(sd.total / kFlorins, "score");
  w.put((sd.total - cx.best_other[p]) / 20.0f, "lead");
  w.put(P.money / kFlorins, "money");
  w.put(sd.types / 5.0f, "types");
  w.put(sd.bonus / 20.0f, "type_bonus");
  // The next type's bonus step: how much one more new type is worth now.
  w.put((ed.type_bonus[std::min(sd.types + 1, kTypes)] - sd.bonus) / 20.0f, "next_type_gain");
  w.put(sd.n_cards / 6.0f, "cards");
  for (int t = 0; t < kTiers; ++t) w.put(sd.by_tier[t] / 3.0f, "owned", -1, kTierNames[t]);
  unsigned types = 0;
  for (uint32_t b = P.owned; b; b &= b - 1) types |= 1u << g.card(lsb64(b)).type;
  for (int t = 0; t < kTypes; ++t) w.flag((types >> t) & 1, "has", -1, kTypeNames[t]);
  for (int k = 0; k < kKinds; ++k) w.put(P.hand[k] / 4.0f, "hand", -1, kKindNames[k]);
  w.put(frac(P.apprentices, ed.apprentices_per_colour), "apprentices");
  w.put(frac(P.app_supply, ed.apprentices_per_colour), "apprentices_free");
  w.flag(P.pflags & PF_MASTER, "master_placed");
  w.flag(P.pflags & PF_PASSED, "passed");
  w.put(frac(P.mech_count, ed.mech_per_player), "mech");
  w.flag(g.current_player(s) == p, "to_move");
  w.put(((p - s.leo) % n + n) % n / (float)n, "order_from_L");
  w.put(s.academy[p] / 3.0f, "academy");
  w.put(((P.letters & 3) + ((P.letters >> 2) & 3) + ((P.letters >> 4) & 3) + (P.letters >> 6)) / 4.0f, "favour_letters");
  // In the city: apprentices and the master per area, and the place in the area's line.
  for (int a = 0; a < kAreas; ++a) {
    const int c = s.city[a][p];
    w.put((c & 0xF) / 5.0f, "city", -1, kAreaNames[a]);
    w.flag(c & 0x10, "master", -1, kAreaNames[a]);
  }
  // Labs: size, mechanical men, the invention in work and how far it is.
  for (int l = 0; l < kLabs; ++l) {
    const Lab& L = P.lab[l];
    w.flag(L.side != 0, "lab", -1, kLabNames[l]);
    w.put(L.side ? lab_spaces(L.side) / 6.0f : 0.0f, kLabNames[l], -1, "spaces");
    w.put(L.mech / 2.0f, kLabNames[l], -1, "mech");
    const bool on = L.working();
    const CardData& c = g.card(on ? L.card : 0);
    w.flag(on, kLabNames[l], -1, "working");
    w.put(on ? c.tier / 3.0f : 0.0f, kLabNames[l], -1, "tier");
    w.put(on ? c.reward_first / kFlorins : 0.0f, kLabNames[l], -1, "reward");
    const int th = on ? std::max(0, g.thr(s, p, L.card, P.owned)) : 0;
    w.put(on ? L.counter / 15.0f : 0.0f, kLabNames[l], -1, "counter");
    w.put(on ? frac(std::max(0, th - L.counter), 15) : 0.0f, kLabNames[l], -1, "weeks_left");
    bool in_row = false;
    for (int i = 0; i < s.row_len; ++i) in_row |= on && s.row[i] == L.card;
    w.flag(in_row, kLabNames[l], -1, "in_row");
    w.flag(on && (L.flags & LF_CONTINUING), kLabNames[l], -1, "continuing");
    w.flag(on && !((types >> c.type) & 1), kLabNames[l], -1, "new_type");
  }
  // Per row slot: working on it, the weeks its threshold asks of this seat, the materials
  // still missing from the hand, and whether it would be a new type.
  for (int i = 0; i < cx.row_slots; ++i) {
    const bool on = i < s.row_len;
    const int card = on ? s.row[i] : 0;
    const CardData& c = g.card(card);
    bool working = false;
    for (int l = 0; l < kLabs; ++l) working |= on && P.lab[l].working() && P.lab[l].card == card;
    int missing = 0;
    for (int k = 0; k < kKinds; ++k) missing += std::max(0, (int)c.mats[k] - (int)P.hand[k]);
    w.flag(working, "row", i, "working");
    w.put(on ? frac(std::max(0, g.thr(s, p, card, P.owned)), 15) : 0.0f, "row", i, "threshold");
    w.put(on ? missing / 4.0f : 0.0f, "row", i, "missing");
    w.flag(on && !((types >> c.type) & 1), "row", i, "new_type");
  }
}

template <class W>
int emit(W& w, const Game& g, const State& s, int seat) {
  const int n = g.num_players();
  Context cx;
  cx.row_slots = std::min(5, (int)g.row_size());
  for (int p = 0; p < n; ++p) cx.sd[p] = g.score(s, p);
  for (int p = 0; p < n; ++p) {
    cx.best_other[p] = -1000;
    for (int q = 0; q < n; ++q)
      if (q != p) cx.best_other[p] = std::max(cx.best_other[p], cx.sd[q].total);
  }
  emit_global(w, g, s, cx);
  for (int j = 0; j < n; ++j) {
    w.block(j ? "p+" : "me", j);
    emit_seat(w, g, s, cx, seat_after(seat, j, n));
  }
  return w.n;
}

// Per block: global 2 + phases + 3 + kinds + 1 + 4, then 11 per row slot; seat 7 + tiers +
// types + kinds + 9 + 2 per area + 11 per lab + 4 per row slot.
constexpr int kGlobalFixed = 2 + kPhases + 3 + kKinds + 1 + 4, kPerRow = 1 + kTiers + kTypes + 2;
constexpr int kSeatFixed = 7 + kTiers + kTypes + kKinds + 9 + 2 * kAreas + 11 * kLabs, kSeatPerRow = 4;

}  // namespace

int feature_count(const Game& g) {
  const int r = std::min(5, (int)g.row_size());
  return kGlobalFixed + r * kPerRow + g.num_players() * (kSeatFixed + r * kSeatPerRow);
}

int write_features(const Game& g, const State& s, int seat, float* out) {
  FeatureWriter w(out, feature_count(g));
  return emit(w, g, s, seat);
}

std::vector<std::string> feature_names(const Game& g) {
  FeatureNamer w;
  State s{};
  s.leo = 0;
  emit(w, g, s, 0);
  return w.names;
}

}  // namespace atelier::leonardo
