// MAKE_FUNCTION's function object, as 3.11's PyFunction_New(code, globals) makes it, with
// the site's cache (runtime::FunctionCache) standing in for its two dict lookups while the
// globals are unchanged.
#ifndef A64JIT_JIT_PYTHON_MAKE_FUNCTION_H_
#define A64JIT_JIT_PYTHON_MAKE_FUNCTION_H_

#include <Python.h>

#include "jit/runtime/site_cache.h"

namespace a64jit::python {

// A new function of `code` in `globals` (a dict), or NULL with an exception set. `cache` may
// be null (no cache: PyFunction_New itself). A miss calls PyFunction_New and fills the cache
// from the function it made, unless the builtins did not come from the globals (without
// `__builtins__` they are the running frame's) or the globals changed meanwhile.
PyFunctionObject* NewFunction(PyObject* code, PyObject* globals, runtime::FunctionCache* cache);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_MAKE_FUNCTION_H_
