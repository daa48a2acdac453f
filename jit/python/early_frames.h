// Entering compiled code at a loop header from an early frame: a frame that was running when
// the eval-frame hook went in. A script's main loop is usually one: it begins within the
// start delay. Such a frame never passed the hook, so the traps of loop_entry.h (a return to
// the hook) cannot reach it; RETURN_VALUE there returns into its caller's frame, in the same
// interpreter loop.
//
// How, in CPython 3.11 without changing it:
// - When the hook goes in, the main thread's function frames are noted (NoteEarlyFrames), each
//   with its code, its entry flag and the interpreter loop running it: a later frame may take
//   the memory of one that returned, maybe a call of the same function at the same place.
// - The start delay's waker asks the main thread for a look while any may still be running
//   (EarlyLookDue), backing off while the looks find nothing to do.
// - The interpreter runs the look at an eval-breaker check (compiled code's checks take no
//   early frame). When the frame it stopped in is an early frame that has just jumped back to a
//   loop header (prev_instr on the backward jump), and the policy finds its function hot (its loop
//   has run at least since the hook went in), the function is compiled with loop entries and the
//   look runs the rest of the call in compiled code from that header, there and then, inside the
//   pending call.
// - The interpreter must then leave the frame with that result without running any more of
//   its code. The look writes two code units at the header, where the interpreter goes on:
//   LOAD_FAST of the stack slot just above the header's stack, which holds the result, then
//   RETURN_VALUE (or, for an exception that left the compiled run, the exception and
//   RERAISE 0, which unwinds without adding a traceback entry). The frame's locals and stack
//   below it are left as a return would leave them. The units are put back at the next
//   interpreted run of any frame, once this frame has run them (RestoreExitTrap).
// - Refused (the frame stays with the interpreter) where that could go wrong: a generator or
//   coroutine, tracing on, another thread state, another frame of the same code anywhere,
//   other pending calls queued (they would run before the frame leaves), a header whose
//   neighbours lie in a `try` (the interpreter would look for a handler there), a slot past
//   the frame's stack, or a slot index past one byte.
// While the compiled rest of the call runs, no pending call runs (3.11's make_pending_calls
// does not run one within another): the waker asks nothing meanwhile, the eval breaker leaves
// out pending calls asked for by others (HoldPendingCalls), which run once the run is over,
// before the frame leaves; signals are handled as ever.
#ifndef A64JIT_JIT_PYTHON_EARLY_FRAMES_H_
#define A64JIT_JIT_PYTHON_EARLY_FRAMES_H_

#include <Python.h>
#include <internal/pycore_frame.h>

#include <cstdint>

#include "jit/python/runtime_state.h"

namespace a64jit::python {

// The hook went in (holding the GIL): notes the function frames `ts` is running.
void NoteEarlyFrames(PyThreadState* ts);
// Forgets them (the JIT disabled).
void ForgetEarlyFrames();

// The waker (any thread, no GIL): whether to ask for a look for early frames now, and
// whether the compiled rest of one is running (then it asks nothing: no pending call can run).
bool EarlyLookDue(int64_t now_ns);
bool EarlyRunInProgress();

// For tests (a64jit._early_look_asker): asks for a look without the policy's question from
// the main thread itself, at its next eval-breaker check. False if the queue is full.
bool AskEarlyLook();

// The look (the GIL held, in a pending call on the main thread): if the current frame is an
// early frame at a loop header whose function is hot (or `force`), runs the rest of its call
// in compiled code and sets the exit trap. Whether it did.
bool LookAtEarlyFrame(bool force);

// The exit trap's code, while one is set.
extern PyCodeObject* g_exit_trap_code;
// Puts the exit trap's units back if its frame has run them.
void RestoreExitTrap();

// jit.cc: the rest of `frame`'s call in compiled code from the header `unit`, with `depth`
// values on its stack, while the interpreter's own loop for it waits in a pending call.
PyObject* RunEarlyFrame(PyThreadState* ts, _PyInterpreterFrame* frame, CodeState* st, int unit,
                        int depth);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_EARLY_FRAMES_H_
