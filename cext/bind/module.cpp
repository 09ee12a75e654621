// The pybind11 module atelier._core: one submodule per ruleset, each bound in its own file.
#include <pybind11/pybind11.h>

namespace py = pybind11;

void bind_inventors(py::module_& m);
void bind_craftsmen(py::module_& m);

PYBIND11_MODULE(_core, m) {
  m.doc() = "atelier rules cores (C++). Use the atelier package API rather than this module.";
  auto inventors = m.def_submodule("inventors", "Legendary Inventors rules core");
  bind_inventors(inventors);
  auto craftsmen = m.def_submodule("craftsmen", "Craftsmen rules core");
  bind_craftsmen(craftsmen);
}
