// A deopt exit's frame, finished by the runtime (jit.cc's FinishDeopt): its code found,
// the frame completed as the interpreter expects it, or unwound when an exception leaves it.
#ifndef A64JIT_JIT_PYTHON_DEOPT_FRAMES_H_
#define A64JIT_JIT_PYTHON_DEOPT_FRAMES_H_

#include <Python.h>

#include <cstdint>

#include "jit/python/runtime_state.h"

namespace a64jit::python {

// The deopt code an exit's `result` stands for (lower.h's codes; an exit by call returned its
// bl's offset; an exit whose top stack entry is NULL may stand for another).
uint64_t DeoptCodeOf(const CodeState& st, const _PyInterpreterFrame* frame, uint64_t result);
// What the exit `code` leaves to the runtime: prev_instr, stacktop, and new references to the
// borrowed locals and constants on its value stack.
void CompleteFrame(const CodeState& st, _PyInterpreterFrame* frame, uint64_t code);
// What the interpreter's error path does before it leaves a frame no handler covers, with
// tracing off: its traceback entry (none after a re-raise) and its value stack released.
void UnwindFrame(_PyInterpreterFrame* frame, bool reraised);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_DEOPT_FRAMES_H_
