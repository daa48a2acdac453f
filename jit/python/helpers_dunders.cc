// a64_binary_object, declared in jit/runtime/helpers.h: BINARY_OP's generic path at a site
// whose operands are not expected to be numbers, with a shorter way for the case
// operator-overloading classes make common, both operands of one class that defines the
// operator in Python (`Vec.__add__`). And the same for COMPARE_OP (python_compare.h): two
// instances of one class whose MRO defines the comparison in Python (a dataclass's __eq__).
//
// For that case 3.11 runs PyNumber_Add, binary_op1, the class's slot_nb_add (the slot a class
// gets when its MRO defines __add__ in Python), a method-cache lookup of "__add__" and a
// vectorcall. Under QEMU that is about 175 guest instructions around the call itself. Here a
// memo by class and version tag gives the function, which is called directly, and a compiled
// one without its vectorcall (jit.h's CallCompiled).
//
// What stock does for two operands of one class whose slot is the Python one: binary_op1 calls
// only the left operand's slot (the right one is the same), slot_nb_add calls the left
// operand's __add__(right) and returns what it returns, NotImplemented included, and then
// PyNumber_Add tries sequence concatenation before raising "unsupported operand type(s)".
// Two other right operands are taken the same way (RightOperand):
//   - an exact int or float (`v * 2.0`): slot_nb_add calls __add__ alone, and when that
//     returns NotImplemented, int's and float's own slots return it too for a left operand
//     that is neither (a class deriving from int or float takes PyNumber_*);
//   - an instance of another class with the Python slot that does not derive from the left
//     one (`Num(2) * Sym("x")`): slot_nb_add calls the left's __add__, and on NotImplemented
//     the right's __radd__ (the right's slot is the same function, so binary_op1 tries no
//     other); a right class deriving from the left one is tried first by stock and takes
//     PyNumber_*.
// A class defined in Python has no sequence concatenation or repetition of its own (3.11's
// slotdefs leave sq_concat and sq_repeat NULL for __add__ and __mul__), but one can inherit
// them from a C base (a list subclass): such classes take PyNumber_* as before. An in-place
// operator whose class has no in-place slot (no __iadd__) is the plain operator, as
// binary_iop1 makes it; a class with one takes PyNumber_InPlace*.
#include <Python.h>
#include <opcode.h>

#include <cstddef>
#include <cstdint>

#include "jit/python/interp_state.h"
#include "jit/python/jit.h"
#include "jit/python/python_compare.h"
#include "jit/python/runtime_state.h"
#include "jit/python/type_memo.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

namespace {

// BINARY_OP's NB_* codes, in order: the operator's dunder and reflected dunder (none for `**`,
// ternary in 3.11 and never taken here), its plain NB_* code (the same for the plain
// operators), the spelling of stock's error, what runs for everything else (PyNumber_*, or
// a64_power's two-operand form), and the PyNumberMethods slot the code names (an in-place
// code: the in-place slot).
struct BinaryOperator {
  const char* dunder;
  const char* reflected;
  int plain;
  const char* spelling;
  binaryfunc generic;
  size_t slot;
};

const BinaryOperator kOperators[] = {
    {"__add__", "__radd__", NB_ADD, "+", PyNumber_Add, offsetof(PyNumberMethods, nb_add)},
    {"__and__", "__rand__", NB_AND, "&", PyNumber_And, offsetof(PyNumberMethods, nb_and)},
    {"__floordiv__", "__rfloordiv__", NB_FLOOR_DIVIDE, "//", PyNumber_FloorDivide,
     offsetof(PyNumberMethods, nb_floor_divide)},
    {"__lshift__", "__rlshift__", NB_LSHIFT, "<<", PyNumber_Lshift,
     offsetof(PyNumberMethods, nb_lshift)},
    {"__matmul__", "__rmatmul__", NB_MATRIX_MULTIPLY, "@", PyNumber_MatrixMultiply,
     offsetof(PyNumberMethods, nb_matrix_multiply)},
    {"__mul__", "__rmul__", NB_MULTIPLY, "*", PyNumber_Multiply,
     offsetof(PyNumberMethods, nb_multiply)},
    {"__mod__", "__rmod__", NB_REMAINDER, "%", PyNumber_Remainder,
     offsetof(PyNumberMethods, nb_remainder)},
    {"__or__", "__ror__", NB_OR, "|", PyNumber_Or, offsetof(PyNumberMethods, nb_or)},
    {nullptr, nullptr, NB_POWER, "**", a64_power, offsetof(PyNumberMethods, nb_power)},
    {"__rshift__", "__rrshift__", NB_RSHIFT, ">>", PyNumber_Rshift,
     offsetof(PyNumberMethods, nb_rshift)},
    {"__sub__", "__rsub__", NB_SUBTRACT, "-", PyNumber_Subtract,
     offsetof(PyNumberMethods, nb_subtract)},
    {"__truediv__", "__rtruediv__", NB_TRUE_DIVIDE, "/", PyNumber_TrueDivide,
     offsetof(PyNumberMethods, nb_true_divide)},
    {"__xor__", "__rxor__", NB_XOR, "^", PyNumber_Xor, offsetof(PyNumberMethods, nb_xor)},
    {"__add__", "__radd__", NB_ADD, "+=", PyNumber_InPlaceAdd,
     offsetof(PyNumberMethods, nb_inplace_add)},
    {"__and__", "__rand__", NB_AND, "&=", PyNumber_InPlaceAnd,
     offsetof(PyNumberMethods, nb_inplace_and)},
    {"__floordiv__", "__rfloordiv__", NB_FLOOR_DIVIDE, "//=", PyNumber_InPlaceFloorDivide,
     offsetof(PyNumberMethods, nb_inplace_floor_divide)},
    {"__lshift__", "__rlshift__", NB_LSHIFT, "<<=", PyNumber_InPlaceLshift,
     offsetof(PyNumberMethods, nb_inplace_lshift)},
    {"__matmul__", "__rmatmul__", NB_MATRIX_MULTIPLY, "@=", PyNumber_InPlaceMatrixMultiply,
     offsetof(PyNumberMethods, nb_inplace_matrix_multiply)},
    {"__mul__", "__rmul__", NB_MULTIPLY, "*=", PyNumber_InPlaceMultiply,
     offsetof(PyNumberMethods, nb_inplace_multiply)},
    {"__mod__", "__rmod__", NB_REMAINDER, "%=", PyNumber_InPlaceRemainder,
     offsetof(PyNumberMethods, nb_inplace_remainder)},
    {"__or__", "__ror__", NB_OR, "|=", PyNumber_InPlaceOr,
     offsetof(PyNumberMethods, nb_inplace_or)},
    {nullptr, nullptr, NB_POWER, "**=", a64_inplace_power,
     offsetof(PyNumberMethods, nb_inplace_power)},
    {"__rshift__", "__rrshift__", NB_RSHIFT, ">>=", PyNumber_InPlaceRshift,
     offsetof(PyNumberMethods, nb_inplace_rshift)},
    {"__sub__", "__rsub__", NB_SUBTRACT, "-=", PyNumber_InPlaceSubtract,
     offsetof(PyNumberMethods, nb_inplace_subtract)},
    {"__truediv__", "__rtruediv__", NB_TRUE_DIVIDE, "/=", PyNumber_InPlaceTrueDivide,
     offsetof(PyNumberMethods, nb_inplace_true_divide)},
    {"__xor__", "__rxor__", NB_XOR, "^=", PyNumber_InPlaceXor,
     offsetof(PyNumberMethods, nb_inplace_xor)},
};
constexpr int kOperatorCount = sizeof(kOperators) / sizeof(kOperators[0]);
static_assert(kOperatorCount == NB_INPLACE_XOR + 1, "one row per NB_* code");

// The slot of `m` that NB_* code `nb` names (the in-place slot for an in-place code).
binaryfunc SlotOf(const PyNumberMethods* m, int nb) {
  return *reinterpret_cast<const binaryfunc*>(reinterpret_cast<const char*>(m) +
                                              kOperators[nb].slot);
}

// The slot functions 3.11 gives a class whose MRO defines each operator in Python
// (slot_nb_add, ...: static in typeobject.c), read off a class made once with every dunder
// set to a builtin function: any attribute that is not C's own wrapper of the slot gets the
// generic slot function. Empty (all NULL) if the class could not be made.
struct PythonSlots {
  binaryfunc plain[NB_INPLACE_ADD] = {};
};

PythonSlots LearnPythonSlots() {
  PythonSlots slots;
  PyObject* dict = PyDict_New();
  PyObject* builtins = PyEval_GetBuiltins();
  PyObject* any_function = builtins != nullptr ? PyDict_GetItemString(builtins, "len") : nullptr;
  bool filled = dict != nullptr && any_function != nullptr;
  for (int nb = 0; filled && nb < NB_INPLACE_ADD; nb++) {
    if (kOperators[nb].dunder == nullptr) continue;
    filled = PyDict_SetItemString(dict, kOperators[nb].dunder, any_function) == 0;
  }
  filled = filled && PyDict_SetItemString(dict, "__eq__", any_function) == 0;
  PyObject* probe = filled ? PyObject_CallFunction(reinterpret_cast<PyObject*>(&PyType_Type),
                                                   "s()O", "a64jit_operator_probe", dict)
                           : nullptr;
  if (probe != nullptr) {
    const PyNumberMethods* m = reinterpret_cast<PyTypeObject*>(probe)->tp_as_number;
    for (int nb = 0; m != nullptr && nb < NB_INPLACE_ADD; nb++) {
      if (kOperators[nb].dunder != nullptr) slots.plain[nb] = SlotOf(m, nb);
    }
    // slot_tp_richcompare, for any of __lt__ ... __ge__: kept where the inline test reads it
    python::g_python_richcompare = reinterpret_cast<PyTypeObject*>(probe)->tp_richcompare;
  }
  if (PyErr_Occurred()) PyErr_Clear();
  Py_XDECREF(probe);
  Py_XDECREF(dict);
  return slots;
}

const PythonSlots& Slots() {
  static const PythonSlots slots = LearnPythonSlots();
  return slots;
}

// Whether `type` has 3.11's slot for a class defining operator `op` in Python, and no sequence
// slot that PyNumber_Add or PyNumber_Multiply would try after NotImplemented.
bool HasPythonSlot(const PyTypeObject* type, const BinaryOperator& op) {
  const PyNumberMethods* m = type->tp_as_number;
  if (m == nullptr || (type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0) return false;
  const binaryfunc python_slot = Slots().plain[op.plain];
  if (python_slot == nullptr || SlotOf(m, op.plain) != python_slot) return false;
  const PySequenceMethods* s = type->tp_as_sequence;
  return s == nullptr || (op.plain != NB_ADD && op.plain != NB_MULTIPLY) ||
         (s->sq_concat == nullptr && s->sq_repeat == nullptr && s->sq_inplace_concat == nullptr &&
          s->sq_inplace_repeat == nullptr);
}

// The Python function stock would call first for a left operand of `type` and NB_* code `nb`
// (the rules in the file's comment), borrowed from the MRO; nullptr when stock would do
// anything else.
PyObject* OperatorFunction(PyTypeObject* type, int nb) {
  const BinaryOperator& op = kOperators[nb];
  if (op.dunder == nullptr || !HasPythonSlot(type, op)) return nullptr;
  if (nb >= NB_INPLACE_ADD && SlotOf(type->tp_as_number, nb) != nullptr) return nullptr;
  PyObject* name = PyUnicode_InternFromString(op.dunder);
  PyObject* function = name != nullptr ? _PyType_Lookup(type, name) : nullptr;
  Py_XDECREF(name);  // interned: the interpreter keeps it
  if (PyErr_Occurred()) PyErr_Clear();
  return function != nullptr && PyFunction_Check(function) ? function : nullptr;
}

// OperatorFunction's answers by class and NB_* code (type_memo.h), those that found no function
// too: a heap class without a Python operator (an IntFlag's `|`) would otherwise look itself up
// on every call, as the comparisons' memo found (python_compare.h).
struct OperatorEntry {
  PyObject* function = nullptr;  // borrowed from the MRO; nullptr: stock's generic path
  bool scalars = false;  // an int or float right operand's slots return NotImplemented for it
};
python::TypeMemo<OperatorEntry> g_operators;

// A miss of the memo: the answer, remembered. Out of line, so that a hit saves and restores only
// the registers it uses.
__attribute__((noinline)) OperatorEntry FillOperatorMemo(PyTypeObject* type, int nb) {
  const OperatorEntry answer{
      OperatorFunction(type, nb),
      !PyType_IsSubtype(type, &PyLong_Type) && !PyType_IsSubtype(type, &PyFloat_Type)};
  g_operators.Put(type, nb, answer);
  return answer;
}

OperatorEntry MemoizedOperator(PyTypeObject* type, int nb) {
  const OperatorEntry* e = g_operators.Find(type, nb);
  return e != nullptr ? *e : FillOperatorMemo(type, nb);
}

// What stock does after the left operand's method for right operand `right`: kGeneric, not one
// of the cases taken here; kAlone, nothing more (NotImplemented is its TypeError); kReflected,
// the right operand's reflected method on NotImplemented.
enum class Right { kGeneric, kAlone, kReflected };

Right RightOperand(PyTypeObject* left_type, const OperatorEntry& left, PyTypeObject* right,
                   int nb) {
  if (right == left_type) return Right::kAlone;
  if (right == &PyLong_Type || right == &PyFloat_Type) {
    return left.scalars ? Right::kAlone : Right::kGeneric;
  }
  const BinaryOperator& op = kOperators[nb];
  if (!HasPythonSlot(right, op) || PyType_IsSubtype(right, left_type)) return Right::kGeneric;
  return Right::kReflected;
}

// The right operand's reflected method called as 3.11's slot_nb_add calls it (lookup_maybe_method
// and vectorcall_maybe): NotImplemented when the class has none, a function called with the
// right operand first, another descriptor bound to it first.
PyObject* CallReflected(PyObject* right, PyObject* left, int nb) {
  // Each reflected name interned once and kept (PyUnicode_InternFromString hashes the text
  // and looks it up in the interned dict: about as much work again as the lookup below).
  static PyObject* names[sizeof(kOperators) / sizeof(kOperators[0])] = {};
  PyObject*& name = names[nb];
  if (name == nullptr) name = PyUnicode_InternFromString(kOperators[nb].reflected);
  if (name == nullptr) return nullptr;
  PyObject* method = _PyType_Lookup(Py_TYPE(right), name);
  if (method == nullptr) return PyErr_Occurred() ? nullptr : Py_NewRef(Py_NotImplemented);
  PyObject* result;
  if (PyType_HasFeature(Py_TYPE(method), Py_TPFLAGS_METHOD_DESCRIPTOR)) {
    Py_INCREF(method);
    PyObject* args[2] = {right, left};
    result = PyObject_Vectorcall(method, args, 2, nullptr);
  } else {
    descrgetfunc get = Py_TYPE(method)->tp_descr_get;
    if (get == nullptr) {
      Py_INCREF(method);
    } else {
      method = get(method, right, reinterpret_cast<PyObject*>(Py_TYPE(right)));
      if (method == nullptr) return nullptr;
    }
    result = PyObject_CallOneArg(method, left);
  }
  Py_DECREF(method);
  return result;
}

// The function's result as the operator's: NotImplemented from the last method stock tries
// is its TypeError.
PyObject* OperatorResult(PyObject* result, PyObject* a, PyObject* b, int nb) {
  if (result != Py_NotImplemented) return result;
  Py_DECREF(result);
  PyErr_Format(PyExc_TypeError, "unsupported operand type(s) for %.100s: '%.100s' and '%.100s'",
               kOperators[nb].spelling, Py_TYPE(a)->tp_name, Py_TYPE(b)->tp_name);
  return nullptr;
}

}  // namespace

PyObject* a64_binary_object(PyObject* a, PyObject* b, int64_t nb) {
  if (nb < 0 || nb >= kOperatorCount) {  // lowering passes BINARY_OP's own oparg
    PyErr_Format(PyExc_SystemError, "a64_binary_object: no binary operator %lld",
                 static_cast<long long>(nb));
    return nullptr;
  }
  PyTypeObject* type = Py_TYPE(a);
  if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0) return kOperators[nb].generic(a, b);
  const OperatorEntry left = MemoizedOperator(type, static_cast<int>(nb));
  const Right right = left.function != nullptr
                          ? RightOperand(type, left, Py_TYPE(b), static_cast<int>(nb))
                          : Right::kGeneric;
  if (right == Right::kGeneric) return kOperators[nb].generic(a, b);
  python::TheRuntime().stats.operator_calls++;
  PyObject* function = left.function;
  Py_INCREF(function);  // as slot_nb_add's lookup does: the method may replace itself
  PyObject* result = python::CallFunctionWithFirst(CurrentThreadState(), function, a, &b, 1);
  Py_DECREF(function);
  if (result == Py_NotImplemented && right == Right::kReflected) {
    Py_DECREF(result);
    result = CallReflected(b, a, static_cast<int>(nb));
  }
  return result != nullptr ? OperatorResult(result, a, b, static_cast<int>(nb)) : nullptr;
}

namespace {

// ---- Comparisons (python_compare.h) ----

// 3.11's name_op and _Py_SwappedOp, indexed by Py_LT ... Py_GE.
const char* const kComparisonDunders[] = {"__lt__", "__le__", "__eq__",
                                          "__ne__", "__gt__", "__ge__"};
const char* const kComparisonSpellings[] = {"<", "<=", "==", "!=", ">", ">="};
constexpr int kSwappedComparison[] = {Py_GT, Py_GE, Py_EQ, Py_NE, Py_LT, Py_LE};

// The Python function slot_tp_richcompare would call for op on an instance of `type`,
// borrowed from the MRO; nullptr when the class's slot is another or the name is not a function.
PyObject* ComparisonFunction(PyTypeObject* type, int op) {
  Slots();  // learns g_python_richcompare on first use
  const richcmpfunc python_slot = python::g_python_richcompare;
  if (python_slot == nullptr || type->tp_richcompare != python_slot) return nullptr;
  static PyObject* names[Py_GE + 1] = {};  // interned once and kept, as CallReflected's
  PyObject*& name = names[op];
  if (name == nullptr) name = PyUnicode_InternFromString(kComparisonDunders[op]);
  PyObject* function = name != nullptr ? _PyType_Lookup(type, name) : nullptr;
  if (PyErr_Occurred()) PyErr_Clear();
  return function != nullptr && PyFunction_Check(function) ? function : nullptr;
}

// ComparisonFunction's answers, nullptr included: a class that defines __eq__ alone has the
// Python slot, and `<` finds object's __lt__ there, a slot wrapper.
python::TypeMemo<PyObject*> g_comparisons;

__attribute__((noinline)) PyObject* FillComparisonMemo(PyTypeObject* type, int op) {
  PyObject* function = ComparisonFunction(type, op);
  g_comparisons.Put(type, op, function);
  return function;
}

// What do_richcompare does once the left operand's method returned NotImplemented: the right
// operand's slot with the op swapped (read again: the method may have changed either), then
// identity for == and !=, TypeError for the orders.
PyObject* CompareAfterNotImplemented(PyObject* a, PyObject* b, int op) {
  if (richcmpfunc slot = Py_TYPE(b)->tp_richcompare; slot != nullptr) {
    PyObject* result = slot(b, a, kSwappedComparison[op]);
    if (result != Py_NotImplemented) return result;
    Py_DECREF(result);
  }
  if (op == Py_EQ || op == Py_NE) return Py_NewRef((a == b) == (op == Py_EQ) ? Py_True : Py_False);
  PyErr_Format(PyExc_TypeError, "'%s' not supported between instances of '%.100s' and '%.100s'",
               kComparisonSpellings[op], Py_TYPE(a)->tp_name, Py_TYPE(b)->tp_name);
  return nullptr;
}

}  // namespace

}  // namespace a64jit::runtime

namespace a64jit::python {

richcmpfunc g_python_richcompare = nullptr;

bool ComparePythonDefinedSlow(PyObject* a, PyObject* b, int op, PyObject** result) {
  if (op < Py_LT || op > Py_GE) return false;
  PyTypeObject* type = Py_TYPE(a);
  PyObject* const* memo = runtime::g_comparisons.Find(type, op);
  PyObject* function = memo != nullptr ? *memo : runtime::FillComparisonMemo(type, op);
  if (function == nullptr) return false;
  TheRuntime().stats.comparison_calls++;
  PyThreadState* ts = CurrentThreadState();
  if (!EnterRecursiveCall(ts, " in comparison")) {  // PyObject_RichCompare's level
    *result = nullptr;
    return true;
  }
  Py_INCREF(function);  // as lookup_maybe_method's reference: the method may replace itself
  PyObject* r = CallFunctionWithFirst(ts, function, a, &b, 1);
  Py_DECREF(function);
  if (r == Py_NotImplemented) {
    Py_DECREF(r);
    r = runtime::CompareAfterNotImplemented(a, b, op);
  }
  ts->recursion_remaining++;
  *result = r;
  return true;
}

}  // namespace a64jit::python
