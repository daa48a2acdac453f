// Argument binding for compiled functions' vectorcall entry (see arguments.h). Layout of the
// parameters in localsplus (3.11): positional (positional-only first), keyword-only, then
// *args, then **kwargs.
#include "jit/python/arguments.h"

#include <cstring>

namespace a64jit::python {

namespace {

struct Shape {
  Py_ssize_t positional;  // co_argcount
  Py_ssize_t posonly;     // co_posonlyargcount
  Py_ssize_t kwonly;      // co_kwonlyargcount
  bool varargs;
  bool varkw;
  Py_ssize_t total;  // parameters, *args and **kwargs included
};

Shape ShapeOf(const PyCodeObject* code) {
  Shape s;
  s.positional = code->co_argcount;
  s.posonly = code->co_posonlyargcount;
  s.kwonly = code->co_kwonlyargcount;
  s.varargs = (code->co_flags & CO_VARARGS) != 0;
  s.varkw = (code->co_flags & CO_VARKEYWORDS) != 0;
  s.total = s.positional + s.kwonly + (s.varargs ? 1 : 0) + (s.varkw ? 1 : 0);
  return s;
}

// The parameter (by localsplus index) that keyword `name` names, or -1. Identity first, as
// CPython does: keyword names are almost always the interned parameter names.
Py_ssize_t ParameterNamed(const PyCodeObject* code, const Shape& s, PyObject* name) {
  PyObject* names = code->co_localsplusnames;
  const Py_ssize_t end = s.positional + s.kwonly;
  for (Py_ssize_t i = s.posonly; i < end; i++) {
    if (PyTuple_GET_ITEM(names, i) == name) return i;
  }
  for (Py_ssize_t i = s.posonly; i < end; i++) {
    const int eq = PyObject_RichCompareBool(PyTuple_GET_ITEM(names, i), name, Py_EQ);
    if (eq < 0) PyErr_Clear();
    if (eq > 0) return i;
  }
  return -1;
}

// Keyword arguments into their parameters, or into the **kwargs dict (`extra`, may be NULL).
bool BindKeywords(const PyCodeObject* code, const Shape& s, PyObject* const* values,
                  PyObject* kwnames, PyObject** localsplus, PyObject* extra) {
  const Py_ssize_t n = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  for (Py_ssize_t k = 0; k < n; k++) {
    PyObject* name = PyTuple_GET_ITEM(kwnames, k);
    if (!PyUnicode_Check(name)) return false;
    const Py_ssize_t i = ParameterNamed(code, s, name);
    if (i < 0) {
      if (extra == nullptr || PyDict_Contains(extra, name) != 0) return false;
      if (PyDict_SetItem(extra, name, values[k]) < 0) return false;
      continue;
    }
    if (localsplus[i] != nullptr) return false;  // also given by position
    localsplus[i] = Py_NewRef(values[k]);
  }
  return true;
}

// Missing parameters from the function's defaults; false when one has none.
bool FillDefaults(PyFunctionObject* func, const Shape& s, PyObject** localsplus) {
  PyObject* defaults = func->func_defaults;
  const Py_ssize_t ndefaults = defaults != nullptr ? PyTuple_GET_SIZE(defaults) : 0;
  for (Py_ssize_t i = 0; i < s.positional; i++) {
    if (localsplus[i] != nullptr) continue;
    const Py_ssize_t d = i - (s.positional - ndefaults);
    if (d < 0) return false;
    localsplus[i] = Py_NewRef(PyTuple_GET_ITEM(defaults, d));
  }
  for (Py_ssize_t i = s.positional; i < s.positional + s.kwonly; i++) {
    if (localsplus[i] != nullptr) continue;
    if (func->func_kwdefaults == nullptr) return false;
    PyObject* name =
        PyTuple_GET_ITEM(reinterpret_cast<PyCodeObject*>(func->func_code)->co_localsplusnames, i);
    PyObject* v = PyDict_GetItemWithError(func->func_kwdefaults, name);
    if (v == nullptr) {
      PyErr_Clear();
      return false;
    }
    localsplus[i] = Py_NewRef(v);
  }
  return true;
}

bool Bind(PyFunctionObject* func, const PyCodeObject* code, const Shape& s, PyObject* const* args,
          Py_ssize_t nargs, PyObject* kwnames, PyObject** localsplus) {
  if (nargs > s.positional && !s.varargs) return false;
  const Py_ssize_t direct = nargs < s.positional ? nargs : s.positional;
  for (Py_ssize_t i = 0; i < direct; i++) localsplus[i] = Py_NewRef(args[i]);
  Py_ssize_t slot = s.positional + s.kwonly;
  if (s.varargs) {
    PyObject* rest = PyTuple_New(nargs - direct);
    if (rest == nullptr) return false;
    for (Py_ssize_t i = direct; i < nargs; i++) {
      PyTuple_SET_ITEM(rest, i - direct, Py_NewRef(args[i]));
    }
    localsplus[slot++] = rest;
  }
  PyObject* extra = nullptr;
  if (s.varkw) {
    extra = PyDict_New();
    if (extra == nullptr) return false;
    localsplus[slot] = extra;
  }
  return BindKeywords(code, s, args + nargs, kwnames, localsplus, extra) &&
         FillDefaults(func, s, localsplus);
}

}  // namespace

bool BindArguments(PyFunctionObject* func, PyObject* const* args, Py_ssize_t nargs,
                   PyObject* kwnames, PyObject** localsplus) {
  const auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  const Shape s = ShapeOf(code);
  if (Bind(func, code, s, args, nargs, kwnames, localsplus)) return true;
  PyErr_Clear();  // CPython's path redoes the call and raises its own error
  for (Py_ssize_t i = 0; i < s.total; i++) Py_CLEAR(localsplus[i]);
  return false;
}

}  // namespace a64jit::python
