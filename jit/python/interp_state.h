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

// The same if the breaker is set, else 0: what the interpreter does right after a CALL of
// anything but a Python function, and after CALL_FUNCTION_EX (an exception raises at the
// call, whose result is then dropped).
int HandleEvalBreakerAfterCall(PyThreadState* ts);

#ifdef __cplusplus
}
#endif

#endif  // A64JIT_JIT_PYTHON_INTERP_STATE_H_
