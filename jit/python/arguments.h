// Binding a call's arguments to a compiled function's parameters, for the vectorcall entry
// (jit.cc) when the call is not the plain "exactly the positional parameters" shape:
// defaults, keyword arguments, keyword-only parameters, *args and **kwargs.
#ifndef A64JIT_JIT_PYTHON_ARGUMENTS_H_
#define A64JIT_JIT_PYTHON_ARGUMENTS_H_

#include <Python.h>

namespace a64jit::python {

// How many of a frame's locals `code`'s parameters are: positional, keyword-only, *args and
// **kwargs, the first locals in that order (3.11's co_localsplusnames).
inline Py_ssize_t ParameterCount(const PyCodeObject* code) {
  return code->co_argcount + code->co_kwonlyargcount + ((code->co_flags & CO_VARARGS) != 0) +
         ((code->co_flags & CO_VARKEYWORDS) != 0);
}

// Fills localsplus[0 .. parameters) of a new frame of `func` (all NULL on entry) with new
// references, as 3.11's hidden initialize_locals does for a call that binds cleanly. Returns
// false, with localsplus all NULL again and no exception set, for anything it does not take
// (a missing or duplicate argument, an unknown keyword, a keyword that is not a string):
// CPython's own path then redoes the call and raises stock's exact error.
bool BindArguments(PyFunctionObject* func, PyObject* const* args, Py_ssize_t nargs,
                   PyObject* kwnames, PyObject** localsplus);

// A new tuple of args[0 .. nargs), with references of its own: the argument tuple of a
// tp_call or METH_VARARGS convention. NULL with the exception set when memory runs out.
PyObject* ArgumentTuple(PyObject* const* args, Py_ssize_t nargs);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_ARGUMENTS_H_
