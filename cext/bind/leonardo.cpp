// atelier._core.leonardo: Game and State over the Leonardo da Vinci rules core. The core trusts
// its inputs, so every move, text and field dict is checked here first; std::invalid_argument
// becomes ValueError (translator registered by the inventors binding).
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <vector>

#include "common.hpp"
#include "leonardo_bind.hpp"

namespace atelier::leonardo::bind {
namespace {

using GamePtr = std::shared_ptr<Game>;
namespace B = atelier::bind;   // the shared converters: every refusal is InputError "field: reason"

// Longer than any move a person would write; refused before the core echoes it into a message.
constexpr size_t kMaxMoveText = 4096;
constexpr long long kMaxRandomGames = 10000000;   // as Inventors': one call, at most this many games

int seat_arg(const PyState& s, py::handle h) { return (int)B::as_int(h, "seat", 0, s.game->num_players() - 1); }

std::vector<std::pair<int, double>> outcomes(const PyState& s) {
  Move m[kCards];
  double p[kCards];
  const int n = s.pos.chance_outcomes(m, p, kCards);
  std::vector<std::pair<int, double>> out;
  for (int i = 0; i < n; ++i) out.emplace_back((int)m[i], p[i]);
  return out;
}

void apply_number(PyState& s, long long m) {
  const std::string w = "move " + std::to_string(m) + ": ";
  if (m < 0 || m > 0xFFFF) fail(w + "not a move number");
  if (s.pos.is_terminal()) fail(w + "the game is over");
  if (s.pos.is_chance()) {
    for (auto& o : outcomes(s))
      if (o.first == m) return s.pos.apply_chance((Move)m);
    fail(w + "not a draw outcome here");
  }
  if (!s.game->is_legal(s.pos.st, (Move)m)) fail(w + "not legal here");
  s.pos.apply((Move)m);
}

int parse(const PyState& s, const std::string& text) {
  Move m;
  const std::string err = s.game->parse_move(s.pos.st, text, m);
  if (!err.empty()) fail(err);
  return m;
}

std::string move_text(py::handle h) { return B::as_text(h, "move", kMaxMoveText); }

// A move number from Python, still to be checked against the position.
long long move_number(py::handle h) {
  py::object i = B::as_pyint(h, "move", "a move number or a notation string");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) fail("move: " + B::quoted(i) + " is not a move number");
  return v;
}

void apply_obj(PyState& s, const py::object& move) {
  if (PyUnicode_Check(move.ptr())) return apply_number(s, parse(s, move_text(move)));
  apply_number(s, move_number(move));
}

std::shared_ptr<PyState> make_state(const GamePtr& g, const State& s) { return std::make_shared<PyState>(g, s); }

// A Game from its seat count, edition document and options (constructor and unpickling).
GamePtr make_game(py::object players, py::object edition, py::object basic, py::object codex) {
  const int n = (int)B::as_int(players, "players", 2, atelier::kMaxPlayers);
  py::dict ed = B::as_dict(edition, "edition");
  Options o;
  o.basic = B::as_bool(basic, "basic");
  o.codex = B::as_bool(codex, "codex");
  auto g = std::make_shared<BoundGame>(edition_from_dict(ed), n, o);
  g->edition_json = py::module_::import("json").attr("dumps")(ed, py::arg("sort_keys") = true).cast<std::string>();
  return std::static_pointer_cast<Game>(g);
}

// A State from packed bytes (from_bytes, unpickling): validated like any bytes from outside.
std::shared_ptr<PyState> state_from_bytes(py::handle game, py::handle data) {
  GamePtr g = B::as_object<Game>(game, "game", "a leonardo Game");
  const std::string raw = B::as_bytes(data, "data", sizeof(State));
  State s{};
  std::memcpy(&s, raw.data(), sizeof(State));
  const std::string err = g->validate(s);
  if (!err.empty()) fail(err);
  // The packing must be what its own fields describe, rebuilt over a start state: a leftover
  // byte, an unused bit or a state no move sequence settles into would not survive the
  // position round trip, so it is refused here as the loader refuses it.
  State base{};
  Rng rng(0);
  g->initial_state(base, rng);
  const State t = state_with_fields(*g, base, state_fields(*g, s), false);
  const auto* a = reinterpret_cast<const uint8_t*>(&s);
  const auto* b = reinterpret_cast<const uint8_t*>(&t);
  for (size_t i = 0; i < sizeof(State); ++i)
    if (a[i] != b[i])
      fail("bytes: byte " + std::to_string(i) + " of the packing is not what its fields say (" + std::to_string(a[i]) +
           ", the fields give " + std::to_string(b[i]) + "): not a state the position format can write");
  return make_state(g, s);
}

// Testing only (the packed-bytes fuzz): `data` with its hash and public key recomputed, so
// that mutations reach the rest of the validation.
py::bytes rehashed_bytes(py::handle game, py::handle data) {
  GamePtr g = B::as_object<Game>(game, "game", "a leonardo Game");
  const std::string raw = B::as_bytes(data, "data", sizeof(State));
  State s{};
  std::memcpy(&s, raw.data(), sizeof(State));
  // validate checks the keys last, after everything compute_hash reads: only then is it safe.
  const std::string err = g->validate(s);
  if (err.rfind("hash:", 0) == 0 || err.rfind("pub:", 0) == 0) g->rekey(s);
  return py::bytes(reinterpret_cast<const char*>(&s), sizeof(State));
}

// Two games are the same configuration when they would play identically: a position read back
// from its JSON makes a new Game, and its states must equal the originals.
bool same_config(const Game& a, const Game& b) {
  if (&a == &b) return true;
  return a.num_players() == b.num_players() && a.options().basic == b.options().basic &&
         a.options().codex == b.options().codex &&
         static_cast<const BoundGame&>(a).edition_json == static_cast<const BoundGame&>(b).edition_json;
}

}  // namespace
}  // namespace atelier::leonardo::bind

using namespace atelier;
using namespace atelier::leonardo;
using namespace atelier::leonardo::bind;

void bind_leonardo(py::module_& m) {
  m.attr("STATE_BYTES") = (int)sizeof(State);
  m.def("check_edition", [](const py::dict& d) {
    Edition ed = edition_from_dict(d);
    return ed.warnings();
  }, py::arg("data"), "Run the §1.9 checks: raises ValueError('edition: ...'), returns the warnings.");

  py::class_<Game, GamePtr>(m, "Game", py::dynamic_attr())
      .def(py::init(&make_game), py::arg("players"), py::arg("edition"), py::arg("basic") = false,
           py::arg("codex") = false)
      // Pickling (multiprocessing, caches): the configuration and the attributes atelier.open set.
      .def(py::pickle(
          [](py::object self) {
            const Game& g = self.cast<const Game&>();
            py::object ed = py::module_::import("json").attr("loads")(static_cast<const BoundGame&>(g).edition_json);
            return py::make_tuple(g.num_players(), ed, g.options().basic, g.options().codex, self.attr("__dict__"));
          },
          [](py::object t) {
            auto v = B::as_seq(t, "pickle", 5);
            return std::make_pair(make_game(v[0], v[1], v[2], v[3]), B::as_dict(v[4], "pickle.__dict__"));
          }))
      .def_property_readonly("players", &Game::num_players)
      .def_property_readonly("basic", [](const Game& g) { return g.options().basic; })
      .def_property_readonly("codex", [](const Game& g) { return g.options().codex; })
      .def_property_readonly("row_size", &Game::row_size)
      .def_property_readonly("edition_json", [](const Game& g) {
        return static_cast<const BoundGame&>(g).edition_json;   // only BoundGames reach Python
      }, "The edition document this game was configured with (JSON, sorted keys).")
      .def_property_readonly("kinds", [](const Game& g) {
        return std::vector<std::string>(g.edition().kind_names, g.edition().kind_names + kKinds);
      })
      .def("card", [](const Game& g, py::object number_obj) {
        const int number = (int)B::as_int(number_obj, "card", 1, kCards);
        const CardData& c = g.card(number - 1);
        py::dict d;
        d["tier"] = g.edition().tier_names[c.tier];
        d["weeks"] = (int)c.weeks;
        d["type"] = g.edition().type_ids[c.type];
        d["reward_first"] = (int)c.reward_first;
        d["reward_later"] = (int)c.reward_later;
        d["materials"] = std::vector<int>(c.mats, c.mats + kKinds);
        return d;
      }, py::arg("number"))
      .def("start", [](py::object self, py::object seed) {
        // Default: the seed atelier.open was given (as for Inventors), so open(...).start() is
        // the game the user asked for.
        GamePtr g = self.cast<GamePtr>();
        if (seed.is_none()) seed = py::getattr(self, "seed", py::int_(0));
        State s{};
        Rng rng(B::as_seed(seed, "seed"));
        g->initial_state(s, rng);
        return make_state(g, s);
      }, py::arg("seed") = py::none(), "Setup (§2) with the deck built from `seed`: the first decision.")
      .def("random_games", [](const GamePtr& g, py::object n, py::object seed) {
        return random_games(g, (long)B::as_int(n, "n", 0, kMaxRandomGames), B::as_seed(seed, "seed"));
      }, py::arg("n"), py::arg("seed") = 0)
      .def("bench_core", [](const GamePtr& g, py::object n, py::object seed) {
        return bench_core(g, (long)B::as_int(n, "n_games", 1, kMaxRandomGames), B::as_seed(seed, "seed"));
      }, py::arg("n_games"), py::arg("seed") = 0)
      .def("check_games", [](const GamePtr& g, py::object n, py::object seed, py::object every) {
        return check_games(g, (long)B::as_int(n, "n", 0, kMaxRandomGames), B::as_seed(seed, "seed"),
                           (int)B::as_int(every, "determinize_every", 0, 1 << 30));
      }, py::arg("n"), py::arg("seed") = 0, py::arg("determinize_every") = 20,
           "Random games with the invariants checked at every state (tests): counts and the first error.")
      .def("__repr__", [](const Game& g) {
        return "<leonardo Game players=" + std::to_string(g.num_players()) + (g.options().basic ? " basic" : " expert") +
               (g.options().codex ? " codex" : "") + ">";
      });

  py::class_<PyState, std::shared_ptr<PyState>>(m, "State")
      .def_property_readonly("game", [](const PyState& s) { return std::const_pointer_cast<Game>(s.game); })
      .def("clone", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__copy__", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__deepcopy__", [](const PyState& s, py::dict) { return std::make_shared<PyState>(s); })
      .def("__eq__", [](const PyState& a, py::object o) {
        if (!py::isinstance<PyState>(o)) return false;
        const PyState& b = o.cast<const PyState&>();
        return same_config(*a.game, *b.game) && std::memcmp(&a.pos.st, &b.pos.st, sizeof(State)) == 0;
      })
      // Pickling: the Game (its own pickle), the packed state (validated again on load) and the
      // viewpoint seat, so a viewpoint stays one.
      .def(py::pickle(
          [](const PyState& s) {
            return py::make_tuple(py::cast(std::const_pointer_cast<Game>(s.game)),
                                  py::bytes(reinterpret_cast<const char*>(&s.pos.st), sizeof(State)), s.viewpoint);
          },
          [](py::object t) {
            auto v = B::as_seq(t, "pickle", 3);
            auto out = state_from_bytes(v[0], v[1]);
            out->viewpoint = (int)B::as_int(v[2], "pickle.viewpoint", -1, out->game->num_players() - 1);
            return out;
          }))
      .def("__hash__", [](const PyState& s) { return (py::ssize_t)(s.pos.st.hash >> 1); })
      .def_property("viewpoint", [](const PyState& s) -> py::object {
        return s.viewpoint < 0 ? py::object(py::none()) : py::object(py::int_(s.viewpoint));
      }, [](PyState& s, py::object v) {
        if (v.is_none()) { s.viewpoint = -1; return; }
        s.viewpoint = (int)B::as_int(v, "viewpoint", 0, s.game->num_players() - 1);
      }, "The seat whose viewpoint this state stands for (its hidden parts are a placeholder "
         "sample), or None for a full position.")
      .def_property_readonly("current_player", [](const PyState& s) { return s.pos.current_player(); })
      .def("is_terminal", [](const PyState& s) { return s.pos.is_terminal(); })
      .def("is_chance", [](const PyState& s) { return s.pos.is_chance(); })
      .def("legal_moves", [](const PyState& s) {
        MoveList ml;
        s.pos.legal_moves(ml);
        return std::vector<int>(ml.moves, ml.moves + ml.size);
      })
      .def("legal_move_strings", [](const PyState& s) {
        MoveList ml;
        s.pos.legal_moves(ml);
        std::vector<std::string> out;
        for (int i = 0; i < ml.size; ++i) out.push_back(s.game->move_to_string(s.pos.st, ml[i]));
        return out;
      })
      .def("chance_outcomes", &outcomes, "At a draw: [(move, probability)], exact.")
      .def("apply", &apply_obj, py::arg("move"))
      .def("child", [](const PyState& s, py::object move) {
        auto c = std::make_shared<PyState>(s);
        apply_obj(*c, move);
        return c;
      }, py::arg("move"))
      .def("move_to_string", [](const PyState& s, py::object move) {
        const long long m = move_number(move);
        if (m < 0 || m > 0xFFFF) fail("move " + std::to_string(m) + ": not a move number");
        bool ok = false;
        if (s.pos.is_chance()) {
          for (auto& o : outcomes(s)) ok |= o.first == m;
        } else {
          ok = !s.pos.is_terminal() && s.game->is_legal(s.pos.st, (Move)m);
        }
        if (!ok) fail("move " + std::to_string(m) + ": not legal here");
        return s.game->move_to_string(s.pos.st, (Move)m);
      }, py::arg("move"))
      .def("parse_move", [](const PyState& s, py::object text) { return parse(s, move_text(text)); }, py::arg("text"))
      .def("sample_chance", [](PyState& s, py::object seed) {
        Rng rng(B::as_seed(seed, "seed"));
        if (!s.pos.is_chance()) fail("sample_chance: not a chance node");
        s.pos.sample_chance(rng);
      }, py::arg("seed"))
      .def("greedy_move", [](const PyState& s, py::object seed) {
        Rng rng(B::as_seed(seed, "seed"));
        if (s.pos.is_chance() || s.pos.is_terminal()) fail("greedy_move: not a decision");
        return (int)s.pos.greedy_move(rng);
      }, py::arg("seed") = 0)
      .def("scores", [](const PyState& s) {
        int buf[atelier::kMaxPlayers];
        s.pos.scores(buf);
        return std::vector<int>(buf, buf + s.game->num_players());
      })
      .def("score_detail", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        const ScoreDetail d = s.game->score(s.pos.st, seat);   // §7
        py::dict o;
        o["money"] = d.money;
        o["types"] = d.types;
        o["type_bonus"] = d.bonus;
        o["total"] = d.total;
        o["n_cards"] = d.n_cards;
        o["by_tier"] = std::vector<int>(d.by_tier, d.by_tier + kTiers);   // tie-break order of §7
        return o;
      }, py::arg("seat"))
      .def("returns", [](const PyState& s) {
        double buf[atelier::kMaxPlayers];
        s.pos.returns(buf);
        return std::vector<double>(buf, buf + s.game->num_players());
      })
      .def("winners", [](const PyState& s) {
        std::vector<int> out;
        const uint8_t w = s.game->winners(s.pos.st);
        for (int p = 0; p < s.game->num_players(); ++p)
          if ((w >> p) & 1) out.push_back(p);
        return out;
      })
      .def_property_readonly("hash", [](const PyState& s) { return s.pos.st.hash; })
      .def("compute_hash", [](const PyState& s) { return s.game->compute_hash(s.pos.st); })
      .def("compute_public", [](const PyState& s) { return s.game->compute_public(s.pos.st); })
      .def("infoset_key", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        return s.pos.infoset_key(seat);
      }, py::arg("seat"))
      .def("validate", [](const PyState& s) { return s.game->validate(s.pos.st); })
      .def("determinize", [](PyState& s, py::object seat_obj, py::object seed) {
        const int seat = seat_arg(s, seat_obj);
        Rng rng(B::as_seed(seed, "seed"));
        if (!s.game->determinize(s.pos.st, seat, rng))
          fail("determinize: no sample of what seat " + std::to_string(seat) + " cannot see fits the "
               "public records (hidden labs, deck history) and what the seat itself saw");
      }, py::arg("seat"), py::arg("seed"), "Resample what `seat` cannot see (spec §3.5), in place.")
      .def("draw_probabilities", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        double p[kCards];
        if (!s.game->draw_probabilities(s.pos.st, seat, p)) fail("draw_probabilities: no deck fits the records");
        py::dict out;
        for (int c = 0; c < kCards; ++c)
          if (p[c] > 0) out[py::int_(c + 1)] = p[c];
        return out;
      }, py::arg("seat"), "Spec §6.2: {card: P(next card)} as `seat` sees the deck.")
      .def("belief_chance_outcomes", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        py::list out;
        if (!s.pos.is_chance()) return out;
        double p[kCards];
        if (!s.game->draw_probabilities(s.pos.st, seat, p)) fail("draw_probabilities: no deck fits the records");
        for (int c = 0; c < kCards; ++c) {
          const Move m = mk(M_DRAW, (unsigned)c);
          if (p[c] > 0) out.append(py::make_tuple((int)m, p[c], s.game->move_to_string(s.pos.st, m)));
        }
        return out;
      }, py::arg("seat"), "At a draw: [(move, probability, text)] as `seat` believes (§6.2), whatever the "
                          "hidden parts of this state are.")
      .def("deck_hypotheses", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        return s.game->deck_hypotheses(s.pos.st, seat);
      }, py::arg("seat"), "Number of §3.5.1 deck hypotheses from seat's view (-1: over capacity).")
      .def("to_bytes", [](const PyState& s) {
        return py::bytes(reinterpret_cast<const char*>(&s.pos.st), sizeof(State));
      })
      .def_static("from_bytes", &state_from_bytes, py::arg("game"), py::arg("data"))
      .def_static("_rehashed_bytes", &rehashed_bytes, py::arg("game"), py::arg("data"),
                  "Testing only: `data` with its hash and public key recomputed.")
      .def("fields", [](const PyState& s) { return state_fields(*s.game, s.pos.st); })
      .def("with_fields", [](const PyState& s, py::object d, py::object placeholder) {
        auto out = make_state(std::const_pointer_cast<Game>(s.game),
                              state_with_fields(*s.game, s.pos.st, B::as_dict(d, "fields"),
                                                B::as_bool(placeholder, "placeholder")));
        out->viewpoint = s.viewpoint;
        return out;
      }, py::arg("fields"), py::arg("placeholder") = false,
         "A copy with these fields replaced (validated; keys recomputed; forced moves played). "
         "placeholder=True: the hidden parts are a placeholder to resample next (a viewpoint being "
         "loaded): the records only true hidden parts fit are not checked and nothing is played.")
      .def("_capsule", [](PyState& s) {
        return py::capsule(static_cast<void*>(&s.pos), "atelier.leonardo.Position");
      });
}
