// Shared between the Leonardo binding files: the Python-side State object and the
// dict <-> struct conversions. Everything that crosses from Python is range-checked before it
// reaches the rules core (fields go through Game::validate), which trusts its inputs.
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // in every binding TU: type casters must agree (ODR)

#include <memory>
#include <stdexcept>
#include <string>

#include "leonardo/game.hpp"

namespace atelier::leonardo::bind {

namespace py = pybind11;

// Every Game made from Python is a BoundGame: it keeps the edition document it was read from
// (canonical JSON, sorted keys) so that a position written from any of its states can say
// whether it used the bundled edition and carry the whole document when not.
struct BoundGame : Game {
  using Game::Game;
  std::string edition_json;
};

struct PyState {
  std::shared_ptr<const Game> game;
  Position pos;
  // The seat whose viewpoint (§3.3) this state was loaded from, or -1 for a full position.
  // A viewpoint's hidden parts are one placeholder determinization: the search and the
  // position writer must not treat them as known (docs/positions.md).
  int viewpoint = -1;

  PyState(std::shared_ptr<const Game> g, const State& s) : game(std::move(g)) {
    pos.game = game.get();
    pos.st = s;
  }
  PyState(const PyState& o) : game(o.game), viewpoint(o.viewpoint) {
    pos.game = game.get();
    pos.st = o.pos.st;
  }
};

[[noreturn]] inline void fail(const std::string& msg) { throw std::invalid_argument(msg); }

Edition edition_from_dict(const py::dict& d);
py::dict state_fields(const Game& g, const State& s);
// A copy of `base` with the given fields replaced; keys recomputed, then validated.
State state_with_fields(const Game& g, const State& base, const py::dict& d, bool placeholder = false);

py::dict random_games(const std::shared_ptr<Game>& g, long n_games, uint64_t seed);
py::dict bench_core(const std::shared_ptr<Game>& g, long n_games, uint64_t seed);
py::dict check_games(const std::shared_ptr<Game>& g, long n_games, uint64_t seed, int determinize_every);

}  // namespace atelier::leonardo::bind
