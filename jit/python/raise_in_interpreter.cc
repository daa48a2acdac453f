// Exceptions leaving compiled frames: the interpreter taking over a frame that leaves with one,
// without the entry event 3.11 would report for it, and the traceback entry of a frame.
#include <Python.h>
#include <internal/pycore_frame.h>

#include "jit/python/loop_entry.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {
namespace {

// A compiled frame that leaves with an exception enters the interpreter as a generator's
// throw() does (throwflag 1), and 3.11 then reports a "call" event to the tracer and the
// profiler (TRACE_FUNCTION_THROW_ENTRY): right for a generator being resumed, wrong for a
// frame that has been running all along. While tracing is on, the interpreter gets filters
// in place of the trace and profile functions that drop exactly that one event.
struct EntryEventFilter {
  Py_tracefunc trace = nullptr, profile = nullptr;
};
thread_local EntryEventFilter t_entry_filter;

int FilterTraceEntry(PyObject* obj, PyFrameObject* f, int what, PyObject* arg) {
  PyThreadState* ts = PyThreadState_Get();
  ts->c_tracefunc = t_entry_filter.trace;
  return what == PyTrace_CALL ? 0 : t_entry_filter.trace(obj, f, what, arg);
}

int FilterProfileEntry(PyObject* obj, PyFrameObject* f, int what, PyObject* arg) {
  PyThreadState* ts = PyThreadState_Get();
  ts->c_profilefunc = t_entry_filter.profile;
  return what == PyTrace_CALL ? 0 : t_entry_filter.profile(obj, f, what, arg);
}

}  // namespace

PyObject* RaiseInInterpreter(PyThreadState* ts, _PyInterpreterFrame* frame) {
  if (!ts->cframe->use_tracing) return Interpret(ts, frame, 1);
  const EntryEventFilter saved = t_entry_filter;  // a nested deopt inside a trace function
  t_entry_filter = {ts->c_tracefunc, ts->c_profilefunc};
  if (ts->c_tracefunc != nullptr) ts->c_tracefunc = FilterTraceEntry;
  if (ts->c_profilefunc != nullptr) ts->c_profilefunc = FilterProfileEntry;
  PyObject* result = Interpret(ts, frame, 1);
  // Not reached if the interpreter left before its entry events (a RecursionError).
  if (ts->c_tracefunc == FilterTraceEntry) ts->c_tracefunc = t_entry_filter.trace;
  if (ts->c_profilefunc == FilterProfileEntry) ts->c_profilefunc = t_entry_filter.profile;
  t_entry_filter = saved;
  return result;
}

void AddTracebackEntry(_PyInterpreterFrame* frame) {
  PyFrameObject* f = frame->frame_obj != nullptr ? frame->frame_obj : PyEval_GetFrame();
  if (f != nullptr) {
    PyTraceBack_Here(f);
  } else {
    PyErr_NoMemory();
  }
}

}  // namespace a64jit::python
