// Entering compiled code at a loop header, from a frame the interpreter is running: a
// function called once whose loop runs long (a script's main loop) gets compiled code for
// the rest of that call, not only for its next one.
//
// How, in CPython 3.11 without changing it:
// - While the hook runs a timed interpreted run of a function with a loop (TimesLoop), it is
//   registered here (TimedRun). The start delay's waker thread goes on ticking after the
//   hook is in (start_delay.h); when the innermost run on the main thread has lasted a tick,
//   it asks the main thread for a look (Py_AddPendingCall), which the interpreter runs at its
//   next eval-breaker test.
// - The look (holding the GIL) asks the tiering policy, with the run's time so far. When the
//   function qualifies, it compiles it with an entry at each loop header (block 0 dispatches
//   on prev_instr, as a generator's does: hir::CodeInfo::loop_entries) and sets a trap at
//   each header: the opcode in co_code_adaptive becomes RETURN_VALUE, its argument kept (a
//   superinstruction before it reads only that).
// - At the next header the interpreter runs the trap. At an entry frame (every frame the hook
//   runs is one) 3.11's RETURN_VALUE pops one value, stores the stack pointer, leaves the
//   recursion count and the C frame and returns, without clearing the frame. The hook then
//   sees prev_instr on a trap (AfterLoopTrap): it removes the code's traps, pushes the value
//   back, and runs the compiled code, which enters at that header with the frame's locals
//   and stack. Where compiled code may not run (tracing on), the interpreter runs the header
//   again.
// - A frame that began before the hook went in is not an entry frame: early_frames.h takes it.
// - Traps are set only where no frame of the code is in a state that RETURN_VALUE would pop
//   into its caller: no frame of it that is not an entry frame, on any thread. They live only
//   until the frame's next header: any frame that runs one takes them all away, and so do the
//   end of the run that set them, a64jit.disable(), and tracing or profiling switched on (an
//   audit hook, added with the first trap: a trap run while tracing would report a return).
#ifndef A64JIT_JIT_PYTHON_LOOP_ENTRY_H_
#define A64JIT_JIT_PYTHON_LOOP_ENTRY_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include <cstdint>

#include "jit/python/early_frames.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

// A timed interpreted run in progress on the main thread (InterpretTimed), innermost last.
struct TimedRun {
  CodeState* st;
  _PyInterpreterFrame* frame;
  PyThreadState* ts;
  int64_t start_ns;
  TimedRun* outer;
  // Nothing more to do for it: its frame went on in compiled code (AfterLoopTrap), or its
  // function will not be compiled. The waker then stops asking.
  bool done;
};
void BeginTimedRun(TimedRun* run);
// The run is over: traps it left in its code go.
void EndTimedRun(TimedRun* run);

// Whether some frame of `code` on some thread of the JIT's interpreter satisfies `pred`.
template <class Pred>
bool AnyFrameOf(const Runtime& r, const PyCodeObject* code, Pred pred) {
  for (PyThreadState* t = PyInterpreterState_ThreadHead(r.interp); t != nullptr;
       t = PyThreadState_Next(t)) {
    for (_PyInterpreterFrame* f = t->cframe->current_frame; f != nullptr; f = f->previous) {
      if (f->f_code == code && pred(f)) return true;
    }
  }
  return false;
}

// co_code is made from the code units once and then cached (_co_code): made before a trap is
// written, it never shows one. False (the error cleared) if it cannot be made.
bool CacheCoCode(PyCodeObject* code);

// The look the waker asks for, as a pending call (it may run twice for one ask).
int PendingLook(void*);

// The waker's tick (any thread, without the GIL): asks the main thread for a look when the
// innermost timed run has lasted `min_ns`.
void TickLoopEntries(int64_t now_ns, int64_t min_ns);

// The look, now (the GIL held): for the innermost timed run, compile and set traps if the
// policy says its function is hot (`force`: if it may be compiled at all). Whether traps are
// set. a64jit._enter_loops() calls it with force, for tests.
bool LookAtLoops(bool force);

// How many codes have traps set; while 0, no frame can stop at one.
extern int g_trapped_codes;

// Whether `frame` stopped at one of its code's traps (the interpreter returned from it).
bool AtLoopTrap(const _PyInterpreterFrame* frame);
// `frame` goes on in compiled code: when it is the innermost timed run's, that run is done
// with traps.
void NoteLoopEntered(const _PyInterpreterFrame* frame);
// Takes the traps of `code` away (restores its code units).
void RemoveLoopTraps(PyCodeObject* code);
void RemoveAllLoopTraps();

// jit.cc: after the interpreter returned `result` for `frame` with traps set somewhere: the
// rest of the run when it stopped at a trap, else `result`. A trap's result may be NULL (the
// word below an empty stack, an unbound last local) with no exception set.
PyObject* AfterLoopTrap(PyThreadState* ts, _PyInterpreterFrame* frame, PyObject* result);

// The interpreter running `frame`, and a frame stopped at a trap entering compiled code.
A64JIT_ALWAYS_INLINE PyObject* Interpret(PyThreadState* ts, _PyInterpreterFrame* frame,
                                         int throwflag) {
  if (__builtin_expect(g_exit_trap_code != nullptr, 0)) RestoreExitTrap();
  PyObject* result = _PyEval_EvalFrameDefault(ts, frame, throwflag);
  if (__builtin_expect(g_trapped_codes != 0, 0)) return AfterLoopTrap(ts, frame, result);
  return result;
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_LOOP_ENTRY_H_
