// Craftsmen: setup, the flow of a round, move generation and transitions (Craftsmen §4-Craftsmen §14).
#include "game.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "knowledge.hpp"
#include "rules.hpp"

namespace atelier::craftsmen {

// ---- money (Craftsmen spec 7.1) ----------------------------------------------------------------------

// One colour's part: a 1s, b 2s and d 3s of that colour.
static constexpr int colour_value(int a, int b, int d) {
  const int k = a + b + d, sum = a + 2 * b + 3 * d;
  return k <= 1 ? sum : std::max(sum, 5 * (k - 1));
}

// A colour part's value and its smallest loss from removing one card (1 << 20 when it has none:
// no constraint), which a payment decision needs for every part of the hand it enumerates.
struct PartValue { int v, loss; };
static constexpr PartValue part_value_of(int a, int b, int d) {
  const int v = colour_value(a, b, d);
  int loss = 1 << 20;
  if (a) loss = std::min(loss, v - colour_value(a - 1, b, d));
  if (b) loss = std::min(loss, v - colour_value(a, b - 1, d));
  if (d) loss = std::min(loss, v - colour_value(a, b, d - 1));
  return {v, loss};
}
// Read from a table built at compile time for up to 7 cards of each value (a payment enumerates
// every part of the hand, twice per PAY decision in a playout); computed beyond it.
struct PartTable {
  PartValue at[8][8][8];
  constexpr PartTable() : at() {
    for (int a = 0; a < 8; ++a)
      for (int b = 0; b < 8; ++b)
        for (int d = 0; d < 8; ++d) at[a][b][d] = part_value_of(a, b, d);
  }
};
static constexpr PartTable kParts;
static inline PartValue part_value(int a, int b, int d) {
  return (a | b | d) < 8 ? kParts.at[a][b][d] : part_value_of(a, b, d);
}

int Game::value(const uint8_t* c) {
  int v = 0;
  for (int col = 0; col < kColours; ++col) v += colour_value(c[3 * col], c[3 * col + 1], c[3 * col + 2]);
  return v;
}

int Game::value(const uint8_t* c, unsigned colours) {
  int v = 0;
  for (int col = 0; col < kColours; ++col)
    if (colours & (1u << col)) v += colour_value(c[3 * col], c[3 * col + 1], c[3 * col + 2]);
  return v;
}

int Game::hand_size(const State& s, int seat) const { return Rules::hand(s, seat); }

// Canonical text order of multisets (Craftsmen §23): the text lists items in colour order P, G, B,
// R, then value; strings compare item by item (letter by ASCII, B < G < P < R, then digit), a
// prefix first. The key holds 1 + that rank (1..15) per item, one nibble each, the first item in
// the top nibble and 0 after the last, so integer order is text order (a minimal payment of a
// hand of <= 10 cards has <= 16 items; more are cut off rather than overflow the key).
static uint64_t text_key(const uint8_t* c) {
  static const uint8_t item[kMoneyTypes] = {9, 10, 11, 5, 6, 7, 1, 2, 3, 13, 14, 15};
  uint64_t key = 0;
  int used = 0;  // nibbles filled
  for (int t = 0; t < kMoneyTypes; ++t) {
    const int k = std::min(16 - used, (int)c[t]);
    if (k == 0) continue;
    used += k;  // k copies of the item at once: a run of k one-nibbles times the item
    key |= (item[t] * (0x1111111111111111ULL >> (64 - 4 * k))) << (64 - 4 * used);
  }
  return key;
}

namespace {
// One colour's part of a payment: a 1s, b 2s and d 3s (k), its value and the smallest loss
// from removing one of its cards.
struct Opt { uint8_t k[3]; int v, loss; };
}  // namespace

// The pending PAY decision's minimal payments, unordered: emit(i, o) for the i-th found, o[c]
// its colour c part; returns their number (at most kMaxPayments). payments() orders them;
// legal_moves only needs their number, and a PAY move only its own.
template <class Emit>
static int minimal_payments(const State& s, Emit&& emit) {
  const uint8_t* h = s.money[M_HAND0 + s.pay_seat];
  const int X = s.pay_amount;
  // Value is additive over colours, and removing a card changes only its colour's part, so a
  // choice is minimal iff its total V >= X and, for every colour used, V - (that colour's
  // smallest loss from removing one card) < X. Enumerate per colour, combine four loops.
  Opt opts[kColours][125];
  int nopt[kColours];
  for (int c = 0; c < kColours; ++c) {
    nopt[c] = 0;
    const bool allowed = s.pay_colours & (1u << c);
    for (int a = 0; a <= (allowed ? h[3 * c] : 0); ++a)
      for (int b = 0; b <= (allowed ? h[3 * c + 1] : 0); ++b)
        for (int d = 0; d <= (allowed ? h[3 * c + 2] : 0); ++d) {
          if (nopt[c] >= 125) break;
          Opt& o = opts[c][nopt[c]++];
          o.k[0] = (uint8_t)a, o.k[1] = (uint8_t)b, o.k[2] = (uint8_t)d;
          const PartValue pv = part_value(a, b, d);
          o.v = pv.v, o.loss = pv.loss;
        }
  }
  int count = 0;
  // Prunes that drop no minimal choice (values only grow as colours are added): a partial sum
  // that the remaining colours' best cannot lift to X, or one that already stays >= X without
  // one card of a colour used so far.
  int best[kColours + 1] = {};
  for (int c = kColours - 1; c >= 0; --c) {
    int m = 0;
    for (int i = 0; i < nopt[c]; ++i) m = std::max(m, opts[c][i].v);
    best[c] = best[c + 1] + m;
  }
  for (int i0 = 0; i0 < nopt[0]; ++i0) {
    const int v0 = opts[0][i0].v, l0 = opts[0][i0].loss;
    if (v0 + best[1] < X || v0 - l0 >= X) continue;
    for (int i1 = 0; i1 < nopt[1]; ++i1) {
      const int v1 = v0 + opts[1][i1].v, l1 = std::min(l0, opts[1][i1].loss);
      if (v1 + best[2] < X || v1 - l1 >= X) continue;
      for (int i2 = 0; i2 < nopt[2]; ++i2) {
        const int v2 = v1 + opts[2][i2].v, l2 = std::min(l1, opts[2][i2].loss);
        if (v2 + best[3] < X || v2 - l2 >= X) continue;
        for (int i3 = 0; i3 < nopt[3]; ++i3) {
          const Opt* o[4] = {&opts[0][i0], &opts[1][i1], &opts[2][i2], &opts[3][i3]};
          const int V = o[0]->v + o[1]->v + o[2]->v + o[3]->v;
          if (V < X) continue;
          bool minimal = true;
          for (int c = 0; c < kColours; ++c) minimal &= V - o[c]->loss < X;
          if (!minimal || count >= kMaxPayments) continue;
          emit(count, o);
          ++count;
        }
      }
    }
  }
  return count;
}

static void fill(Payment& pay, const Opt* const* o) {
  for (int c = 0; c < kColours; ++c)
    for (int t = 0; t < 3; ++t) pay.c[3 * c + t] = o[c]->k[t];
}

int Game::payments(const State& s, Payment* out) const {
  if (s.phase != P_PAY) return 0;
  Payment found[kMaxPayments];
  uint64_t key[kMaxPayments];
  uint8_t order[kMaxPayments];
  const int count = minimal_payments(s, [&](int i, const Opt* const* o) {
    fill(found[i], o);
    key[i] = text_key(found[i].c);
    order[i] = (uint8_t)i;
  });
  std::sort(order, order + count, [&](uint8_t a, uint8_t b) { return key[a] < key[b]; });
  for (int i = 0; i < count; ++i) out[i] = found[order[i]];
  return count;
}

int Game::payment_count(const State& s) const {
  return s.phase == P_PAY ? minimal_payments(s, [](int, const Opt* const*) {}) : 0;
}

bool Game::payment_at(const State& s, int index, Payment& out) const {
  if (s.phase != P_PAY || index < 0) return false;
  Payment found[kMaxPayments];
  uint64_t key[kMaxPayments], kth[kMaxPayments];
  const int count = minimal_payments(s, [&](int i, const Opt* const* o) {
    fill(found[i], o);
    kth[i] = key[i] = text_key(found[i].c);
  });
  if (index >= count) return false;
  // Different multisets have different texts, so the keys are distinct: the index-th in
  // canonical order is the one whose key is the index-th smallest.
  std::nth_element(kth, kth + index, kth + count);
  for (int i = 0; i < count; ++i)
    if (key[i] == kth[index]) out = found[i];
  return true;
}

// ---- construction and setup ------------------------------------------------------------

Game::Game(const Edition& edition, int n_players, const uint8_t* age_rank) : ed_(edition), n_(n_players) {
  const std::string err = ed_.validate();
  if (!err.empty()) throw std::invalid_argument("edition " + err);
  if (n_ < 2 || n_ > kMaxPlayers) throw std::invalid_argument("players: must be 2..5");
  std::memset(age_rank_, 0, sizeof age_rank_);
  unsigned seen = 0;
  for (int p = 0; p < n_; ++p) {
    if (age_rank[p] >= n_) throw std::invalid_argument("age_rank: must be a permutation of 0..players-1");
    if (seen & (1u << age_rank[p])) throw std::invalid_argument("age_rank: must be a permutation of 0..players-1");
    seen |= 1u << age_rank[p];
    age_rank_[p] = age_rank[p];
  }
}

// Uniform card from a money place (setup only).
static int take_random_money(State& s, int place, Rng& rng) {
  const int total = Rules::place_count(s, place);
  int r = (int)rng.below((uint32_t)total);
  int k = 0;
  while (r >= s.money[place][k]) r -= s.money[place][k++];
  --s.money[place][k];
  return k;
}
// Uniform building with location `loc` in [lo, hi) (setup only).
static int take_random_building(State& s, int lo, int hi, uint8_t loc, Rng& rng) {
  int cand[kBuildings], c = 0;
  for (int b = lo; b < hi; ++b)
    if (s.bloc[b] == loc) cand[c++] = b;
  return cand[rng.below((uint32_t)c)];
}

void Game::initial_state(State& s, Rng& rng) const {
  std::memset(&s, 0, sizeof s);
  const Constants& C = ed_.c;
  std::memcpy(s.money[M_DECK], ed_.money_count, kMoneyTypes);
  for (int p = 0; p < n_; ++p)
    for (int i = 0; i < C.money_dealt; ++i) ++s.money[M_HAND0 + p][take_random_money(s, M_DECK, rng)];
  for (int i = 0; i < C.display; ++i) ++s.money[M_DISPLAY][take_random_money(s, M_DECK, rng)];

  for (int b = kFirstBasic; b < kFirstExtended; ++b) s.bloc[b] = B_SEG | 0;
  for (int b = kFirstExtended; b < kBuildings; ++b) s.bloc[b] = (uint8_t)(B_SEG | (ed_.b[b].house ? 0 : 1));
  for (int p = 0; p < n_; ++p)
    for (int i = 0; i < C.basic_dealt; ++i)
      s.bloc[take_random_building(s, kFirstBasic, kFirstExtended, B_SEG, rng)] = (uint8_t)(B_HAND | p);
  for (int i = 0; i < C.faceup; ++i) s.bloc[take_random_building(s, kFirstBasic, kFirstExtended, B_SEG, rng)] = B_FACEUP;
  for (int p = 0; p < n_; ++p)
    for (int i = 0; i < C.house_dealt; ++i)
      s.bloc[take_random_building(s, kFirstExtended, kFirstAdvanced, B_SEG, rng)] = (uint8_t)(B_HAND | p);
  for (int i = 0; i < C.faceup; ++i) {
    s.bloc[take_random_building(s, kFirstExtended, kFirstAdvanced, B_SEG, rng)] = B_FACEUP;
    s.bloc[take_random_building(s, kFirstAdvanced, kBuildings, B_SEG, rng)] = B_FACEUP;
  }
  for (int b = 0; b < kMills; ++b) s.bloc[b] = B_BOX;
  for (int p = 0; p < n_; ++p) {
    const int m = take_random_building(s, 0, kMills, B_BOX, rng);
    s.bloc[m] = (uint8_t)(B_ROW | p);
    s.bpos[m] = 128;
    s.seat[p].row_lo = s.seat[p].row_hi = 128;
  }
  for (int t = 0; t < 4; ++t) s.deck_top[t] = 127, s.deck_bottom[t] = 128;

  // Turn order (4.4, A1): printed sum ascending, ties to the younger seat.
  int sums[kMaxPlayers];
  for (int p = 0; p < n_; ++p) {
    sums[p] = 0;
    for (int k = 0; k < kMoneyTypes; ++k) sums[p] += s.money[M_HAND0 + p][k] * (k % kValues + 1);
    s.turn_order[p] = (uint8_t)p;
  }
  std::stable_sort(s.turn_order, s.turn_order + n_, [&](uint8_t a, uint8_t b) {
    return sums[a] != sums[b] ? sums[a] < sums[b] : age_rank_[a] < age_rank_[b];
  });
  for (int i = 0; i < n_; ++i) {
    Seat& st = s.seat[s.turn_order[i]];
    st.ap = C.start_ap[i];
    st.home = 5;
    st.supply = kCubes;
  }
  for (int p = n_; p < kMaxPlayers; ++p) s.turn_order[p] = kNoSeat;
  std::memset(s.guild, kNoSeat, sizeof s.guild);
  std::memset(s.order_track, kNoSeat, sizeof s.order_track);
  for (int w = 0; w < kWarehouseGoods; ++w) s.warehouse[w][0] = s.warehouse[w][1] = 1;
  s.bank_priv = C.priv_tokens_by_players[n_];
  s.bank_work = C.work_tokens_by_players[n_];
  s.bonus_unclaimed = 0xFF;
  s.year = 1;
  s.season = 0;
  s.last_end = kNoSeat;
  s.auc_card = s.good = s.good_card = kNoSeat;
  s.lim_seat = s.lim_actor = kNoSeat;
  s.idx = 0;
  s.phase = P_RUN;
  s.flow = F_MULLIGAN;
  Rules(*this).advance(s);
  know_buildings(s, n_);
}

int Game::current_player(const State& s) const {
  if (s.phase == P_TERMINAL) return kTerminalPlayer;
  if (s.phase == P_CHANCE) return kChancePlayer;
  return s.actor;
}

bool Game::is_legal(const State& s, Move m) const {
  MoveList ml;
  legal_moves(s, ml);
  for (int i = 0; i < ml.size; ++i)
    if (ml[i] == m) return true;
  return false;
}

}  // namespace atelier::craftsmen

namespace atelier::craftsmen {

bool Game::chance_free(const State& s) const {
  // Exact in the safe direction (concept.md: true only when no chance node with more than one
  // outcome can follow). Year 3's winter draws no buildings (§12); its only draws are money for
  // the Craftsmen stage's rewards (IV, its windows included: a token's WP can craft too), and a
  // reshuffle (A3) may bring any card that reaches the pile before it. So: true once stage IV is
  // over (round end, year end and scoring draw nothing), or when every money card that could ever
  // be drawn — the deck, the pile, and whatever hands, display and mayor may still discard — is
  // of one type; false otherwise, also where a closer look might say true.
  if (s.phase == P_TERMINAL) return true;
  if (s.year != 3 || s.season != 3) return false;
  if (s.phase == P_CHANCE && s.ch_src != 0) return false;
  const bool drawing = s.phase == P_CHANCE || (s.phase == P_LIMIT && s.lim_saved == P_CHANCE);
  const bool stage_over = s.flow == F_ROUND_END || s.flow == F_YEAR_END || s.flow == F_CONTRIB || s.flow == F_FINAL ||
                          ((s.flow == F_STAGE || s.flow == F_NEXT_HELPER || s.flow == F_STAGE_WINDOWS) && s.stage > 3);
  if (!drawing && stage_over) return true;
  int types = 0;
  for (int k = 0; k < kMoneyTypes; ++k) {
    int c = 0;
    for (int pl = 0; pl < kMoneyPlaces; ++pl) c += s.money[pl][k];
    types += c != 0;
  }
  return types <= 1;
}

}  // namespace atelier::craftsmen
