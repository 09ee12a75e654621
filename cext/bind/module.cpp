// The pybind11 module atelier._core: one submodule per ruleset, each bound in its own file.
#include <pybind11/pybind11.h>

#include "common.hpp"

namespace py = pybind11;

void bind_inventors(py::module_& m);
void bind_leonardo(py::module_& m);
void bind_craftsmen(py::module_& m);
void bind_features(py::module_& inventors, py::module_& leonardo, py::module_& craftsmen);

PYBIND11_MODULE(_core, m) {
  m.doc() = "atelier rules cores (C++). Use the atelier package API rather than this module.";
  // Before any ruleset: every refusal from any binding or core is an atelier.InputError.
  atelier::bind::register_input_error(m);
  auto inventors = m.def_submodule("inventors", "Legendary Inventors rules core");
  bind_inventors(inventors);
  auto leonardo = m.def_submodule("leonardo", "Leonardo da Vinci rules core");
  bind_leonardo(leonardo);
  auto craftsmen = m.def_submodule("craftsmen", "Craftsmen rules core");
  bind_craftsmen(craftsmen);
  bind_features(inventors, leonardo, craftsmen);  // State.features, Game.feature_* (features.cpp)
}
