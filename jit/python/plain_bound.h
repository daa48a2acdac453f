// Reading a slice or search bound that needs no code to run, shared by the slice helper
// (helpers_objects.cc) and str.find's kin (str_search.cc).
#ifndef A64JIT_JIT_PYTHON_PLAIN_BOUND_H_
#define A64JIT_JIT_PYTHON_PLAIN_BOUND_H_

#include <Python.h>

namespace a64jit::runtime {

// A bound that is None (`if_none`) or an exact int, clamped to Py_ssize_t as
// _PyEval_SliceIndex clamps it. False for anything else: an __index__ method may run code,
// which the generic path runs in stock's order.
inline bool PlainBound(PyObject* bound, Py_ssize_t if_none, Py_ssize_t* out) {
  if (bound == Py_None) {
    *out = if_none;
    return true;
  }
  if (!PyLong_CheckExact(bound)) return false;
  // 3.11 keeps |value| < 2**30 in one digit (none for 0), the sign in ob_size: such a bound is
  // its digit times its size, without _PyEval_SliceIndex's three calls.
  const Py_ssize_t size = Py_SIZE(bound);
  if (size >= -1 && size <= 1) {
    *out = size * static_cast<Py_ssize_t>(reinterpret_cast<PyLongObject*>(bound)->ob_digit[0]);
    return true;
  }
  return _PyEval_SliceIndex(bound, out) == 1;
}

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_PLAIN_BOUND_H_
