// Scoring and the result (spec §7).
#include <cstring>
#include <vector>

#include "../common/bits.hpp"
#include "game.hpp"
#include "mutate.hpp"   // token_lo / token_hi of a packed token pair

namespace atelier::inventors {

// Best total of classification suites (spec 7.4): x_v = suites containing number v is
// non-increasing; number v needs max(0, x_v - c_v) stars. A forward DP over v keeps, for each
// (x_prev, stars used), the best score so far; the frontier stays tiny in real games.
static int suite_score(const int* c6, int stars) {
  if (stars == 0) {  // fast path: sum of running minima
    int m = c6[0], total = 0;
    for (int v = 1; v < kTypes; ++v) {
      m = c6[v] < m ? c6[v] : m;
      total += m;
    }
    return total;
  }
  // The table has a row per star count: a score bound asks with the stars held plus one per
  // completion still to come (over 16 early in a 5-player game), so it is sized per call, not
  // fixed (a fixed [16] was read and written past its end there).
  constexpr int kMaxX = 64;
  static thread_local std::vector<int> table;
  const size_t row = (size_t)stars + 1;
  if (table.size() < 2 * kMaxX * row) table.resize(2 * kMaxX * row);
  auto best = [&](int which, int x, int u) -> int& { return table[((size_t)which * kMaxX + x) * row + u]; };
  const int top = c6[0] + stars < kMaxX - 1 ? c6[0] + stars : kMaxX - 1;
  const int V = kTypes + stars;
  // v = 0: choose x_0 (scores nothing).
  int cur = 0;
  for (int x = 0; x <= top; ++x)
    for (int u = 0; u <= stars; ++u) best(cur, x, u) = -1;
  for (int x = 0; x <= top; ++x) {
    const int need = x > c6[0] ? x - c6[0] : 0;
    if (need <= stars) best(cur, x, need) = 0;
  }
  for (int v = 1; v < V; ++v) {
    const int cv = v < kTypes ? c6[v] : 0;
    const int nxt = cur ^ 1;
    for (int x = 0; x <= top; ++x)
      for (int u = 0; u <= stars; ++u) best(nxt, x, u) = -1;
    for (int prev = 0; prev <= top; ++prev)
      for (int u = 0; u <= stars; ++u) {
        const int b = best(cur, prev, u);
        if (b < 0) continue;
        for (int x = 0; x <= prev; ++x) {
          const int need = u + (x > cv ? x - cv : 0);
          if (need > stars) break;
          if (b + x > best(nxt, x, need)) best(nxt, x, need) = b + x;
        }
      }
    cur = nxt;
  }
  int result = 0;
  for (int x = 0; x <= top; ++x)
    for (int u = 0; u <= stars; ++u)
      if (best(cur, x, u) > result) result = best(cur, x, u);
  return result;
}

// Suite scores with stars, cached: a bound or a search asks for the same few won sets again
// and again (they change only when a card is taken), and the DP with stars is the costly part.
static int suite_cached(const int* c6, int stars) {
  static thread_local uint64_t key[1024];
  static thread_local int val[1024];
  uint64_t k = 1 + (uint64_t)stars;
  for (int v = 0; v < kTypes; ++v) k = (k << 5) | (uint64_t)c6[v];
  const int slot = (int)((k * 0x9E3779B97F4A7C15ull) >> 54);
  if (key[slot] == k) return val[slot];
  key[slot] = k;
  return val[slot] = suite_score(c6, stars);
}

ScoreDetail Game::score(const State& s, int seat) const {
  ScoreDetail r{};
  int types[kTypes] = {0};
  for (uint64_t w = s.won[seat]; w; w &= w - 1) {
    const CardData& c = ed_.cards[lsb64(w)];
    r.cards += c.age;
    ++types[c.type];
    ++r.n_cards;
  }
  const uint8_t* h = s.hand[seat];
  r.vp_tokens = h[VP1] + 2 * h[VP2] + 3 * h[VP3];
  for (int i = 0; i < kInventorsPerTeam; ++i) {
    bool met = true;
    for (int d = 0; d < kDisciplines; ++d) met &= s.level(seat, i, d) >= ed_.inventors[teams_[seat]][i].goal[d];
    if (met) r.goals += goal_vp_[seat][i];
  }
  r.suites = h[ST] ? suite_cached(types, h[ST]) : suite_score(types, 0);
  r.total = r.cards + r.vp_tokens + r.goals + r.suites;
  return r;
}

void Game::scores(const State& s, int* out) const {
  for (int p = 0; p < n_; ++p) out[p] = score(s, p).total;
}

// Score bounds (concept: score_bounds). Every part of a score but held VP and ST tokens only
// grows, and those leave a hand only when their owner plays them: the current total is a
// score each seat can keep whatever the others do. For the ceiling, each of the r completions
// still to come rewards a seat at most once (5.7.4: distinct seats) with one of a card (at
// most 3 points, and its type is worth no more to the suites than a star, 7.4), a VP token
// (at most 3 points) or a token played for one level step. So some c of the r rewards are
// level steps and the rest at most 3 points and a star each; the ceiling is the best c.
// Level steps are counted by kind: a back play raises 0 -> 1 with any token, a front play
// N-1 -> N only with a P_N (5.2), so a goal needing a P4 step cannot use a P2. In Age III the
// tokens still to be won are the ones on the display (and on the card being rewarded): a
// kind counts at most once per card that carries it. A held VP token played for a step loses
// its value: steps beyond the other tokens spend the cheapest VP tokens first.
using detail::reward_kinds;
using detail::token_hi;
using detail::token_lo;

namespace {
struct StepNeed { int any, p[3]; };   // back steps (0 -> 1) and front steps to 2, 3, 4
struct SeatKey {   // six words: compared and hashed a word at a time
  uint64_t serial, levels, won;
  uint8_t hand[kTokenKinds], mine[kTokenKinds], r, seat, plays;
  uint8_t pad[24 - 2 * kTokenKinds - 3];
};
static_assert(sizeof(SeatKey) == 48, "SeatKey: six words");
struct SeatBound {
  SeatKey key;
  int lo, hi;
  bool used;
};
}  // namespace

void Game::score_bounds(const State& s, int* lo, int* hi) const {
  int left = 0;   // completions still to come
  if (s.phase == CHANCE_REVEAL) left = (4 - s.age) * (k() - 1);
  else if (s.phase != TERMINAL) left = (s.ndisplay - 1) + (3 - s.age) * (k() - 1);
  // Tokens still to be won, per kind: with a reveal to come any kind may come, every time.
  int offered[kTokenKinds];
  const bool known = s.age == 3 && s.phase != CHANCE_REVEAL;
  for (int k = 0; k < kTokenKinds; ++k) offered[k] = known ? 0 : 64;
  if (known) {
    for (int j = 0; j < s.ndisplay; ++j) {
      const unsigned lo_k = token_lo(s.display[j].tokens), hi_k = token_hi(s.display[j].tokens);
      ++offered[lo_k];
      if (hi_k != lo_k) ++offered[hi_k];
    }
  }
  for (int p = 0; p < n_; ++p) {
    int r = left;
    uint8_t mine[kTokenKinds];
    for (int k = 0; k < kTokenKinds; ++k) mine[k] = (uint8_t)offered[k];
    if (s.phase == REWARD) {
      bool chooses = false;
      for (int i = s.rw_index; i < s.rw_count; ++i) chooses |= s.rw_seats[i] == p;
      if (chooses) {
        ++r;
        int kinds[2];
        for (int x = 0, nk = known ? reward_kinds(s, kinds) : 0; x < nk; ++x) ++mine[kinds[x]];
      }
    }
    // A seat's bounds read only its own levels, hand and won cards and what is still to win,
    // which the other seats' moves rarely change: cached per thread, keyed by all of it.
    SeatKey key;
    std::memset(&key, 0, sizeof key);
    key.serial = serial_;
    key.levels = s.levels[p];
    key.won = s.won[p];
    std::memcpy(key.hand, s.hand[p], kTokenKinds);
    std::memcpy(key.mine, mine, kTokenKinds);
    key.r = (uint8_t)r;
    key.seat = (uint8_t)p;
    key.plays = (uint8_t)plays_for(s, p);
    static thread_local SeatBound cache[4096];
    uint64_t w[6];
    std::memcpy(w, &key, sizeof w);
    uint64_t h = 0;
    for (int x = 0; x < 6; ++x) h = (h ^ w[x]) * 0x9E3779B97F4A7C15ull;
    SeatBound& e = cache[(h ^ (h >> 29)) >> 52];
    if (!e.used || std::memcmp(&e.key, &key, sizeof key) != 0) {
      e.key = key;
      e.used = true;
      seat_bounds(s, p, r, mine, key.plays, e.lo, e.hi);
    }
    lo[p] = e.lo;
    hi[p] = e.hi;
  }
}

// When seat p can still play tokens (5.2: on its own turns, before the main action):
// 2 surely (p is to move in MAIN, or every turn before p's next one completes at most one
// card and fewer turns come first than completions are left), 1 perhaps, 0 never (the reward
// of the game's last completion is being chosen: the game ends with it).
int Game::plays_for(const State& s, int p) const {
  if (s.phase == TERMINAL) return 0;
  if (s.phase == MAIN && s.active == p) return 2;
  const int left = s.ndisplay - 1;   // completions after the current one (REWARD) or to come
  if (s.phase == REWARD && s.age == 3 && left == 0) return 0;
  if (s.age != 3 || s.phase == CHANCE_REVEAL) return 1;
  // The turns of other seats before p's: from the active seat (MAIN) or from the seat after
  // the one completing now (REWARD; it holds the statuette, 5.7.1).
  const int first = s.phase == MAIN ? s.active : (s.statuette + 1) % n_;
  const int turns = (p - first + n_) % n_;
  return left > turns ? 2 : 1;
}

// The most goal VP seat p can have with `plain` tokens worth nothing held, P2..P4 supplies
// (supply[0..2], counted in plain too) and held VP tokens (cost[], cheapest first, each
// losing its value when played for a step), less the VP spent.
static int best_goals(const StepNeed* need, const int* goal_vp, const int* supply, int plain,
                      const int* cost, int ncost) {
  int goals = 0;
  for (int m = 0; m < (1 << kInventorsPerTeam); ++m) {
    int any = 0, pn[3] = {0, 0, 0}, vp = 0;
    for (int i = 0; i < kInventorsPerTeam; ++i)
      if (m >> i & 1) {
        any += need[i].any, vp += goal_vp[i];
        for (int n = 0; n < 3; ++n) pn[n] += need[i].p[n];
      }
    if (vp <= goals || pn[0] > supply[0] || pn[1] > supply[1] || pn[2] > supply[2]) continue;
    const int over = any + pn[0] + pn[1] + pn[2] - plain;   // steps left for VP tokens
    if (over > ncost) continue;
    for (int x = 0; x < over; ++x) vp -= cost[x];
    if (vp > goals) goals = vp;
  }
  return goals;
}

// One seat's bounds: see score_bounds. Reads s only for seat p's own fields (the cache key).
// `plays`: plays_for(s, p). A seat sure to play again may play its tokens then: nobody else
// changes its levels or hand meanwhile, so the goals those reach (paying for spent VP
// tokens) are kept, and raise lo.
void Game::seat_bounds(const State& s, int p, int r, const uint8_t* mine, int plays, int& lo,
                       int& hi) const {
  const ScoreDetail d = score(s, p);
  lo = d.total;
  if (r == 0 && plays == 0) {
    hi = d.total;
    return;
  }
  int types[kTypes] = {0};
  for (uint64_t w = s.won[p]; w; w &= w - 1) ++types[ed_.cards[lsb64(w)].type];
  const uint8_t* h = s.hand[p];
  int plain = 0;   // held tokens worth nothing at the end (ST: counted free here, for hi only)
  for (int k = 0; k < kTokenKinds; ++k)
    if (k != VP1 && k != VP2 && k != VP3) plain += h[k];
  // Held VP tokens by value, cheapest first: the price of playing them for steps.
  int vp_cost[64], nvp = 0;
  for (int v = 1; v <= 3; ++v)
    for (int x = 0; x < h[VP1 + v - 1] && nvp < 64; ++x) vp_cost[nvp++] = v;
  // What each inventor still needs for its goal, by kind.
  StepNeed need[kInventorsPerTeam];
  for (int i = 0; i < kInventorsPerTeam; ++i) {
    need[i] = StepNeed{0, {0, 0, 0}};
    for (int dd = 0; dd < kDisciplines; ++dd) {
      const int g = ed_.inventors[teams_[p]][i].goal[dd], l = s.level(p, i, dd);
      if (l == 0 && g >= 1) ++need[i].any;
      for (int n = 2; n <= 4; ++n)
        if (l <= n - 1 && g >= n) ++need[i].p[n - 2];
    }
  }
  if (plays == 2) {   // lo: those plays, with the tokens worth nothing held (ST kept: a star)
    const int supply[3] = {h[P2], h[P3], h[P4]};
    const int now = best_goals(need, goal_vp_[p], supply, plain - h[ST], vp_cost, nvp);
    if (now > d.goals) lo = d.total - d.goals + now;
  }
  // c of the r rewards are tokens for steps: never the last completion's (the game ends with
  // it), and at most c of a kind, no more than are offered. No play left: no steps at all.
  const int no_supply[3] = {0, 0, 0};
  int best = -1;
  for (int c = 0; c <= r; ++c) {
    int goals;
    if (plays == 0) {
      if (c > 0) break;
      goals = best_goals(need, goal_vp_[p], no_supply, 0, vp_cost, 0);
    } else {
      if (c > 0 && c > r - 1) break;
      int supply[3];
      for (int n = 0; n < 3; ++n) supply[n] = h[P2 + n] + (c < mine[P2 + n] ? c : mine[P2 + n]);
      goals = best_goals(need, goal_vp_[p], supply, plain + c, vp_cost, nvp);
    }
    const int v = 3 * (r - c) + suite_cached(types, h[ST] + r - c) + goals;
    if (v > best) best = v;
  }
  hi = d.cards + d.vp_tokens + best;
}

// Spec 7.5: highest total, then most won cards, then a shared win.
uint8_t Game::winners(const State& s) const {
  int best_total = -1, best_cards = -1;
  uint8_t mask = 0;
  for (int p = 0; p < n_; ++p) {
    const ScoreDetail d = score(s, p);
    if (d.total > best_total || (d.total == best_total && d.n_cards > best_cards)) {
      best_total = d.total;
      best_cards = d.n_cards;
      mask = (uint8_t)(1u << p);
    } else if (d.total == best_total && d.n_cards == best_cards) {
      mask |= (uint8_t)(1u << p);
    }
  }
  return mask;
}

// Before the end nobody has won: 1/n each (docs/internal-contract.md), not the current leaders.
void Game::returns(const State& s, double* out) const {
  const uint8_t w = s.phase == TERMINAL ? winners(s) : (uint8_t)((1u << n_) - 1);
  const double share = 1.0 / __builtin_popcount(w);
  for (int p = 0; p < n_; ++p) out[p] = (w >> p) & 1 ? share : 0.0;
}

}  // namespace atelier::inventors
