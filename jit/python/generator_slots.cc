#include "jit/python/generator_slots.h"

#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/python/jit.h"

namespace a64jit::python {

namespace {

// 3.11's own functions, kept while the stand-ins are in: PyGen_Type's tp_iternext
// (gen_iternext) and the am_send of generators and coroutines (both gen_send_ex2 with no
// exception and not closing).
iternextfunc g_gen_iternext = nullptr;
sendfunc g_gen_am_send = nullptr;
sendfunc g_coro_am_send = nullptr;

_PyInterpreterFrame* FrameOf(PyGenObject* gen) {
  return reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
}

// Whether compiled code may resume `gen` with `value` sent: created or suspended (3.11 raises
// for a running or finished one, and for a value other than None sent to a created one).
bool Resumable(const PyGenObject* gen, PyObject* value) {
  return gen->gi_frame_state == FRAME_SUSPENDED ||
         (gen->gi_frame_state == FRAME_CREATED && value == Py_None);
}

// The end of gen_send_ex2 for a generator or coroutine that returned (`result`) or raised
// (NULL): a StopIteration raised inside becomes RuntimeError with it as the cause (PEP 479),
// the exception state is cleared and the frame with it.
__attribute__((noinline)) void FinishRun(PyGenObject* gen, PyObject* result) {
  if (result == nullptr && PyErr_ExceptionMatches(PyExc_StopIteration)) {
    _PyErr_FormatFromCause(PyExc_RuntimeError, "%s",
                           PyCoro_CheckExact(gen) ? "coroutine raised StopIteration"
                                                  : "generator raised StopIteration");
  }
  Py_CLEAR(gen->gi_exc_state.exc_value);  // _PyErr_ClearExcState
  gen->gi_frame_state = FRAME_CLEARED;
  ClearGeneratorFrame(FrameOf(gen));
}

// gen_iternext's end after FinishRun: a return value other than None becomes
// StopIteration's value. NULL in every case.
__attribute__((noinline)) PyObject* FinishIteration(PyGenObject* gen, PyObject* result) {
  if (result == Py_None) Py_CLEAR(result);
  FinishRun(gen, result);
  if (result != nullptr) {
    _PyGen_SetStopIterationValue(result);
    Py_DECREF(result);
  }
  return nullptr;
}

PyObject* JitGenIterNext(PyObject* self) {
  auto* gen = reinterpret_cast<PyGenObject*>(self);
  PyObject* result;
  if (gen->gi_frame_state >= FRAME_EXECUTING || !ResumeCompiledGenerator(gen, Py_None, &result)) {
    return g_gen_iternext(self);
  }
  if (result != nullptr && gen->gi_frame_state == FRAME_SUSPENDED) return result;
  return FinishIteration(gen, result);
}

// am_send of generators (`kCoroutine` false) and coroutines: PYGEN_NEXT with a yielded value,
// PYGEN_RETURN with the returned one, PYGEN_ERROR with NULL and an exception set.
template <bool kCoroutine>
PySendResult JitAmSend(PyObject* self, PyObject* arg, PyObject** presult) {
  auto* gen = reinterpret_cast<PyGenObject*>(self);
  PyObject* value = arg != nullptr ? arg : Py_None;
  PyObject* result;
  if (!Resumable(gen, value) || !ResumeCompiledGenerator(gen, value, &result)) {
    return (kCoroutine ? g_coro_am_send : g_gen_am_send)(self, arg, presult);
  }
  *presult = result;
  if (result != nullptr && gen->gi_frame_state == FRAME_SUSPENDED) return PYGEN_NEXT;
  FinishRun(gen, result);
  return result != nullptr ? PYGEN_RETURN : PYGEN_ERROR;
}

}  // namespace

void InstallGeneratorSlots() {
  if (g_gen_iternext != nullptr) return;
  g_gen_iternext = PyGen_Type.tp_iternext;
  PyGen_Type.tp_iternext = JitGenIterNext;
  // Each type's PyAsyncMethods is its own writable static in genobject.c.
  g_gen_am_send = PyGen_Type.tp_as_async->am_send;
  PyGen_Type.tp_as_async->am_send = JitAmSend<false>;
  g_coro_am_send = PyCoro_Type.tp_as_async->am_send;
  PyCoro_Type.tp_as_async->am_send = JitAmSend<true>;
}

void RestoreGeneratorSlots() {
  if (g_gen_iternext == nullptr) return;
  PyGen_Type.tp_iternext = g_gen_iternext;
  PyGen_Type.tp_as_async->am_send = g_gen_am_send;
  PyCoro_Type.tp_as_async->am_send = g_coro_am_send;
  g_gen_iternext = nullptr;
}

}  // namespace a64jit::python
