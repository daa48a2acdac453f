// C entries for the call stub's cache (jit/runtime/site_cache.h CCallCache) of method
// descriptors whose own C function it cannot call as it is: each takes the stub's
// (self, argument vector, count, context) and calls the descriptor's function in its own
// convention, the descriptor being the cache's entry_context.
#ifndef A64JIT_JIT_PYTHON_METHOD_TRAMPOLINES_H_
#define A64JIT_JIT_PYTHON_METHOD_TRAMPOLINES_H_

#include <Python.h>

#include "jit/runtime/site_cache.h"

namespace a64jit::runtime {

// A METH_VARARGS (or METH_VARARGS | METH_KEYWORDS) method descriptor's call with the cache's
// argument vector, as CPython's method_vectorcall_VARARGS makes it: the arguments in a tuple,
// no keywords. `descriptor` is the cache's entry_context; the call stub, or the inline path,
// has checked self's exact type and the recursion limit, as for a C entry.
PyObject* a64_varargs_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             PyObject* descriptor);

// Fills `out` (entry, self type, convention, context) for LOAD_METHOD's method descriptor
// `callable` and sets `arity` (4) when it has a trampoline here: METH_VARARGS, with or
// without METH_KEYWORDS, and METH_METHOD | METH_FASTCALL | METH_KEYWORDS. Else false.
bool TrampolineMethodEntry(PyObject* callable, CCallCache* out, int* arity);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_METHOD_TRAMPOLINES_H_
