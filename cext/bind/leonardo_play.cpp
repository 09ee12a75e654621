// Whole Leonardo games inside C++ for Python callers: random playouts (tests, statistics) and
// the core benchmark. Both release the GIL.
#include <pybind11/numpy.h>

#include "leonardo_bind.hpp"
#include "stopwatch.hpp"

using atelier::bind::Lap;
using atelier::bind::Stopwatch;
using atelier::bind::put_playout_figures;

namespace atelier::leonardo::bind {
namespace {

constexpr int kMaxDecisions = 20000;  // a playout longer than this is a rules bug

// A random game as the search's playouts run it (Position::playout_apply: keys not kept).
int random_playout(const Game& g, Rng& rng, Position& p, MoveList& ml) {
  g.initial_state(p.st, rng);
  int decisions = 0;
  while (!p.is_terminal()) {
    if (p.is_chance()) {
      p.playout_chance(rng);
      continue;
    }
    p.playout_apply(p.random_move(rng));  // as the search's playouts: no list for a placement
    if (++decisions > kMaxDecisions) throw std::runtime_error("rules core: playout too long");
  }
  return decisions;
}

// The same game with both keys recomputed after every transition (Position::apply).
int keyed_playout(const Game& g, Rng& rng, Position& p, MoveList& ml) {
  g.initial_state(p.st, rng);
  int decisions = 0;
  while (!p.is_terminal()) {
    if (p.is_chance()) {
      p.sample_chance(rng);
      continue;
    }
    p.legal_moves(ml);
    if (ml.size == 0) throw std::runtime_error("rules core: no legal move at a decision point");
    p.apply(ml[(int)rng.below((uint32_t)ml.size)]);
    if (++decisions > kMaxDecisions) throw std::runtime_error("rules core: playout too long");
  }
  return decisions;
}

}  // namespace

py::dict random_games(const std::shared_ptr<Game>& g, long n_games, uint64_t seed) {
  if (n_games < 0) fail("n: must be >= 0");
  const int n = g->num_players();
  py::array_t<int32_t> scores({(py::ssize_t)n_games, (py::ssize_t)n});
  py::array_t<int32_t> lengths(n_games);
  py::array_t<uint8_t> winners(n_games);
  auto sc = scores.mutable_unchecked<2>();
  auto ln = lengths.mutable_unchecked<1>();
  auto wn = winners.mutable_unchecked<1>();
  {
    py::gil_scoped_release nogil;
    Rng rng(seed);
    Position p{g.get(), State{}};
    MoveList ml;
    int buf[kMaxPlayers];
    for (long i = 0; i < n_games; i++) {
      ln(i) = random_playout(*g, rng, p, ml);
      p.scores(buf);
      for (int s = 0; s < n; s++) sc(i, s) = buf[s];
      wn(i) = g->winners(p.st);
    }
  }
  py::dict out;
  out["scores"] = scores;
  out["lengths"] = lengths;
  out["winners"] = winners;
  return out;
}

py::dict bench_core(const std::shared_ptr<Game>& g, long n_games, uint64_t seed) {
  if (n_games < 1) fail("n_games: must be >= 1");
  Lap play, clone, keyed;
  long long decisions = 0, keyed_decisions = 0;
  const long kClones = 2000000;
  {
    py::gil_scoped_release nogil;
    Rng rng(seed);
    Position p{g.get(), State{}};
    MoveList ml;
    Stopwatch t0;
    for (long i = 0; i < n_games; i++) decisions += random_playout(*g, rng, p, ml);
    play = t0.lap();
    Rng rng2(seed);
    Stopwatch tk;
    for (long i = 0; i < n_games; i++) keyed_decisions += keyed_playout(*g, rng2, p, ml);
    keyed = tk.lap();
    State src = p.st;
    volatile uint64_t sink = 0;
    Stopwatch t1;
    for (long i = 0; i < kClones; i++) {
      src.hash ^= (uint64_t)i;
      State copy = src;
      sink = sink + copy.hash + copy.pl[i % kMaxPlayers].money;
    }
    clone = t1.lap();
    (void)sink;
  }
  py::dict out;
  put_playout_figures(out, n_games, decisions, play, kClones, clone);
  out["keyed_decisions_per_s"] = keyed.cpu > 0 ? keyed_decisions / keyed.cpu : 0.0;
  out["state_bytes"] = (int)sizeof(State);
  return out;
}

}  // namespace atelier::leonardo::bind
