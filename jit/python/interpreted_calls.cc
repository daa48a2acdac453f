#include "jit/python/interpreted_calls.h"

#include "jit/python/interp_state.h"
#include "jit/python/loop_entry.h"
#include "jit/python/runtime_state.h"
#include "jit/python/thread_frames.h"

namespace a64jit::python {

PyObject* InterpretedVectorcall(PyObject* callable, PyObject* const* args, size_t nargsf,
                                PyObject* kwnames) {
  PyThreadState* ts = CurrentThreadState();
  auto* func = reinterpret_cast<PyFunctionObject*>(callable);
  auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  Runtime& r = TheRuntime();
  // A code that is not a function's (CO_OPTIMIZED) runs with the globals as its locals: a
  // __code__ replaced since the vectorcall went in.
  if (!PlainShape(code, nargs, kwnames) || (code->co_flags & CO_OPTIMIZED) == 0 || !r.enabled() ||
      !RunsHere(r, ts) || !FrameFits(ts, code)) {
    return _PyFunction_Vectorcall(callable, args, nargsf, kwnames);
  }
  Py_INCREF(func);  // the frame's reference
  _PyInterpreterFrame* frame = PushThreadFrame(ts, func, code, nargs);
  for (Py_ssize_t i = 0; i < nargs; i++) frame->localsplus[i] = Py_NewRef(args[i]);
  PyObject* result;
  if (QuietCall(r, frame)) {  // EvalFrameHook's second path, without its other tests
    r.stats.interpreted_entries++;
    r.stats.interpreted_vectorcalls++;
    result = Interpret(ts, frame, 0);
  } else {
    result = EvalFrameHook(ts, frame, 0);
  }
  PopFrame(ts, frame);
  return result;
}

}  // namespace a64jit::python
