// Objects/genobject.c's private layouts of the objects an async generator hands out, which
// the runtime reads (async_gen_send.cc, helpers_generators.cc); cpython311_facts_test checks
// them against 3.11's objects.
#ifndef A64JIT_JIT_PYTHON_ASYNC_GEN_LAYOUT_H_
#define A64JIT_JIT_PYTHON_ASYNC_GEN_LAYOUT_H_

#include <Python.h>

namespace a64jit::python {

// An asend object's AwaitableState: fresh, being sent to, spent.
enum AwaitableState : int { kAwaitableInit = 0, kAwaitableIter = 1, kAwaitableClosed = 2 };

// _PyAsyncGenASend_Type's instances: `agen.__anext__()` and `agen.asend(v)`.
struct AsyncGenASend {
  PyObject ob_base;       // PyObject_HEAD
  PyGenObject* ags_gen;   // a PyAsyncGenObject, which has PyGenObject's layout
  PyObject* ags_sendval;  // sent for the first None: NULL from __anext__()
  AwaitableState ags_state;
};

// _PyAsyncGenWrappedValue_Type's instances: what an async generator's `yield v` gives the
// code that resumed it, to tell it from what an `await` inside passes out.
struct AsyncGenWrappedValue {
  PyObject ob_base;  // PyObject_HEAD
  PyObject* agw_val;
};

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_ASYNC_GEN_LAYOUT_H_
