// Equality of two values whose comparison runs no Python code and cannot fail: exact strs,
// exact ints and floats, None, True and False. Membership in a constant tuple (`kind in ("op",
// "name")`) and tuples compared item by item (a dataclass's __eq__, `tok == ("op", "**")`)
// spend most of their time on such pairs, each through PyObject_RichCompareBool: a recursion
// level, do_richcompare and the type's slot, about 60 guest instructions under QEMU for two strs
// that differ. Here most pairs take a few.
//
// What PyObject_RichCompareBool(v, w, Py_EQ) gives for them (docs/cpython311.md, "Equality of
// strs, numbers and None"): v is w: equal. Two exact strs: equal when their lengths, kinds and
// characters are (unicode_compare_eq, which _PyUnicode_Equal is). Two exact floats or one-digit
// exact ints: equal values (float_richcompare compares such an int as a double, exactly). A str
// against a number, a bool or None, or None against a number or a bool: str's slot returns
// NotImplemented for anything but a str, int's and float's for anything but their numbers,
// None's (object's) for anything but itself, so do_richcompare falls back to identity: not
// equal. Everything else (bools against numbers, ints of more digits, subclasses, any other
// type) is PyObject_RichCompareBool's.
//
// PyObject_RichCompare takes a recursion level (" in comparison") for every pair, which fails
// only when none is left; callers take this way only while one is left (LeafLevelLeft), so that
// stock's RecursionError is still raised where stock raises it.
#ifndef A64JIT_JIT_PYTHON_LEAF_EQUALITY_H_
#define A64JIT_JIT_PYTHON_LEAF_EQUALITY_H_

#include <Python.h>

#include "jit/python/number_values.h"

namespace a64jit::python {

// Whether PyObject_RichCompare could take its recursion level now: this way is then stock's.
inline bool LeafLevelLeft(const PyThreadState* ts) { return ts->recursion_remaining > 0; }

// One of the types whose comparison with a str or None is identity alone.
inline bool LeafType(const PyTypeObject* type) {
  return type == &PyUnicode_Type || type == &PyLong_Type || type == &PyFloat_Type ||
         type == &PyBool_Type || type == Py_TYPE(Py_None);
}

// Two exact strs: 1 or 0 as PyUnicode_RichCompare's == gives it, -1 for a str not ready. Most
// unequal pairs are told apart here without the call: by their lengths, by their kinds (a str's
// kind is the narrowest that holds its characters, so equal strs have one kind), or by hashes both
// already computed (a dict key's, an attribute name's).
inline int StrsEqual(PyObject* v, PyObject* w) {
  if (v == w) return 1;
  if (!PyUnicode_IS_READY(v) || !PyUnicode_IS_READY(w)) return -1;
  if (PyUnicode_GET_LENGTH(v) != PyUnicode_GET_LENGTH(w) ||
      PyUnicode_KIND(v) != PyUnicode_KIND(w)) {
    return 0;
  }
  const Py_hash_t hv = reinterpret_cast<PyASCIIObject*>(v)->hash;
  const Py_hash_t hw = reinterpret_cast<PyASCIIObject*>(w)->hash;
  if (hv != -1 && hw != -1 && hv != hw) return 0;
  return _PyUnicode_Equal(v, w);
}

// 1 or 0: whether v == w as PyObject_RichCompareBool(v, w, Py_EQ) gives it, for the pairs the
// file's comment lists; -1: not one of them (nothing was done).
__attribute__((always_inline)) inline int LeafEqual(PyObject* v, PyObject* w) {
  if (v == w) return 1;
  const bool v_str = Py_IS_TYPE(v, &PyUnicode_Type), w_str = Py_IS_TYPE(w, &PyUnicode_Type);
  if (v_str && w_str) return StrsEqual(v, w);
  if (Numbers n; AsNumbers(v, w, &n)) return n.a == n.b;
  const bool v_apart = v_str || v == Py_None, w_apart = w_str || w == Py_None;
  if ((v_apart && LeafType(Py_TYPE(w))) || (w_apart && LeafType(Py_TYPE(v)))) return 0;
  return -1;
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_LEAF_EQUALITY_H_
