// The numbers the helpers compute on as doubles without asking their types' slots: an exact
// float, and an exact int of at most one digit (|v| < 2**30), which a double holds exactly, so
// that converting it is what PyLong_AsDouble gives and what float's own slots and comparisons
// (float_richcompare converts ints of up to 48 bits) use. A subclass (bool, a float subclass)
// is never one: its slots may differ.
#ifndef A64JIT_JIT_PYTHON_NUMBER_VALUES_H_
#define A64JIT_JIT_PYTHON_NUMBER_VALUES_H_

#include <Python.h>

namespace a64jit::python {

static_assert(PYLONG_BITS_IN_DIGIT == 30, "one digit holds |v| < 2**30, exact in a double");

// `obj` as a double when it is an exact float (`*is_float` set) or an exact int of at most
// one digit; false for anything else.
inline bool NumberAsDouble(PyObject* obj, double* value, bool* is_float) {
  PyTypeObject* type = Py_TYPE(obj);
  if (type == &PyFloat_Type) {
    *value = PyFloat_AS_DOUBLE(obj);
    *is_float = true;
    return true;
  }
  if (type != &PyLong_Type) return false;
  const Py_ssize_t size = Py_SIZE(obj);
  if (size < -1 || size > 1) return false;
  const double magnitude = reinterpret_cast<PyLongObject*>(obj)->ob_digit[0];
  *value = size == 0 ? 0.0 : size < 0 ? -magnitude : magnitude;
  *is_float = false;
  return true;
}

// Two operands as such numbers: their values, and whether either is a float (an operation on
// two ints may keep them ints).
struct Numbers {
  double a, b;
  bool any_float;
};

// `a` and `b` as Numbers when both are such numbers; false otherwise.
inline bool AsNumbers(PyObject* a, PyObject* b, Numbers* out) {
  bool a_float, b_float;
  if (!NumberAsDouble(a, &out->a, &a_float) || !NumberAsDouble(b, &out->b, &b_float)) {
    return false;
  }
  out->any_float = a_float || b_float;
  return true;
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_NUMBER_VALUES_H_
