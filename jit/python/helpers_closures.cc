// Helpers for the two instructions that set up a frame's cells and free variables (3.11's
// MAKE_CELL and COPY_FREE_VARS), declared in jit/runtime/helpers.h. Compiled code keeps its
// locals in the _PyInterpreterFrame's localsplus, so these work on the frame itself.
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

// COPY_FREE_VARS: free variables follow the plain locals and the cells that are not
// arguments; each slot gets its own reference to the function's closure cell.
void a64_copy_free_vars(_PyInterpreterFrame* frame, int64_t n) {
  PyCodeObject* code = frame->f_code;
  PyObject* closure = frame->f_func->func_closure;
  const int offset = code->co_nlocals + code->co_nplaincellvars;
  for (int64_t i = 0; i < n; i++) {
    frame->localsplus[offset + i] = Py_NewRef(PyTuple_GET_ITEM(closure, i));
  }
}

}  // namespace a64jit::runtime
