// The vectorcall the JIT gives functions that run interpreted (docs/cpython311.md, "Functions
// that stay interpreted get a vectorcall too").
#ifndef A64JIT_JIT_PYTHON_INTERPRETED_CALLS_H_
#define A64JIT_JIT_PYTHON_INTERPRETED_CALLS_H_

#include <Python.h>
#include <internal/pycore_frame.h>

namespace a64jit::python {

// func->vectorcall of a function the hook has seen run interpreted (AdoptInterpretedVectorcall).
// With an eval-frame hook installed, 3.11's CALL no longer pushes a Python callee's frame
// itself (CALL_PY_EXACT_ARGS deopts, CALL takes PyObject_Vectorcall), and
// _PyFunction_Vectorcall then binds the arguments generically (_PyEval_Vector,
// initialize_locals) before the hook sees the frame. A plain call (positional arguments, one
// per parameter) instead gets its frame pushed as CPython's inline call would push it, is
// counted as the hook's quiet path counts it and goes to the interpreter (anything else the
// hook would do, compiling included, goes through the hook itself); the rest, and calls with
// tracing on, the JIT disabled, another interpreter or a full data-stack chunk, take
// CPython's path.
PyObject* InterpretedVectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                                PyObject* kwnames);

// Later plain calls of `frame`'s function object from compiled code, the interpreter or C
// skip CPython's generic binding (InterpretedVectorcall). Not for a generator's frame (its
// function ran when the generator was made), a function whose __code__ was replaced
// meanwhile, nor one whose code is not a function's (`types.FunctionType(module_code, ns)`:
// _PyFunction_Vectorcall gives such a frame the globals as its locals); a compiled function's
// vectorcall stays JitVectorcall.
inline void AdoptInterpretedVectorcall(const _PyInterpreterFrame* frame) {
  PyFunctionObject* func = frame->f_func;
  if (func->vectorcall == _PyFunction_Vectorcall && frame->owner == FRAME_OWNED_BY_THREAD &&
      func->func_code == reinterpret_cast<PyObject*>(frame->f_code) &&
      (frame->f_code->co_flags & CO_OPTIMIZED) != 0) {
    func->vectorcall = InterpretedVectorcall;
  }
}

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_INTERPRETED_CALLS_H_
