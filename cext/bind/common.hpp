// The Python/C++ boundary shared by every ruleset's binding: how a Python value becomes a C++
// one, and how a refusal becomes atelier.InputError. A binding takes py::object for anything a
// user passes and converts it with these helpers, so no pybind11 caster ever raises its own
// TypeError/UnicodeEncodeError/RuntimeError on user input, and every message is "field: reason".
#pragma once
#include <pybind11/pybind11.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace atelier::bind {

namespace py = pybind11;

// Anything a caller got wrong. The translator installed by register_input_error() turns it (and
// a rules core's std::invalid_argument) into atelier.errors.InputError, whose constructor makes
// the message one printable line.
[[noreturn]] inline void fail(const std::string& msg) { throw std::invalid_argument(msg); }

// Once, in the module init: every std::invalid_argument leaving any binding is an InputError.
void register_input_error(py::module_& m);

inline std::string type_name(py::handle h) { return Py_TYPE(h.ptr())->tp_name; }

// repr() of a value for a message: quotes strings and escapes what a terminal would act on.
// Never fails: an int too wide to print (Python limits int->str) is described by its width.
inline std::string quoted(py::handle h) {
  if (PyLong_Check(h.ptr()) && !PyBool_Check(h.ptr())) {
    const long long bits = py::reinterpret_borrow<py::object>(h).attr("bit_length")().cast<long long>();
    if (bits > 64) return "an integer of " + std::to_string(bits) + " bits";
  }
  PyObject* r = PyObject_Repr(h.ptr());
  Py_ssize_t n = 0;
  const char* p = r ? PyUnicode_AsUTF8AndSize(r, &n) : nullptr;
  std::string out = p ? (n > 80 ? std::string(p, 60) + "..." : std::string(p, (size_t)n))
                      : "<" + type_name(h) + ">";
  if (!p) PyErr_Clear();
  Py_XDECREF(r);
  return out;
}

// A Python str as UTF-8. Lone surrogates cannot be encoded: refused, not replaced.
inline std::string as_text(py::handle h, const std::string& field, size_t max_bytes = 1 << 20) {
  if (!PyUnicode_Check(h.ptr())) fail(field + ": expected a string, got " + type_name(h));
  Py_ssize_t n = 0;
  const char* p = PyUnicode_AsUTF8AndSize(h.ptr(), &n);
  if (!p) {
    PyErr_Clear();
    fail(field + ": " + quoted(h) + " is not valid text (it holds a lone surrogate)");
  }
  if ((size_t)n > max_bytes)
    fail(field + ": " + std::to_string(n) + " bytes of text, at most " + std::to_string(max_bytes));
  return std::string(p, (size_t)n);
}

// An integer as a Python int (numpy integers and other __index__ types too, so legal_moves_array()
// entries work), never a bool: a `true` where a count belongs is a mistake, not a 1.
inline py::object as_pyint(py::handle h, const std::string& field, const std::string& expected) {
  if (PyBool_Check(h.ptr()) || !PyIndex_Check(h.ptr()))
    fail(field + ": expected " + expected + ", got " + quoted(h));
  PyObject* v = PyNumber_Index(h.ptr());
  if (!v) {
    PyErr_Clear();
    fail(field + ": expected " + expected + ", got " + quoted(h));
  }
  return py::reinterpret_steal<py::object>(v);
}

// An integer in lo..hi.
inline long long as_int(py::handle h, const std::string& field, long long lo, long long hi) {
  const std::string range = std::to_string(lo) + ".." + std::to_string(hi);
  py::object i = as_pyint(h, field, "an integer " + range);
  int overflow = 0;
  const long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow || (v == -1 && PyErr_Occurred())) {
    PyErr_Clear();
    fail(field + ": " + quoted(i) + " is out of range " + range);  // wider than 64 bits
  }
  if (v < lo || v > hi) fail(field + ": " + std::to_string(v) + " is out of range " + range);
  return v;
}

// A seed: any integer 0..2^64-1 (src/atelier/limits.py holds the same range for Python).
inline uint64_t as_seed(py::handle h, const std::string& field) {
  const std::string expected = "an integer 0..2^64-1";
  py::object i = as_pyint(h, field, expected);
  const unsigned long long v = PyLong_AsUnsignedLongLong(i.ptr());
  if (v == (unsigned long long)-1 && PyErr_Occurred()) {  // negative or wider than 64 bits
    PyErr_Clear();
    fail(field + ": expected " + expected + ", got " + quoted(i));
  }
  return (uint64_t)v;
}

inline bool as_bool(py::handle h, const std::string& field) {
  if (PyBool_Check(h.ptr())) return h.ptr() == Py_True;
  return as_int(h, field, 0, 1) != 0;
}

// A list or tuple, of exactly n entries when n >= 0.
inline py::sequence as_seq(py::handle h, const std::string& field, long n = -1) {
  if (!PyList_Check(h.ptr()) && !PyTuple_Check(h.ptr()))
    fail(field + ": expected a list, got " + type_name(h));
  auto seq = py::reinterpret_borrow<py::sequence>(h);
  if (n >= 0 && (long)py::len(seq) != n)
    fail(field + ": expected " + std::to_string(n) + " entries, got " + std::to_string(py::len(seq)));
  return seq;
}

inline py::dict as_dict(py::handle h, const std::string& field) {
  if (!PyDict_Check(h.ptr())) fail(field + ": expected an object (dict), got " + type_name(h));
  return py::reinterpret_borrow<py::dict>(h);
}

// Raw bytes (bytes or bytearray) of exactly n bytes.
inline std::string as_bytes(py::handle h, const std::string& field, size_t n) {
  std::string raw;
  if (PyBytes_Check(h.ptr())) raw = py::reinterpret_borrow<py::bytes>(h);
  else if (PyByteArray_Check(h.ptr()))
    raw.assign(PyByteArray_AsString(h.ptr()), (size_t)PyByteArray_Size(h.ptr()));
  else fail(field + ": expected bytes, got " + type_name(h));
  if (raw.size() != n)
    fail(field + ": expected " + std::to_string(n) + " bytes, got " + std::to_string(raw.size()));
  return raw;
}

// A bound C++ object (an Edition, a Game) passed where the binding needs one.
template <class T>
std::shared_ptr<T> as_object(py::handle h, const std::string& field, const char* what) {
  if (!py::isinstance<T>(h)) fail(field + ": expected " + what + ", got " + type_name(h));
  return h.cast<std::shared_ptr<T>>();
}

inline std::string at(const std::string& f, size_t i) { return f + "[" + std::to_string(i) + "]"; }

}  // namespace atelier::bind
