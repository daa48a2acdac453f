// C entries for the call stub's cache (jit/runtime/site_cache.h CCallCache) of C functions
// whose own C function it cannot call as it is: each takes the stub's (self, argument vector,
// count, context) and calls the function in its own convention. Two kinds of callable come
// here: LOAD_METHOD's method descriptors, and bound C methods or other modules' functions
// (`startswith = s.startswith`, then `startswith(p)`; `_elementtree.SubElement`), which the
// cache holds by their PyMethodDef and calls with each callable's own self.
#ifndef A64JIT_JIT_PYTHON_METHOD_TRAMPOLINES_H_
#define A64JIT_JIT_PYTHON_METHOD_TRAMPOLINES_H_

#include <Python.h>

#include "jit/runtime/site_cache.h"

namespace a64jit::runtime {

// A METH_VARARGS (or METH_VARARGS | METH_KEYWORDS) function's call with the cache's argument
// vector, as CPython's method_vectorcall_VARARGS and cfunction_call make it: the arguments in
// a tuple, no keywords. `def` is the cache's entry_context: the function's PyMethodDef. The
// call stub, or the inline path, has checked self's exact type (for a descriptor) and the
// recursion limit, as for a C entry.
PyObject* a64_varargs_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             const PyMethodDef* def);

// Fills `out` (entry, self type, convention, context) for LOAD_METHOD's method descriptor
// `callable` and sets `arity` (4) when it has a trampoline here: METH_VARARGS, with or
// without METH_KEYWORDS, and METH_METHOD | METH_FASTCALL | METH_KEYWORDS. Else false.
bool TrampolineMethodEntry(PyObject* callable, CCallCache* out, int* arity);

// The same for a C function object (a bound C method, another module's function) whose
// PyMethodDef is METH_VARARGS, with or without METH_KEYWORDS: the cache then holds that
// PyMethodDef, and no callable. METH_METHOD is left out: its defining class belongs to each
// callable, and the stub passes only its self.
bool TrampolineFunctionEntry(PyObject* callable, CCallCache* out, int* arity);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_METHOD_TRAMPOLINES_H_
