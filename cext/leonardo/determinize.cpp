// Determinization for a viewpoint seat (spec §3.5): resample everything `seat` cannot see,
// consistently with the public records and its own observations.
//  - deck: the hypothesis sampler of §3.5.1 (replay of the deck history; an opponent's look
//    branches into every distinct arrangement of its block, weight by multiplicity / m!);
//  - each opponent's hidden labs: drawn jointly under its snapshot (§3.5.2), hand = totals
//    minus the labs;
//  - opponents' pending bids: uniform over 0..money (§3.5.3).
// Scratch memory is fixed (thread-local tables); nothing allocates.
#include <cstring>

#include "../common/bits.hpp"
#include "game.hpp"

namespace atelier::leonardo {

namespace {

constexpr int kCap = 4096;         // hypotheses (spec §11.4: at least 4096)
constexpr uint8_t kLab = 100;      // entry >= kLab: an unknown card of pile (entry - kLab)
constexpr uint8_t kNoLabel = 0xFF;

struct Hyp {
  uint8_t entry[kCards];   // current deck positions, top first
  uint8_t label[kCards];   // identified cards: pile label, else kNoLabel
  uint8_t len;
  double w;
};

// The merge table of one replay step: open addressing over 2 * kCap slots. A slot is in use when
// its stamp is the current epoch, so emptying the table for the next history event is one
// increment, not a 32 KB clear (which was 40% of a Leonardo ISMCTS iteration's instructions).
struct HypTable {
  uint32_t stamp[2 * kCap];
  int index[2 * kCap];
  uint32_t epoch;
  void clear() {
    if (++epoch == 0) {  // wrapped: every old stamp could look current
      std::memset(stamp, 0, sizeof stamp);
      epoch = 1;
    }
  }
};

struct Scratch {
  Hyp a[kCap], b[kCap];
  HypTable table;
};

thread_local Scratch g_scratch;

uint64_t hyp_key(const Hyp& h) {
  uint64_t k = 1469598103934665603ULL;
  for (int i = 0; i < h.len; ++i) k = (k ^ h.entry[i]) * 1099511628211ULL;
  for (int c = 0; c < kCards; ++c) k = (k ^ h.label[c]) * 1099511628211ULL;
  return k;
}

bool hyp_eq(const Hyp& x, const Hyp& y) {
  return x.len == y.len && std::memcmp(x.entry, y.entry, x.len) == 0 && std::memcmp(x.label, y.label, kCards) == 0;
}

// Insert or merge h into out[0..n); returns the new count, or -1 when the capacity is exceeded.
int add_hyp(Hyp* out, int n, HypTable& t, const Hyp& h) {
  uint64_t k = hyp_key(h);
  for (uint32_t i = (uint32_t)k & (2 * kCap - 1);; i = (i + 1) & (2 * kCap - 1)) {
    if (t.stamp[i] != t.epoch) {
      if (n >= kCap) return -1;
      out[n] = h;
      t.stamp[i] = t.epoch;
      t.index[i] = n;
      return n + 1;
    }
    if (hyp_eq(out[t.index[i]], h)) {
      out[t.index[i]].w += h.w;
      return n;
    }
  }
}

double choose_d(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  double r = 1.0;
  for (int i = 0; i < k; ++i) r = r * (n - i) / (i + 1);
  return r;
}

double fact(int n) {
  double r = 1.0;
  for (int i = 2; i <= n; ++i) r *= i;
  return r;
}

}  // namespace

// Pools and quotas (§3.5.1 step 1). Returns false when the records admit no deck.
struct DeckModel {
  uint32_t pool[kLowerTiers];
  int quota[kLowerTiers];  // t_tau
  int size[3];
};

static void deck_model(const Game& g, const State& s, DeckModel& d) {
  const Edition& ed = g.edition();
  uint32_t row = 0;
  if (g.options().basic)
    for (int i = 0; i < ed.basic_row_len[g.num_players()]; ++i) row |= 1u << ed.basic_row[g.num_players()][i];
  for (int t = 0; t < kLowerTiers; ++t) {
    d.pool[t] = g.tier_mask(t) & ~row & ~s.discards;
    d.quota[t] = popcount64(d.pool[t]) - ed.plus_lower[t];
  }
  for (int l = 0; l < 3; ++l) d.size[l] = s.pile_size[l];
}

// Which labels card c may carry: bit l set if pile l is possible.
static unsigned allowed_labels(const Edition& ed, const DeckModel& d, int c) {
  if ((ed.bottom_cards >> c) & 1) return 4;
  if ((ed.middle_cards >> c) & 1) return 2;
  const int t = ed.cards[c].tier;
  if (t < kLowerTiers && ((d.pool[t] >> c) & 1)) return 3;
  return 0;
}

static double hyp_weight(const Edition& ed, const DeckModel& d, const Hyp& h) {
  int u[kLowerTiers] = {0}, a[kLowerTiers] = {0}, k[3] = {0};
  for (int c = 0; c < kCards; ++c) {
    const int t = ed.cards[c].tier;
    const bool in_pool = t < kLowerTiers && ((d.pool[t] >> c) & 1);
    if (h.label[c] == kNoLabel) {
      if (in_pool) ++u[t];
      continue;
    }
    ++k[h.label[c]];
    if (in_pool && h.label[c] == 0) ++a[t];
  }
  double w = h.w;
  for (int t = 0; t < kLowerTiers; ++t) w *= choose_d(u[t], d.quota[t] - a[t]);
  for (int l = 0; l < 3; ++l) w *= d.size[l] >= k[l] ? fact(d.size[l] - k[l]) : 0.0;
  return w;
}

// Replays the deck history from `seat`'s view into g_scratch; returns the hypothesis count
// (0: no deck fits the records; -1: more than kCap hypotheses) and where they are.
// A hypothesis in which the top `mm` cards are `seen` (in deck order): each unknown slot takes
// its card (if the card's pile label allows it), each known slot must hold it. Fixes x's top.
static bool see_top(const Edition& ed, const DeckModel& d, Hyp& x, const uint8_t* seen, int mm) {
  for (int i = 0; i < mm; ++i) {
    const uint8_t c = seen[i], en = x.entry[i];
    if (en < kLab) {
      if (en != c) return false;
    } else if (x.label[c] != kNoLabel || !((allowed_labels(ed, d, c) >> (en - kLab)) & 1)) {
      return false;
    } else {
      x.label[c] = (uint8_t)(en - kLab);
    }
  }
  for (int i = 0; i < mm; ++i) x.entry[i] = seen[i];
  return true;
}

static int replay(const Game& g, const State& s, int seat, const DeckModel& d, Hyp*& out) {
  const Edition& ed = g.edition();
  Scratch& S = g_scratch;
  Hyp* cur = S.a;
  Hyp* nxt = S.b;
  int n = 1;
  Hyp& h0 = cur[0];
  h0.len = (uint8_t)(d.size[0] + d.size[1] + d.size[2]);
  for (int i = 0; i < h0.len; ++i) h0.entry[i] = (uint8_t)(kLab + (i < d.size[0] ? 0 : i < d.size[0] + d.size[1] ? 1 : 2));
  std::memset(h0.label, kNoLabel, sizeof h0.label);
  h0.w = 1.0;
  int look = 0;
  for (int e = 0; e < s.hist_len; ++e) {
    const uint8_t ev = s.hist[e];
    int m = 0;
    S.table.clear();
    if (!(ev & 0x80)) {  // a draw of card ev
      for (int j = 0; j < n; ++j) {
        Hyp h = cur[j];
        if (!h.len) continue;
        const uint8_t top = h.entry[0];
        std::memmove(h.entry, h.entry + 1, --h.len);
        if (top < kLab) {
          if (top != ev) continue;
        } else {
          const int l = top - kLab;
          if (h.label[ev] != kNoLabel || !((allowed_labels(ed, d, ev) >> l) & 1)) continue;
          h.label[ev] = (uint8_t)l;
        }
        m = add_hyp(nxt, m, S.table, h);
        if (m < 0) return -1;
      }
    } else {
      const int q = (ev >> 3) & 7, mm = ev & 7;
      const int li = look++;
      for (int j = 0; j < n; ++j) {
        const Hyp& h = cur[j];
        if (h.len < mm) continue;
        if (q == seat) {  // own look: what it saw, then its chosen order
          Hyp x = h;
          const int perm = look_perm(s, li);
          uint8_t seen[4];
          for (int i = 0; i < mm; ++i) seen[kPerms.seq[mm][perm][i]] = (uint8_t)look_card(s, li, i);
          if (!see_top(ed, d, x, seen, mm)) continue;
          for (int i = 0; i < mm; ++i) x.entry[i] = (uint8_t)look_card(s, li, i);
          m = add_hyp(nxt, m, S.table, x);
          if (m < 0) return -1;
        } else {  // an opponent's look: every arrangement, uniform prior
          const double share = 1.0 / kPerms.count[mm];
          for (int pi = 0; pi < kPerms.count[mm]; ++pi) {
            Hyp x = h;
            for (int i = 0; i < mm; ++i) x.entry[i] = h.entry[kPerms.seq[mm][pi][i]];
            x.w = h.w * share;
            m = add_hyp(nxt, m, S.table, x);
            if (m < 0) return -1;
          }
        }
      }
    }
    Hyp* t = cur;
    cur = nxt;
    nxt = t;
    n = m;
  }
  // The looker at its own Council action 3 is looking at the top cards now (§3.4), before the
  // look enters the history: its hypotheses are those with exactly these cards on top.
  if (s.phase == REORDER && s.actor == seat) {
    const int mm = s.deck_len < 4 ? s.deck_len : 4;
    int m = 0;
    S.table.clear();
    for (int j = 0; j < n; ++j) {
      Hyp x = cur[j];
      if (x.len < mm || !see_top(ed, d, x, s.deck, mm)) continue;
      m = add_hyp(nxt, m, S.table, x);
      if (m < 0) return -1;
    }
    cur = nxt;
    n = m;
  }
  out = cur;
  return n;
}

// The deck as built (§2.2), recovered backwards from the current deck and the history: a draw
// puts its card back on top, a look is undone with the order its looker chose (its `order` must
// then be the top cards). Without `rng` every look is a fixed record (a full position). With
// `rng` only `seat`'s own looks are: every other seat's look is chosen here — its arrangement
// drawn uniformly, then the next in a random order while the result fits no deck — and written
// into s.look_cards (a determinization must not keep the looker's true order: the deck under it
// was resampled). true when the result is a deck built as §2.2 builds it (pile labels, the middle
// pile's lower-tier cards).
namespace {

// The deck history's events indexed for the unwinding; the history alone fixes them.
struct DeckEvents {
  int look_at[32];   // history index -> look index
  // Before event e: the cards drawn so far, and how many top positions some look has covered
  // (the positions below it still lie where the deck was built: their pile is known).
  int drawn[32], reach[32];
};

void deck_events(const State& s, DeckEvents& v) {
  v = DeckEvents{};
  for (int e = 0, li = 0, dr = 0, r = 0; e < s.hist_len && e < 32; ++e) {
    v.drawn[e] = dr;
    v.reach[e] = r;
    if (s.hist[e] & 0x80) {
      v.look_at[e] = li++;
      if ((s.hist[e] & 7) > r) r = s.hist[e] & 7;
    } else {
      v.look_at[e] = -1;
      ++dr;
      if (r) --r;
    }
  }
}

struct Unwinder {
  const Edition& ed;
  const DeckModel& d;
  const DeckEvents& v;
  State& s;
  int seat;          // looks of this seat are fixed; with rng, every other seat's look is free
  Rng* rng;
  long budget = 200000;

  bool label_ok(int c, int i) const {   // card c at position i of the deck as built
    const int l = i < d.size[0] ? 0 : i < d.size[0] + d.size[1] ? 1 : 2;
    const int t = ed.cards[c].tier;
    const bool pool = t < kLowerTiers && ((d.pool[t] >> c) & 1);
    const bool low_mid = (s.mid_lower >> c) & 1;
    return l == 2 ? ((ed.bottom_cards >> c) & 1)
         : l == 1 ? (((ed.middle_cards >> c) & 1) || (pool && low_mid))
                  : (pool && !low_mid);
  }

  // label_ok at every position, a pile at a time: the cards at a pile's positions must lie in
  // the set label_ok admits there (a card's pool is its own tier's, so the pools' union will do).
  bool built_ok(const uint8_t* orig, int len) const {
    if (len != d.size[0] + d.size[1] + d.size[2]) return false;
    uint32_t pool = 0;
    for (int t = 0; t < kLowerTiers; ++t) pool |= d.pool[t];
    const uint32_t admit[3] = {pool & ~s.mid_lower, ed.middle_cards | (pool & s.mid_lower), ed.bottom_cards};
    for (int l = 0, i = 0; l < 3; ++l) {
      uint32_t held = 0;
      for (const int end = i + d.size[l]; i < end; ++i) held |= 1u << orig[i];
      if (held & ~admit[l]) return false;
    }
    return true;
  }

  // After undoing the look of event e: the positions no earlier look reached hold their pile's cards.
  bool exposed_ok(int e, const uint8_t* deck, int m) const {
    for (int j = v.reach[e]; j < m; ++j)
      if (!label_ok(deck[j], v.drawn[e] + j)) return false;
    return true;
  }

  // deck[0..len) is the deck just after event e (top first); undo events e, e-1, ..., 0.
  bool back(int e, uint8_t* deck, int len) {
    if (--budget < 0) return false;
    for (; e >= 0; --e) {
      const uint8_t ev = s.hist[e];
      if (!(ev & 0x80)) {
        if (len >= kCards) return !rng;   // more draws than cards: only a hand-written record
        std::memmove(deck + 1, deck, len++);
        deck[0] = ev;
        continue;
      }
      const int m = ev & 7, q = (ev >> 3) & 7, li = v.look_at[e];
      if (len < m) return false;
      if (rng && q != seat) {  // free: every arrangement in a random order
        int perms[24];
        const int np = kPerms.count[m];
        for (int i = 0; i < np; ++i) perms[i] = i;
        for (int i = np - 1; i > 0; --i) {
          const int j = (int)rng->below((uint32_t)(i + 1));
          const int x = perms[i]; perms[i] = perms[j]; perms[j] = x;
        }
        for (int k = 0; k < np; ++k) {
          uint8_t d2[kCards];
          std::memcpy(d2, deck, len);
          for (int i = 0; i < m; ++i) d2[kPerms.seq[m][perms[k]][i]] = deck[i];
          if (!exposed_ok(e, d2, m) || !back(e - 1, d2, len)) continue;
          for (int i = 0; i < 4; ++i) s.look_cards[li][i] = i < m ? deck[i] : 0;
          s.look_cards[li][0] |= (uint8_t)((perms[k] & 7) << 5);
          s.look_cards[li][1] |= (uint8_t)((perms[k] >> 3) << 5);
          return true;
        }
        return false;
      }
      const int perm = look_perm(s, li);
      uint8_t pre[4];
      for (int i = 0; i < m; ++i) {
        if (deck[i] != look_card(s, li, i)) return false;  // its order is no longer on top
        pre[kPerms.seq[m][perm][i]] = deck[i];
      }
      std::memcpy(deck, pre, m);
      if (rng && !exposed_ok(e, deck, m)) return false;
    }
    // A full position's check stops at the looks: its draws may be written by hand (a card put
    // in a hand without its draw), which the deck hypotheses (validate) already bound.
    return !rng || built_ok(deck, len);
  }
};

}  // namespace

// d and v are s's deck model and deck events (a deck sample keeps them with its hypotheses).
static bool unwind_deck(const Edition& ed, const DeckModel& d, const DeckEvents& v, State& s, int seat,
                        Rng* rng) {
  Unwinder u{ed, d, v, s, seat, rng};
  uint8_t deck[kCards];
  std::memcpy(deck, s.deck, s.deck_len);
  return u.back(s.hist_len - 1, deck, s.deck_len);
}

std::string Game::deck_record_error(const State& s) const {
  DeckModel d;
  deck_model(*this, s, d);
  for (int t = 0; t < kLowerTiers; ++t) {
    const int low = popcount64(s.mid_lower & d.pool[t]);
    if (low != ed_.plus_lower[t])
      return "piles.middle_lower: the middle pile takes " + std::to_string(ed_.plus_lower[t]) + " " +
             ed_.tier_names[t] + " card(s) from the lower tiers' pool (§2.2), not " + std::to_string(low);
  }
  uint32_t pool = 0;
  for (int t = 0; t < kLowerTiers; ++t) pool |= d.pool[t];
  if (s.mid_lower & ~pool) return "piles.middle_lower: a card that was not in the lower tiers' pool (§2.2)";
  State t = s;
  DeckEvents v;
  deck_events(t, v);
  if (!unwind_deck(ed_, d, v, t, kMaxPlayers, nullptr))
    return "deck: a Council look's order is not on top of the deck (a look's cards stay in the order "
           "its looker chose until they are drawn, §3.4)";
  return "";
}

int Game::deck_hypotheses(const State& s, int seat) const {
  DeckModel d;
  deck_model(*this, s, d);
  Hyp* hs;
  const int n = replay(*this, s, seat, d, hs);
  int live = 0;  // only hypotheses of the right length and positive weight fit the position
  for (int i = 0; i < n; ++i) live += hs[i].len == s.deck_len && hyp_weight(ed_, d, hs[i]) > 0.0;
  return n < 0 ? -1 : live;
}

// The weighted hypotheses a deck sample draws from, computed once per (Game, position, seat):
// ISMCTS determinizes its root state every iteration, and the replay of the deck history (with
// the weights) came out the same each time — a fifth of Leonardo's ISMCTS overhead. Keyed by the
// whole State byte for byte, so a hit is exact and a miss only recomputes; the replay reads the
// public records and the viewpoint's own looks, never what determinize resamples (labs, bids),
// so determinize keys it on the state it was given. What a sample derives from the position
// alone (deck model, history events, the deck's card set) and from one hypothesis's labels
// (HypFill) is kept with it too: per iteration that was a third of the search's own cost.
namespace {

// What filling the piles takes from one hypothesis (§3.5.1 steps 5-6) before any draw of the
// sampler: derived from its labels at its first pick.
struct HypFill {
  int pick;                           // the hypothesis these are of; -1: none yet
  uint32_t mid_lower;                 // lower-tier cards it labels middle
  uint8_t free[kLowerTiers][kCards];  // each tier's unlabelled pool cards, in card order
  int nf[kLowerTiers];
  int want[kLowerTiers];              // how many of them go to the top pile
  uint8_t middle[kCards], bottom[kCards];  // unlabelled middle and bottom cards, in card order
  int nm, nb;
  int need[3];                        // unknown entries of each pile
};

constexpr int kFillSlots = 8;  // direct-mapped by hypothesis index: a handful are in play

struct DeckChoice {
  const Game* game;
  uint64_t serial;     // the Game's construction number: an address can be reused
  int seat;
  State key;
  DeckModel d;
  DeckEvents ev;
  uint32_t deck_set;   // the cards the records put in the deck
  int n;               // hypotheses of positive weight, in replay order
  double total;
  HypFill fill[kFillSlots];
  Hyp h[kCap];
  double w[kCap];
};

thread_local DeckChoice g_choice{};

}  // namespace

// Not inlined: inlined, every use of the choice in a caller fetched the thread-local's address
// again (a __tls_get_addr call in a shared library), about 25 calls a determinization.
__attribute__((noinline)) static DeckChoice& deck_choice(const Game& g, const State& s, int seat) {
  DeckChoice& c = g_choice;
  if (c.game == &g && c.serial == g.serial() && c.seat == seat &&
      std::memcmp(&c.key, &s, sizeof(State)) == 0)
    return c;
  c.game = nullptr;  // invalid until filled
  deck_model(g, s, c.d);
  deck_events(s, c.ev);
  c.deck_set = deck_cards(s);
  for (HypFill& f : c.fill) f.pick = -1;
  Hyp* hs;
  const int n = replay(g, s, seat, c.d, hs);
  c.n = 0;
  c.total = 0.0;
  for (int i = 0; i < n; ++i) {  // n <= 0 (none, over capacity): c.n stays 0
    const double w = hs[i].len == s.deck_len ? hyp_weight(g.edition(), c.d, hs[i]) : 0.0;
    if (!(w > 0.0)) continue;
    c.h[c.n] = hs[i];
    c.w[c.n++] = w;
    c.total += w;
  }
  std::memcpy(&c.key, &s, sizeof(State));
  c.seat = seat;
  c.serial = g.serial();
  c.game = &g;
  return c;
}

static const HypFill& hyp_fill(const Edition& ed, DeckChoice& c, int pick) {
  HypFill& f = c.fill[pick % kFillSlots];
  if (f.pick == pick) return f;
  const Hyp& h = c.h[pick];
  f.mid_lower = 0;
  for (int x = 0; x < kCards; ++x)
    if (h.label[x] == 1 && ed.cards[x].tier < kLowerTiers) f.mid_lower |= 1u << x;
  for (int t = 0; t < kLowerTiers; ++t) {
    int nf = 0, a = 0;
    for (uint32_t w = c.d.pool[t]; w; w &= w - 1) {
      const int x = lsb64(w);
      if (h.label[x] == kNoLabel) f.free[t][nf++] = (uint8_t)x;
      else if (h.label[x] == 0) ++a;
    }
    f.nf[t] = nf;
    f.want[t] = c.d.quota[t] - a;
  }
  f.nm = f.nb = 0;
  for (int x = 0; x < kCards; ++x) {
    if (h.label[x] != kNoLabel) continue;
    if ((ed.middle_cards >> x) & 1) f.middle[f.nm++] = (uint8_t)x;
    else if ((ed.bottom_cards >> x) & 1) f.bottom[f.nb++] = (uint8_t)x;
  }
  f.need[0] = f.need[1] = f.need[2] = 0;
  for (int i = 0; i < h.len; ++i)
    if (h.entry[i] >= kLab) ++f.need[h.entry[i] - kLab];
  f.pick = pick;
  return f;
}

// A deck for s drawn from the hypotheses c holds: those of the position s was resampled from (its
// deck and history are s's). On false s may be half written: determinize puts it back.
static bool sample_deck(const Edition& ed, DeckChoice& c, State& s, int seat, Rng& rng) {
  if (c.n <= 0 || !(c.total > 0.0)) return false;
  double r = rng.uniform() * c.total;
  int pick = 0;
  while (pick < c.n - 1 && r >= c.w[pick]) r -= c.w[pick++];
  const Hyp& h = c.h[pick];
  const HypFill& f = hyp_fill(ed, c, pick);
  // Fill the piles (§3.5.1 steps 5-6).
  uint8_t unk[3][kCards];
  int nu[3] = {0, 0, 0};
  uint32_t mid_lower = f.mid_lower;
  for (int t = 0; t < kLowerTiers; ++t) {
    uint8_t free[kCards];
    const int nf = f.nf[t], want = f.want[t];
    std::memcpy(free, f.free[t], kCards);
    for (int i = 0; i < nf; ++i) {  // uniform subset of size `want` goes to the top pile
      const int j = i + (int)rng.below((uint32_t)(nf - i));
      const uint8_t x = free[i]; free[i] = free[j]; free[j] = x;
      if (i < want) unk[0][nu[0]++] = free[i];
      else {
        unk[1][nu[1]++] = free[i];
        mid_lower |= 1u << free[i];
      }
    }
  }
  std::memcpy(unk[1] + nu[1], f.middle, f.nm);  // distinct cards: at most kCards in all
  nu[1] += f.nm;
  std::memcpy(unk[2], f.bottom, f.nb);
  nu[2] = f.nb;
  for (int l = 0; l < 3; ++l)
    for (int i = nu[l] - 1; i > 0; --i) {
      const int j = (int)rng.below((uint32_t)(i + 1));
      const uint8_t x = unk[l][i]; unk[l][i] = unk[l][j]; unk[l][j] = x;
    }
  for (int l = 0; l < 3; ++l)
    if (f.need[l] > nu[l]) return false;
  int used[3] = {0, 0, 0};
  uint32_t have = 0;
  for (int i = 0; i < h.len; ++i) {
    const uint8_t en = h.entry[i];
    const uint8_t x = en < kLab ? en : unk[en - kLab][used[en - kLab]++];
    s.deck[i] = x;
    have |= 1u << x;
  }
  // The sampled deck must hold exactly the cards the public record says are in it.
  if (have != c.deck_set) return false;
  s.mid_lower = mid_lower;
  // The other seats' looks: what each saw and the order it chose, as this sample has them.
  return unwind_deck(ed, c.d, c.ev, s, seat, &rng);
}

namespace {

// The pairs of cards two hidden labs may hold, in the reservoir's walking order. A greedy
// look-ahead resamples every other seat's labs before each move (greedy_move), and between
// moves their candidates and budgets rarely change, so the pairs are listed once per
// (candidates, fitting budget) and each later sample only draws.
struct PairList {
  uint64_t serial;           // the Game's construction number (its cards' materials)
  uint32_t cand0, cand1;
  uint64_t fit;
  int n;                     // 0: nothing listed (a slot is refilled; cheap when empty)
  uint8_t a[kCards * (kCards - 1)], b[kCards * (kCards - 1)];
};

constexpr int kPairSlots = 8;   // direct-mapped: a handful of seats' candidates are in play
thread_local PairList g_pairs[kPairSlots] = {};

}  // namespace

// Not inlined, for the reason deck_choice is not.
__attribute__((noinline)) static PairList* pair_slots() { return g_pairs; }

// §3.5.2: one hidden lab uniform over cand; two jointly over valid pairs under the snapshot.
// A seat deciding a lab start now (Phase A, step 2-3) has a real choice — the engine plays a
// start with NONE as its only option by itself (§11.4) — so its sample must leave it one: a
// card it could start beside NONE. false when no sample fits (the records contradict), and
// then nothing is changed: a determinization never keeps the true labs for want of a sample.
bool Game::sample_labs(State& s, int q, Rng& rng) const {
  Player& P = s.pl[q];
  const bool h0 = P.lab[0].hidden(), h1 = P.lab[1].hidden();
  if (!h0 && !h1) return true;
  uint8_t tot[kKinds], rev[kKinds];
  for (int k = 0; k < kKinds; ++k) {
    tot[k] = (uint8_t)(P.hand[k] + lab_mat(P, 0, k) + lab_mat(P, 1, k));
    rev[k] = 0;
    for (int l = 0; l < kLabs; ++l)
      if (!P.lab[l].hidden()) rev[k] = (uint8_t)(rev[k] + lab_mat(P, l, k));
  }
  uint8_t room[kKinds];
  for (int k = 0; k < kKinds; ++k) room[k] = (uint8_t)(tot[k] - rev[k]);
  const bool deciding = s.phase == LAB && s.step >= 2 && s.actor == q;
  const uint32_t can_start = deciding ? startable(s) : 0;
  // Does the deciding seat keep a start beside NONE with these hidden cards (kNone: not hidden)?
  auto keeps_choice = [&](int a, int b) {
    if (!deciding) return true;
    uint8_t hand[kKinds];
    for (int k = 0; k < kKinds; ++k)
      hand[k] = (uint8_t)(room[k] - (a != (int)kNone ? ed_.cards[a].mats[k] : 0) -
                          (b != (int)kNone ? ed_.cards[b].mats[k] : 0));
    const int other = s.step == 2 ? (h1 ? b : P.lab[1].card) : (h0 ? a : P.lab[0].card);
    for (uint32_t w = can_start; w; w &= w - 1) {
      const int c = lsb64(w);
      if (c != other && ed_.fits(c, hand)) return true;
    }
    return false;
  };
  int x0 = P.lab[0].card, x1 = P.lab[1].card;
  if (h0 && h1) {
    // A pair fits when its materials are within both the start snapshot's budget and the
    // room, kind by kind: checked bytewise against their minimum, as fits_hand does. The
    // pairs are walked in the order a kind-by-kind check walked them, so the reservoir makes
    // the same draws and picks the same pair.
    uint8_t lim[kKinds];
    for (int k = 0; k < kKinds; ++k) {
      const int b = nib(P.snap_budget, k);
      lim[k] = (uint8_t)(b < room[k] ? b : room[k]);
    }
    const uint64_t fit = pack_kinds(lim) | kKindTops;
    const uint32_t c0 = P.lab[0].cand, c1 = P.lab[1].cand;
    // Every fitting pair, in walking order; a deciding seat's also keeps it a choice.
    auto list = [&](PairList& L) {
      L.n = 0;
      for (uint32_t wa = c0; wa; wa &= wa - 1)
        for (uint32_t wb = c1 & ~(wa & (0u - wa)); wb; wb &= wb - 1) {
          const int a = lsb64(wa), b = lsb64(wb);
          if (((fit - (need_[a] + need_[b])) & kKindTops) != kKindTops || !keeps_choice(a, b)) continue;
          L.a[L.n] = (uint8_t)a, L.b[L.n++] = (uint8_t)b;
        }
    };
    PairList mine;   // the deciding seat's pairs also depend on its hand: listed, not kept
    PairList* L = &mine;
    if (deciding) {
      list(mine);
    } else {
      const uint64_t h = (c0 * 0x9E3779B97F4A7C15ULL) ^ (c1 * 0xC2B2AE3D27D4EB4FULL) ^ fit;
      L = &pair_slots()[(h ^ (h >> 29) ^ (h >> 47)) % kPairSlots];
      if (L->n == 0 || L->serial != serial_ || L->cand0 != c0 || L->cand1 != c1 || L->fit != fit) {
        list(*L);
        L->serial = serial_, L->cand0 = c0, L->cand1 = c1, L->fit = fit;
      }
    }
    Rng r = rng;   // a local copy stays in registers (the caller's could alias the list)
    int at = -1;
    for (int i = 0; i < L->n; ++i)   // the reservoir: one draw per fitting pair
      if (r.below((uint32_t)(i + 1)) == 0) at = i;
    rng = r;
    if (at < 0) return false;
    x0 = L->a[at];
    x1 = L->b[at];
  } else {
    const int l = h0 ? 0 : 1;
    const int other = P.lab[1 - l].card;
    int count = 0, pick = -1;
    for (uint32_t w = P.lab[l].cand; w; w &= w - 1) {
      const int a = lsb64(w);
      if (a == other || !ed_.fits(a, room)) continue;
      if (!keeps_choice(l == 0 ? a : (int)kNone, l == 1 ? a : (int)kNone)) continue;
      if (rng.below((uint32_t)++count) == 0) pick = a;
    }
    if (!count) return false;
    (l == 0 ? x0 : x1) = pick;
  }
  for (int l = 0; l < kLabs; ++l) {
    if (!P.lab[l].hidden()) continue;
    P.lab[l].card = (uint8_t)(l == 0 ? x0 : x1);
    for (int k = 0; k < kKinds; ++k) set_lab_mat(P, l, k, ed_.cards[P.lab[l].card].mats[k]);
  }
  for (int k = 0; k < kKinds; ++k) P.hand[k] = (uint8_t)(tot[k] - lab_mat(P, 0, k) - lab_mat(P, 1, k));
  return true;
}

// false when some hidden part has no sample that fits the records; `s` is then unchanged (the
// caller refuses: a determinization never falls back on the truth). It samples in place and
// keeps only what a sample may change to put back (seats' labs and hands, bids, deck, the
// middle pile's record, looks): two copies of the whole state were a tenth of the search's own
// cost in a Leonardo ISMCTS iteration.
bool Game::determinize(State& s, int seat, Rng& rng, bool keyed) const {
  DeckChoice& c = deck_choice(*this, s, seat);  // the deck replay of the records as given
  Player pl[kMaxPlayers];
  uint8_t deck[kCards], looks[sizeof s.look_cards];
  uint16_t bids[kMaxPlayers];
  const uint32_t mid_lower = s.mid_lower;
  std::memcpy(pl, s.pl, sizeof(Player) * n_);
  std::memcpy(deck, s.deck, sizeof deck);
  std::memcpy(looks, s.look_cards, sizeof looks);
  std::memcpy(bids, s.bids, sizeof bids);
  auto fail = [&] {
    std::memcpy(s.pl, pl, sizeof(Player) * n_);
    std::memcpy(s.deck, deck, sizeof deck);
    std::memcpy(s.look_cards, looks, sizeof looks);
    std::memcpy(s.bids, bids, sizeof bids);
    s.mid_lower = mid_lower;
    return false;
  };

  for (int q = 0; q < n_; ++q)
    if (q != seat && !sample_labs(s, q, rng)) return fail();
  if (s.phase == BID) {  // opponents' bids already entered, uniform over 0..money
    int i = 0;
    for (int j = 0; j < n_; ++j) {
      const int q = (s.leo + j) % n_;
      if (!((s.d_seats[s.d_idx] >> q) & 1)) continue;
      if (q != seat && i < s.idx) {
        const int top = s.pl[q].money < kMaxBid ? s.pl[q].money : kMaxBid;
        s.bids[q] = (uint16_t)rng.below((uint32_t)top + 1);
      }
      ++i;
    }
  }
  if (!sample_deck(ed_, c, s, seat, rng)) return fail();
  if (keyed) rekey(s);
  return true;
}

}  // namespace atelier::leonardo

namespace atelier::leonardo {

// §6.2: the next card's distribution as `seat` sees it, marginalised over the hypotheses.
// p[c] for every card; returns false when no hypothesis fits (or over capacity).
bool Game::draw_probabilities(const State& s, int seat, double* p) const {
  for (int c = 0; c < kCards; ++c) p[c] = 0.0;
  if (!s.deck_len) return false;
  DeckModel d;
  deck_model(*this, s, d);
  Hyp* hs;
  const int n = replay(*this, s, seat, d, hs);
  if (n <= 0) return false;
  double total = 0.0;
  for (int i = 0; i < n; ++i) {
    const Hyp& h = hs[i];
    if (h.len != s.deck_len) continue;
    const double w = hyp_weight(ed_, d, h);
    if (!(w > 0.0)) continue;
    total += w;
    if (h.entry[0] < kLab) {
      p[h.entry[0]] += w;
      continue;
    }
    const int l = h.entry[0] - kLab;
    int u[kLowerTiers] = {0}, a[kLowerTiers] = {0}, k[3] = {0};
    for (int c = 0; c < kCards; ++c) {
      const int t = ed_.cards[c].tier;
      const bool in_pool = t < kLowerTiers && ((d.pool[t] >> c) & 1);
      if (h.label[c] == kNoLabel) {
        if (in_pool) ++u[t];
        continue;
      }
      ++k[h.label[c]];
      if (in_pool && h.label[c] == 0) ++a[t];
    }
    const double slots = d.size[l] - k[l];
    for (int c = 0; c < kCards; ++c) {
      if (h.label[c] != kNoLabel) continue;
      const int t = ed_.cards[c].tier;
      const bool in_pool = t < kLowerTiers && ((d.pool[t] >> c) & 1);
      double q = 0.0;
      if (in_pool && u[t] > 0) {
        const int top = d.quota[t] - a[t];
        if (l == 0) q = (double)top / u[t] / slots;
        else if (l == 1) q = (double)(u[t] - top) / u[t] / slots;
      } else if (l == 1 && ((ed_.middle_cards >> c) & 1)) {
        q = 1.0 / slots;
      } else if (l == 2 && ((ed_.bottom_cards >> c) & 1)) {
        q = 1.0 / slots;
      }
      p[c] += w * q;
    }
  }
  if (!(total > 0.0)) return false;
  for (int c = 0; c < kCards; ++c) p[c] /= total;
  return true;
}

}  // namespace atelier::leonardo
