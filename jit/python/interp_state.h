// Inside 3.11's interpreter state, from C (interp_state.c): its header does not
// compile as C++.
#ifndef A64JIT_JIT_PYTHON_INTERP_STATE_H_
#define A64JIT_JIT_PYTHON_INTERP_STATE_H_

#include <Python.h>

#ifdef __cplusplus
extern "C" {
#endif

// The eval breaker (a 32-bit int, non-zero when the interpreter must stop at its next check:
// a signal, a GIL drop request, a pending call or async exception).
const void* EvalBreakerAddress(PyInterpreterState* interp);

// Does what the interpreter does when it finds the breaker set (ceval.c's
// eval_frame_handle_pending): runs signal handlers and pending calls, hands the GIL to a
// thread that asked for it, raises an asynchronous exception. -1 with an exception set.
int HandleEvalBreaker(PyThreadState* ts);

// Py_AddPendingCall for a thread other than the main one, which also sets the breaker (3.11
// does not from another thread). `func` may then run twice, and must allow for it.
int AddPendingCallFromOtherThread(int (*func)(void*), void* arg);

// Whether the main interpreter's queue of pending calls holds a call not yet taken other than
// `mine` and `also_mine` (read without its lock: a call being added meanwhile may or may not
// count).
int OtherPendingCallsQueued(int (*mine)(void*), int (*also_mine)(void*));

// While compiled code runs inside a pending call, no other pending call can run (3.11's
// make_pending_calls does not nest), and one queued would leave the breaker set for the whole
// run: every test of it a call of HandleEvalBreaker. HoldPendingCalls recomputes the breaker
// without the pending calls, as HandleEvalBreaker then does too; ReleasePendingCalls
// recomputes it with them. The calls queued meanwhile run when the pending call that ran the
// code returns. (Dropping the JIT's own queued looks instead left the waker waiting for a look
// that never came: int_loops lost its later loop entries.)
void HoldPendingCalls(void);
// Whether the pending calls running now were run by HandleEvalBreaker (compiled code's test).
int PendingCallsFromCompiledCode(void);
void ReleasePendingCalls(void);

// Where the breaker lies in PyInterpreterState (an _Py_atomic_int: one int).
extern const size_t kEvalBreakerOffset;

// The interpreter's free list of floats (pycore_floatobject.h's struct _Py_float_state: the
// count, and the list linked through the floats' ob_type), which PyFloat_FromDouble takes
// from and float deallocation gives back to while the count is below its maximum.
const void* FloatFreeListAddress(PyInterpreterState* interp);
struct FloatFreeListFacts {
  size_t size, numfree_offset, free_list_offset;
  int max_free;  // PyFloat_MAXFREELIST; 0: this build keeps no free list
};
extern const struct FloatFreeListFacts kFloatFreeListFacts;

// _Py_tracemalloc_config.tracing (an int): while it is set, every new reference must be
// reported (_Py_NewReference), so a float is not taken from the free list inline.
const void* TracemallocTracingAddress(void);

// The int 0 among 3.11's small ints (_PyRuntime's static array from -5 to 256: the int v is
// at this address plus v objects). Static data, there before Python starts.
PyObject* SmallIntZeroObject(void);

// A dead async generator value wrapper (_PyAsyncGenWrappedValue) taken off the interpreter's
// free list, as genobject.c's _PyAsyncGenValueWrapperNew takes one (it is not exported),
// without a reference (the caller makes it a new one: _Py_NewReference); NULL when the list is
// empty.
PyObject* TakeFreeAsyncGenValueWrapper(PyInterpreterState* interp);

// _PyRuntime.gilstate.tstate_current (an _Py_atomic_address): the thread state holding the
// GIL, what PyThreadState_Get returns (and checks for NULL) and _PyThreadState_GET reads.
const void* CurrentThreadStateAddress(void);

#ifdef __cplusplus
}

// The thread state of the thread that holds the GIL (the caller), as 3.11's inline
// _PyThreadState_GET reads it: one load instead of a call of PyThreadState_Get.
inline const uintptr_t* const kCurrentThreadStateSlot =
    static_cast<const uintptr_t*>(CurrentThreadStateAddress());
inline PyThreadState* CurrentThreadState() {
  return reinterpret_cast<PyThreadState*>(
      __atomic_load_n(kCurrentThreadStateSlot, __ATOMIC_RELAXED));
}

// The frame of the compiled code that called a helper: the thread's current frame, which
// compiled code keeps its own while it runs, as 3.11's interpreter does (jit.cc's BeginRun,
// the call stub, a generator's resumption). The site caches' helpers find their frame here,
// so that the calls in their sites' cold paths do not pass it.
inline struct _PyInterpreterFrame* RunningFrame() {
  return CurrentThreadState()->cframe->current_frame;
}

// What the interpreter does right after a CALL of anything but a Python function, and after
// CALL_FUNCTION_EX: if the breaker is set, handle it; an exception then raises at the call
// and its result is dropped. Inline: one load on the path of every such call.
inline PyObject* EvalBreakerAfterCall(PyThreadState* ts, PyObject* result) {
  const auto* breaker =
      reinterpret_cast<const int*>(reinterpret_cast<const char*>(ts->interp) + kEvalBreakerOffset);
  if (result != nullptr && __atomic_load_n(breaker, __ATOMIC_RELAXED) != 0 &&
      HandleEvalBreaker(ts) < 0) {
    Py_CLEAR(result);
  }
  return result;
}
#endif

#endif  // A64JIT_JIT_PYTHON_INTERP_STATE_H_
