#include "jit/python/helpers.h"

#include <Python.h>
#include <internal/pycore_frame.h>

#include <map>
#include <mutex>

#include "emulation/helper_registry.h"
#include "jit/hir/lower.h"

namespace a64jit::python {

namespace {

// LOAD_GLOBAL: globals, then builtins. NULL without an exception when the name is missing
// or the lookup failed: compiled code then lets the interpreter redo the instruction, which
// raises exactly what stock raises (NameError with its `name` attribute, ...).
PyObject* a64_load_global(_PyInterpreterFrame* frame, PyObject* name) {
  PyObject* v = nullptr;
  if (PyDict_CheckExact(frame->f_globals) && PyDict_CheckExact(frame->f_builtins)) {
    v = PyDict_GetItemWithError(frame->f_globals, name);
    if (v == nullptr && !PyErr_Occurred()) v = PyDict_GetItemWithError(frame->f_builtins, name);
  }
  if (v == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  Py_INCREF(v);
  return v;
}

// LOAD_METHOD: out = [method, self] or [NULL, attribute]; the new references are the
// caller's, `obj` stays borrowed. -1 on error.
int a64_load_method(PyObject* obj, PyObject* name, PyObject** out) {
  PyObject* meth = nullptr;
  const int found = _PyObject_GetMethod(obj, name, &meth);
  if (meth == nullptr) return -1;
  if (found) {
    Py_INCREF(obj);
    out[0] = meth;
    out[1] = obj;
  } else {
    out[0] = nullptr;
    out[1] = meth;
  }
  return 0;
}

// PRECALL + CALL. sp = [method or NULL, self or callable, args...] (oparg args), all owned
// and consumed here, as the interpreter does.
PyObject* a64_call(PyObject** sp, int64_t oparg, PyObject* kwnames) {
  int is_meth = sp[0] != nullptr;
  if (!is_meth && Py_TYPE(sp[1]) == &PyMethod_Type) {
    PyObject* bound = sp[1];
    sp[0] = Py_NewRef(PyMethod_GET_FUNCTION(bound));
    sp[1] = Py_NewRef(PyMethod_GET_SELF(bound));
    Py_DECREF(bound);
    is_meth = 1;
  }
  const Py_ssize_t total = oparg + is_meth;
  PyObject* function = sp[1 - is_meth];
  PyObject** args = sp + 2 - is_meth;
  const Py_ssize_t nkw = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  PyObject* res = PyObject_Vectorcall(
      function, args, static_cast<size_t>(total - nkw) | PY_VECTORCALL_ARGUMENTS_OFFSET, kwnames);
  Py_DECREF(function);
  for (Py_ssize_t i = 0; i < total; i++) Py_DECREF(args[i]);
  return res;
}

PyObject* a64_build_list(PyObject** items, int64_t n) {
  PyObject* list = PyList_New(n);
  if (list == nullptr) {
    for (int64_t i = 0; i < n; i++) Py_DECREF(items[i]);
    return nullptr;
  }
  for (int64_t i = 0; i < n; i++) PyList_SET_ITEM(list, i, items[i]);
  return list;
}

PyObject* a64_build_tuple(PyObject** items, int64_t n) {
  PyObject* tuple = PyTuple_New(n);
  if (tuple == nullptr) {
    for (int64_t i = 0; i < n; i++) Py_DECREF(items[i]);
    return nullptr;
  }
  for (int64_t i = 0; i < n; i++) PyTuple_SET_ITEM(tuple, i, items[i]);
  return tuple;
}

// FOR_ITER: the next value, NULL when exhausted (StopIteration cleared), 1 on error.
PyObject* a64_for_iter(PyObject* iter) {
  PyObject* next = (*Py_TYPE(iter)->tp_iternext)(iter);
  if (next != nullptr) return next;
  if (PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_StopIteration)) return reinterpret_cast<PyObject*>(1);
    PyErr_Clear();
  }
  return nullptr;
}

PyObject* a64_power(PyObject* a, PyObject* b) { return PyNumber_Power(a, b, Py_None); }
PyObject* a64_inplace_power(PyObject* a, PyObject* b) {
  return PyNumber_InPlacePower(a, b, Py_None);
}

const std::map<std::string, uint64_t>& Table() {
  static const std::map<std::string, uint64_t> table = [] {
    std::map<std::string, uint64_t> t;
    auto add = [&](const char* name, auto* fn) { t[name] = reinterpret_cast<uint64_t>(fn); };
    add("a64_load_global", &a64_load_global);
    add("a64_load_method", &a64_load_method);
    add("a64_call", &a64_call);
    add("a64_build_list", &a64_build_list);
    add("a64_build_tuple", &a64_build_tuple);
    add("a64_for_iter", &a64_for_iter);
    add("a64_power", &a64_power);
    add("a64_inplace_power", &a64_inplace_power);
    add("_Py_Dealloc", &_Py_Dealloc);
    add("PyObject_GetAttr", &PyObject_GetAttr);
    add("PyObject_SetAttr", &PyObject_SetAttr);
    add("PyObject_RichCompare", &PyObject_RichCompare);
    add("PyObject_GetItem", &PyObject_GetItem);
    add("PyObject_SetItem", &PyObject_SetItem);
    add("PySequence_Contains", &PySequence_Contains);
    add("PyObject_GetIter", &PyObject_GetIter);
    add("PyObject_IsTrue", &PyObject_IsTrue);
    add("PyNumber_Negative", &PyNumber_Negative);
    add("PyNumber_Positive", &PyNumber_Positive);
    add("PyNumber_Invert", &PyNumber_Invert);
    add("PyNumber_Add", &PyNumber_Add);
    add("PyNumber_And", &PyNumber_And);
    add("PyNumber_FloorDivide", &PyNumber_FloorDivide);
    add("PyNumber_Lshift", &PyNumber_Lshift);
    add("PyNumber_MatrixMultiply", &PyNumber_MatrixMultiply);
    add("PyNumber_Multiply", &PyNumber_Multiply);
    add("PyNumber_Remainder", &PyNumber_Remainder);
    add("PyNumber_Or", &PyNumber_Or);
    add("PyNumber_Rshift", &PyNumber_Rshift);
    add("PyNumber_Subtract", &PyNumber_Subtract);
    add("PyNumber_TrueDivide", &PyNumber_TrueDivide);
    add("PyNumber_Xor", &PyNumber_Xor);
    add("PyNumber_InPlaceAdd", &PyNumber_InPlaceAdd);
    add("PyNumber_InPlaceAnd", &PyNumber_InPlaceAnd);
    add("PyNumber_InPlaceFloorDivide", &PyNumber_InPlaceFloorDivide);
    add("PyNumber_InPlaceLshift", &PyNumber_InPlaceLshift);
    add("PyNumber_InPlaceMatrixMultiply", &PyNumber_InPlaceMatrixMultiply);
    add("PyNumber_InPlaceMultiply", &PyNumber_InPlaceMultiply);
    add("PyNumber_InPlaceRemainder", &PyNumber_InPlaceRemainder);
    add("PyNumber_InPlaceOr", &PyNumber_InPlaceOr);
    add("PyNumber_InPlaceRshift", &PyNumber_InPlaceRshift);
    add("PyNumber_InPlaceSubtract", &PyNumber_InPlaceSubtract);
    add("PyNumber_InPlaceTrueDivide", &PyNumber_InPlaceTrueDivide);
    add("PyNumber_InPlaceXor", &PyNumber_InPlaceXor);
    return t;
  }();
  return table;
}

}  // namespace

std::optional<uint64_t> ResolveHelper(const std::string& name) {
  auto it = Table().find(name);
  if (it == Table().end()) return std::nullopt;
  return it->second;
}

void RegisterHelpers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const hir::HelperInfo& h : hir::LoweringHelpers()) {
      auto address = ResolveHelper(h.name);
      if (!address) throw std::logic_error(std::string("helper not in the table: ") + h.name);
      emu::RegisterHelper(
          reinterpret_cast<const void*>(*address),
          {h.name, h.int_args, 0,
           std::string(h.name) == "_Py_Dealloc" ? emu::RetKind::kVoid : emu::RetKind::kInt});
    }
  });
}

}  // namespace a64jit::python
