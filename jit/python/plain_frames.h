// The frame of a plain call of compiled code (a compiled function called with exactly its
// positional parameters), pushed and popped in C as the guest call stub pushes and pops it
// (jit/lower/call_stub.cc): for jit.cc's CallCompiled and instantiate.cc's a64_init_enter,
// always inline, since these are on every such call's path.
#ifndef A64JIT_JIT_PYTHON_PLAIN_FRAMES_H_
#define A64JIT_JIT_PYTHON_PLAIN_FRAMES_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include <cstdint>

#include "jit/lower/lower.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

// The compiled state of `code` if the state cache holds it (it holds compiled states only),
// else nullptr: no lookup in the code's extra slot.
A64JIT_ALWAYS_INLINE CodeState* CachedState(const PyCodeObject* code) {
  const StateCacheEntry& e = g_state_cache[StateCacheIndex(code)];
  return e.code == code ? e.state : nullptr;
}

// `base` plus the frame of a compiled state's code (FrameSlots, as its stub view keeps it
// in bytes: one load, not two).
A64JIT_ALWAYS_INLINE PyObject** PastFrame(PyObject** base, const CodeState* st) {
  return reinterpret_cast<PyObject**>(reinterpret_cast<char*>(base) + st->stub.frame_bytes);
}

// Whether a frame of `st`'s code fits in the thread's current data-stack chunk (also with no
// chunk: top and limit NULL), as the call stub's bb26 tests it.
A64JIT_ALWAYS_INLINE bool FrameFitsChunk(PyThreadState* ts, const CodeState* st) {
  PyObject** base = ts->datastack_top;
  return base != nullptr && PastFrame(base, st) < ts->datastack_limit;
}

// Whether a plain call applies (CallCompiled's common case, where jit.cc's DirectRunFits holds): a
// compiled function whose state `st` the cache holds, called with exactly its positional parameters
// (plain_argcount says so without the code's flags), tracing off, with room on the data stack.
A64JIT_ALWAYS_INLINE bool PlainCallFits(PyThreadState* ts, Py_ssize_t nargs, const CodeState* st) {
  if (st == nullptr || st->stub.plain_argcount != nargs || ts->cframe->use_tracing) return false;
  return FrameFitsChunk(ts, st);
}

// The frame of a plain call (PlainCallFits) of `func`, whose state is `st`, pushed on the data
// stack as the call stub pushes it: _PyFrame_InitializeSpecials with the code borrowed (the
// runtime pins compiled code; it becomes the frame's own reference before anything else may
// clear or keep the frame) and the function's reference the caller's to give. Its locals from
// `filled` on are NULL; the caller fills the ones before.
A64JIT_ALWAYS_INLINE _PyInterpreterFrame* PushPlainFrame(PyThreadState* ts, const CodeState* st,
                                                         PyFunctionObject* func,
                                                         Py_ssize_t filled) {
  auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(ts->datastack_top);
  ts->datastack_top = PastFrame(ts->datastack_top, st);
  frame->f_func = func;
  frame->f_code = code;
  frame->f_builtins = func->func_builtins;
  frame->f_globals = func->func_globals;
  frame->f_locals = nullptr;
  frame->stacktop = code->co_nlocalsplus;
  frame->frame_obj = nullptr;
  frame->prev_instr = _PyCode_CODE(code) - 1;
  frame->is_entry = false;
  frame->owner = FRAME_OWNED_BY_THREAD;
  for (Py_ssize_t i = filled; i < code->co_nlocalsplus; i++) frame->localsplus[i] = nullptr;
  return frame;
}

// A pushed frame made current, its level of recursion taken (the caller checked there was one),
// as the call stub's bb30 does before the entry.
A64JIT_ALWAYS_INLINE void MakeFrameCurrent(PyThreadState* ts, _PyInterpreterFrame* frame) {
  ts->recursion_remaining--;
  frame->previous = ts->cframe->current_frame;
  ts->cframe->current_frame = frame;
}

// Whether a run of a frame PushPlainFrame pushed ended as the call stub pops it itself: a value
// returned (the compiled return made the caller current and released the locals, stacktop 0)
// with no frame object that may take the frame over and no f_locals dict. Else a deopt, an
// error or one of those: the general end, which releases a frame's references as 3.11's
// _PyFrame_Clear does.
A64JIT_ALWAYS_INLINE bool PlainReturn(const _PyInterpreterFrame* frame, uint64_t result) {
  return result >= lower::kDeoptCodeLimit &&
         (static_cast<uintptr_t>(frame->stacktop) | reinterpret_cast<uintptr_t>(frame->frame_obj) |
          reinterpret_cast<uintptr_t>(frame->f_locals)) == 0;
}

// PlainReturn's frame popped before the release of its function, which may run code that pushes
// frames; the code was borrowed.
A64JIT_ALWAYS_INLINE PyObject* PopPlainFrame(PyThreadState* ts, _PyInterpreterFrame* frame,
                                             uint64_t result) {
  ts->recursion_remaining++;
  ts->datastack_top = reinterpret_cast<PyObject**>(frame);
  Py_DECREF(frame->f_func);
  return reinterpret_cast<PyObject*>(result);
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_PLAIN_FRAMES_H_
