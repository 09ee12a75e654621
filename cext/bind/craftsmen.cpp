// atelier._core.craftsmen: Game and State over the C++ Craftsmen rules core. The core trusts its
// inputs, so every move, text and byte string is checked here first; std::invalid_argument
// becomes ValueError.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "common.hpp"
#include "craftsmen_bind.hpp"

namespace atelier::craftsmen::bind {
namespace {

using GamePtr = std::shared_ptr<Game>;
namespace B = atelier::bind;   // the shared converters: every refusal is InputError "field: reason"

// Longer than any move a person would write; refused before the core echoes it into a message.
constexpr size_t kMaxMoveText = 4096;
constexpr long long kMaxRandomGames = 10000000;   // as Inventors': one call, at most this many games

int seat_arg(const PyState& s, py::handle h) { return (int)B::as_int(h, "seat", 0, s.game->num_players() - 1); }
std::string move_text(py::handle h) { return B::as_text(h, "move", kMaxMoveText); }

// A move number from Python, still to be checked against the position.
long long move_number(py::handle h) {
  py::object i = B::as_pyint(h, "move", "a move number or a notation string");
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) fail("move: " + B::quoted(i) + " is not a move number");
  return v;
}

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
    apply_move(s, parsed(s, move_text(move)));
    return;
  }
  apply_move(s, checked_move(s, move_number(move)));
}

// A State from packed bytes (from_bytes, unpickling): validated like any bytes from outside.
std::shared_ptr<PyState> state_from_bytes(py::handle game, py::handle data) {
  GamePtr g = B::as_object<Game>(game, "game", "a craftsmen Game");
  const std::string raw = B::as_bytes(data, "data", sizeof(State));
  State s{};
  std::memcpy(&s, raw.data(), sizeof(State));
  const std::string err = g->validate(s);
  if (!err.empty()) fail(err);
  check_round_trip(*g, s);
  return std::make_shared<PyState>(g, s);
}

// The edition document of each live Game (positions write it when it is not the bundled one;
// two games are the same game with the same edition, players and age ranks). Kept beside the
// core's Game, which holds only the parsed tables, and dropped with it.
std::mutex editions_mutex;
std::map<const Game*, std::string> editions;

void remember_edition(const Game* g, std::string json) {
  std::lock_guard<std::mutex> lock(editions_mutex);
  editions[g] = std::move(json);
}
void forget_edition(Game* g) {
  {
    std::lock_guard<std::mutex> lock(editions_mutex);
    editions.erase(g);
  }
  delete g;
}
std::string edition_json(const Game* g) {
  std::lock_guard<std::mutex> lock(editions_mutex);
  auto it = editions.find(g);
  return it == editions.end() ? std::string() : it->second;
}
// A Game from its seat count, edition document and age ranks (constructor and unpickling).
GamePtr make_game(py::object players, py::object edition, py::object age_rank) {
  const int n = (int)B::as_int(players, "players", 2, atelier::kMaxPlayers);
  py::dict ed = B::as_dict(edition, "edition");
  uint8_t ar[atelier::kMaxPlayers] = {0, 1, 2, 3, 4};
  if (!age_rank.is_none()) {
    auto v = B::as_seq(age_rank, "age_rank", n);
    int seen = 0;
    for (int p = 0; p < n; ++p) {
      ar[p] = (uint8_t)B::as_int(v[p], B::at("age_rank", p), 0, n - 1);
      if (seen & (1 << ar[p])) fail("age_rank: must be a permutation of 0..players-1");
      seen |= 1 << ar[p];
    }
  }
  auto g = std::shared_ptr<Game>(new Game(edition_from_dict(ed), n, ar), forget_edition);
  remember_edition(g.get(), py::module_::import("json").attr("dumps")(ed, py::arg("sort_keys") = true).cast<std::string>());
  return g;
}

bool same_game(const Game& a, const Game& b) {
  if (&a == &b) return true;
  if (a.num_players() != b.num_players()) return false;
  for (int p = 0; p < a.num_players(); ++p)
    if (a.age_rank(p) != b.age_rank(p)) return false;
  return edition_json(&a) == edition_json(&b);
}

}  // namespace
}  // namespace atelier::craftsmen::bind

using namespace atelier;
using namespace atelier::craftsmen;
using namespace atelier::craftsmen::bind;

void bind_craftsmen(py::module_& m) {
  m.attr("STATE_BYTES") = (int)sizeof(State);
  m.attr("MAX_MOVES") = atelier::kMaxMoves;
  // Byte layout of State (tests edit packed bytes and reload them through from_bytes, which
  // validates them): field -> (offset, size in bytes).
  {
    py::dict layout, seat;
    layout["bloc"] = py::make_tuple((int)offsetof(State, bloc), (int)sizeof(State::bloc));
    layout["bpos"] = py::make_tuple((int)offsetof(State, bpos), (int)sizeof(State::bpos));
    layout["bfill"] = py::make_tuple((int)offsetof(State, bfill), (int)sizeof(State::bfill));
    layout["money"] = py::make_tuple((int)offsetof(State, money), (int)sizeof(State::money));
    layout["deck_top"] = py::make_tuple((int)offsetof(State, deck_top), (int)sizeof(State::deck_top));
    layout["deck_bottom"] = py::make_tuple((int)offsetof(State, deck_bottom), (int)sizeof(State::deck_bottom));
    layout["seat"] = py::make_tuple((int)offsetof(State, seat), (int)sizeof(State::seat));
    layout["guild"] = py::make_tuple((int)offsetof(State, guild), (int)sizeof(State::guild));
    layout["order_track"] = py::make_tuple((int)offsetof(State, order_track), (int)sizeof(State::order_track));
    layout["warehouse"] = py::make_tuple((int)offsetof(State, warehouse), (int)sizeof(State::warehouse));
    layout["ship"] = py::make_tuple((int)offsetof(State, ship), (int)sizeof(State::ship));
    layout["neutral_supply"] = py::make_tuple((int)offsetof(State, neutral_supply), (int)sizeof(State::neutral_supply));
    layout["bank_priv"] = py::make_tuple((int)offsetof(State, bank_priv), (int)sizeof(State::bank_priv));
    layout["bank_work"] = py::make_tuple((int)offsetof(State, bank_work), (int)sizeof(State::bank_work));
    layout["bonus_unclaimed"] = py::make_tuple((int)offsetof(State, bonus_unclaimed), (int)sizeof(State::bonus_unclaimed));
    layout["turn_order"] = py::make_tuple((int)offsetof(State, turn_order), (int)sizeof(State::turn_order));
    layout["year"] = py::make_tuple((int)offsetof(State, year), (int)sizeof(State::year));
    layout["season"] = py::make_tuple((int)offsetof(State, season), (int)sizeof(State::season));
    layout["phase"] = py::make_tuple((int)offsetof(State, phase), (int)sizeof(State::phase));
    layout["flow"] = py::make_tuple((int)offsetof(State, flow), (int)sizeof(State::flow));
    layout["actor"] = py::make_tuple((int)offsetof(State, actor), (int)sizeof(State::actor));
    layout["idx"] = py::make_tuple((int)offsetof(State, idx), (int)sizeof(State::idx));
    layout["stage"] = py::make_tuple((int)offsetof(State, stage), (int)sizeof(State::stage));
    layout["last_end"] = py::make_tuple((int)offsetof(State, last_end), (int)sizeof(State::last_end));
    layout["h_seat"] = py::make_tuple((int)offsetof(State, h_seat), (int)sizeof(State::h_seat));
    layout["h_space"] = py::make_tuple((int)offsetof(State, h_space), (int)sizeof(State::h_space));
    layout["h_layer"] = py::make_tuple((int)offsetof(State, h_layer), (int)sizeof(State::h_layer));
    layout["priv_mode"] = py::make_tuple((int)offsetof(State, priv_mode), (int)sizeof(State::priv_mode));
    layout["priv_used"] = py::make_tuple((int)offsetof(State, priv_used), (int)sizeof(State::priv_used));
    layout["win_kind"] = py::make_tuple((int)offsetof(State, win_kind), (int)sizeof(State::win_kind));
    layout["wp"] = py::make_tuple((int)offsetof(State, wp), (int)sizeof(State::wp));
    layout["token_wp"] = py::make_tuple((int)offsetof(State, token_wp), (int)sizeof(State::token_wp));
    layout["produce2_used"] = py::make_tuple((int)offsetof(State, produce2_used), (int)sizeof(State::produce2_used));
    layout["wp_return"] = py::make_tuple((int)offsetof(State, wp_return), (int)sizeof(State::wp_return));
    layout["raws_left"] = py::make_tuple((int)offsetof(State, raws_left), (int)sizeof(State::raws_left));
    layout["raw_product"] = py::make_tuple((int)offsetof(State, raw_product), (int)sizeof(State::raw_product));
    layout["raw_card"] = py::make_tuple((int)offsetof(State, raw_card), (int)sizeof(State::raw_card));
    layout["good"] = py::make_tuple((int)offsetof(State, good), (int)sizeof(State::good));
    layout["good_card"] = py::make_tuple((int)offsetof(State, good_card), (int)sizeof(State::good_card));
    layout["banker_taken"] = py::make_tuple((int)offsetof(State, banker_taken), (int)sizeof(State::banker_taken));
    layout["build_count"] = py::make_tuple((int)offsetof(State, build_count), (int)sizeof(State::build_count));
    layout["build_cost"] = py::make_tuple((int)offsetof(State, build_cost), (int)sizeof(State::build_cost));
    layout["builds"] = py::make_tuple((int)offsetof(State, builds), (int)sizeof(State::builds));
    layout["notary_done"] = py::make_tuple((int)offsetof(State, notary_done), (int)sizeof(State::notary_done));
    layout["looked"] = py::make_tuple((int)offsetof(State, looked), (int)sizeof(State::looked));
    layout["look_tier"] = py::make_tuple((int)offsetof(State, look_tier), (int)sizeof(State::look_tier));
    layout["returns_left"] = py::make_tuple((int)offsetof(State, returns_left), (int)sizeof(State::returns_left));
    layout["pay_amount"] = py::make_tuple((int)offsetof(State, pay_amount), (int)sizeof(State::pay_amount));
    layout["pay_colours"] = py::make_tuple((int)offsetof(State, pay_colours), (int)sizeof(State::pay_colours));
    layout["pay_seat"] = py::make_tuple((int)offsetof(State, pay_seat), (int)sizeof(State::pay_seat));
    layout["pay_after"] = py::make_tuple((int)offsetof(State, pay_after), (int)sizeof(State::pay_after));
    layout["pay_card"] = py::make_tuple((int)offsetof(State, pay_card), (int)sizeof(State::pay_card));
    layout["auc_card"] = py::make_tuple((int)offsetof(State, auc_card), (int)sizeof(State::auc_card));
    layout["auc_high"] = py::make_tuple((int)offsetof(State, auc_high), (int)sizeof(State::auc_high));
    layout["auc_bidder"] = py::make_tuple((int)offsetof(State, auc_bidder), (int)sizeof(State::auc_bidder));
    layout["auc_open"] = py::make_tuple((int)offsetof(State, auc_open), (int)sizeof(State::auc_open));
    layout["auc_raised"] = py::make_tuple((int)offsetof(State, auc_raised), (int)sizeof(State::auc_raised));
    layout["auc_dropped"] = py::make_tuple((int)offsetof(State, auc_dropped), (int)sizeof(State::auc_dropped));
    layout["auc_init"] = py::make_tuple((int)offsetof(State, auc_init), (int)sizeof(State::auc_init));
    layout["auc_max"] = py::make_tuple((int)offsetof(State, auc_max), (int)sizeof(State::auc_max));
    layout["comp_seat"] = py::make_tuple((int)offsetof(State, comp_seat), (int)sizeof(State::comp_seat));
    layout["disc_seat"] = py::make_tuple((int)offsetof(State, disc_seat), (int)sizeof(State::disc_seat));
    layout["disc_left"] = py::make_tuple((int)offsetof(State, disc_left), (int)sizeof(State::disc_left));
    layout["disc_after"] = py::make_tuple((int)offsetof(State, disc_after), (int)sizeof(State::disc_after));
    layout["ch_src"] = py::make_tuple((int)offsetof(State, ch_src), (int)sizeof(State::ch_src));
    layout["ch_dst"] = py::make_tuple((int)offsetof(State, ch_dst), (int)sizeof(State::ch_dst));
    layout["ch_seat"] = py::make_tuple((int)offsetof(State, ch_seat), (int)sizeof(State::ch_seat));
    layout["ch_left"] = py::make_tuple((int)offsetof(State, ch_left), (int)sizeof(State::ch_left));
    layout["ch_after"] = py::make_tuple((int)offsetof(State, ch_after), (int)sizeof(State::ch_after));
    layout["stack_space"] = py::make_tuple((int)offsetof(State, stack_space), (int)sizeof(State::stack_space));
    layout["stack_pay"] = py::make_tuple((int)offsetof(State, stack_pay), (int)sizeof(State::stack_pay));
    layout["stack_guild"] = py::make_tuple((int)offsetof(State, stack_guild), (int)sizeof(State::stack_guild));
    layout["lim_seat"] = py::make_tuple((int)offsetof(State, lim_seat), (int)sizeof(State::lim_seat));
    layout["lim_saved"] = py::make_tuple((int)offsetof(State, lim_saved), (int)sizeof(State::lim_saved));
    layout["lim_actor"] = py::make_tuple((int)offsetof(State, lim_actor), (int)sizeof(State::lim_actor));
    layout["mknown"] = py::make_tuple((int)offsetof(State, mknown), (int)sizeof(State::mknown));
    layout["bknow"] = py::make_tuple((int)offsetof(State, bknow), (int)sizeof(State::bknow));
    seat["ap"] = py::make_tuple((int)offsetof(Seat, ap), (int)sizeof(Seat::ap));
    seat["home"] = py::make_tuple((int)offsetof(Seat, home), (int)sizeof(Seat::home));
    seat["passed"] = py::make_tuple((int)offsetof(Seat, passed), (int)sizeof(Seat::passed));
    seat["market"] = py::make_tuple((int)offsetof(Seat, market), (int)sizeof(Seat::market));
    seat["priv"] = py::make_tuple((int)offsetof(Seat, priv), (int)sizeof(Seat::priv));
    seat["work"] = py::make_tuple((int)offsetof(Seat, work), (int)sizeof(Seat::work));
    seat["supply"] = py::make_tuple((int)offsetof(Seat, supply), (int)sizeof(Seat::supply));
    seat["bonus"] = py::make_tuple((int)offsetof(Seat, bonus), (int)sizeof(Seat::bonus));
    seat["contributed"] = py::make_tuple((int)offsetof(Seat, contributed), (int)sizeof(Seat::contributed));
    seat["row_lo"] = py::make_tuple((int)offsetof(Seat, row_lo), (int)sizeof(Seat::row_lo));
    seat["row_hi"] = py::make_tuple((int)offsetof(Seat, row_hi), (int)sizeof(Seat::row_hi));
    seat["mulliganed"] = py::make_tuple((int)offsetof(Seat, mulliganed), (int)sizeof(Seat::mulliganed));
    layout["seat_size"] = (int)sizeof(Seat);
    m.attr("LAYOUT") = layout;
    m.attr("SEAT_LAYOUT") = seat;
  }

  py::class_<Game, GamePtr>(m, "Game", py::dynamic_attr())
      .def(py::init(&make_game), py::arg("players"), py::arg("edition"), py::arg("age_rank") = py::none())
      // Pickling (multiprocessing, caches): the configuration and the attributes atelier.open set.
      .def(py::pickle(
          [](py::object self) {
            const Game& g = self.cast<const Game&>();
            std::vector<int> ar;
            for (int p = 0; p < g.num_players(); ++p) ar.push_back(g.age_rank(p));
            py::object ed = py::module_::import("json").attr("loads")(edition_json(&g));
            return py::make_tuple(g.num_players(), ed, ar, self.attr("__dict__"));
          },
          [](py::object t) {
            auto v = B::as_seq(t, "pickle", 4);
            return std::make_pair(make_game(v[0], v[1], v[2]), B::as_dict(v[3], "pickle.__dict__"));
          }))
      .def_property_readonly("players", &Game::num_players)
      .def_property_readonly("edition_json", [](const Game& g) { return edition_json(&g); },
                             "The edition document the game was configured with (JSON, sorted keys).")
      .def("__eq__", [](const Game& a, py::object o) { return py::isinstance<Game>(o) && same_game(a, o.cast<const Game&>()); })
      .def("__hash__", [](const Game& g) { return (py::ssize_t)std::hash<std::string>()(edition_json(&g)) ^ g.num_players(); })
      .def_property_readonly("age_rank", [](const Game& g) {
        std::vector<int> v;
        for (int p = 0; p < g.num_players(); ++p) v.push_back(g.age_rank(p));
        return v;
      })
      .def_property_readonly("building_pools", [](const Game& g) {
        // Per building (building_ids order) the pool an unseen card of it belongs to (spec 6.2).
        std::vector<std::string> out;
        for (int b = 0; b < kBuildings; ++b) {
          const BuildingData& d = g.edition().b[b];
          out.push_back(d.tier == MILL ? "lumber_mill" : d.tier == BASIC ? "basic"
                        : std::string(kTierNames[d.tier]) + (d.house ? "-house" : "-plain"));
        }
        return out;
      }, "Per building, its pool: basic, extended-house/-plain, advanced-house/-plain (lumber_mill: never hidden).")
      .def_property_readonly("building_ids", [](const Game& g) {
        return std::vector<std::string>(g.edition().building_ids, g.edition().building_ids + kBuildings);
      })
      .def("start", [](py::object self, py::object seed) {
        // Default: the seed atelier.open was given (as for the other rulesets), so
        // open(...).start() is the game the user asked for.
        GamePtr g = self.cast<GamePtr>();
        if (seed.is_none()) seed = py::getattr(self, "seed", py::int_(0));
        State s{};
        Rng rng(atelier::bind::as_seed(seed, "seed"));
        g->initial_state(s, rng);
        return std::make_shared<PyState>(g, s);
      }, py::arg("seed") = py::none(), "The position after setup (Craftsmen spec 4.2, sampled from seed, default the game's): the first mulligan.")
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
           "Random games with the invariants checked at every state (craftsmen_check.cpp): a dict of counts, "
           "error '' when all held.")
      .def("__repr__", [](const Game& g) { return "<craftsmen Game players=" + std::to_string(g.num_players()) + ">"; });

  py::class_<PyState, std::shared_ptr<PyState>>(m, "State")
      .def_property_readonly("game", [](const PyState& s) { return std::const_pointer_cast<Game>(s.game); })
      .def_property("viewpoint", [](const PyState& s) -> py::object {
        return s.viewpoint < 0 ? py::object(py::none()) : py::object(py::int_(s.viewpoint));
      }, [](PyState& s, py::object v) {
        if (v.is_none()) { s.viewpoint = -1; return; }
        s.viewpoint = (int)B::as_int(v, "viewpoint", 0, s.game->num_players() - 1);
      }, "The seat whose viewpoint this state stands for (its hidden parts are a placeholder "
         "deal), or None for a full position.")
      .def("clone", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__copy__", [](const PyState& s) { return std::make_shared<PyState>(s); })
      .def("__deepcopy__", [](const PyState& s, py::dict) { return std::make_shared<PyState>(s); })
      .def("__eq__", [](const PyState& a, py::object o) {
        if (!py::isinstance<PyState>(o)) return false;
        const PyState& b = o.cast<const PyState&>();
        return same_game(*a.game, *b.game) && std::memcmp(&a.pos.st, &b.pos.st, sizeof(State)) == 0;
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
      .def("move_to_string", [](const PyState& s, py::object m) {
        const Move mv = checked_move(s, move_number(m));
        return s.pos.is_chance() ? s.game->outcome_to_string(mv) : s.game->move_to_string(s.pos.st, mv);
      }, py::arg("move"))
      .def("parse_move", [](const PyState& s, py::object text) { return (int)parsed(s, move_text(text)); }, py::arg("text"))
      .def("sample_chance", [](PyState& s, py::object seed) {
        Rng rng(B::as_seed(seed, "seed"));
        if (!s.pos.is_chance()) fail("sample_chance: not a chance node");
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
      .def("score_detail", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        // The score is the AP track (bonus tokens are added to it at the end of year 3, spec 14);
        // the ranking's tie-breaks follow it: money cards in hand, then the later seat in the
        // final turn order (A19).
        const State& st = s.pos.st;
        const Edition& e = s.game->edition();
        py::dict d;
        d["ap"] = (int)st.seat[seat].ap;
        std::vector<std::string> bonus;
        int bonus_ap = 0;
        for (int f = 0; f < kFinal; ++f)
          if (st.seat[seat].bonus & (1u << f)) bonus.push_back(e.product_names[kRaw + kSemi + f]), bonus_ap += e.bonus_ap[f];
        d["bonus_tokens"] = bonus;
        d["bonus_token_ap"] = bonus_ap;  // counted in ap once year 3 has ended
        d["money_cards"] = s.game->hand_size(st, seat);
        int pos = 0;
        for (int i = 0; i < s.game->num_players(); ++i)
          if (st.turn_order[i] == seat) pos = i;
        d["turn_position"] = pos;
        d["total"] = (int)st.seat[seat].ap;
        return d;
      }, py::arg("seat"), "The score of `seat` and its tie-breaks (spec 14).")
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
      .def("infoset_key", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        return s.pos.infoset_key(seat);
      }, py::arg("seat"), "A key of what `seat` knows (Craftsmen spec 6.2).")
      .def("determinize", [](PyState& s, py::object seat_obj, py::object seed) {
        const int seat = seat_arg(s, seat_obj);
        Rng rng(B::as_seed(seed, "seed"));
        if (!s.game->determinize(s.pos.st, seat, rng))
          fail("determinize: no deal of the unseen money meets the running auction's bids (the view is inconsistent)");
      }, py::arg("seat"), py::arg("seed"), "Deal what `seat` cannot see (Craftsmen spec 6.2), in place.")
      .def("hand_value", [](const PyState& s, py::object seat_obj) {
        const int seat = seat_arg(s, seat_obj);
        return Game::value(s.pos.st.money[M_HAND0 + seat]);
      }, py::arg("seat"))
      .def("to_bytes", [](const PyState& s) { return py::bytes(reinterpret_cast<const char*>(&s.pos.st), sizeof(State)); })
      .def_static("from_bytes", &state_from_bytes, py::arg("game"), py::arg("data"))
      .def("fields", [](const PyState& s) { return state_fields(*s.game, s.pos.st); })
      .def("with_fields", [](const PyState& s, py::object d) {
        auto out = std::make_shared<PyState>(s.game, state_with_fields(*s.game, s.pos.st, atelier::bind::as_dict(d, "fields")));
        out->viewpoint = s.viewpoint;
        return out;
      }, py::arg("fields"), "A copy with the given fields (as fields() writes them) replaced; validated.")
      .def("with_view_fields", [](const PyState& s, py::object d, py::object seat_obj, py::object seed_obj) {
        const int seat = (int)B::as_int(seat_obj, "viewpoint", 0, s.game->num_players() - 1);
        const uint64_t seed = B::as_seed(seed_obj, "seed");
        auto out = std::make_shared<PyState>(s.game, state_with_fields(*s.game, s.pos.st, atelier::bind::as_dict(d, "fields"), seat, seed));
        out->viewpoint = seat;
        return out;
      }, py::arg("fields"), py::arg("seat"), py::arg("seed"),
         "with_fields for a viewpoint's filled placeholders: what `seat` has not seen is dealt afresh "
         "(State.determinize) before the check, so the state is one sample of that seat's view.")
      .def("greedy_move", [](const PyState& s, py::object seed) {
        Rng rng(B::as_seed(seed, "seed"));
        if (s.pos.is_chance() || s.pos.is_terminal()) fail("greedy_move: no decision pending");
        return (int)s.pos.greedy_move(rng);
      }, py::arg("seed") = 0)
      .def("_capsule", [](PyState& s) { return py::capsule(static_cast<void*>(&s.pos), "atelier.craftsmen.Position"); });

  py::module_::import("builtins");
  m.def("money_value", [](py::object cards_obj) {
    uint8_t c[kMoneyTypes] = {};
    auto cards = B::as_seq(cards_obj, "cards");
    for (size_t i = 0; i < py::len(cards); ++i) {
      const std::string t = B::as_text(cards[i], B::at("cards", i), 64);
      if (t.size() != 2 || t[0] == '\0' || !std::strchr("PGBR", t[0]) || t[1] < '1' || t[1] > '3') fail("cards: '" + t + "' is not a money type such as R2");
      ++c[(std::strchr(kColourLetters, t[0]) - kColourLetters) * kValues + (t[1] - '1')];
    }
    return Game::value(c);
  }, py::arg("cards"), "The value of a set of money cards (Craftsmen spec 7.1), e.g. ['R3','R3','B1'] -> 7.");
}
