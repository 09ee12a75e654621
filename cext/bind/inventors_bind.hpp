// Shared between the Inventors binding files: the Python-side State object and the
// dict <-> struct conversions. Everything that crosses from Python is range-checked here
// (with the shared converters of common.hpp) before it reaches the rules core, which trusts its
// inputs (and must never crash).
#pragma once
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>  // in every binding TU: type casters must agree (ODR)

#include <memory>
#include <stdexcept>
#include <string>

#include "common.hpp"
#include "inventors/game.hpp"

namespace atelier::inventors::bind {

namespace py = pybind11;
using namespace atelier::bind;  // fail, as_text, as_int, as_seed, as_seq, as_dict, ...

// A State as Python sees it: keeps its Game alive; pos.game always points at *game.
struct PyState {
  std::shared_ptr<const Game> game;
  Position pos;

  PyState(std::shared_ptr<const Game> g, const State& s) : game(std::move(g)) {
    pos.game = game.get();
    pos.st = s;
  }
  PyState(const PyState& o) : game(o.game) {
    pos.game = game.get();
    pos.st = o.pos.st;
  }
};

// Bytes of State that carry data (the rest is trailing padding, zero in everything we make).
constexpr size_t kStateBytes = offsetof(State, busy) + sizeof(State::busy);

Edition edition_from_dict(const py::dict& d);
py::dict edition_to_dict(const Edition& ed);
py::dict state_fields(const Game& g, const State& s);
State state_from_fields(const Game& g, const py::dict& d);

// Whole games in C++ without the GIL (inventors_play.cpp).
py::dict random_games(const std::shared_ptr<Game>& g, py::object n_games, py::object seed);
py::dict bench_core(const std::shared_ptr<Game>& g, py::object n_games, py::object seed);

}  // namespace atelier::inventors::bind
