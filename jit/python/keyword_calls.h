// Compiled code's CALL with keyword arguments of a compiled function, entered from the
// keyword-call stub (jit/lower/call_stub.h) with no host frame between the two: the callee's
// frame pushed as the call stub pushes a plain call's, its parameters bound by plan
// (arguments.h). Before the stub, such a call went through a64_call, CallCompiledConsuming and a
// host run of the callee: `f(i, c=3)` of a compiled `f(a, b=1, c=2)` took about 350 guest
// instructions more than `f(i, 1, 3)`. Always inline, in the stub's helper (helpers.cc
// a64_call_kw_enter): under QEMU each call out of line costs a lookup of its return.
#ifndef A64JIT_JIT_PYTHON_KEYWORD_CALLS_H_
#define A64JIT_JIT_PYTHON_KEYWORD_CALLS_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/python/arguments.h"
#include "jit/python/jit.h"
#include "jit/python/jit_stack.h"
#include "jit/python/plain_frames.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

// Whether the call stub would enter a plain call of `st`'s code on `ts` now (call_stub.cc
// bb25-bb26): its thread, tracing off, below the recursion limit, room on the data stack; and a
// frame no larger than a level of a chain of direct calls may take (jit_stack.h).
A64JIT_ALWAYS_INLINE bool StubPushFits(const Runtime& r, PyThreadState* ts, const CodeState* st) {
  return st != nullptr && ts == r.stub_thread && !ts->cframe->use_tracing &&
         ts->recursion_remaining > 0 && st->code_stats.frame_size <= kMaxDirectFrame &&
         FrameFitsChunk(ts, st);
}

// EnterCompiledCall (jit.h) for a CALL with keyword arguments: `callable` a compiled function,
// `args` its `nargs` positional arguments and then the values of the keywords `kwnames` names
// (not NULL). Where the call stub would enter a plain call (StubPushFits), the frame is pushed
// as the stub pushes one and bound there; else EnterCompiledCall's general way. Returns the
// entry to call as entry(ts, *out), the arguments' references released, or nullptr with nothing
// done (they do not bind: a64_call then makes the call and raises CPython's TypeError).
A64JIT_ALWAYS_INLINE const void* EnterKeywordCall(PyThreadState* ts, PyObject* callable,
                                                  PyObject* const* args, Py_ssize_t nargs,
                                                  PyObject* kwnames, _PyInterpreterFrame** out) {
  Runtime& r = TheRuntime();
  auto* func = reinterpret_cast<PyFunctionObject*>(callable);
  CodeState* st = CachedState(reinterpret_cast<PyCodeObject*>(func->func_code));
  if (!StubPushFits(r, ts, st)) {
    const void* entry = EnterCompiledCall(ts, callable, args, nargs, kwnames, out);
    if (entry != nullptr) r.stats.keyword_entries++;
    return entry;
  }
  // The frame as the call stub pushes a plain call's (PushPlainFrame), with only its parameters
  // NULL for binding: compiled code clears the locals past them at its entry
  // (lower/frames.cc ClearLocalsPastParameters).
  PyObject** base = ts->datastack_top;
  auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  _PyInterpreterFrame* frame = PushPlainFrame(ts, st, func, code->co_nlocalsplus);
  const Py_ssize_t parameters = ParameterCount(code);
  for (Py_ssize_t i = 0; i < parameters; i++) frame->localsplus[i] = nullptr;
  if (!BindArguments(func, args, nargs, kwnames, frame->localsplus)) {
    ts->datastack_top = base;  // unbound, nothing to release: the caller's path raises
    return nullptr;
  }
  // Binding allocates: a finalizer it ran may have switched tracing on, and compiled code
  // expects it off on entry (jit.cc RunBoundFrame). Only the parameters hold anything yet.
  if (__builtin_expect(ts->cframe->use_tracing != 0, 0)) {
    for (Py_ssize_t i = 0; i < parameters; i++) Py_CLEAR(frame->localsplus[i]);
    ts->datastack_top = base;
    return nullptr;
  }
  // The frame holds its own references; the function's moves in from the caller's stack.
  const Py_ssize_t total = nargs + PyTuple_GET_SIZE(kwnames);
  for (Py_ssize_t i = 0; i < total; i++) Py_DECREF(args[i]);
  MakeFrameCurrent(ts, frame);
  r.stats.direct_entries++;
  r.stats.keyword_entries++;
  *out = frame;
  return st->stub.entry;
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_KEYWORD_CALLS_H_
