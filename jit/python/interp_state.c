/* Addresses inside the interpreter state that compiled code reads. C, not C++: 3.11's
 * internal/pycore_interp.h uses C11 atomics (docs/cpython311.md). */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_interp.h>

#include "jit/python/interp_state.h"

const void* EvalBreakerAddress(PyInterpreterState* interp) {
  return &interp->ceval.eval_breaker;
}
