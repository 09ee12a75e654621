// atelier._core.craftsmen: Game and State over the C++ Craftsmen rules core. The core trusts its
// inputs, so every move, text and byte string is checked here first; std::invalid_argument
// becomes ValueError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <vector>

#include "craftsmen_bind.hpp"

namespace atelier::craftsmen::bind {
namespace {

using GamePtr = std::shared_ptr<Game>;

Move checked_move(const PyState& s, long long m) {
  if (m < 0 || m > 0xFFFF) fail("move " + std::to_string(m) + ": not a move number");
  if (s.pos.is_terminal()) fail("move " + std::to_string(m) + ": the game is over");
  if (s.pos.is_chance()) {
    Move ms[kMaxMoves];
    double ps[kMaxMoves];
    const int c = s.game->chance_outcomes(s.pos.st, ms, ps, kMaxMoves);
    for (int i = 0; i < c; ++i)
      if (ms[i] == (Move)m) return (Move)m;
    fail("move " + std::to_string(m) + ": not a possible draw here");
  }
  if (!s.game->is_legal(s.pos.st, (Move)m)) fail("move " + std::to_string(m) + ": not legal here");
  return (Move)m;
}

void apply_move(PyState& s, Move m) {
  if (s.pos.is_chance()) s.pos.apply_chance(m);
  else s.pos.apply(m);
}

Move parsed(const PyState& s, const std::string& text) {
  Move m;
  const std::string err = s.game->parse_move(s.pos.st, text, m);
  if (!err.empty()) fail(err);
  return m;
}

void apply_obj(PyState& s, const py::object& move) {
  if (PyUnicode_Check(move.ptr())) {
    apply_move(s, parsed(s, move.cast<std::string>()));
    return;
  }
  if (PyBool_Check(move.ptr()) || !PyLong_Check(move.ptr())) fail("move: expected an int or a notation string");
  long long m;
  try {
    m = move.cast<long long>();
  } catch (const py::cast_error&) {
    fail("move: not a move number");
  }
  apply_move(s, checked_move(s, m));
}

std::shared_ptr<PyState> state_from_bytes(const GamePtr& g, const py::bytes& b) {
  std::string raw = b;
  if (raw.size() != sizeof(State))
    fail("bytes: expected " + std::to_string(sizeof(State)) + " bytes, got " + std::to_string(raw.size()));
  State s{};
  std::memcpy(&s, raw.data(), sizeof(State));
  const std::string err = g->validate(s);
  if (!err.empty()) fail(err);
  return std::make_shared<PyState>(g, s);
}

}  // namespace
}  // namespace atelier::craftsmen::bind

using namespace atelier;
using namespace atelier::craftsmen;
using namespace atelier::craftsmen::bind;

void bind_craftsmen(py::module_& m) {
  m.attr("STATE_BYTES") = (int)sizeof(State);
  m.attr("MAX_MOVES") = atelier::kMaxMoves;

  py::class_<Game, GamePtr>(m, "Game", py::dynamic_attr())
      .def(py::init([](int players, const py::dict& edition, py::object age_rank) {
             if (players < 2 || players > atelier::kMaxPlayers) fail("players: must be 2..5");
             uint8_t ar[atelier::kMaxPlayers] = {0, 1, 2, 3, 4};
             if (!age_rank.is_none()) {
               auto v = age_rank.cast<std::vector<int>>();
               if ((int)v.size() != players) fail("age_rank: expected one rank per player");
               for (int p = 0; p < players; ++p) {
                 if (v[p] < 0 || v[p] >= players) fail("age_rank: must be a permutation of 0..players-1");
                 ar[p] = (uint8_t)v[p];
               }
             }
             return std::make_shared<Game>(edition_from_dict(edition), players, ar);
           }),
           py::arg("players"), py::arg("edition"), py::arg("age_rank") = py::none())
      .def_property_readonly("players", &Game::num_players)
      .def_property_readonly("age_rank", [](const Game& g) {
        std::vector<int> v;
        for (int p = 0; p < g.num_players(); ++p) v.push_back(g.age_rank(p));
        return v;
      })
      .def_property_readonly("building_ids", [](const Game& g) {
        return std::vector<std::string>(g.edition().building_ids, g.edition().building_ids + kBuildings);
      })
      .def("start", [](const GamePtr& g, uint64_t seed) {
        State s{};
        Rng rng(seed);
        g->initial_state(s, rng);
        return std::make_shared<PyState>(g, s);
      }, py::arg("seed") = 0, "The position after setup (spec 4.2, sampled from seed): the first mulligan.")
      .def("random_games", &random_games, py::arg("n"), py::arg("seed") = 0)
      .def("bench_core", &bench_core, py::arg("n_games"), py::arg("seed") = 0)
      .def("__repr__", [](const Game& g) { return "<craftsmen Game players=" + std::to_string(g.num_players()) + ">"; });

  py::class_<PyState, std::shared_ptr<PyState>>(m, "State")
      .def_property_readonly("game", [](const PyState& s) { return std::const_pointer_cast<Game>(s.game); })
      .def("clone", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__copy__", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__eq__", [](const PyState& a, py::object o) {
        if (!py::isinstance<PyState>(o)) return false;
        const PyState& b = o.cast<const PyState&>();
        return a.game == b.game && std::memcmp(&a.pos.st, &b.pos.st, sizeof(State)) == 0;
      })
      .def("__hash__", [](const PyState& s) { return (py::ssize_t)(s.pos.hash() >> 1); })
      .def_property_readonly("current_player", [](const PyState& s) { return s.pos.current_player(); })
      .def("is_terminal", [](const PyState& s) { return s.pos.is_terminal(); })
      .def("is_chance", [](const PyState& s) { return s.pos.is_chance(); })
      .def("legal_moves", [](const PyState& s) {
        MoveList ml;
        s.pos.legal_moves(ml);
        return std::vector<int>(ml.moves, ml.moves + ml.size);
      })
      .def("apply", &apply_obj, py::arg("move"))
      .def("child", [](const PyState& s, py::object move) {
        auto c = std::make_shared<PyState>(s);
        apply_obj(*c, move);
        return c;
      }, py::arg("move"))
      .def("move_to_string", [](const PyState& s, long long m) {
        const Move mv = checked_move(s, m);
        return s.pos.is_chance() ? s.game->outcome_to_string(mv) : s.game->move_to_string(s.pos.st, mv);
      }, py::arg("move"))
      .def("parse_move", [](const PyState& s, const std::string& text) { return (int)parsed(s, text); }, py::arg("text"))
      .def("sample_chance", [](PyState& s, uint64_t seed) {
        if (!s.pos.is_chance()) fail("sample_chance: not a chance node");
        Rng rng(seed);
        s.pos.sample_chance(rng);
      }, py::arg("seed"))
      .def("chance_outcomes", [](const PyState& s) {
        Move ms[kMaxMoves];
        double ps[kMaxMoves];
        const int c = s.pos.chance_outcomes(ms, ps, kMaxMoves);
        std::vector<std::tuple<int, double, std::string>> out;
        for (int i = 0; i < c; ++i) out.emplace_back((int)ms[i], ps[i], s.game->outcome_to_string(ms[i]));
        return out;
      }, "(move, probability, text) for every outcome of the chance node; [] elsewhere.")
      .def("scores", [](const PyState& s) {
        int buf[atelier::kMaxPlayers];
        s.pos.scores(buf);
        return std::vector<int>(buf, buf + s.game->num_players());
      })
      .def("ranking", [](const PyState& s) {
        int buf[atelier::kMaxPlayers];
        s.game->ranking(s.pos.st, buf);
        return std::vector<int>(buf, buf + s.game->num_players());
      })
      .def("returns", [](const PyState& s) {
        double buf[atelier::kMaxPlayers];
        s.pos.returns(buf);
        return std::vector<double>(buf, buf + s.game->num_players());
      })
      .def_property_readonly("hash", [](const PyState& s) { return s.pos.hash(); })
      .def("compute_hash", [](const PyState& s) { return s.game->compute_hash(s.pos.st); })
      .def("validate", [](const PyState& s) { return s.game->validate(s.pos.st); })
      .def("hand_value", [](const PyState& s, int seat) {
        if (seat < 0 || seat >= s.game->num_players()) fail("seat: out of range");
        return Game::value(s.pos.st.money[M_HAND0 + seat]);
      }, py::arg("seat"))
      .def("to_bytes", [](const PyState& s) { return py::bytes(reinterpret_cast<const char*>(&s.pos.st), sizeof(State)); })
      .def_static("from_bytes", &state_from_bytes, py::arg("game"), py::arg("data"))
      .def("fields", [](const PyState& s) { return state_fields(*s.game, s.pos.st); })
      .def("greedy_move", [](const PyState& s, uint64_t seed) {
        if (s.pos.is_chance() || s.pos.is_terminal()) fail("greedy_move: no decision pending");
        Rng rng(seed);
        return (int)s.pos.greedy_move(rng);
      }, py::arg("seed") = 0)
      .def("_capsule", [](PyState& s) { return py::capsule(static_cast<void*>(&s.pos), "atelier.craftsmen.Position"); });

  py::module_::import("builtins");
  m.def("money_value", [](const std::vector<std::string>& cards) {
    uint8_t c[kMoneyTypes] = {};
    for (const auto& t : cards) {
      if (t.size() != 2 || !std::strchr("PGBR", t[0]) || t[1] < '1' || t[1] > '3') fail("cards: '" + t + "' is not a money type such as R2");
      ++c[(std::strchr(kColourLetters, t[0]) - kColourLetters) * kValues + (t[1] - '1')];
    }
    return Game::value(c);
  }, py::arg("cards"), "The value of a set of money cards (spec 7.1), e.g. ['R3','R3','B1'] -> 7.");
}
