// Frame objects that outlive the frames compiled code ran on (runtime_state.h).
#include <Python.h>
#include <frameobject.h>
#include <internal/pycore_frame.h>

#include <cstring>

#include "jit/python/runtime_state.h"

namespace a64jit::python {

namespace {

// What 3.11's hidden _PyFrame_Clear does when a frame object outlives its frame: the frame
// object takes a copy of the frame and links its f_back (PyFrame_GetBack makes the previous
// frame's object the way the interpreter would).
void TakeOwnership(PyFrameObject* f, _PyInterpreterFrame* frame) {
  const size_t size =
      static_cast<size_t>(reinterpret_cast<char*>(&frame->localsplus[frame->stacktop]) -
                          reinterpret_cast<char*>(frame));
  std::memcpy(f->_f_frame_data, frame, size);
  auto* copy = reinterpret_cast<_PyInterpreterFrame*>(f->_f_frame_data);
  f->f_frame = copy;
  copy->owner = FRAME_OWNED_BY_FRAME_OBJECT;
  if (f->f_back == nullptr) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);  // a pending exception is the caller's, keep it
    f->f_back = PyFrame_GetBack(f);
    if (f->f_back == nullptr) PyErr_Clear();
    PyErr_Restore(type, value, tb);
  }
  copy->previous = nullptr;
  if (!PyObject_GC_IsTracked(reinterpret_cast<PyObject*>(f))) PyObject_GC_Track(f);
}

}  // namespace

bool ReleaseFrameObject(_PyInterpreterFrame* frame) {
  PyFrameObject* f = frame->frame_obj;
  frame->frame_obj = nullptr;
  if (Py_REFCNT(f) > 1) {
    TakeOwnership(f, frame);
    Py_DECREF(f);
    return true;
  }
  Py_DECREF(f);
  return false;
}

}  // namespace a64jit::python
