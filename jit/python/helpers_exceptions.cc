// Helpers for compiled exception handlers (declared in jit/runtime/helpers.h): catching an
// exception as the interpreter's exception_unwind does, and the handler instructions
// PUSH_EXC_INFO, POP_EXCEPT, CHECK_EXC_MATCH, WITH_EXCEPT_START and RAISE_VARARGS. What
// 3.11's ceval.c does for each is restated in docs/cpython311.md ("Exception handlers").
#include <Python.h>
#include <frameobject.h>
#include <internal/pycore_frame.h>

#include "jit/python/jit.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

PyObject* a64_frame_lasti(_PyInterpreterFrame* frame) {
  return PyLong_FromLong(_PyInterpreterFrame_LASTI(frame));
}

PyObject* a64_catch_exception(PyThreadState* ts, _PyInterpreterFrame* frame,
                              int64_t add_traceback) {
  // Tracing reports the exception from the interpreter's error path (call_exc_trace); and
  // only the thread's current frame gets its frame object from PyEval_GetFrame.
  if (ts->cframe->use_tracing || ts->cframe->current_frame != frame) return nullptr;
  python::CountCaughtException();
  if (add_traceback != 0) python::AddTracebackEntry(frame);
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  PyException_SetTraceback(value, tb != nullptr ? tb : Py_None);
  Py_XDECREF(tb);
  Py_XDECREF(type);
  return value;
}

PyObject* a64_push_exc_info(PyThreadState* ts, PyObject* exc) {
  _PyErr_StackItem* info = ts->exc_info;
  // The handled exception's reference moves to the stack; None gets one of its own.
  PyObject* previous = info->exc_value != nullptr ? info->exc_value : Py_NewRef(Py_None);
  info->exc_value = Py_NewRef(exc);
  return previous;
}

void a64_pop_except(PyThreadState* ts, PyObject* value) {
  _PyErr_StackItem* info = ts->exc_info;
  PyObject* replaced = info->exc_value;
  info->exc_value = value;
  Py_XDECREF(replaced);  // last: its deallocation may run code that looks at exc_info
}

namespace {

bool CanCatch(PyObject* type) {
  if (!PyTuple_Check(type)) return PyExceptionClass_Check(type);
  for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(type); i++) {
    if (!PyExceptionClass_Check(PyTuple_GET_ITEM(type, i))) return false;
  }
  return true;
}

}  // namespace

int a64_check_exc_match(PyObject* exc, PyObject* type) {
  if (!CanCatch(type)) {
    PyErr_SetString(PyExc_TypeError,
                    "catching classes that do not inherit from BaseException is not allowed");
    return -1;
  }
  return PyErr_GivenExceptionMatches(exc, type);
}

int a64_is_stop_async_iteration(PyObject* exc) {
  return PyErr_GivenExceptionMatches(exc, PyExc_StopAsyncIteration);
}

PyObject* a64_with_except_start(PyObject* exit_func, PyObject* exc) {
  PyObject* tb = PyException_GetTraceback(exc);  // new reference, or NULL
  PyObject* args[] = {reinterpret_cast<PyObject*>(Py_TYPE(exc)), exc, tb != nullptr ? tb : Py_None};
  PyObject* result = PyObject_Vectorcall(exit_func, args, 3, nullptr);
  Py_XDECREF(tb);
  return result;
}

namespace {

// `cause` (consumed) as the value __cause__ takes: an instance, NULL for None, a class
// called with no arguments. False, with TypeError (or the call's error) set, otherwise.
bool CauseValue(PyObject* cause, PyObject** out) {
  *out = nullptr;
  if (Py_IsNone(cause)) {
    Py_DECREF(cause);
    return true;
  }
  if (PyExceptionInstance_Check(cause)) {
    *out = cause;
    return true;
  }
  if (PyExceptionClass_Check(cause)) {
    *out = PyObject_CallNoArgs(cause);
    Py_DECREF(cause);
    return *out != nullptr;
  }
  Py_DECREF(cause);
  PyErr_SetString(PyExc_TypeError, "exception causes must derive from BaseException");
  return false;
}

// `exc` (consumed) as the instance to raise: a class is called with no arguments.
PyObject* InstanceToRaise(PyObject* exc) {
  if (PyExceptionInstance_Check(exc)) return exc;
  if (!PyExceptionClass_Check(exc)) {
    Py_DECREF(exc);
    PyErr_SetString(PyExc_TypeError, "exceptions must derive from BaseException");
    return nullptr;
  }
  PyObject* value = PyObject_CallNoArgs(exc);
  if (value != nullptr && !PyExceptionInstance_Check(value)) {
    PyErr_Format(PyExc_TypeError,
                 "calling %R should have returned an instance of BaseException, not %R", exc,
                 Py_TYPE(value));
    Py_CLEAR(value);
  }
  Py_DECREF(exc);
  return value;
}

}  // namespace

void a64_raise(PyObject* exc, PyObject* cause) {
  PyObject* value = InstanceToRaise(exc);
  if (value == nullptr) {
    Py_XDECREF(cause);
    return;
  }
  if (cause != nullptr) {
    PyObject* fixed = nullptr;
    if (!CauseValue(cause, &fixed)) {
      Py_DECREF(value);
      return;
    }
    PyException_SetCause(value, fixed);  // steals `fixed`
  }
  PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(value)), value);
  Py_DECREF(value);
}

int64_t a64_reraise(PyThreadState* ts, _PyInterpreterFrame* frame, PyObject* exc, PyObject* lasti) {
  if (ts->cframe->use_tracing) return 1;
  if (lasti != nullptr && PyLong_Check(lasti)) {
    frame->prev_instr = _PyCode_CODE(frame->f_code) + PyLong_AsLong(lasti);
  }
  PyErr_Restore(Py_NewRef(reinterpret_cast<PyObject*>(Py_TYPE(exc))), exc,
                PyException_GetTraceback(exc));
  return 0;
}

}  // namespace a64jit::runtime
