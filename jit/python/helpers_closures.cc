// The helper for the instruction that sets up a frame's cells (3.11's MAKE_CELL), declared in
// jit/runtime/helpers.h; COPY_FREE_VARS is inline (lower/frames.cc). Compiled code keeps its locals
// in the _PyInterpreterFrame's localsplus, so this works on the frame itself.
#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

// MAKE_CELL: the old value (NULL unless the slot is an argument, or was set through
// frame.f_locals before the instruction ran) moves into the new cell, so the slot's
// reference is handed over rather than copied. 0, or -1 with MemoryError.
int a64_make_cell(_PyInterpreterFrame* frame, int64_t index) {
  PyObject* initial = frame->localsplus[index];
  PyObject* cell = PyCell_New(initial);  // takes its own reference to `initial`
  if (cell == nullptr) return -1;
  frame->localsplus[index] = cell;
  Py_XDECREF(initial);
  return 0;
}

}  // namespace a64jit::runtime
