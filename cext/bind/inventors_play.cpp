// Whole games inside C++ for Python callers: random playouts (statistics, tests) and the core
// benchmark. Both release the GIL; results go out as numpy arrays / a dict.
#include <pybind11/numpy.h>

#include "inventors_bind.hpp"
#include "stopwatch.hpp"

namespace atelier::inventors::bind {
namespace {

// The spec bounds a game at < 600 main actions plus free plays (8.11); a playout longer than
// this means a rules bug, reported instead of looping forever.
constexpr int kMaxDecisions = 5000;

// One uniformly random playout from the Age I chance node; returns the decision count.
int random_playout(const Game& g, Rng& rng, Position& p, MoveList& ml) {
  g.initial_state(p.st);
  int decisions = 0;
  while (!p.is_terminal()) {
    if (p.is_chance()) {
      p.sample_chance(rng);
      continue;
    }
    // legal_moves()[below(size)] without the list; every decision has a move (perft, invariants).
    p.playout_apply(p.random_move(rng));
    if (++decisions > kMaxDecisions) throw std::runtime_error("rules core: playout too long");
  }
  return decisions;
}

}  // namespace

py::dict random_games(const std::shared_ptr<Game>& g, py::object n_obj, py::object seed_obj) {
  const long n_games = (long)as_int(n_obj, "n", 0, 10000000);
  const uint64_t seed = as_seed(seed_obj, "seed");
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

py::dict bench_core(const std::shared_ptr<Game>& g, py::object n_obj, py::object seed_obj) {
  const long n_games = (long)as_int(n_obj, "n_games", 1, 10000000);
  const uint64_t seed = as_seed(seed_obj, "seed");
  Lap play, clone;
  long long decisions = 0;
  const long kClones = 2000000;
  {
    py::gil_scoped_release nogil;
    Rng rng(seed);
    Position p{g.get(), State{}};
    MoveList ml;
    Stopwatch t0;
    for (long i = 0; i < n_games; i++) decisions += random_playout(*g, rng, p, ml);
    play = t0.lap();

    // Copying a mid-game state is what every search node pays; the volatile sink keeps the
    // compiler from proving the copies dead.
    State src = p.st;
    volatile uint64_t sink = 0;
    Stopwatch t1;
    for (long i = 0; i < kClones; i++) {
      src.hash ^= (uint64_t)i;
      State copy = src;
      sink = sink + copy.hash + copy.levels[i % kMaxPlayers];
    }
    clone = t1.lap();
    (void)sink;
  }
  py::dict out;
  put_playout_figures(out, n_games, decisions, play, kClones, clone);
  out["state_bytes"] = (int)sizeof(State);
  return out;
}

}  // namespace atelier::inventors::bind
