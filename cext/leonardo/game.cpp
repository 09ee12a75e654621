// Leonardo da Vinci: setup (§2), the turn flow (§4) and every transition (§5). Automatic
// steps run inside settle(); a decision whose only option is PASS, DECLINE or NONE is played
// there too (§11.4), so every state a caller sees is a real decision, a chance node or the end.
#include "game.hpp"

#include <cstring>
#include <stdexcept>

#include "../common/bits.hpp"
#include "../common/serial.hpp"

namespace atelier::leonardo {

// Money and the pot are 0..65535 (§11.4). A position may start near the top, so a payment
// saturates there instead of wrapping to a small number (which would change who wins).
static inline uint16_t add_money(uint16_t have, int gain) {
  const int v = have + gain;
  return (uint16_t)(v > 65535 ? 65535 : v);
}

Perms::Perms() {
  for (int m = 0; m <= 4; ++m) {
    uint8_t a[4] = {0, 1, 2, 3};
    int c = 0;
    do {  // std::next_permutation by hand: lexicographic order, identity first
      for (int i = 0; i < 4; ++i) seq[m][c][i] = a[i];
      ++c;
      int i = m - 2;
      while (i >= 0 && a[i] > a[i + 1]) --i;
      if (i < 0) break;
      int j = m - 1;
      while (a[j] < a[i]) --j;
      uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
      for (int x = i + 1, y = m - 1; x < y; ++x, --y) { t = a[x]; a[x] = a[y]; a[y] = t; }
    } while (m > 1);
    count[m] = (uint8_t)c;
  }
}
const Perms kPerms;

Game::Game(const Edition& edition, int n_players, Options options)
    : ed_(edition), n_(n_players), opt_(options), serial_(next_game_serial()) {
  const std::string err = ed_.validate();
  if (!err.empty()) throw std::invalid_argument(err);
  if (n_ < 2 || n_ > kMaxPlayers) throw std::invalid_argument("players: must be 2..5");
  for (int t = 0; t < kTiers; ++t) tier_mask_[t] = 0;
  for (int c = 0; c < kCards; ++c) tier_mask_[ed_.cards[c].tier] |= 1u << c;
  static_assert(kKinds == 5, "fits_hand packs five kinds");
  for (int c = 0; c < kCards; ++c) need_[c] = pack_kinds(ed_.cards[c].mats);
}

// ---- Small shared helpers -------------------------------------------------------------

static inline int seat_from(int leo, int i, int n) { return (leo + i) % n; }

int Game::thr(const State& s, int p, int c, uint32_t owned) const {
  (void)s;
  int same = 0;
  for (uint32_t w = owned; w; w &= w - 1)
    if (ed_.cards[lsb64(w)].type == ed_.cards[c].type) ++same;
  return (int)ed_.cards[c].weeks - (int)ed_.discount * same;
}

void Game::rank(const State& s, int area, uint8_t* order, int& count) const {
  count = 0;
  for (int p = 0; p < n_; ++p) {
    const uint8_t g = s.city[area][p];
    if (!(g >> 5)) continue;
    const int str = (g & 15) + 2 * ((g >> 4) & 1);
    int t = count++;
    while (t > 0) {
      const uint8_t h = s.city[area][order[t - 1]];
      const int hs = (h & 15) + 2 * ((h >> 4) & 1);
      if (hs > str || (hs == str && (h >> 5) < (g >> 5))) break;
      order[t] = order[t - 1];
      --t;
    }
    order[t] = (uint8_t)p;
  }
}

uint32_t Game::startable(const State& s) const {
  uint32_t m = 0;
  if (s.turn <= ed_.normal_turns && s.phase == LAB) {
    // Row, deck, box and owned cards partition the cards (validate.cpp), and in Phase A no
    // auction holds one: row ∪ deck without a scan of the deck, which a lab start asked for
    // three times (generation, settle's NONE test, the start's record).
    m = ((1u << kCards) - 1) & ~s.box;
    for (int p = 0; p < n_; ++p) m &= ~s.pl[p].owned;
    return m;
  }
  for (int i = 0; i < s.row_len; ++i) m |= 1u << s.row[i];
  if (s.turn <= ed_.normal_turns)
    m |= deck_cards(s);
  return m;
}

// totals - materials under revealed labs (§3.5.2); returns nothing useful, fills out[kKinds].
uint32_t Game::totals_budget(const State& s, int p, uint8_t* out) const {
  const Player& P = s.pl[p];
  for (int k = 0; k < kKinds; ++k) {
    int v = P.hand[k];
    for (int l = 0; l < kLabs; ++l)
      if (!(P.lab[l].flags & LF_REVEALED)) v += lab_mat(P, l, k);
    out[k] = (uint8_t)v;
  }
  return 0;
}

static void add_group(State& s, int area, int p, int app, int master) {
  uint8_t& g = s.city[area][p];
  if (!(g >> 5)) {
    int last = 0;
    for (int q = 0; q < kMaxPlayers; ++q) last = (s.city[area][q] >> 5) > last ? (s.city[area][q] >> 5) : last;
    g = (uint8_t)((last + 1) << 5);
  }
  g = (uint8_t)((g & 0xE0) | ((g & 16) | (master ? 16 : 0)) | ((g & 15) + app));
}

static void remove_group(State& s, int area, int p) {
  const int pos = s.city[area][p] >> 5;
  s.city[area][p] = 0;
  for (int q = 0; q < kMaxPlayers; ++q) {
    const int qp = s.city[area][q] >> 5;
    if (qp > pos) s.city[area][q] = (uint8_t)(s.city[area][q] - 32);
  }
}

// ---- Setup (§2) ------------------------------------------------------------------------

static void shuffle(uint8_t* a, int n, Rng& rng) {
  for (int i = n - 1; i > 0; --i) {
    const int j = (int)rng.below((uint32_t)(i + 1));
    const uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
  }
}

// Choose k cards uniformly from mask; returns the chosen mask.
static uint32_t choose(uint32_t mask, int k, Rng& rng) {
  uint8_t c[kCards];
  int n = 0;
  for (uint32_t w = mask; w; w &= w - 1) c[n++] = (uint8_t)lsb64(w);
  uint32_t out = 0;
  for (int i = 0; i < k && i < n; ++i) {  // partial Fisher-Yates
    const int j = i + (int)rng.below((uint32_t)(n - i));
    const uint8_t t = c[i]; c[i] = c[j]; c[j] = t;
    out |= 1u << c[i];
  }
  return out;
}

void Game::initial_state(State& s, Rng& rng) const {
  std::memset(&s, 0, sizeof s);
  const bool basic = opt_.basic;
  const int R = row_size();
  s.pot = ed_.pot_start;
  s.mech_supply = (uint8_t)(ed_.mech_per_player * n_);
  for (int k = 0; k < kKinds; ++k) s.shop[k] = ed_.per_kind;
  for (auto& c : s.claimed) c = kNone;
  for (int p = 0; p < n_; ++p) {
    Player& P = s.pl[p];
    for (int l = 0; l < kLabs; ++l) P.lab[l].card = kNone;
    P.pflags = PF_MASTER;
    if (basic) {
      const Kit& K = ed_.kits[p];
      P.apprentices = K.apprentices;
      P.money = K.money;
      P.lab[0].side = K.small_side;
      P.lab[1].side = K.large_side;
      for (int l = 0; l < kLabs; ++l) {
        P.lab[l].mech = K.mech[l];
        P.mech_count = (uint8_t)(P.mech_count + K.mech[l]);
      }
      for (int k = 0; k < kKinds; ++k) {
        P.hand[k] = K.mats[k];
        s.shop[k] = (uint8_t)(s.shop[k] - K.mats[k]);
      }
      s.mech_supply = (uint8_t)(s.mech_supply - P.mech_count);
    } else {
      P.apprentices = ed_.base_apprentices;
      P.money = ed_.base_money;
      P.lab[0].side = ed_.base_small_side;
    }
    P.app_supply = P.apprentices;
    s.academy[p] = (uint8_t)(ed_.apprentices_per_colour - ed_.removed_apprentices[n_] - P.apprentices);
  }

  // Deck building (§2.2, R2).
  uint32_t row = 0;
  if (basic)
    for (int i = 0; i < ed_.basic_row_len[n_]; ++i) row |= 1u << ed_.basic_row[n_][i];
  uint32_t mid = ed_.middle_cards;
  for (int t = 0; t < kLowerTiers; ++t) {
    const uint32_t pool = tier_mask_[t] & ~row;
    const uint32_t chosen = choose(pool, ed_.plus_lower[t], rng);
    mid |= chosen;
    s.mid_lower |= chosen;
  }
  if (!basic && n_ == 2)
    for (int t = 0; t < kLowerTiers; ++t)
      s.discards |= choose(tier_mask_[t] & ~mid, ed_.two_player_discard[t], rng);
  s.box = s.discards;
  const uint32_t all = (1u << kCards) - 1;
  const uint32_t top = all & ~row & ~mid & ~ed_.bottom_cards & ~s.discards;
  const uint32_t piles[3] = {top, mid, ed_.bottom_cards};
  int n = 0;
  for (int pl = 0; pl < 3; ++pl) {
    const int start = n;
    for (uint32_t w = piles[pl]; w; w &= w - 1) s.deck[n++] = (uint8_t)lsb64(w);
    shuffle(s.deck + start, n - start, rng);
    s.pile_size[pl] = (uint8_t)(n - start);
  }
  s.deck_len = (uint8_t)n;
  if (basic) {
    for (int i = 0; i < ed_.basic_row_len[n_]; ++i) s.row[i] = ed_.basic_row[n_][i];
    s.row_len = ed_.basic_row_len[n_];
  } else {
    // Expert: deal R(N) from the top; each deal is a draw in the deck history.
    for (int i = 0; i < R && s.deck_len; ++i) {
      const uint8_t c = s.deck[0];
      std::memmove(s.deck, s.deck + 1, --s.deck_len);
      s.deck[s.deck_len] = 0;
      s.row[s.row_len++] = c;
      s.hist[s.hist_len++] = c;
    }
  }
  if (!basic && ed_.favours[n_] > 0) {
    s.phase = FAVOUR;
    s.turn = 0;
    s.step = 0;
    s.actor = 0;
  } else {
    s.turn = 0;
    begin_turn(s);
  }
  settle(s);
  rekey(s);
}

int Game::current_player(const State& s) const {
  if (s.phase == DRAW) return kChancePlayer;
  if (s.phase == GAME_OVER) return kTerminalPlayer;
  return s.actor;
}

bool Game::is_legal(const State& s, Move m) const {
  MoveList ml;
  legal_moves(s, ml);
  for (int i = 0; i < ml.size; ++i)
    if (ml[i] == m) return true;
  return false;
}

void Game::legal_moves(const State& s, MoveList& out) const {
  out.size = 0;
  if (s.phase == DRAW || s.phase == GAME_OVER) return;
  gen(s, out);
}

void Game::apply(State& s, Move m) const {
  apply_unkeyed(s, m);
  rekey(s);
}

void Game::apply_unkeyed(State& s, Move m) const {
  play(s, m);
  settle(s);
}

// ---- Automatic flow ----------------------------------------------------------------------

static bool forced_kind(Move m) {
  const unsigned k = mkind(m);
  return k == M_PASS || k == M_DECLINE || (k == M_START && (marg(m) & 31) == kStartNone);
}

// Decisions that can have PASS, DECLINE or NONE as their only option (the others never can).
static bool may_be_forced(const State& s) {
  switch (s.phase) {
    case LAB: return s.step >= 2;
    case PLACE: case CLAIM: case AREA: return true;
    default: return false;
  }
}

void Game::settle(State& s) const {
  MoveList ml;
  for (;;) {
    if (auto_step(s)) continue;
    if (!may_be_forced(s)) return;
    if (s.phase == PLACE) {   // the common cases, answered without generating the moves
      if (!place_only_pass(s)) return;
      play(s, mk(M_PASS));
      continue;
    }
    if (s.phase == LAB) {
      if (!start_only_none(s)) return;
      play(s, mk(M_START, (unsigned)((s.step - 2) * 32 + kStartNone)));
      continue;
    }
    gen(s, ml);
    if (ml.size == 1 && forced_kind(ml[0])) {
      play(s, ml[0]);
      continue;
    }
    return;
  }
}

void Game::begin_turn(State& s) const {
  s.turn = (uint8_t)(s.turn + 1);
  for (int p = 0; p < n_; ++p) {
    Player& P = s.pl[p];
    P.app_supply = P.apprentices;
    P.pflags = PF_MASTER;
    P.placed = 0;
    for (int l = 0; l < kLabs; ++l) {
      P.lab[l].app = 0;
      P.lab[l].flags &= (uint8_t)~LF_MASTER;
    }
  }
  s.phase = LAB;
  s.idx = 0;
  s.step = 0;
  s.actor = s.leo;
}

// One automatic step; returns true when it changed the state (so settle looks again).
bool Game::auto_step(State& s) const {
  switch (s.phase) {
    case LAB: {
      if (s.idx >= n_) {  // Phase A over: Phase B from L
        s.phase = PLACE;
        s.actor = s.leo;
        s.idx = 0;
        return true;
      }
      const int p = seat_from(s.leo, s.idx, n_);
      s.actor = (uint8_t)p;
      const Lab* L = s.pl[p].lab;
      const bool here = s.step < 2 ? L[s.step].working()
                                   : (L[s.step - 2].side && !L[s.step - 2].working());
      if (here) return false;
      if (++s.step == 4) {
        s.step = 0;
        ++s.idx;
      }
      return true;
    }
    case PLACE: {
      int left = 0;
      for (int p = 0; p < n_; ++p) left += !(s.pl[p].pflags & PF_PASSED);
      if (!left) {
        begin_phase_c(s);
        return true;
      }
      if (s.pl[s.actor].pflags & PF_PASSED) {
        s.actor = (uint8_t)((s.actor + 1) % n_);
        return true;
      }
      return false;
    }
    default:
      return false;
  }
}

void Game::begin_phase_c(State& s) const {
  if (s.turn > ed_.normal_turns) {
    research(s);
    return;
  }
  uint8_t order[kMaxPlayers];
  int cnt;
  rank(s, 0, order, cnt);
  if (cnt == 0) {
    area_begin(s, 1);
    return;
  }
  if (n_ >= 3 && cnt == n_) --cnt;  // the last-ranked takes its workers back (§5.4.2 step 2)
  for (int i = 0; i < kMaxPlayers; ++i) s.c_order[i] = i < cnt ? order[i] : 0;
  s.c_count = (uint8_t)cnt;
  for (auto& c : s.claimed) c = kNone;
  s.gift_done = 0;
  s.idx = 0;
  s.phase = CLAIM;
  s.actor = s.c_order[0];
}

void Game::council_next(State& s) const {
  if (++s.idx < s.c_count) {
    s.phase = CLAIM;
    s.actor = s.c_order[s.idx];
    return;
  }
  s.step = 0;
  council_exec(s);
}

// Run the claimed actions from s.step on, in order 1..4 (§5.4.2 step 5); parameters are
// decisions of their owner, chosen at execution.
void Game::council_exec(State& s) const {
  for (;;) {
    const int a = s.step;
    if (a >= 4) break;
    const uint8_t owner = s.claimed[a];
    if (owner == kNone) {
      ++s.step;
      continue;
    }
    if (a == 1) {  // action 2: the pot
      s.pl[owner].money = add_money(s.pl[owner].money, s.pot);
      s.pot = 0;
      ++s.step;
      continue;
    }
    s.actor = owner;
    s.phase = a == 0 ? CMOVE : a == 2 ? REORDER : MATERIAL;
    return;
  }
  for (int p = 0; p < kMaxPlayers; ++p) s.city[0][p] = 0;  // workers in A go home
  s.c_count = 0;
  s.idx = 0;
  std::memset(s.c_order, 0, sizeof s.c_order);
  for (auto& c : s.claimed) c = kNone;
  s.gift_done = 0;
  s.step = 0;
  area_begin(s, 1);
}

void Game::area_begin(State& s, int area) const {
  for (; area < kAreas; ++area) {
    uint8_t order[kMaxPlayers];
    int cnt;
    rank(s, area, order, cnt);
    if (!cnt) continue;
    s.phase = AREA;
    s.area = (uint8_t)area;
    s.price = 0;
    s.removed = 0;
    s.idx = 0;
    s.actor = order[0];
    return;
  }
  s.area = 0;
  s.price = 0;
  s.removed = 0;
  s.idx = 0;
  research(s);
}

// After a choice in an area: the next present player in rank order (cyclic), or the next area.
void Game::area_next(State& s, bool removed_current) const {
  uint8_t order[kMaxPlayers];
  int cnt;
  rank(s, s.area, order, cnt);
  if (removed_current) s.removed |= (uint8_t)(1u << order[s.idx]);
  uint8_t present = 0;  // a mask, not a count: the loop below must find a seat not removed
  for (int i = 0; i < cnt; ++i) present |= (uint8_t)(1u << order[i]);
  if (s.price >= kPrices || (s.removed & present) == present) {
    for (int p = 0; p < kMaxPlayers; ++p) s.city[s.area][p] = 0;
    area_begin(s, s.area + 1);
    return;
  }
  int i = s.idx;
  do i = (i + 1) % cnt;
  while (s.removed & (1u << order[i]));
  s.idx = (uint8_t)i;
  s.actor = order[i];
}

// ---- Labs in Phase A (§5.2) and their records (§3.5.2) ------------------------------------

void Game::fold_snapshot(State& s, int p, int stopped, bool cancelled, uint32_t stopped_cand) const {
  Player& P = s.pl[p];
  if (!P.snap_turn) return;
  uint8_t B[kKinds], M[kKinds];
  for (int k = 0; k < kKinds; ++k) B[k] = (uint8_t)nib(P.snap_budget, k), M[k] = (uint8_t)lab_mat(P, stopped, k);
  // Bytewise as fits_hand: a budget byte (a nibble) never borrows from the next.
  const uint64_t budget = pack_kinds(B) | kKindTops, in_lab = pack_kinds(M);
  Lab& other = P.lab[1 - stopped];
  uint32_t keep = 0;
  for (uint32_t w = other.cand; w; w &= w - 1) {
    const int x = lsb64(w);
    bool ok = false;
    if (cancelled) {
      for (uint32_t v = stopped_cand & ~(1u << x); v && !ok; v &= v - 1)
        ok = ((budget - (need_[x] + need_[lsb64(v)])) & kKindTops) == kKindTops;
    } else {
      ok = ((budget - (need_[x] + in_lab)) & kKindTops) == kKindTops;
    }
    if (ok) keep |= 1u << x;
  }
  other.cand = keep;
  P.snap_turn = 0;
  std::memset(P.snap_budget, 0, sizeof P.snap_budget);
}

void Game::start_lab(State& s, int p, int l, int c) const {
  Player& P = s.pl[p];
  Lab& L = P.lab[l];
  uint8_t B[kKinds];
  totals_budget(s, p, B);
  uint32_t cand = 0;
  const uint64_t budget = pack_kinds(B);
  for (uint32_t w = startable(s); w; w &= w - 1)
    if (fits_hand(lsb64(w), budget)) cand |= 1u << lsb64(w);
  if (P.lab[1 - l].hidden()) {  // both hidden from now on: the start snapshot
    P.snap_turn = s.turn;
    for (int k = 0; k < kKinds; ++k) set_nib(P.snap_budget, k, B[k]);
  }
  for (int k = 0; k < kKinds; ++k) {
    P.hand[k] = (uint8_t)(P.hand[k] - ed_.cards[c].mats[k]);
    set_lab_mat(P, l, k, ed_.cards[c].mats[k]);
  }
  L.card = (uint8_t)c;
  L.counter = 0;
  L.start_turn = s.turn;
  L.flags &= LF_MASTER;
  L.cand = cand;
}

void Game::cancel_lab(State& s, int p, int l) const {
  Player& P = s.pl[p];
  Lab& L = P.lab[l];
  if (L.hidden()) fold_snapshot(s, p, l, true, L.cand);
  for (int k = 0; k < kKinds; ++k) {
    P.hand[k] = (uint8_t)(P.hand[k] + lab_mat(P, l, k));
    set_lab_mat(P, l, k, 0);
  }
  L.card = kNone;
  L.counter = 0;
  L.start_turn = 0;
  L.flags &= LF_MASTER;
  L.cand = 0;
}

void Game::reveal_lab(State& s, int p, int l) const {
  Lab& L = s.pl[p].lab[l];
  if (L.hidden()) fold_snapshot(s, p, l, false, 0);
  L.flags |= LF_REVEALED;
  L.cand = 0;
}

// ---- Phase C labs and Phase D (§5.4.4, §5.5) ---------------------------------------------

void Game::research(State& s) const {
  for (int p = 0; p < n_; ++p)
    for (int l = 0; l < kLabs; ++l) {
      Lab& L = s.pl[p].lab[l];
      if (L.working()) {
        const int add = L.app + 2 * (L.flags & LF_MASTER ? 1 : 0) + 2 * L.mech;
        const int v = L.counter + add;
        L.counter = (uint8_t)(v > ed_.track_max ? ed_.track_max : v);
      }
      L.app = 0;
      L.flags &= (uint8_t)~LF_MASTER;
    }
  // D1.
  uint32_t owned_before[kMaxPlayers];
  for (int p = 0; p < n_; ++p) owned_before[p] = s.pl[p].owned;
  uint32_t row_before = 0;
  for (int i = 0; i < s.row_len; ++i) row_before |= 1u << s.row[i];
  // D2 + D3: completions, paid in order from L, small lab before large.
  uint32_t first_done = 0;
  uint8_t seats[kCards] = {0};
  for (int i = 0; i < n_; ++i) {
    const int p = seat_from(s.leo, i, n_);
    Player& P = s.pl[p];
    for (int l = 0; l < kLabs; ++l) {
      Lab& L = P.lab[l];
      if (!L.working()) continue;
      const int c = L.card;
      const bool first = (row_before >> c) & 1;
      const bool later = (L.flags & LF_CONTINUING) != 0;
      if (!(first || later)) continue;
      if ((int)L.counter < thr(s, p, c, owned_before[p])) continue;
      reveal_lab(s, p, l);
      P.money = add_money(P.money, first ? ed_.cards[c].reward_first : ed_.cards[c].reward_later);
      for (int k = 0; k < kKinds; ++k) {
        s.shop[k] = (uint8_t)(s.shop[k] + lab_mat(P, l, k));
        set_lab_mat(P, l, k, 0);
      }
      L.card = kNone;
      L.counter = 0;
      L.start_turn = 0;
      L.flags = 0;
      P.completed |= 1u << c;
      s.completed_any |= 1u << c;
      if (first) {
        first_done |= 1u << c;
        seats[c] |= (uint8_t)(1u << p);
      }
    }
  }
  // D4: reveal every other lab still on a first-completed card (ascending card, from L).
  for (uint32_t w = first_done; w; w &= w - 1) {
    const int c = lsb64(w);
    for (int i = 0; i < n_; ++i) {
      const int p = seat_from(s.leo, i, n_);
      for (int l = 0; l < kLabs; ++l) {
        Lab& L = s.pl[p].lab[l];
        if (L.card == c && !(L.flags & LF_CONTINUING)) {
          reveal_lab(s, p, l);
          L.flags |= LF_CONTINUING;
        }
      }
    }
  }
  // Records after D5 (§5.5), done now: they depend only on what is fixed before the bids.
  for (int p = 0; p < n_; ++p)
    for (int l = 0; l < kLabs; ++l) {
      Lab& L = s.pl[p].lab[l];
      if (!L.hidden()) continue;
      uint32_t drop = first_done;
      for (uint32_t w = L.cand & row_before; w; w &= w - 1)
        if ((int)L.counter >= thr(s, p, lsb64(w), owned_before[p])) drop |= 1u << lsb64(w);
      L.cand &= ~drop;
    }
  // D5 list: ascending card number.
  s.d_count = 0;
  s.d_idx = 0;
  for (uint32_t w = first_done; w; w &= w - 1) {
    s.d_cards[s.d_count] = (uint8_t)lsb64(w);
    s.d_seats[s.d_count++] = seats[lsb64(w)];
  }
  hand_out_next(s);
}

int Game::bidder(const State& s, int i) const {
  const uint8_t seats = s.d_seats[s.d_idx];
  for (int j = 0; j < n_; ++j) {
    const int p = seat_from(s.leo, j, n_);
    if ((seats >> p) & 1) {
      if (i == 0) return p;
      --i;
    }
  }
  return 0;
}

static void remove_from_row(State& s, int c) {
  for (int i = 0; i < s.row_len; ++i)
    if (s.row[i] == c) {
      std::memmove(s.row + i, s.row + i + 1, s.row_len - i - 1);
      s.row[--s.row_len] = 0;
      return;
    }
}

void Game::hand_out_next(State& s) const {
  while (s.d_idx < s.d_count) {
    const int c = s.d_cards[s.d_idx];
    const uint8_t seats = s.d_seats[s.d_idx];
    remove_from_row(s, c);
    if (popcount64(seats) == 1) {
      s.pl[lsb64(seats)].owned |= 1u << c;
      ++s.d_idx;
      continue;
    }
    s.phase = BID;
    s.idx = 0;
    std::memset(s.bids, 0, sizeof s.bids);
    s.actor = (uint8_t)bidder(s, 0);
    return;
  }
  std::memset(s.d_cards, 0, sizeof s.d_cards);
  std::memset(s.d_seats, 0, sizeof s.d_seats);
  s.d_count = s.d_idx = 0;
  end_turn(s);
}

void Game::end_turn(State& s) const {
  if (s.turn >= ed_.turns) {
    s.phase = GAME_OVER;
    s.actor = 0;
    return;
  }
  if (s.turn <= ed_.normal_turns) {
    s.pot = add_money(s.pot, ed_.income);
    if (s.row_len < row_size() && s.deck_len > 0) {
      s.phase = DRAW;
      s.actor = 0;
      return;
    }
  }
  begin_turn(s);
}

// ---- One transition ----------------------------------------------------------------------

void Game::play(State& s, Move m) const {
  const int p = s.actor;
  Player& P = s.pl[p];
  const unsigned a = marg(m);
  switch (mkind(m)) {
    case M_FAV_A:
      P.money = add_money(P.money, 5);
      P.letters = (uint8_t)(P.letters + 1);
      break;
    case M_FAV_B: {
      unsigned code = a;
      for (int k = 0; k < kKinds; ++k, code /= 3) {
        P.hand[k] = (uint8_t)(P.hand[k] + code % 3);
        s.shop[k] = (uint8_t)(s.shop[k] - code % 3);
      }
      P.letters = (uint8_t)(P.letters + 4);
      break;
    }
    case M_FAV_C:
      ++P.apprentices;
      ++P.app_supply;
      --s.academy[p];
      P.letters = (uint8_t)(P.letters + 16);
      break;
    case M_FAV_D1: case M_FAV_D2: case M_FAV_D3: case M_FAV_D4: {
      const unsigned kind = mkind(m);
      if (kind == M_FAV_D1) P.lab[0].side = 5;
      if (kind == M_FAV_D2) P.lab[1].side = 4;
      if (kind == M_FAV_D3) P.lab[1].side = 6;
      if (kind == M_FAV_D4) {
        ++P.lab[a].mech;
        ++P.mech_count;
        --s.mech_supply;
      } else if (a != kNoKind) {
        ++P.hand[a];
        --s.shop[a];
      }
      P.letters = (uint8_t)(P.letters + 64);
      break;
    }
    case M_KEEP:
      break;
    case M_CANCEL:
      cancel_lab(s, p, a);
      break;
    case M_START:
      if ((a & 31) != kStartNone) start_lab(s, p, a >> 5, a & 31);
      break;
    case M_PLACE: {
      const int place = a >> 4, k = a & 15;
      P.app_supply = (uint8_t)(P.app_supply - k);
      P.placed |= (uint16_t)(1u << place);
      if (place < kAreas) add_group(s, place, p, k, 0);
      else P.lab[place - kAreas].app = (uint8_t)(P.lab[place - kAreas].app + k);
      break;
    }
    case M_MASTER:
      P.pflags &= (uint8_t)~PF_MASTER;
      if (a < kAreas) add_group(s, a, p, 0, 1);
      else P.lab[a - kAreas].flags |= LF_MASTER;
      break;
    case M_PASS:
      if (s.phase == PLACE) {
        P.pflags |= PF_PASSED;
      } else {  // AREA
        area_next(s, true);
        return;
      }
      break;
    case M_CLAIM:
      s.claimed[a - 1] = (uint8_t)p;
      if (!s.gift_done) {
        s.gift_done = 1;
        s.phase = GIFT;
        return;
      }
      council_next(s);
      return;
    case M_DECLINE:
      remove_group(s, 0, p);
      council_next(s);
      return;
    case M_GIFT:
      s.leo = (uint8_t)a;
      council_next(s);
      return;
    case M_MOVE:
      s.city[0][p] = (uint8_t)(s.city[0][p] - 1);
      if ((s.city[0][p] & 31) == 0) remove_group(s, 0, p);
      add_group(s, a, p, 1, 0);
      break;
    case M_CODEX: {
      const int victim = a >> 6, src = (a >> 3) & 7, dst = a & 7;
      s.city[src][victim] = (uint8_t)(s.city[src][victim] - 1);
      if ((s.city[src][victim] & 31) == 0) remove_group(s, src, victim);
      add_group(s, dst, victim, 1, 0);
      break;
    }
    case M_REORDER: {
      const int mm = s.deck_len < 4 ? s.deck_len : 4;
      if (s.nlooks >= 7 || s.hist_len >= sizeof s.hist) break;  // full records: only from outside
      uint8_t old[4];
      std::memcpy(old, s.deck, 4);
      for (int i = 0; i < mm; ++i) s.deck[i] = old[kPerms.seq[mm][a][i]];
      // The cards in the chosen order; the order index rides in the spare high bits (cards
      // are < 32) so the looker's determinizer can recover what it saw before reordering.
      for (int i = 0; i < 4; ++i) s.look_cards[s.nlooks][i] = i < mm ? s.deck[i] : 0;
      s.look_cards[s.nlooks][0] |= (uint8_t)((a & 7) << 5);
      s.look_cards[s.nlooks][1] |= (uint8_t)((a >> 3) << 5);
      ++s.nlooks;
      s.hist[s.hist_len++] = (uint8_t)(0x80 | (p << 3) | mm);
      if (s.known_prefix < mm) s.known_prefix = (uint8_t)mm;
      break;
    }
    case M_MATERIAL:
      P.money = (uint16_t)(P.money - 1);
      --s.shop[a];
      ++P.hand[a];
      break;
    case M_BUY: {
      P.money = (uint16_t)(P.money - ed_.prices[s.price]);
      switch (a) {
        case 0: P.lab[0].side = 5; break;
        case 1: P.lab[1].side = 4; break;
        case 2: P.lab[1].side = 6; break;
        case 3: case 4:
          ++P.lab[a - 3].mech;
          ++P.mech_count;
          --s.mech_supply;
          break;
        case 5:
          ++P.apprentices;
          --s.academy[p];
          break;
        default:
          ++P.hand[a - 8];
          --s.shop[a - 8];
      }
      ++s.price;
      area_next(s, false);
      return;
    }
    case M_BID: {
      s.bids[p] = (uint16_t)a;
      const int nb = popcount64(s.d_seats[s.d_idx]);
      if (++s.idx < nb) {
        s.actor = (uint8_t)bidder(s, s.idx);
        return;
      }
      int best = 0, win = -1;
      for (int i = 0; i < nb; ++i) {
        const int q = bidder(s, i);
        if (s.bids[q] > best) best = s.bids[q], win = q;
      }
      const int c = s.d_cards[s.d_idx];
      if (win < 0) {
        s.box |= 1u << c;
      } else {
        s.pl[win].money = (uint16_t)(s.pl[win].money - best);
        s.pl[win].owned |= 1u << c;
      }
      std::memset(s.bids, 0, sizeof s.bids);
      s.idx = 0;
      ++s.d_idx;
      hand_out_next(s);
      return;
    }
    default:
      return;
  }
  // Pointer moves after a plain choice.
  switch (s.phase) {
    case FAVOUR:
      if (++s.actor == n_) {
        s.actor = 0;
        if (++s.step == ed_.favours[n_]) {
          s.step = 0;
          s.turn = 0;
          begin_turn(s);
        }
      }
      break;
    case LAB:
      if (++s.step == 4) {
        s.step = 0;
        ++s.idx;
      }
      break;
    case PLACE:
      s.actor = (uint8_t)((p + 1) % n_);
      break;
    case CMOVE: case REORDER: case MATERIAL:
      ++s.step;
      council_exec(s);
      break;
    default:
      break;
  }
}

}  // namespace atelier::leonardo
