// COMPARE_OP's shorter way for two instances of one class whose MRO defines the comparison in
// Python (a dataclass's generated __eq__, functools.total_ordering's methods, Fraction's
// __lt__): the method called directly, as a64_binary_object calls an operator's.
//
// For two operands of one type PyObject_RichCompare runs do_richcompare, which skips the
// reflected-first case (it is for a right operand of a proper subclass), calls the type's
// tp_richcompare, slot_tp_richcompare, which looks the op's name up in the MRO (method cache)
// and calls it, through vectorcall, with (left, right). On NotImplemented do_richcompare calls
// the right operand's tp_richcompare with the operands and the op swapped, and after a second
// NotImplemented == and != compare identity and the orders raise TypeError. All of it runs
// inside one " in comparison" recursion level. Here a memo by class, version tag and op gives
// the function, which is called with one recursion level taken as stock takes it, and every
// step after a NotImplemented is stock's own.
#ifndef A64JIT_JIT_PYTHON_PYTHON_COMPARE_H_
#define A64JIT_JIT_PYTHON_PYTHON_COMPARE_H_

#include <Python.h>

#include <cstdint>

namespace a64jit::python {

// a op b (Py_LT ... Py_GE) when both are of one heap class whose comparison slot is 3.11's
// slot_tp_richcompare and whose MRO holds the op's dunder as a Python function: true, with
// *result what PyObject_RichCompare gives (NULL with an error set). False, with nothing done,
// for anything else.
bool ComparePythonDefinedSlow(PyObject* a, PyObject* b, int op, PyObject** result);
// slot_tp_richcompare once the runtime has learnt it (nullptr before): a class whose slot is
// another (an IntEnum, any class that inherits its comparison from C) is told apart inline.
extern richcmpfunc g_python_richcompare;
inline bool ComparePythonDefined(PyObject* a, PyObject* b, int64_t op, PyObject** result) {
  const PyTypeObject* type = Py_TYPE(a);
  return type == Py_TYPE(b) && (type->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0 &&
         (type->tp_richcompare == g_python_richcompare || g_python_richcompare == nullptr) &&
         ComparePythonDefinedSlow(a, b, static_cast<int>(op), result);
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_PYTHON_COMPARE_H_
