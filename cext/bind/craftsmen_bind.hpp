// Shared between the Craftsmen binding files: the Python-side State object and the dict
// conversions. Everything from Python is checked here before it reaches the rules core, which
// trusts its inputs (and must never crash).
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // in every binding TU: type casters must agree (ODR)

#include <memory>
#include <stdexcept>
#include <string>

#include "craftsmen/game.hpp"

namespace atelier::craftsmen::bind {

namespace py = pybind11;

struct PyState {
  std::shared_ptr<const Game> game;
  Position pos;
  // The seat whose viewpoint (Craftsmen spec 6.2) this state was loaded from, or -1 for a full
  // position: its hidden parts are then one placeholder deal, which the search and the position
  // writer must not treat as known (docs/positions-craftsmen.md).
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

Edition edition_from_dict(const py::dict& d);  // the edition JSON (docs/editions.md), checked
py::dict state_fields(const Game& g, const State& s);
// fields over a base state, checked (ValueError "field: reason"): state_fields' inverse.
// `deal_seat` >= 0: before the check, deal what that seat cannot see afresh (a viewpoint's
// placeholder fill need not meet a running auction's claims; Game::determinize's deal does).
State state_with_fields(const Game& g, const State& base, const py::dict& d, int deal_seat = -1, uint64_t seed = 0);
// Game::validate passed: s must also round-trip through state_fields (craftsmen_fields.cpp).
void check_round_trip(const Game& g, const State& s);

py::dict random_games(const std::shared_ptr<Game>& g, long n_games, uint64_t seed);
py::dict bench_core(const std::shared_ptr<Game>& g, long n_games, uint64_t seed);
py::dict check_games(const std::shared_ptr<Game>& g, long n_games, uint64_t seed, int determinize_every);

}  // namespace atelier::craftsmen::bind
