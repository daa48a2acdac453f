// Frames the JIT pushes on the thread's data stack for calls CPython would otherwise push and
// bind itself (jit.cc's vectorcall for compiled functions, interpreted_calls.cc's for
// interpreted ones), and the test by which the hook's quiet path counts a call and hands it to
// the interpreter. Always inline: they are on every such call's path.
#ifndef A64JIT_JIT_PYTHON_THREAD_FRAMES_H_
#define A64JIT_JIT_PYTHON_THREAD_FRAMES_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/python/call_capture.h"
#include "jit/python/jit_stack.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

// Py_DECREF, inlined: GCC keeps the header's as a call in larger callers.
A64JIT_ALWAYS_INLINE void Release(PyObject* o) {
  if (--o->ob_refcnt == 0) _Py_Dealloc(o);
}

// 3.11's _PyFrame_Clear, for frames the JIT pushed.
A64JIT_ALWAYS_INLINE void ClearFrame(_PyInterpreterFrame* frame) {
  if (frame->frame_obj != nullptr && ReleaseFrameObject(frame)) return;
  for (int i = 0; i < frame->stacktop; i++) Py_XDECREF(frame->localsplus[i]);
  if (frame->f_locals != nullptr) Release(frame->f_locals);
  Release(reinterpret_cast<PyObject*>(frame->f_func));
  Release(reinterpret_cast<PyObject*>(frame->f_code));
}

// Whether a call passes exactly the positional parameters (the arguments are then the
// first locals as they are); anything else goes through BindArguments.
A64JIT_ALWAYS_INLINE bool PlainShape(const PyCodeObject* code, Py_ssize_t nargs,
                                     PyObject* kwnames) {
  return kwnames == nullptr && nargs == code->co_argcount && OnlyPositionalParameters(code);
}

// Whether compiled code may run on `ts` now, and the interpreter in the JIT's place: this
// runtime's interpreter, tracing off.
A64JIT_ALWAYS_INLINE bool RunsHere(const Runtime& r, PyThreadState* ts) {
  return ts->interp == r.interp && !ts->cframe->use_tracing;
}

// Whether a frame of `code` fits in the thread's current data-stack chunk (else CPython's
// path pushes it, with a new chunk).
A64JIT_ALWAYS_INLINE bool FrameFits(const PyThreadState* ts, PyCodeObject* code) {
  return ts->datastack_top != nullptr && ts->datastack_top + FrameSlots(code) < ts->datastack_limit;
}

// A frame of `func` (whose code is `code`) pushed on the thread's data stack where FrameFits:
// _PyFrame_InitializeSpecials (the code's reference taken), its locals from `first_unset` on
// NULL (the caller sets the ones before), the frame's reference to `func` still the caller's
// to give.
A64JIT_ALWAYS_INLINE _PyInterpreterFrame* PushThreadFrame(PyThreadState* ts, PyFunctionObject* func,
                                                          PyCodeObject* code,
                                                          Py_ssize_t first_unset) {
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(ts->datastack_top);
  ts->datastack_top += FrameSlots(code);
  _PyFrame_InitializeSpecials(frame, func, nullptr, code->co_nlocalsplus);
  for (Py_ssize_t i = first_unset; i < code->co_nlocalsplus; i++) frame->localsplus[i] = nullptr;
  return frame;
}

// Undoes a frame's push (PushThreadFrame) after its run: the frame
// cleared (its references released) and popped.
A64JIT_ALWAYS_INLINE void PopFrame(PyThreadState* ts, _PyInterpreterFrame* frame) {
  ClearFrame(frame);
  ts->datastack_top = reinterpret_cast<PyObject**>(frame);
}

// Whether `frame`'s call, on a thread where compiled code may run (jit.cc RunsHere), only counts
// towards its function's compile (CountedQuietly, which counts it) and the interpreter may run it
// here at once: no capture, and the stack room the hook's slow path would ask for. A function
// without a state yet takes that path, which makes one. No library call on the way: most of an
// application's calls come here, before their functions are compiled, if ever.
A64JIT_ALWAYS_INLINE bool QuietCall(const Runtime& r, const _PyInterpreterFrame* frame) {
  if (__builtin_expect(CaptureActive(), 0)) return false;
  auto* st = static_cast<CodeState*>(CodeExtraSlot(frame->f_code, r.extra_index));
  return st != nullptr && StackRoom() >= kMinRoom && CountedQuietly(r, st);
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_THREAD_FRAMES_H_
