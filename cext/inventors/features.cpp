// Legendary Inventors' feature vector (docs/models.md, "Features: Inventors"). Written once as
// a template over the writer (cext/common/features.hpp), so values, names and count agree.
// Scales: points over 40 (a strong final score is 25-40), counts over their maxima.
#include <algorithm>

#include "../common/bits.hpp"
#include "../common/features.hpp"
#include "game.hpp"

namespace atelier::inventors {

namespace {

constexpr float kPoints = 40.0f;
const char* const kTypeNames[kTypes] = {"type0", "type1", "type2", "type3", "type4", "type5"};
const char* const kLeft[kDisciplines] = {"left_P", "left_C", "left_M", "left_Ma"};
const char* const kLevel[kDisciplines] = {"level_P", "level_C", "level_M", "level_Ma"};

// The score of spec §7 now, as Game::score counts it, but with the suites (a DP over the stars,
// most of the cost) cached per thread by (cards per type, stars): they change only when a card
// or a star changes hands. tests/test_features.py checks `me.score` against State.scores().
ScoreDetail score_now(const Game& g, const State& s, int p) {
  static thread_local uint64_t keys[512];
  static thread_local int16_t vals[512];
  ScoreDetail r{};
  int types[kTypes] = {0};
  for (uint64_t b = s.won[p]; b; b &= b - 1) {
    const CardData& c = g.card(lsb64(b));
    r.cards += c.age;
    ++types[c.type];
    ++r.n_cards;
  }
  const uint8_t* h = s.hand[p];
  r.vp_tokens = h[VP1] + 2 * h[VP2] + 3 * h[VP3];
  for (int i = 0; i < kInventorsPerTeam; ++i) {
    const InventorData& inv = g.inventor(p, i);
    bool met = true;
    for (int d = 0; d < kDisciplines; ++d) met &= s.level(p, i, d) >= inv.goal[d];
    if (met) r.goals += inv.goal_vp;
  }
  uint64_t key = 1 + (uint64_t)h[ST];
  for (int v = 0; v < kTypes; ++v) key = (key << 6) | (uint64_t)types[v];
  const int slot = (int)((key * 0x9E3779B97F4A7C15ull) >> 55);
  if (keys[slot] != key) {
    keys[slot] = key;
    vals[slot] = (int16_t)g.score(s, p).suites;
  }
  r.suites = vals[slot];
  r.total = r.cards + r.vp_tokens + r.goals + r.suites;
  return r;
}

// Per seat, what the display block and the seat blocks share: scores now.
struct Context {
  ScoreDetail sd[kMaxPlayers];
  int best_other[kMaxPlayers];  // the highest total among the other seats
};

template <class W>
void emit_global(W& w, const Game& g, const State& s) {
  const int n = g.num_players(), k = g.k();
  w.block("global");
  for (int a = 1; a <= kAges; ++a) w.flag(s.age == a, "age", a);
  w.flag(s.phase == CHANCE_REVEAL, "chance");
  w.flag(s.phase == REWARD, "reward");
  w.flag(s.phase == TERMINAL, "terminal");
  // Completions still to come: the display's cards but its last one, then n+2 per later age
  // (5.8: an age has n+2 completions); before a reveal the whole age is still to come.
  const int this_age = s.phase == CHANCE_REVEAL ? n + 2 : std::max(0, (int)s.ndisplay - 1);
  const int later = s.phase == TERMINAL ? 0 : (kAges - s.age) * (n + 2);
  w.put(frac(this_age + later, kAges * (n + 2)), "completions_left");
  // Tokens still in the bag (what the later reveals can bring), per kind.
  for (int t = 0; t < kTokenKinds; ++t) w.put(frac(s.bag[t], 8), "bag", -1, kTokenNames[t]);
  // The display: K slots in card order (empty slots are zeros), each card's value, type,
  // spaces left per discipline and the tokens on it.
  for (int i = 0; i < k; ++i) {
    const bool on = i < s.ndisplay && s.phase != CHANCE_REVEAL;
    const DisplayCard& dc = s.display[on ? i : 0];
    const CardData& c = g.card(dc.card);
    w.flag(on, "card", i, "present");
    w.put(on ? c.age / 3.0f : 0.0f, "card", i, "points");
    for (int t = 0; t < kTypes; ++t) w.flag(on && c.type == t, "card", i, kTypeNames[t]);
    int left = 0;
    for (int d = 0; d < kDisciplines; ++d) {
      const int e = on ? c.cost[d] - dc.filled[d] : 0;
      left += e;
      w.put(e / 7.0f, "card", i, kLeft[d]);
    }
    w.put(on ? frac(left, c.total) : 0.0f, "card", i, "left_share");
    const int lo = dc.tokens & 0xF, hi = dc.tokens >> 4;
    w.put(on ? (lo == VP1 || lo == VP2 || lo == VP3 ? lo - VP1 + 1 : 0) / 3.0f
                 + (hi == VP1 || hi == VP2 || hi == VP3 ? hi - VP1 + 1 : 0) / 3.0f : 0.0f,
          "card", i, "token_vp");
    w.put(on ? (lo == ST) + (hi == ST) : 0, "card", i, "token_st");
    w.put(on ? (lo <= P4) + (hi <= P4) : 0, "card", i, "token_progress");
    w.put(on ? (lo == AV || lo == AK) + (hi == AV || hi == AK) : 0, "card", i, "token_action");
  }
}

template <class W>
void emit_seat(W& w, const Game& g, const State& s, const Context& cx, int seat, int p) {
  const int n = g.num_players(), k = g.k();
  const ScoreDetail& sd = cx.sd[p];
  w.put(sd.total / kPoints, "score");
  w.put((sd.total - cx.best_other[p]) / 20.0f, "lead");
  w.put(sd.cards / kPoints, "score_cards");
  w.put(sd.vp_tokens / 20.0f, "score_vp_tokens");
  w.put(sd.goals / 20.0f, "score_goals");
  w.put(sd.suites / 20.0f, "score_suites");
  w.put(sd.n_cards / 10.0f, "cards");
  int types[kTypes] = {0};
  for (uint64_t b = s.won[p]; b; b &= b - 1) ++types[g.card(lsb64(b)).type];
  for (int t = 0; t < kTypes; ++t) w.put(types[t] / 3.0f, "won_type", t);
  for (int t = 0; t < kTokenKinds; ++t) w.put(s.hand[p][t] / 3.0f, "hand", -1, kTokenNames[t]);
  // Tempo: the seat to decide is this one; seats until this seat's next main turn.
  const int cur = g.current_player(s);
  w.flag(cur == p, "to_move");
  const int active = s.phase == MAIN ? s.active : (s.statuette + 1) % n;
  w.put(((p - active) % n + n) % n / (float)n, "turns_until_active");
  w.flag(s.statuette == p, "statuette");
  (void)seat;
  // Inventors: availability, levels, distance to the goal.
  int avail_level[kDisciplines] = {0};
  for (int i = 0; i < kInventorsPerTeam; ++i) {
    const InventorData& inv = g.inventor(p, i);
    const bool busy = (s.busy[p] >> i) & 1;
    w.flag(busy, "inv", i, "busy");
    int missing = 0, need = 0;
    for (int d = 0; d < kDisciplines; ++d) {
      const int lv = s.level(p, i, d);
      missing += std::max(0, (int)inv.goal[d] - lv);
      need += std::max(0, (int)inv.goal[d] - (int)inv.start[d]);
      if (!busy) avail_level[d] = std::max(avail_level[d], lv);
      w.put(lv / 5.0f, "inv", i, kLevel[d]);
    }
    w.put(need ? (float)missing / need : 0.0f, "inv", i, "goal_missing");
    w.put(missing == 0 ? inv.goal_vp / 10.0f : 0.0f, "inv", i, "goal_vp_met");
  }
  // Per display slot: cubes here, and how much an available inventor could place now.
  for (int i = 0; i < k; ++i) {
    const bool on = i < s.ndisplay && s.phase != CHANCE_REVEAL;
    const DisplayCard& dc = s.display[on ? i : 0];
    const CardData& c = g.card(dc.card);
    int can = 0;
    if (on)
      for (int d = 0; d < kDisciplines; ++d) can += std::min(avail_level[d], c.cost[d] - dc.filled[d]);
    w.put(on ? dc.cubes[p] / 7.0f : 0.0f, "card", i, "cubes");
    w.put(on ? frac(can, c.total) : 0.0f, "card", i, "can_place");
  }
  // The reward being chosen: this seat's turn in it (1 first .. 3), 0 if not rewarded.
  int rank = 0;
  if (s.phase == REWARD)
    for (int r = s.rw_index; r < s.rw_count; ++r)
      if (s.rw_seats[r] == p) rank = r - s.rw_index + 1;
  w.put(rank / 3.0f, "reward_rank");
}

template <class W>
int emit(W& w, const Game& g, const State& s, int seat) {
  const int n = g.num_players();
  Context cx;
  for (int p = 0; p < n; ++p) cx.sd[p] = score_now(g, s, p);
  for (int p = 0; p < n; ++p) {
    cx.best_other[p] = -1000;
    for (int q = 0; q < n; ++q)
      if (q != p) cx.best_other[p] = std::max(cx.best_other[p], cx.sd[q].total);
  }
  emit_global(w, g, s);
  for (int j = 0; j < n; ++j) {
    w.block(j ? "p+" : "me", j);
    emit_seat(w, g, s, cx, seat, seat_after(seat, j, n));
  }
  return w.n;
}

// Count per block (global: ages 3, phases 3, completions 1, bag 9, K cards x 17;
// seat: 7 score, 6 types, 9 hand, 3 tempo, 4 inventors x 7, K x 2, 1 reward).
constexpr int kGlobalFixed = 3 + 3 + 1 + kTokenKinds, kPerCard = 1 + 1 + kTypes + kDisciplines + 1 + 4;
constexpr int kSeatFixed = 7 + kTypes + kTokenKinds + 3 + kInventorsPerTeam * 7 + 1, kPerSlot = 2;

}  // namespace

int feature_count(const Game& g) {
  const int k = g.k();
  return kGlobalFixed + k * kPerCard + g.num_players() * (kSeatFixed + k * kPerSlot);
}

int write_features(const Game& g, const State& s, int seat, float* out) {
  FeatureWriter w(out, feature_count(g));
  return emit(w, g, s, seat);
}

std::vector<std::string> feature_names(const Game& g) {
  FeatureNamer w;
  State s{};
  g.initial_state(s);
  emit(w, g, s, 0);
  return w.names;
}

}  // namespace atelier::inventors
