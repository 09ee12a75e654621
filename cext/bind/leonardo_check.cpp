// The random-simulation invariants of the Leonardo issue, checked inside C++ so that the slow
// test can afford 10,000 games per player count: at every state the §3.1 records, the
// conservation laws and both keys against a recomputation (Game::validate); termination after
// turn 9; the score formula; and, at random states, the determinization contract (same
// information-set key, same legal moves for the mover, a valid state) with the size of the
// deck-hypothesis set. The GIL is released; the first failure is returned as text.
#include <cstring>
#include <string>

#include "leonardo_bind.hpp"

namespace atelier::leonardo::bind {
namespace {

constexpr int kMaxDecisions = 20000;

struct Tally {
  long long decisions = 0, states = 0, determinized = 0, over_capacity = 0;
  int max_hypotheses = 0;
  std::string error;
};

std::string where(long game, int decisions, const std::string& what) {
  return "game " + std::to_string(game) + ", decision " + std::to_string(decisions) + ": " + what;
}

bool same_moves(const Game& g, const State& a, const State& b) {
  MoveList x, y;
  g.legal_moves(a, x);
  g.legal_moves(b, y);
  return x.size == y.size && std::memcmp(x.moves, y.moves, sizeof(Move) * x.size) == 0;
}

int score_formula(const Game& g, const State& s, int p) {
  int types = 0;
  for (int t = 0; t < kTypes; ++t) types += (s.pl[p].owned & g.edition().type_cards[t]) != 0;
  return s.pl[p].money + g.edition().type_bonus[types];
}

// One game; false (with tally.error set) at the first broken invariant.
bool check_game(const Game& g, Rng& rng, long game, int determinize_every, Tally& t) {
  State s{};
  g.initial_state(s, rng);
  MoveList ml;
  int decisions = 0;
  const int n = g.num_players();
  while (true) {
    std::string v = g.validate(s);
    if (!v.empty()) return t.error = where(game, decisions, v), false;
    ++t.states;
    const int cur = g.current_player(s);
    if (cur == kTerminalPlayer) break;
    if (cur == kChancePlayer) {
      g.sample_chance(s, rng);
      continue;
    }
    if (determinize_every && rng.below((uint32_t)determinize_every) == 0) {
      const int seat = (int)rng.below((uint32_t)n);
      const int h = g.deck_hypotheses(s, seat);
      if (h == 0) return t.error = where(game, decisions, "no deck hypothesis fits the true deck"), false;
      if (h < 0) ++t.over_capacity;
      if (h > t.max_hypotheses) t.max_hypotheses = h;
      State d = s;
      if (!g.determinize(d, seat, rng))
        return t.error = where(game, decisions, "determinize found no sample for seat " + std::to_string(seat) + " (" + std::to_string(h) + " deck hypotheses)"), false;
      ++t.determinized;
      v = g.validate(d);
      if (!v.empty()) return t.error = where(game, decisions, "determinized: " + v), false;
      if (g.infoset_key(d, seat) != g.infoset_key(s, seat))
        return t.error = where(game, decisions, "determinize changed the seat's information-set key"), false;
      if (seat == cur && !same_moves(g, s, d))
        return t.error = where(game, decisions, "determinize changed the mover's legal moves"), false;
    }
    g.legal_moves(s, ml);
    if (ml.size == 0) return t.error = where(game, decisions, "no legal move at a decision"), false;
    g.apply(s, ml[(int)rng.below((uint32_t)ml.size)]);
    ++t.decisions;
    if (++decisions > kMaxDecisions) return t.error = where(game, decisions, "the game does not end"), false;
  }
  if (s.turn != 9 || s.phase != GAME_OVER) return t.error = where(game, decisions, "ended before turn 9"), false;
  for (int p = 0; p < n; ++p)
    if (g.score(s, p).total != score_formula(g, s, p))
      return t.error = where(game, decisions, "score differs from money + type bonus"), false;
  return true;
}

}  // namespace

py::dict check_games(const std::shared_ptr<Game>& g, long n_games, uint64_t seed, int determinize_every) {
  if (n_games < 0) fail("n: must be >= 0");
  if (determinize_every < 0) fail("determinize_every: must be >= 0");
  Tally t;
  long played = 0;
  {
    py::gil_scoped_release nogil;
    Rng rng(seed);
    for (; played < n_games; ++played)
      if (!check_game(*g, rng, played, determinize_every, t)) break;
  }
  py::dict out;
  out["games"] = played;
  out["decisions"] = t.decisions;
  out["states"] = t.states;
  out["determinized"] = t.determinized;
  out["max_hypotheses"] = t.max_hypotheses;
  out["over_capacity"] = t.over_capacity;
  out["error"] = t.error;
  return out;
}

}  // namespace atelier::leonardo::bind
