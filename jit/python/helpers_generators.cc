// Helpers for 3.11's await, async-iteration, yield-from and send instructions
// (GET_AWAITABLE ... ASYNC_GEN_WRAP), declared in jit/runtime/helpers.h. 3.11 keeps the
// functions these rest on (_PyCoro_GetAwaitableIter, _PyGen_yf, _PyAsyncGenValueWrapperNew)
// hidden in libpython, so their logic is redone here from Objects/genobject.c, with the
// same exception types and messages. Operands are borrowed.
#include <Python.h>
#include <internal/pycore_frame.h>
#include <opcode.h>

#include <cstring>

#include "jit/python/async_gen_layout.h"
#include "jit/python/interp_state.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

namespace {

// A generator made from an @types.coroutine function: awaitable as it is.
bool IsIterableCoroutine(PyObject* o) {
  return PyGen_CheckExact(o) &&
         (reinterpret_cast<PyGenObject*>(o)->gi_code->co_flags & CO_ITERABLE_COROUTINE);
}

// _PyCoro_GetAwaitableIter: a coroutine itself, or what type(o).__await__ returns, which
// must be an iterator and not a coroutine (PEP 492).
PyObject* GetAwaitableIter(PyObject* o) {
  if (PyCoro_CheckExact(o) || IsIterableCoroutine(o)) return Py_NewRef(o);
  PyTypeObject* type = Py_TYPE(o);
  unaryfunc getter = type->tp_as_async != nullptr ? type->tp_as_async->am_await : nullptr;
  if (getter == nullptr) {
    PyErr_Format(PyExc_TypeError, "object %.100s can't be used in 'await' expression",
                 type->tp_name);
    return nullptr;
  }
  PyObject* res = getter(o);
  if (res == nullptr) return nullptr;
  if (PyCoro_CheckExact(res) || IsIterableCoroutine(res)) {
    PyErr_SetString(PyExc_TypeError, "__await__() returned a coroutine");
    Py_CLEAR(res);
  } else if (!PyIter_Check(res)) {
    PyErr_Format(PyExc_TypeError, "__await__() returned non-iterator of type '%.100s'",
                 Py_TYPE(res)->tp_name);
    Py_CLEAR(res);
  }
  return res;
}

// ceval.c's format_awaitable_error: for `async with`, a more telling message than
// "can't be used in 'await' expression" when __aenter__ / __aexit__ gave a non-awaitable.
void FormatAwaitableError(PyTypeObject* type, int64_t where) {
  if (type->tp_as_async != nullptr && type->tp_as_async->am_await != nullptr) return;
  if (where == 1) {
    PyErr_Format(PyExc_TypeError,
                 "'async with' received an object from __aenter__ that does not implement "
                 "__await__: %.100s",
                 type->tp_name);
  } else if (where == 2) {
    PyErr_Format(PyExc_TypeError,
                 "'async with' received an object from __aexit__ that does not implement "
                 "__await__: %.100s",
                 type->tp_name);
  }
}

// _PyGen_yf, without the new reference: whether the coroutine is inside an await (a SEND
// loop), delegating to a sub-iterator. Started frames only: the instruction after
// prev_instr is then a RESUME with oparg 2 or 3 exactly when the frame last yielded from
// inside `yield from` / `await`, and the sub-iterator is the top of the frame's stack.
// RESUME_QUICK counts as RESUME, as the unexported _PyOpcode_Deopt table maps it.
bool IsAwaitingSubiterator(PyGenObject* gen) {
  if (gen->gi_frame_state >= FRAME_CLEARED || gen->gi_frame_state == FRAME_CREATED) {
    return false;
  }
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  const _Py_CODEUNIT next = frame->prev_instr[1];
  const int opcode = _Py_OPCODE(next);
  if ((opcode != RESUME && opcode != RESUME_QUICK) || _Py_OPARG(next) < 2) return false;
  return _PyFrame_StackPeek(frame) != nullptr;
}

}  // namespace

// GET_AWAITABLE: awaiting a coroutine that another await is already driving is a
// RuntimeError.
PyObject* a64_get_awaitable(PyObject* iterable, int64_t where) {
  PyObject* iter = GetAwaitableIter(iterable);
  if (iter == nullptr) {
    FormatAwaitableError(Py_TYPE(iterable), where);
    return nullptr;
  }
  if (PyCoro_CheckExact(iter) && IsAwaitingSubiterator(reinterpret_cast<PyGenObject*>(iter))) {
    Py_DECREF(iter);
    PyErr_SetString(PyExc_RuntimeError, "coroutine is being awaited already");
    return nullptr;
  }
  return iter;
}

// GET_AITER: type(obj).__aiter__(obj), which must give something with __anext__.
PyObject* a64_get_aiter(PyObject* obj) {
  PyTypeObject* type = Py_TYPE(obj);
  unaryfunc getter = type->tp_as_async != nullptr ? type->tp_as_async->am_aiter : nullptr;
  if (getter == nullptr) {
    PyErr_Format(PyExc_TypeError,
                 "'async for' requires an object with __aiter__ method, got %.100s", type->tp_name);
    return nullptr;
  }
  PyObject* iter = getter(obj);
  if (iter == nullptr) return nullptr;
  PyTypeObject* iter_type = Py_TYPE(iter);
  if (iter_type->tp_as_async == nullptr || iter_type->tp_as_async->am_anext == nullptr) {
    PyErr_Format(PyExc_TypeError,
                 "'async for' received an object from __aiter__ that does not implement "
                 "__anext__: %.100s",
                 iter_type->tp_name);
    Py_DECREF(iter);
    return nullptr;
  }
  return iter;
}

// GET_ANEXT: an async generator's __anext__ is awaitable already; anything else's result
// goes through the awaitable protocol, its failure chained under stock's TypeError.
PyObject* a64_get_anext(PyObject* aiter) {
  PyTypeObject* type = Py_TYPE(aiter);
  if (PyAsyncGen_CheckExact(aiter)) return type->tp_as_async->am_anext(aiter);
  unaryfunc getter = type->tp_as_async != nullptr ? type->tp_as_async->am_anext : nullptr;
  if (getter == nullptr) {
    PyErr_Format(PyExc_TypeError,
                 "'async for' requires an iterator with __anext__ method, got %.100s",
                 type->tp_name);
    return nullptr;
  }
  PyObject* next_iter = getter(aiter);
  if (next_iter == nullptr) return nullptr;
  PyObject* awaitable = GetAwaitableIter(next_iter);
  if (awaitable == nullptr) {
    _PyErr_FormatFromCause(PyExc_TypeError,
                           "'async for' received an invalid object from __anext__: %.100s",
                           Py_TYPE(next_iter)->tp_name);
  }
  Py_DECREF(next_iter);
  return awaitable;
}

// GET_YIELD_FROM_ITER: generators and coroutines are delegated to as they are (a new
// reference); anything else through iter(). Only a coroutine, or a generator that is an
// iterable coroutine, may `yield from` / await a coroutine.
PyObject* a64_get_yield_from_iter(_PyInterpreterFrame* frame, PyObject* iterable) {
  if (PyCoro_CheckExact(iterable)) {
    if (!(frame->f_code->co_flags & (CO_COROUTINE | CO_ITERABLE_COROUTINE))) {
      PyErr_SetString(PyExc_TypeError,
                      "cannot 'yield from' a coroutine object in a non-coroutine generator");
      return nullptr;
    }
    return Py_NewRef(iterable);
  }
  if (PyGen_CheckExact(iterable)) return Py_NewRef(iterable);
  return PyObject_GetIter(iterable);
}

// SEND: compiled code never runs under a trace function (it falls back to the
// interpreter), so this is always stock's PyIter_Send path. Its first case inline: a receiver
// with an am_send (generators and coroutines, whose am_send resumes compiled code directly
// while the JIT is on: jit.cc JitAmSend) is sent to without PyIter_Send's call between.
int a64_send(PyObject* receiver, PyObject* value, PyObject** out) {
  const PyAsyncMethods* am = Py_TYPE(receiver)->tp_as_async;
  if (am != nullptr && am->am_send != nullptr) return am->am_send(receiver, value, out);
  return PyIter_Send(receiver, value, out);
}

// ASYNC_GEN_WRAP, as genobject.c's _PyAsyncGenValueWrapperNew makes the wrapper: from the
// interpreter's free list, else allocated; its dealloc may put it back on that list.
PyObject* a64_async_gen_wrap(PyObject* value) {
  using python::AsyncGenWrappedValue;
  auto* o = reinterpret_cast<AsyncGenWrappedValue*>(
      TakeFreeAsyncGenValueWrapper(CurrentThreadState()->interp));
  if (o != nullptr) {
    _Py_NewReference(reinterpret_cast<PyObject*>(o));
  } else {
    o = PyObject_GC_New(AsyncGenWrappedValue, &_PyAsyncGenWrappedValue_Type);
    if (o == nullptr) return nullptr;
  }
  o->agw_val = Py_NewRef(value);
  PyObject_GC_Track(o);
  return reinterpret_cast<PyObject*>(o);
}

// ---- RETURN_GENERATOR: 3.11's _Py_MakeCoro and make_gen (genobject.c) are hidden, so the
// object is made here the way they make it, then the frame moves in as ceval.c moves it ----

namespace {

PyTypeObject* GeneratorTypeOf(int co_flags) {
  switch (co_flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR)) {
    case CO_GENERATOR:
      return &PyGen_Type;
    case CO_COROUTINE:
      return &PyCoro_Type;
    case CO_ASYNC_GENERATOR:
      return &PyAsyncGen_Type;
    default:
      return nullptr;
  }
}

PyGenObject* NewGenerator(PyTypeObject* type, PyFunctionObject* func) {
  auto* code = reinterpret_cast<PyCodeObject*>(func->func_code);
  auto* gen = PyObject_GC_NewVar(PyGenObject, type, code->co_nlocalsplus + code->co_stacksize);
  if (gen == nullptr) return nullptr;
  gen->gi_frame_state = FRAME_CLEARED;
  gen->gi_code = reinterpret_cast<PyCodeObject*>(Py_NewRef(func->func_code));
  gen->gi_weakreflist = nullptr;
  gen->gi_exc_state.exc_value = nullptr;
  gen->gi_exc_state.previous_item = nullptr;
  gen->gi_name = Py_NewRef(func->func_name);
  gen->gi_qualname = Py_NewRef(func->func_qualname);
  // Async generators and coroutines (origin tracking off) start with these cleared; plain
  // generators never read them.
  gen->gi_origin_or_finalizer = nullptr;
  gen->gi_hooks_inited = 0;
  gen->gi_closed = 0;
  gen->gi_running_async = 0;
  PyObject_GC_Track(gen);
  return gen;
}

}  // namespace

PyObject* a64_make_generator(PyThreadState* ts, _PyInterpreterFrame* frame) {
  PyTypeObject* type = GeneratorTypeOf(frame->f_code->co_flags);
  if (type == nullptr || (type == &PyCoro_Type && ts->coroutine_origin_tracking_depth != 0)) {
    return reinterpret_cast<PyObject*>(1);
  }
  PyGenObject* gen = NewGenerator(type, frame->f_func);
  if (gen == nullptr) return nullptr;
  // The value stack is empty: the frame is its specials and locals.
  frame->stacktop = frame->f_code->co_nlocalsplus;
  auto* gen_frame = reinterpret_cast<_PyInterpreterFrame*>(gen->gi_iframe);
  std::memcpy(gen_frame, frame,
              reinterpret_cast<char*>(&frame->localsplus[frame->stacktop]) -
                  reinterpret_cast<char*>(frame));
  gen->gi_frame_state = FRAME_CREATED;
  gen_frame->owner = FRAME_OWNED_BY_GENERATOR;
  gen_frame->previous = nullptr;  // a suspended generator's frame has no f_back
  // The copy took the frame's references; what is left gets its own, for whoever pops it.
  frame->stacktop = 0;
  frame->f_locals = nullptr;
  Py_INCREF(frame->f_func);
  Py_INCREF(frame->f_code);
  // Done with the frame, as a return block is: the caller current again (the call stub
  // relies on that when it pops the frame).
  ts->cframe->current_frame = frame->previous;
  return reinterpret_cast<PyObject*>(gen);
}

}  // namespace a64jit::runtime
