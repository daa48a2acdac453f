// The JIT's stand-in for the am_send of async generators' asend objects (docs/cpython311.md,
// "Generators, coroutines, async generators").
//
// `async for x in agen` runs GET_ANEXT, which makes an asend object (`agen.__anext__()`), and
// SEND on it, which calls PyIter_Send. 3.11's asend type has no am_send, so PyIter_Send calls
// its tp_iternext (or its send() method for a value other than None), which resumes the
// generator through gen_send_ex, _PyEval_EvalFrame and the eval-frame hook, and reports each
// value the generator yields as a StopIteration made for the purpose, which PyIter_Send then
// takes apart again (_PyGen_FetchStopIterationValue). With this am_send in the type, a value
// comes back as PYGEN_RETURN with no exception made, and the generator resumes as JitAmSend
// resumes a coroutine (ResumeWithoutHook). Everything else, and every error, is left to 3.11's
// own path, taken as PyIter_Send takes it for a type without am_send.

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/python/async_gen_layout.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

namespace {

bool g_async_slots_in = false;

// PyIter_Send for a type without am_send, as 3.11 sends to an asend object: tp_iternext for
// None (async_gen_asend_iternext), else the send() method; a StopIteration is the result.
PySendResult SendAs311(PyObject* self, PyObject* arg, PyObject** presult) {
  if (arg == Py_None) {
    *presult = Py_TYPE(self)->tp_iternext(self);
  } else {
    *presult = PyObject_CallMethod(self, "send", "O", arg);
  }
  if (*presult != nullptr) return PYGEN_NEXT;
  return _PyGen_FetchStopIterationValue(presult) == 0 ? PYGEN_RETURN : PYGEN_ERROR;
}

// async_gen_asend_send's end after a run that did not yield (gen_send_ex, then
// async_gen_unwrap_value, then PyIter_Send): a return becomes StopAsyncIteration, which (like
// GeneratorExit) marks the generator closed; the asend object is spent either way.
PySendResult FinishASend(AsyncGenASend* o, PyObject* result, PyObject** presult) {
  PyGenObject* gen = o->ags_gen;
  FinishGenerator(gen, reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe), result);
  if (result != nullptr) {
    PyErr_SetNone(PyExc_StopAsyncIteration);
    Py_DECREF(result);
  } else if (!PyErr_Occurred()) {
    PyErr_SetNone(PyExc_StopAsyncIteration);
  }
  if (PyErr_ExceptionMatches(PyExc_StopAsyncIteration) ||
      PyErr_ExceptionMatches(PyExc_GeneratorExit)) {
    gen->gi_closed = 1;
  }
  gen->gi_running_async = 0;
  o->ags_state = kAwaitableClosed;
  *presult = nullptr;
  return _PyGen_FetchStopIterationValue(presult) == 0 ? PYGEN_RETURN : PYGEN_ERROR;
}

// The asend object's am_send while the JIT is enabled: async_gen_asend_send's common case
// (a fresh or iterating asend object, its generator created or suspended) with the generator
// resumed by ResumeWithoutHook. A value the generator yields (wrapped) is PYGEN_RETURN, as
// PyIter_Send gives it after 3.11's StopIteration; anything else it yields (an await inside
// passing a future out) is PYGEN_NEXT.
PySendResult JitASendAmSend(PyObject* self, PyObject* arg, PyObject** presult) {
  auto* o = reinterpret_cast<AsyncGenASend*>(self);
  PyGenObject* gen = o->ags_gen;
  if (arg == nullptr) arg = Py_None;
  PyObject* sent = arg;
  if (o->ags_state == kAwaitableInit) {
    if (gen->gi_running_async) return SendAs311(self, arg, presult);  // its RuntimeError
    if (arg == Py_None && o->ags_sendval != nullptr) sent = o->ags_sendval;
  } else if (o->ags_state != kAwaitableIter) {
    return SendAs311(self, arg, presult);  // spent: its RuntimeError
  }
  const int8_t frame_state = gen->gi_frame_state;
  if (frame_state != FRAME_SUSPENDED && (frame_state != FRAME_CREATED || sent != Py_None)) {
    return SendAs311(self, arg, presult);  // running, finished, or its TypeError
  }
  const AwaitableState old_state = o->ags_state;
  const char old_running = gen->gi_running_async;
  o->ags_state = kAwaitableIter;
  gen->gi_running_async = 1;
  PyObject* result;
  if (!ResumeWithoutHook(gen, sent, &result)) {
    o->ags_state = old_state;
    gen->gi_running_async = old_running;
    return SendAs311(self, arg, presult);
  }
  if (result == nullptr || gen->gi_frame_state != FRAME_SUSPENDED) {
    return FinishASend(o, result, presult);
  }
  if (Py_TYPE(result) != &_PyAsyncGenWrappedValue_Type) {
    *presult = result;
    return PYGEN_NEXT;
  }
  TheRuntime().stats.async_gen_values++;
  *presult = Py_NewRef(reinterpret_cast<AsyncGenWrappedValue*>(result)->agw_val);
  Py_DECREF(result);
  gen->gi_running_async = 0;
  o->ags_state = kAwaitableClosed;
  return PYGEN_RETURN;
}

}  // namespace

// _PyAsyncGenASend_Type's PyAsyncMethods is a writable static of genobject.c
// (async_gen_asend_as_async) whose am_send is NULL.
void InstallAsyncGenSlots() {
  if (g_async_slots_in || _PyAsyncGenASend_Type.tp_as_async == nullptr ||
      _PyAsyncGenASend_Type.tp_as_async->am_send != nullptr) {
    return;
  }
  _PyAsyncGenASend_Type.tp_as_async->am_send = JitASendAmSend;
  g_async_slots_in = true;
}

void RestoreAsyncGenSlots() {
  if (!g_async_slots_in) return;
  _PyAsyncGenASend_Type.tp_as_async->am_send = nullptr;
  g_async_slots_in = false;
}

}  // namespace a64jit::python
