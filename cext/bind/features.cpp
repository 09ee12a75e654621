// Feature vectors in Python (cext/common/features.hpp, docs/models.md): added to each
// ruleset's bound Game and State once they exist, written once for all three here.
//   Game.feature_count, Game.feature_version (properties), Game.feature_names() -> [str]
//   State.features(seat) -> numpy float32 (feature_count,)
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <time.h>
#include <stdexcept>
#include <string>

#include "common.hpp"
#include "common/features.hpp"
#include "craftsmen_bind.hpp"
#include "inventors_bind.hpp"
#include "leonardo_bind.hpp"

namespace py = pybind11;

namespace atelier::bind {
namespace {

// One vector, checked: the ruleset's closed-form count must equal what it wrote (a mismatch is
// a layout bug, never a user's mistake: RuntimeError, not InputError).
template <class GameT, class StateT>
py::array_t<float> features_of(const GameT& g, const StateT& st, py::handle seat_obj) {
  const int n = g.num_players();
  const int seat = (int)as_int(seat_obj, "seat", 0, n - 1);
  const int count = feature_count(g);
  if (count > kMaxFeatures) throw std::logic_error("features: layout exceeds kMaxFeatures");
  py::array_t<float> out(count);
  const int wrote = write_features(g, st, seat, out.mutable_data());
  if (wrote != count)
    throw std::logic_error("features: wrote " + std::to_string(wrote) + " values, feature_count is " + std::to_string(count));
  return out;
}

template <class GameT, class PyStateT>
void add_features(py::module_& m) {
  py::object game_cls = m.attr("Game"), state_cls = m.attr("State");
  py::object property = py::module_::import("builtins").attr("property");
  game_cls.attr("feature_count") = property(py::cpp_function(
      [](const GameT& g) { return feature_count(g); },
      py::doc("Length of State.features(seat): fixed per ruleset, player count and edition.")));
  game_cls.attr("feature_version") = property(py::cpp_function(
      [](const GameT& g) { return feature_version(g); },
      py::doc("Version of the feature layout; a model records the one it was trained on.")));
  game_cls.attr("feature_names") = py::cpp_function(
      [](const GameT& g) {
        std::vector<std::string> names = feature_names(g);
        if ((int)names.size() != feature_count(g)) throw std::logic_error("feature_names: count mismatch");
        return names;
      },
      py::name("feature_names"), py::is_method(game_cls),
      py::doc("One name per feature value: 'global.<x>', 'me.<x>' (the seat asked for), 'p+1.<x>', ..."));
  state_cls.attr("features") = py::cpp_function(
      [](const PyStateT& s, py::object seat) { return features_of(*s.game, s.pos.st, seat); },
      py::name("features"), py::is_method(state_cls), py::arg("seat"),
      py::doc("numpy float32 (Game.feature_count,): this state from `seat`'s side "
              "(docs/models.md, Features)."));
  // bench/bench_features.py: ns per features() call and, as the baseline measured in the same
  // run, ns per legal_moves() at the same state; `reps` calls each, without the GIL. Timed in
// this thread's CPU time, so a loaded machine's waits are not counted.
  state_cls.attr("_bench_features") = py::cpp_function(
      [](const PyStateT& s, py::object reps_obj) {
        const long long reps = as_int(reps_obj, "reps", 1, 100000000);
        float buf[kMaxFeatures];
        MoveList ml;
        double sink = 0, t_feat = 0, t_moves = 0;
        {
          py::gil_scoped_release nogil;
          const int n = s.pos.num_players();
          auto now = [] {
            timespec ts;
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
            return ts.tv_sec * 1e9 + ts.tv_nsec;
          };
          const double t0 = now();
          for (long long r = 0; r < reps; ++r) {
            s.pos.features((int)(r % n), buf);
            sink += buf[r % 7];
          }
          const double t1 = now();
          for (long long r = 0; r < reps; ++r) {
            s.pos.legal_moves(ml);
            sink += ml.size;
          }
          const double t2 = now();
          t_feat = (t1 - t0) / reps;
          t_moves = (t2 - t1) / reps;
        }
        return py::make_tuple(t_feat, t_moves, sink);
      },
      py::name("_bench_features"), py::is_method(state_cls), py::arg("reps"));
}

}  // namespace
}  // namespace atelier::bind

// Called by module.cpp after each ruleset's own binding (the Game and State classes exist).
void bind_features(py::module_& inventors, py::module_& leonardo, py::module_& craftsmen) {
  using atelier::bind::add_features;
  add_features<atelier::inventors::Game, atelier::inventors::bind::PyState>(inventors);
  add_features<atelier::leonardo::Game, atelier::leonardo::bind::PyState>(leonardo);
  add_features<atelier::craftsmen::Game, atelier::craftsmen::bind::PyState>(craftsmen);
}
