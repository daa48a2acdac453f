// COMPARE_OP's helpers (jit/runtime/helpers.h): a64_compare_bool, a64_compare_value and
// a64_compare_tuple_items.
#include <Python.h>

#include <cstdint>

#include "jit/python/arguments.h"
#include "jit/python/interp_state.h"
#include "jit/python/jit.h"
#include "jit/python/number_values.h"
#include "jit/python/python_compare.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

namespace {
// a op b (Py_LT ... Py_GE) for two doubles, as float_richcompare decides it (nan compares
// false but for !=), or two lengths, as tuplerichcompare's Py_RETURN_RICHCOMPARE does.
template <typename T>
int CompareValues(T a, T b, int64_t op) {
  switch (op) {
    case Py_LT:
      return a < b;
    case Py_LE:
      return a <= b;
    case Py_EQ:
      return a == b;
    case Py_NE:
      return a != b;
    case Py_GT:
      return a > b;
    default:
      return a >= b;
  }
}
}  // namespace

// COMPARE_OP feeding a branch: the truth of the comparison, -1 on error. Two numbers that are
// exact floats or exact ints of one digit (number_values.h; 3.11's COMPARE_OP_FLOAT_JUMP and
// COMPARE_OP_INT_JUMP, and a float against such an int, which float_richcompare compares as
// doubles too: an infinity or NaN against any int as against 0.0, which gives the same), and
// two exact strs compared for (in)equality, are decided here without a bool object (3.11's
// COMPARE_OP_STR_JUMP). Two instances of one class that compares in Python call its method
// directly (python_compare.h).
int a64_compare_bool(PyObject* a, PyObject* b, int64_t op) {
  if (python::Numbers n; python::AsNumbers(a, b, &n)) return CompareValues(n.a, n.b, op);
  if ((op == Py_EQ || op == Py_NE) && PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b)) {
    return _PyUnicode_Equal(a, b) == (op == Py_EQ);
  }
  PyObject* r;
  if (!python::ComparePythonDefined(a, b, op, &r)) {
    r = PyObject_RichCompare(a, b, static_cast<int>(op));
  }
  if (r == nullptr) return -1;
  const int t = r == Py_True ? 1 : r == Py_False ? 0 : PyObject_IsTrue(r);
  Py_DECREF(r);
  return t;
}

// COMPARE_OP kept as a value: the same numbers as a64_compare_bool give True or False
// without PyObject_RichCompare, and the same instances call their class's method directly;
// everything else goes to it.
PyObject* a64_compare_value(PyObject* a, PyObject* b, int64_t op) {
  if (python::Numbers n; python::AsNumbers(a, b, &n)) {
    return Py_NewRef(CompareValues(n.a, n.b, op) ? Py_True : Py_False);
  }
  if (PyObject * r; python::ComparePythonDefined(a, b, op, &r)) return r;
  return PyObject_RichCompare(a, b, static_cast<int>(op));
}

// COMPARE_OP of a tuple display (hir CompareTupleItems). For an exact tuple `a` what
// PyObject_RichCompare does for two exact tuples: one recursion level around tuplerichcompare,
// which finds the first index whose items are not equal (PyObject_RichCompareBool, so identical
// items are equal) and then compares the lengths when there is none, gives False for == and
// True for != when there is one, and otherwise compares those two items with op. Anything else
// compares with the tuple made.
PyObject* a64_compare_tuple_items(PyObject* a, PyObject** items, int64_t n, int64_t op) {
  if (!PyTuple_CheckExact(a)) {
    PyObject* tuple = python::ArgumentTuple(items, n);
    PyObject* r = tuple != nullptr ? PyObject_RichCompare(a, tuple, static_cast<int>(op)) : nullptr;
    Py_XDECREF(tuple);
    return r;
  }
  PyThreadState* ts = CurrentThreadState();
  if (!python::EnterRecursiveCall(ts, " in comparison")) return nullptr;
  const Py_ssize_t length = PyTuple_GET_SIZE(a);
  Py_ssize_t i = 0;
  for (; i < length && i < n; i++) {
    const int equal = PyObject_RichCompareBool(PyTuple_GET_ITEM(a, i), items[i], Py_EQ);
    if (equal < 0) {
      ts->recursion_remaining++;
      return nullptr;
    }
    if (equal == 0) break;
  }
  PyObject* r;
  if (i >= length || i >= n) {  // the lengths decide
    r = Py_NewRef(CompareValues<Py_ssize_t>(length, n, op) ? Py_True : Py_False);
  } else if (op == Py_EQ || op == Py_NE) {
    r = Py_NewRef(op == Py_EQ ? Py_False : Py_True);
  } else {
    r = PyObject_RichCompare(PyTuple_GET_ITEM(a, i), items[i], static_cast<int>(op));
  }
  ts->recursion_remaining++;
  return r;
}

}  // namespace a64jit::runtime
