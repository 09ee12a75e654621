// Reveals (spec §6): K random cards of the age, each with 2 tokens drawn without replacement.
#include <cstring>

#include "game.hpp"
#include "mutate.hpp"

namespace atelier::inventors {

using namespace detail;

// Draw one token uniformly from the bag (without replacement).
static unsigned draw_token(State& s, Rng& rng) {
  unsigned total = 0;
  for (int k = 0; k < kTokenKinds; ++k) total += s.bag[k];
  unsigned r = rng.below(total);
  unsigned k = 0;
  while (r >= s.bag[k]) r -= s.bag[k++];
  add_bag(s, k, -1);
  return k;
}

// After the cards are down: MAIN, seat 0 at game start, else the holder's left (spec 5.8.4).
static void open_age(State& s, int n) {
  s.phase = MAIN;
  s.active = (uint8_t)(s.age == 1 ? 0 : (s.statuette + 1) % n);
}

// Draws from all 12 cards of the age: validate() guarantees no seat holds one before its reveal.
void Game::sample_reveal(State& s, Rng& rng) const {
  s.hash ^= header_key(s);
  const int K = k();
  uint8_t idx[kCardsPerAge];
  for (int t = 0; t < kCardsPerAge; ++t) idx[t] = (uint8_t)t;
  for (int t = 0; t < K; ++t) {  // partial Fisher-Yates: a uniform K-subset
    const int r = t + (int)rng.below(kCardsPerAge - t);
    const uint8_t tmp = idx[t];
    idx[t] = idx[r];
    idx[r] = tmp;
  }
  for (int t = 1; t < K; ++t)  // ascending edition order (R9: draws follow it)
    for (int u = t; u > 0 && idx[u - 1] > idx[u]; --u) {
      const uint8_t tmp = idx[u];
      idx[u] = idx[u - 1];
      idx[u - 1] = tmp;
    }
  const int first = (s.age - 1) * kCardsPerAge;
  for (int t = 0; t < K; ++t) {
    DisplayCard& dc = s.display[t];
    std::memset(&dc, 0, sizeof dc);
    dc.card = (uint8_t)(first + idx[t]);
    const unsigned a = draw_token(s, rng);
    const unsigned b = draw_token(s, rng);
    dc.tokens = pack_tokens(a, b);
    s.hash ^= card_key(dc, n_);
  }
  s.ndisplay = (uint8_t)K;
  open_age(s, n_);
  s.hash ^= header_key(s);
}

std::string Game::check_reveal(const State& s, const Reveal& r) const {
  if (s.phase != CHANCE_REVEAL) return "reveal: the position is not at a reveal (chance) node";
  if (r.k != k()) return "reveal: expected " + std::to_string(k()) + " cards";
  const int first = (s.age - 1) * kCardsPerAge;
  int used[kTokenKinds] = {0};
  for (int t = 0; t < r.k; ++t) {
    if (r.cards[t] < first || r.cards[t] >= first + kCardsPerAge)
      return "reveal: card " + std::to_string(t + 1) + " is not of age " + std::to_string(s.age);
    if (t > 0 && r.cards[t] <= r.cards[t - 1]) return "reveal: cards must be distinct and in edition order";
    // validate() keeps every card of a coming age out of the seats' won cards; checked here
    // too, so no explicit reveal can put a held card on display.
    for (int p = 0; p < n_; ++p)
      if ((s.won[p] >> r.cards[t]) & 1)
        return "reveal: " + ed_.card_ids[r.cards[t]] + " is already won by seat " + std::to_string(p);
    for (int x = 0; x < 2; ++x) {
      if (r.tokens[t][x] >= kTokenKinds) return "reveal: unknown token kind";
      ++used[r.tokens[t][x]];
    }
  }
  for (int kk = 0; kk < kTokenKinds; ++kk)
    if (used[kk] > s.bag[kk])
      return std::string("reveal: more ") + kTokenNames[kk] + " tokens than the bag holds";
  return "";
}

void Game::apply_reveal(State& s, const Reveal& r) const {
  s.hash ^= header_key(s);
  for (int t = 0; t < r.k; ++t) {
    DisplayCard& dc = s.display[t];
    std::memset(&dc, 0, sizeof dc);
    dc.card = r.cards[t];
    add_bag(s, r.tokens[t][0], -1);
    add_bag(s, r.tokens[t][1], -1);
    dc.tokens = pack_tokens(r.tokens[t][0], r.tokens[t][1]);
    s.hash ^= card_key(dc, n_);
  }
  s.ndisplay = (uint8_t)r.k;
  open_age(s, n_);
  s.hash ^= header_key(s);
}

// Spec 6.1.3: P = 2^u * prod_k ff(c_k, m_k) / ff(B, 2K), divided by C(12, K).
double Game::reveal_probability(const State& s, const Reveal& r) const {
  int m[kTokenKinds] = {0};
  int u = 0, B = 0;
  for (int t = 0; t < r.k; ++t) {
    ++m[r.tokens[t][0]];
    ++m[r.tokens[t][1]];
    u += r.tokens[t][0] != r.tokens[t][1];
  }
  double p = 1.0;
  for (int kk = 0; kk < kTokenKinds; ++kk) {
    B += s.bag[kk];
    for (int x = 0; x < m[kk]; ++x) p *= (double)(s.bag[kk] - x);
  }
  for (int x = 0; x < 2 * r.k; ++x) p /= (double)(B - x);
  p *= (double)(1u << u);
  double subsets = 1.0;  // C(12, K)
  for (int x = 0; x < r.k; ++x) subsets = subsets * (kCardsPerAge - x) / (x + 1);
  return p / subsets;
}

}  // namespace atelier::inventors
