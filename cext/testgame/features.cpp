// High card's feature vector (docs/models.md, "Features: testgame"): the deck and the cards
// seen, the prize, and per seat its score, hand and play in the trick. Small, but the same
// concept as the real rulesets, so the search and training run on it in tests.
#include <algorithm>

#include "../common/features.hpp"
#include "game.hpp"

namespace atelier::testgame {

namespace {

template <class W>
int emit(W& w, const Game& g, const State& s, int seat) {
  const int n = g.num_players(), v = g.values(), c = g.copies(), h = g.hand_size();
  const float points = (float)(h * v);  // a generous ceiling on a final score
  w.block("global");
  w.flag(s.phase == DEAL || s.phase == REVEAL, "chance");
  w.flag(s.phase == TERMINAL, "terminal");
  w.put(frac(h - s.trick, h), "tricks_left");
  for (int i = 0; i < v; ++i) w.put(frac(s.deck[i], c), "deck", i);
  for (int i = 0; i < v; ++i) w.put(frac(s.seen[i], c), "seen", i);
  w.put(s.prize != 0xFF ? (s.prize + 1) / (float)v : 0.0f, "prize");
  int best = 0;
  for (int p = 0; p < n; ++p) best = std::max(best, (int)s.plays[p]);
  w.put(best / (float)v, "best_play");
  int high[kMaxPlayers];
  for (int p = 0; p < n; ++p) {
    high[p] = -1000;
    for (int q = 0; q < n; ++q)
      if (q != p) high[p] = std::max(high[p], (int)s.score[q]);
  }
  for (int j = 0; j < n; ++j) {
    const int p = seat_after(seat, j, n);
    w.block(j ? "p+" : "me", j);
    w.put(s.score[p] / points, "score");
    w.put((s.score[p] - high[p]) / points, "lead");
    for (int i = 0; i < v; ++i) w.put(frac(s.hand[p][i], c), "hand", i);
    w.put(s.plays[p] / (float)v, "play");
    w.flag(g.current_player(s) == p, "to_move");
    w.put(((p - s.leader) % n + n) % n / (float)n, "after_leader");
  }
  return w.n;
}

}  // namespace

int feature_count(const Game& g) { return 5 + 2 * g.values() + g.num_players() * (5 + g.values()); }

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

}  // namespace atelier::testgame
