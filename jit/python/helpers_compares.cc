// COMPARE_OP's and CONTAINS_OP's helpers (jit/runtime/helpers.h): a64_compare_bool,
// a64_compare_value, a64_compare_tuple_items and a64_contains_in_tuple.
#include <Python.h>

#include <cstdint>

#include "jit/python/arguments.h"
#include "jit/python/interp_state.h"
#include "jit/python/jit.h"
#include "jit/python/leaf_equality.h"
#include "jit/python/number_values.h"
#include "jit/python/python_compare.h"
#include "jit/python/runtime_state.h"
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

PyObject* CompareTuples(PyObject* a, PyObject* b, int op);

// PyObject_RichCompareBool(v, w, Py_EQ), LeafEqual's way first when `leaf` (a recursion level
// left), and two exact tuples (`tok in (("op", "+"), ("op", "-"))`) item by item as
// PyObject_RichCompare compares them; `*decided` counts the pairs LeafEqual decided.
__attribute__((always_inline)) inline int ItemsEqual(PyObject* v, PyObject* w, bool leaf,
                                                     int64_t* decided) {
  if (leaf) {
    if (const int equal = python::LeafEqual(v, w); equal >= 0) {
      ++*decided;
      return equal;
    }
    if (PyTuple_CheckExact(v) && PyTuple_CheckExact(w)) {
      PyObject* r = CompareTuples(v, w, Py_EQ);
      if (r == nullptr) return -1;
      Py_DECREF(r);  // Py_True or Py_False: == of two tuples gives nothing else
      return r == Py_True;
    }
  }
  return PyObject_RichCompareBool(v, w, Py_EQ);
}

// PyObject_RichCompare(v, w, op) for the first pair of items that differ, two exact strs or
// two numbers of number_values.h compared by their own slots' rules when `leaf`.
PyObject* OrderItems(PyObject* v, PyObject* w, int op, bool leaf) {
  if (leaf) {
    if (python::Numbers n; python::AsNumbers(v, w, &n)) {
      return Py_NewRef(CompareValues(n.a, n.b, op) ? Py_True : Py_False);
    }
    if (PyUnicode_CheckExact(v) && PyUnicode_CheckExact(w)) return PyUnicode_RichCompare(v, w, op);
  }
  return PyObject_RichCompare(v, w, op);
}

// tuplerichcompare(a, b, op) over the items of both, inside the recursion level
// PyObject_RichCompare takes for it: the first index whose items are not equal
// (PyObject_RichCompareBool, so identical items are equal); none: the lengths decide; else
// False for == and True for !=, and the two items compared with op for the orders.
PyObject* CompareItems(PyThreadState* ts, PyObject* const* a, Py_ssize_t na, PyObject* const* b,
                       Py_ssize_t nb, int op) {
  const bool leaf = python::LeafLevelLeft(ts);
  int64_t decided = 0;
  Py_ssize_t i = 0;
  for (; i < na && i < nb; i++) {
    const int equal = ItemsEqual(a[i], b[i], leaf, &decided);
    if (equal < 0) return nullptr;
    if (equal == 0) break;
  }
  python::TheRuntime().stats.leaf_equalities += decided;
  if (i >= na || i >= nb) {
    return Py_NewRef(CompareValues<Py_ssize_t>(na, nb, op) ? Py_True : Py_False);
  }
  if (op == Py_EQ || op == Py_NE) return Py_NewRef(op == Py_EQ ? Py_False : Py_True);
  return OrderItems(a[i], b[i], op, leaf);
}

// CompareItems inside the recursion level PyObject_RichCompare takes around tuplerichcompare.
PyObject* CompareItemsInLevel(PyObject* const* a, Py_ssize_t na, PyObject* const* b, Py_ssize_t nb,
                              int op) {
  PyThreadState* ts = CurrentThreadState();
  if (!python::EnterRecursiveCall(ts, " in comparison")) return nullptr;
  PyObject* r = CompareItems(ts, a, na, b, nb, op);
  ts->recursion_remaining++;
  return r;
}

// PyObject_RichCompare(a, b, op) for two exact tuples.
PyObject* CompareTuples(PyObject* a, PyObject* b, int op) {
  return CompareItemsInLevel(&PyTuple_GET_ITEM(a, 0), PyTuple_GET_SIZE(a), &PyTuple_GET_ITEM(b, 0),
                             PyTuple_GET_SIZE(b), op);
}

bool BothTuples(PyObject* a, PyObject* b) { return PyTuple_CheckExact(a) && PyTuple_CheckExact(b); }

}  // namespace

// COMPARE_OP feeding a branch: the truth of the comparison, -1 on error. Two numbers that are
// exact floats or exact ints of one digit (number_values.h; 3.11's COMPARE_OP_FLOAT_JUMP and
// COMPARE_OP_INT_JUMP, and a float against such an int, which float_richcompare compares as
// doubles too: an infinity or NaN against any int as against 0.0, which gives the same), and
// two exact strs compared for (in)equality (leaf_equality.h's StrsEqual), are decided here
// without a bool object (3.11's COMPARE_OP_STR_JUMP). Two exact tuples compare item by item
// (CompareTuples). Two instances of one class that compares in Python call its method directly
// (python_compare.h).
int a64_compare_bool(PyObject* a, PyObject* b, int64_t op) {
  if (python::Numbers n; python::AsNumbers(a, b, &n)) return CompareValues(n.a, n.b, op);
  if ((op == Py_EQ || op == Py_NE) && PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b)) {
    if (const int equal = python::StrsEqual(a, b); equal >= 0) return equal == (op == Py_EQ);
  }
  PyObject* r;
  if (BothTuples(a, b)) {
    r = CompareTuples(a, b, static_cast<int>(op));
  } else if (!python::ComparePythonDefined(a, b, op, &r)) {
    r = PyObject_RichCompare(a, b, static_cast<int>(op));
  }
  if (r == nullptr) return -1;
  const int t = r == Py_True ? 1 : r == Py_False ? 0 : PyObject_IsTrue(r);
  Py_DECREF(r);
  return t;
}

// COMPARE_OP kept as a value: the same numbers and strs as a64_compare_bool give True or False
// without PyObject_RichCompare, two exact tuples compare item by item, and the same instances
// call their class's method directly; everything else goes to it.
PyObject* a64_compare_value(PyObject* a, PyObject* b, int64_t op) {
  if (python::Numbers n; python::AsNumbers(a, b, &n)) {
    return Py_NewRef(CompareValues(n.a, n.b, op) ? Py_True : Py_False);
  }
  // 3.11 specialises only COMPARE_OPs that feed a jump: this one is PyObject_RichCompare's,
  // which takes a recursion level even for two strs.
  if ((op == Py_EQ || op == Py_NE) && PyUnicode_CheckExact(a) && PyUnicode_CheckExact(b) &&
      python::LeafLevelLeft(CurrentThreadState())) {
    if (const int equal = python::StrsEqual(a, b); equal >= 0) {
      return Py_NewRef(equal == (op == Py_EQ) ? Py_True : Py_False);
    }
  }
  if (BothTuples(a, b)) return CompareTuples(a, b, static_cast<int>(op));
  if (PyObject * r; python::ComparePythonDefined(a, b, op, &r)) return r;
  return PyObject_RichCompare(a, b, static_cast<int>(op));
}

// COMPARE_OP of a tuple display (hir CompareTupleItems). For an exact tuple `a` what
// PyObject_RichCompare does for two exact tuples (CompareItems); anything else compares with
// the tuple made.
PyObject* a64_compare_tuple_items(PyObject* a, PyObject** items, int64_t n, int64_t op) {
  if (!PyTuple_CheckExact(a)) {
    PyObject* tuple = python::ArgumentTuple(items, n);
    PyObject* r = tuple != nullptr ? PyObject_RichCompare(a, tuple, static_cast<int>(op)) : nullptr;
    Py_XDECREF(tuple);
    return r;
  }
  return CompareItemsInLevel(&PyTuple_GET_ITEM(a, 0), PyTuple_GET_SIZE(a), items, n,
                             static_cast<int>(op));
}

// CONTAINS_OP of a constant tuple (an exact tuple: lowering takes this helper only for a
// co_consts item that code_info.cc found to be one): PySequence_Contains(tuple, item) as
// tuplecontains gives it, PyObject_RichCompareBool(member, item, Py_EQ) in order until one is
// equal or fails, with LeafEqual's way first.
int a64_contains_in_tuple(PyObject* tuple, PyObject* item) {
  const bool leaf = python::LeafLevelLeft(CurrentThreadState());
  int64_t decided = 0;
  int equal = 0;
  for (Py_ssize_t i = 0; equal == 0 && i < PyTuple_GET_SIZE(tuple); i++) {
    equal = ItemsEqual(PyTuple_GET_ITEM(tuple, i), item, leaf, &decided);
  }
  python::TheRuntime().stats.leaf_equalities += decided;
  return equal;
}

}  // namespace a64jit::runtime
