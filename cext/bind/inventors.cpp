// atelier._core.inventors: Edition, Game and State over the C++ rules core (see
// docs/internal-contract.md). The core trusts its inputs, so every move, byte string and field
// dict is checked here first. Every user-facing argument is taken as py::object and converted by
// common.hpp, whose refusals (and the core's) become atelier.InputError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <strings.h>
#include <vector>

#include "inventors_bind.hpp"

namespace atelier::inventors::bind {
namespace {

using GamePtr = std::shared_ptr<Game>;

// Longer than any move or reveal of any edition a person would write; refused before the core
// echoes it into a message.
constexpr size_t kMaxMoveText = 4096;

std::string move_text(py::handle h) { return as_text(h, "move", kMaxMoveText); }

// A move int from Python: a decision must be waiting and the move must be one of its legal moves.
Move checked_move(const PyState& s, long long m) {
  if (m < 0 || m > 0xFFFF) fail("move " + std::to_string(m) + ": not a move number");
  if (s.pos.is_chance()) fail("move " + std::to_string(m) + ": chance node, reveal or sample first");
  if (s.pos.is_terminal()) fail("move " + std::to_string(m) + ": the game is over");
  // is_legal compares with the generated list, so it holds for any 16-bit value.
  if (!s.game->is_legal(s.pos.st, (Move)m))
    fail("move " + std::to_string(m) + ": not legal here");
  return (Move)m;
}

Reveal checked_reveal(const PyState& s, const std::string& text) {
  if (!s.pos.is_chance()) fail("move '" + text + "': not a chance node");
  Reveal r;
  const std::string err = s.game->parse_reveal(s.pos.st, text, r);  // ends with check_reveal
  if (!err.empty()) fail(err);
  return r;
}

// Notation -> a legal move: the core's parser already refuses chance and terminal positions and
// anything not in the legal-move list.
Move parsed_move(const PyState& s, const std::string& text) {
  Move m;
  const std::string err = s.game->parse_move(s.pos.st, text, m);
  if (!err.empty()) fail(err);
  return m;
}

bool is_reveal_text(const std::string& t) {
  return t.size() >= 7 && strncasecmp(t.c_str(), "reveal:", 7) == 0;
}

void apply_text(PyState& s, const std::string& text) {
  if (is_reveal_text(text)) {
    Reveal r = checked_reveal(s, text);
    s.game->apply_reveal(s.pos.st, r);
    return;
  }
  s.pos.apply(parsed_move(s, text));
}

// A move number from Python, still to be checked against the position.
long long move_number(py::handle h) {
  py::object i = as_pyint(h, "move", "a move number or a notation string");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) fail("move: " + quoted(i) + " is not a move number");
  return v;
}

void apply_obj(PyState& s, const py::object& move) {
  if (PyUnicode_Check(move.ptr())) return apply_text(s, move_text(move));
  s.pos.apply(checked_move(s, move_number(move)));
}

std::vector<int> winner_seats(const Game& g, const State& s) {
  std::vector<int> out;
  uint8_t mask = g.winners(s);
  for (int p = 0; p < g.num_players(); p++)
    if ((mask >> p) & 1) out.push_back(p);
  return out;
}

bool same_config(const Game& a, const Game& b) {
  if (&a == &b) return true;
  if (a.num_players() != b.num_players()) return false;
  for (int p = 0; p < a.num_players(); p++)
    if (a.team(p) != b.team(p)) return false;
  const Edition &x = a.edition(), &y = b.edition();
  return std::memcmp(x.inventors, y.inventors, sizeof x.inventors) == 0 &&
         std::memcmp(x.cards, y.cards, sizeof x.cards) == 0 &&
         std::memcmp(x.token_count, y.token_count, sizeof x.token_count) == 0;
}

std::shared_ptr<PyState> make_state(const GamePtr& g, const State& s) {
  return std::make_shared<PyState>(g, s);
}

GamePtr game_of(const PyState& s) { return std::const_pointer_cast<Game>(s.game); }

// Pickling (multiprocessing, caches): a Game is its edition, seat count and teams; a State is its
// Game plus its bytes, re-validated on load like any bytes from outside.
py::tuple game_state_tuple(const Game& g) {
  std::vector<int> teams;
  for (int p = 0; p < g.num_players(); p++) teams.push_back(g.team(p));
  return py::make_tuple(edition_to_dict(g.edition()), g.num_players(), teams);
}

// A Game from its edition, seat count and per-seat team indices (constructor and pickle).
GamePtr make_game(const Edition& ed, py::handle players, py::handle teams) {
  const int n = (int)as_int(players, "players", 2, atelier::kMaxPlayers);
  auto seq = as_seq(teams, "teams", n);
  uint8_t tt[atelier::kMaxPlayers] = {};
  for (int p = 0; p < n; p++) tt[p] = (uint8_t)as_int(seq[p], at("teams", p), 0, kTeams - 1);
  return std::make_shared<Game>(ed, n, tt);
}

GamePtr game_from_tuple(py::handle h) {
  auto t = as_seq(h, "pickle", 3);
  return make_game(edition_from_dict(as_dict(t[0], "pickle.edition")), t[1], t[2]);
}

std::shared_ptr<PyState> state_from_bytes(const GamePtr& g, py::handle data) {
  std::string raw = as_bytes(data, "bytes", kStateBytes);
  State s{};
  std::memcpy(&s, raw.data(), kStateBytes);
  const std::string err = g->validate(s);  // includes the stored hash against the contents
  if (!err.empty()) fail(err);
  return make_state(g, s);
}

// For fuzzing past the hash check: the bytes with the stored hash replaced by the hash of the
// contents. validate() range-checks every field before it compares the hash (its last check), so
// the contents are hashed only when that comparison is all that fails; otherwise the bytes come
// back unchanged and from_bytes refuses them for their first real fault.
py::bytes rehashed_bytes(const GamePtr& g, py::handle data) {
  std::string raw = as_bytes(data, "bytes", kStateBytes);
  State s{};
  std::memcpy(&s, raw.data(), kStateBytes);
  s.hash = ~s.hash;  // now wrong, unless the contents hash to ~stored: then validate() passes
  std::string err = g->validate(s);
  if (err.empty() || err.rfind("hash:", 0) == 0) {
    s.hash = g->compute_hash(s);
    std::memcpy(&raw[0], &s, kStateBytes);
  }
  return py::bytes(raw);
}

}  // namespace
}  // namespace atelier::inventors::bind

using namespace atelier;
using namespace atelier::inventors;
using namespace atelier::inventors::bind;

void bind_inventors(py::module_& m) {
  m.attr("TOKEN_KINDS") = std::vector<std::string>(kTokenNames, kTokenNames + kTokenKinds);
  m.attr("DISCIPLINES") = std::vector<std::string>(kDisciplineNames, kDisciplineNames + kDisciplines);
  m.attr("STATE_BYTES") = (int)kStateBytes;

  py::class_<Edition, std::shared_ptr<Edition>>(m, "Edition")
      .def(py::init([](py::object d) { return std::make_shared<Edition>(edition_from_dict(as_dict(d, "edition"))); }),
           py::arg("data"))
      .def("to_dict", [](const Edition& e) { return edition_to_dict(e); },
           "The dict this edition was built from (validated, with totals filled in).")
      .def_property_readonly("team_ids", [](const Edition& e) {
        return std::vector<std::string>(e.team_ids, e.team_ids + kTeams);
      })
      .def_property_readonly("card_ids", [](const Edition& e) {
        return std::vector<std::string>(e.card_ids, e.card_ids + kCards);
      })
      .def_property_readonly("card_names", [](const Edition& e) {
        return std::vector<std::string>(e.card_names, e.card_names + kCards);
      })
      .def_property_readonly("token_total", &Edition::token_total);

  // dynamic_attr: atelier.open() records the seed it configured the game with (Game.start()).
  py::class_<Game, GamePtr>(m, "Game", py::dynamic_attr())
      .def(py::init([](py::object ed, py::object players, py::object teams) {
             return make_game(*as_object<Edition>(ed, "edition", "an Edition"), players, teams);
           }),
           py::arg("edition"), py::arg("players"), py::arg("teams"))
      .def_property_readonly("players", &Game::num_players)
      .def_property_readonly("teams", [](const Game& g) {
        std::vector<int> t;
        for (int p = 0; p < g.num_players(); p++) t.push_back(g.team(p));
        return t;
      })
      .def_property_readonly("k", &Game::k)
      .def_property_readonly("edition", [](const Game& g) { return std::make_shared<Edition>(g.edition()); })
      .def("initial_state", [](const GamePtr& g) {
        State s{};
        g->initial_state(s);
        return make_state(g, s);
      })
      .def("start", [](py::object self, py::object seed) {
        // The start position (spec 3.5): Age I revealed from `seed` (default: the seed atelier.open
        // was given), so seat 0 is to move.
        GamePtr g = self.cast<GamePtr>();
        if (seed.is_none()) seed = py::getattr(self, "seed", py::int_(0));
        State s{};
        g->initial_state(s);
        Rng rng(as_seed(seed, "seed"));
        g->sample_reveal(s, rng);
        return make_state(g, s);
      }, py::arg("seed") = py::none())
      // The Game itself: atelier.open() briefly returned a wrapper with .core; code written
      // against it (game.core.initial_state()) keeps working.
      .def_property_readonly("core", [](py::object self) { return self; })
      .def_property_readonly("team_ids", [](const Game& g) {
        std::vector<std::string> t;
        for (int p = 0; p < g.num_players(); p++) t.push_back(g.edition().team_ids[g.team(p)]);
        return t;
      })
      .def("__repr__", [](const Game& g) {
        std::string t;
        for (int p = 0; p < g.num_players(); p++) t += (p ? "," : "") + g.edition().team_ids[g.team(p)];
        return "<inventors Game players=" + std::to_string(g.num_players()) + " teams=" + t + ">";
      })
      // A Game pickles with the attributes atelier.open set (its seed: start()'s default).
      .def(py::pickle(
          [](py::object self) {
            py::tuple t = game_state_tuple(self.cast<const Game&>());
            return py::make_tuple(t[0], t[1], t[2], self.attr("__dict__"));
          },
          [](py::object t) {
            auto v = as_seq(t, "pickle", 4);
            GamePtr g = make_game(edition_from_dict(as_dict(v[0], "pickle.edition")), v[1], v[2]);
            return std::make_pair(g, as_dict(v[3], "pickle.__dict__"));
          }))
      .def("random_games", &random_games, py::arg("n"), py::arg("seed") = 0)
      .def("bench_core", &bench_core, py::arg("n_games"), py::arg("seed") = 0)
      .def("inventor_ids", [](const Game& g, py::object seat_obj) {
        const int seat = (int)as_int(seat_obj, "seat", 0, g.num_players() - 1);
        const auto& ids = g.edition().inventor_ids[g.team(seat)];
        return std::vector<std::string>(ids, ids + kInventorsPerTeam);
      }, py::arg("seat"));

  py::class_<PyState, std::shared_ptr<PyState>>(m, "State")
      .def_property_readonly("game", &game_of)
      .def("clone", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__copy__", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__deepcopy__", [](const PyState& s, py::dict) { return std::make_shared<PyState>(s); })
      .def("__eq__", [](const PyState& a, py::object o) {
        if (!py::isinstance<PyState>(o)) return false;
        const PyState& b = o.cast<const PyState&>();
        return same_config(*a.game, *b.game) && std::memcmp(&a.pos.st, &b.pos.st, kStateBytes) == 0;
      })
      .def("__hash__", [](const PyState& s) { return (py::ssize_t)(s.pos.st.hash >> 1); })
      .def_property_readonly("current_player", [](const PyState& s) { return s.pos.current_player(); })
      .def("is_terminal", [](const PyState& s) { return s.pos.is_terminal(); })
      .def("is_chance", [](const PyState& s) { return s.pos.is_chance(); })
      .def("legal_moves", [](const PyState& s) {
        MoveList ml;
        s.pos.legal_moves(ml);
        return std::vector<int>(ml.moves, ml.moves + ml.size);
      })
      .def("legal_moves_array", [](const PyState& s) {
        MoveList ml;
        s.pos.legal_moves(ml);
        py::array_t<uint16_t> a(ml.size);
        std::memcpy(a.mutable_data(), ml.moves, sizeof(Move) * ml.size);
        return a;
      })
      .def("apply", &apply_obj, py::arg("move"))
      .def("child", [](const PyState& s, py::object move) {
        auto c = std::make_shared<PyState>(s);
        apply_obj(*c, move);
        return c;
      }, py::arg("move"))
      .def("move_to_string", [](const PyState& s, py::object m) {
        return s.game->move_to_string(s.pos.st, checked_move(s, move_number(m)));
      }, py::arg("move"))
      .def("parse_move", [](const PyState& s, py::object text) {
        return (int)parsed_move(s, move_text(text));
      }, py::arg("text"))
      .def("sample_chance", [](PyState& s, py::object seed) {
        const uint64_t v = as_seed(seed, "seed");
        if (!s.pos.is_chance()) fail("sample_chance: not a chance node");
        atelier::Rng rng(v);
        s.pos.sample_chance(rng);
      }, py::arg("seed"))
      .def("apply_reveal", [](PyState& s, py::object text) {
        Reveal r = checked_reveal(s, move_text(text));
        s.game->apply_reveal(s.pos.st, r);
      }, py::arg("text"))
      .def("reveal_probability", [](const PyState& s, py::object text) {
        return s.game->reveal_probability(s.pos.st, checked_reveal(s, move_text(text)));
      }, py::arg("text"))
      .def("scores", [](const PyState& s) {
        int buf[atelier::kMaxPlayers];
        s.pos.scores(buf);
        return std::vector<int>(buf, buf + s.game->num_players());
      })
      .def("score_bounds", [](const PyState& s) {
        int lo[atelier::kMaxPlayers], hi[atelier::kMaxPlayers];
        s.pos.score_bounds(lo, hi);
        const int n = s.game->num_players();
        return py::make_tuple(std::vector<int>(lo, lo + n), std::vector<int>(hi, hi + n));
      }, "(lo, hi) per seat: a final score each seat can keep, and one no continuation exceeds")
      .def("score_detail", [](const PyState& s, py::object seat_obj) {
        const int seat = (int)as_int(seat_obj, "seat", 0, s.game->num_players() - 1);
        ScoreDetail d = s.game->score(s.pos.st, seat);
        py::dict o;
        o["cards"] = d.cards;
        o["vp_tokens"] = d.vp_tokens;
        o["goals"] = d.goals;
        o["suites"] = d.suites;
        o["total"] = d.total;
        o["n_cards"] = d.n_cards;
        return o;
      }, py::arg("seat"))
      .def("returns", [](const PyState& s) {
        double buf[atelier::kMaxPlayers];
        s.pos.returns(buf);
        return std::vector<double>(buf, buf + s.game->num_players());
      })
      .def("winners", [](const PyState& s) { return winner_seats(*s.game, s.pos.st); })
      .def_property_readonly("hash", [](const PyState& s) { return s.pos.st.hash; })
      .def("compute_hash", [](const PyState& s) { return s.game->compute_hash(s.pos.st); })
      .def("search_key", [](const PyState& s) { return s.pos.search_key(); },
           "the exact solver's table key: hash with what its dominance proves irrelevant folded out")
      .def("to_bytes", [](const PyState& s) {
        return py::bytes(reinterpret_cast<const char*>(&s.pos.st), kStateBytes);
      })
      .def_static("from_bytes", [](py::object g, py::object data) {
        return state_from_bytes(as_object<Game>(g, "game", "a Game"), data);
      }, py::arg("game"), py::arg("data"))
      .def_static("_rehashed_bytes", [](py::object g, py::object data) {
        return rehashed_bytes(as_object<Game>(g, "game", "a Game"), data);
      }, py::arg("game"), py::arg("data"),
                  "Testing only: `data` with its hash recomputed when that is all from_bytes would refuse.")
      .def(py::pickle(
          [](const PyState& s) {
            return py::make_tuple(game_state_tuple(*s.game),
                                  py::bytes(reinterpret_cast<const char*>(&s.pos.st), kStateBytes));
          },
          [](py::object o) {
            auto t = as_seq(o, "pickle", 2);
            return state_from_bytes(game_from_tuple(t[0]), t[1]);
          }))
      .def("fields", [](const PyState& s) { return state_fields(*s.game, s.pos.st); })
      .def_static("from_fields", [](py::object game, py::object d) {
        GamePtr g = as_object<Game>(game, "game", "a Game");
        return make_state(g, state_from_fields(*g, as_dict(d, "fields")));
      }, py::arg("game"), py::arg("fields"))
      .def("_capsule", [](PyState& s) {
        return py::capsule(static_cast<void*>(&s.pos), "atelier.inventors.Position");
      });
}
