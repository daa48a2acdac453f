/* What compiled code needs from inside the interpreter state. C, not C++: 3.11's
 * internal/pycore_interp.h uses C11 atomics (docs/cpython311.md). */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_interp.h>
#include <internal/pycore_pymem.h>
#include <internal/pycore_pystate.h>
#include <internal/pycore_runtime.h>
#include <stddef.h>

#include "jit/python/interp_state.h"

const void* EvalBreakerAddress(PyInterpreterState* interp) {
  return &interp->ceval.eval_breaker;
}

const size_t kEvalBreakerOffset = offsetof(PyInterpreterState, ceval.eval_breaker);

const void* FloatFreeListAddress(PyInterpreterState* interp) {
  return &interp->float_state;
}

#if PyFloat_MAXFREELIST > 0
const struct FloatFreeListFacts kFloatFreeListFacts = {
    sizeof(struct _Py_float_state), offsetof(struct _Py_float_state, numfree),
    offsetof(struct _Py_float_state, free_list), PyFloat_MAXFREELIST};
#else
const struct FloatFreeListFacts kFloatFreeListFacts = {0, 0, 0, 0};
#endif

const void* TracemallocTracingAddress(void) {
  return &_Py_tracemalloc_config.tracing;
}

PyObject* SmallIntZeroObject(void) {
  return (PyObject*)&_PyRuntime.global_objects.singletons.small_ints[_PY_NSMALLNEGINTS];
}

PyObject* TakeFreeAsyncGenValueWrapper(PyInterpreterState* interp) {
#if _PyAsyncGen_MAXFREELIST > 0
  struct _Py_async_gen_state* state = &interp->async_gen;
  if (state->value_numfree <= 0) return NULL;
  state->value_numfree--;
  return (PyObject*)state->value_freelist[state->value_numfree];
#else
  (void)interp;
  return NULL;
#endif
}

const void* CurrentThreadStateAddress(void) {
  return &_PyRuntime.gilstate.tstate_current._value;
}

/* ceval.c's COMPUTE_EVAL_BREAKER (static there): the breaker is the OR of its causes; with
 * `pending_calls` 0, all but the pending calls (HoldPendingCalls). */
static void SetEvalBreaker(PyInterpreterState* interp, int pending_calls) {
  struct _ceval_state* ceval2 = &interp->ceval;
  _Py_atomic_store_relaxed(
      &ceval2->eval_breaker,
      _Py_atomic_load_relaxed(&ceval2->gil_drop_request) |
          (_Py_atomic_load_relaxed(&_PyRuntime.ceval.signals_pending) &&
           _Py_ThreadCanHandleSignals(interp)) |
          (pending_calls && _Py_atomic_load_relaxed(&ceval2->pending.calls_to_do) &&
           _Py_ThreadCanHandlePendingCalls()) |
          ceval2->pending.async_exc);
}

static void RecomputeEvalBreaker(PyInterpreterState* interp) { SetEvalBreaker(interp, 1); }
static void QuietPendingCalls(PyInterpreterState* interp) { SetEvalBreaker(interp, 0); }

static int g_holding_pending_calls = 0;
static int g_calls_from_compiled_code = 0;

int PendingCallsFromCompiledCode(void) { return g_calls_from_compiled_code != 0; }

void HoldPendingCalls(void) {
  g_holding_pending_calls = 1;
  QuietPendingCalls(_PyInterpreterState_Main());
}

void ReleasePendingCalls(void) {
  g_holding_pending_calls = 0;
  RecomputeEvalBreaker(_PyInterpreterState_Main());
}

/* ceval.c's eval_frame_handle_pending, step for step, through what libpython exports:
 * Py_MakePendingCalls is its handle_signals then make_pending_calls (each a no-op when
 * nothing is pending or on a thread that may not run them), PyEval_SaveThread and
 * PyEval_RestoreThread its drop_gil and take_gil with the same thread-state swaps. */
int HandleEvalBreaker(PyThreadState* ts) {
  PyInterpreterState* interp = ts->interp;
  struct _ceval_state* ceval2 = &interp->ceval;
  if (_Py_atomic_load_relaxed(&_PyRuntime.ceval.signals_pending) ||
      _Py_atomic_load_relaxed(&ceval2->pending.calls_to_do)) {
    g_calls_from_compiled_code++;
    const int failed = Py_MakePendingCalls() != 0;
    g_calls_from_compiled_code--;
    if (failed) return -1;
  }
  if (_Py_atomic_load_relaxed(&ceval2->gil_drop_request)) {
    PyEval_RestoreThread(PyEval_SaveThread()); /* other threads may run in between */
  }
  if (ts->async_exc != NULL) {
    PyObject* exc = ts->async_exc;
    ts->async_exc = NULL;
    ceval2->pending.async_exc = 0; /* ceval.c's UNSIGNAL_ASYNC_EXC */
    RecomputeEvalBreaker(interp);
    PyErr_SetNone(exc);
    Py_DECREF(exc);
    return -1;
  }
  if (g_holding_pending_calls) QuietPendingCalls(interp);
  return 0;
}

int OtherPendingCallsQueued(int (*mine)(void*), int (*also_mine)(void*)) {
  const struct _pending_calls* pending = &_PyInterpreterState_Main()->ceval.pending;
  for (int i = pending->first; i != pending->last; i = (i + 1) % NPENDINGCALLS) {
    if (pending->calls[i].func != mine && pending->calls[i].func != also_mine) return 1;
  }
  return 0;
}

/* 3.11's Py_AddPendingCall signals the main thread through COMPUTE_EVAL_BREAKER, which asks
 * _Py_ThreadCanHandlePendingCalls() of the calling thread: from another thread the breaker
 * stays clear, and the main thread runs the call only when something else stops it. So the
 * breaker is set here as well. Should the main thread take the call between the add and that
 * store (and recompute the breaker before it), the breaker would stay set with nothing behind
 * it; a second call added then makes the main thread recompute it once more. */
int AddPendingCallFromOtherThread(int (*func)(void*), void* arg) {
  PyInterpreterState* interp = _PyInterpreterState_Main();
  struct _ceval_state* ceval2 = &interp->ceval;
  if (Py_AddPendingCall(func, arg) != 0) return -1;
  _Py_atomic_store_relaxed(&ceval2->eval_breaker, 1);
  if (!_Py_atomic_load_relaxed(&ceval2->pending.calls_to_do)) return Py_AddPendingCall(func, arg);
  return 0;
}
