// atelier.errors.InputError for every refusal a binding or a rules core reports (common.hpp).
#include "common.hpp"

namespace atelier::bind {

namespace {

PYBIND11_CONSTINIT py::gil_safe_call_once_and_store<py::object> input_error_type;

py::object& input_error() {
  return input_error_type
      .call_once_and_store_result([] { return py::module_::import("atelier.errors").attr("InputError"); })
      .get_stored();
}

void set_input_error(const char* what) {
  // Core messages echo user text; decoding never fails on a stray byte, and InputError's own
  // constructor escapes control characters, so the message is always one printable line.
  PyObject* msg = PyUnicode_DecodeUTF8(what, (Py_ssize_t)std::strlen(what), "backslashreplace");
  if (!msg) return;  // MemoryError already set
  PyErr_SetObject(input_error().ptr(), msg);
  Py_DECREF(msg);
}

}  // namespace

void register_input_error(py::module_& m) {
  m.attr("InputError") = input_error();  // imported now, so a broken package fails at import
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const std::invalid_argument& e) {
      set_input_error(e.what());
    }
  });
}

}  // namespace atelier::bind
