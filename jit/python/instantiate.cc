// Calling a user class from compiled code (instantiate.h): what 3.11's type_call, object_new
// and slot_tp_init do for a class whose __init__ is a Python function, without the argument
// tuple, the lookups and the eval-frame hook between.
//
// Two ways in. A call site whose C-call cache holds such a class calls it through the call
// stub, which hands it to a64_init_enter: the object is made and __init__'s compiled frame is
// pushed with it first, as the stub pushes any compiled callee's, so that the stub enters
// __init__ itself; a64_init_leave turns the return into the object. That saves the C entry's
// own call of __init__ (a vector built, the callee checked again, a host frame around the
// run): `V(1, 2)` of a class with __slots__ took 924 guest instructions a loop iteration
// through a64_instantiate and 891 this way. Everything else, and an __init__ that is not
// compiled, goes through a64_instantiate, the class's C entry. That also takes a class whose
// __new__ is a Python function and whose __init__ is object's (a namedtuple, Fraction), as
// type_call and slot_tp_new call it, without the argument tuple and the __new__ lookup.
#include "jit/python/instantiate.h"

#include <internal/pycore_frame.h>

#include "jit/python/arguments.h"
#include "jit/python/interp_state.h"
#include "jit/python/jit.h"
#include "jit/python/plain_frames.h"
#include "jit/python/runtime_state.h"
#include "jit/python/type_memo.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

namespace {

// Lookups that found an __init__ (key 0) or a __new__ (key 1), by class (type_memo.h): the
// lookup (3.11's method cache, a hash of the version and the name) was about 50 guest
// instructions of each instantiation.
python::TypeMemo<PyObject*> g_inits;

// PythonInit's lookup when g_inits does not have it, remembered when it finds a function. Out
// of line, so that a hit takes no static's guard and saves only the registers it uses.
__attribute__((noinline)) PyObject* LookUpInit(PyTypeObject* type) {
  static PyObject* const init_name = PyUnicode_InternFromString("__init__");
  PyObject* init = init_name != nullptr ? _PyType_Lookup(type, init_name) : nullptr;
  if (init == nullptr || !PyFunction_Check(init)) return nullptr;
  g_inits.Put(type, 0, init);  // the lookup assigned the class a tag if it could
  return init;
}

// Whether calling `type` is 3.11's type_call: its metaclass has no __call__ of its own. Tested
// on every call: a metaclass's __call__ can change without the class's tag changing.
inline bool CalledAsType(const PyTypeObject* type) {
  return Py_TYPE(type)->tp_call == PyType_Type.tp_call;
}

// A class defined in Python, not abstract, that type_call makes.
inline bool PlainClass(const PyTypeObject* type) {
  return CalledAsType(type) &&
         (type->tp_flags & (Py_TPFLAGS_HEAPTYPE | Py_TPFLAGS_IS_ABSTRACT)) == Py_TPFLAGS_HEAPTYPE;
}

// The Python function that calling `type` runs as __init__ when 3.11's type_call would do
// nothing else of note: the metaclass does not override __call__, __new__ is object's (which
// only allocates, for a class that is not abstract and has an __init__ of its own), and
// __init__ is a Python function (for a heap type its tp_init is then slot_tp_init, which looks
// it up and calls it with the object first). Borrowed from the type's MRO; nullptr for anything
// else. The slot and metaclass checks run on every call (a metaclass's __call__ can change
// without the class's tag changing); the lookup is remembered.
inline PyObject* PythonInit(PyTypeObject* type) {
  if (!PlainClass(type) || type->tp_new != PyBaseObject_Type.tp_new ||
      type->tp_init == PyBaseObject_Type.tp_init) {
    return nullptr;
  }
  PyObject* const* init = g_inits.Find(type, 0);
  return init != nullptr ? *init : LookUpInit(type);
}

// PythonNew's lookup when g_inits does not have it (under key 1): the Python function a
// staticmethod `__new__` of the MRO wraps (a class body's `def __new__` becomes one), remembered.
__attribute__((noinline)) PyObject* LookUpNew(PyTypeObject* type) {
  static PyObject* const new_name = PyUnicode_InternFromString("__new__");
  PyObject* found = new_name != nullptr ? _PyType_Lookup(type, new_name) : nullptr;
  if (found == nullptr || !Py_IS_TYPE(found, &PyStaticMethod_Type)) return nullptr;
  // staticmethod's __get__ gives its callable (its struct is private to funcobject.c).
  PyObject* func = Py_TYPE(found)->tp_descr_get(found, nullptr, reinterpret_cast<PyObject*>(type));
  if (func == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  Py_DECREF(func);  // the staticmethod, in the MRO's dict, holds it
  if (!PyFunction_Check(func)) return nullptr;
  g_inits.Put(type, 1, func);
  return func;
}

// The Python function that calling `type` runs as __new__ when its __init__ is object's and
// 3.11's type_call would do nothing else of note (a namedtuple, Fraction): the metaclass does not
// override __call__, and __new__ is a staticmethod of a Python function, so tp_new is
// slot_tp_new, which looks it up and calls it with the class first. Borrowed from the MRO;
// nullptr for anything else.
inline PyObject* PythonNew(PyTypeObject* type) {
  if (!PlainClass(type) || type->tp_new == PyBaseObject_Type.tp_new ||
      type->tp_init != PyBaseObject_Type.tp_init) {
    return nullptr;
  }
  PyObject* const* make = g_inits.Find(type, 1);
  return make != nullptr ? *make : LookUpNew(type);
}

// type_call for such a class: __new__(cls, *args); then, for an object of the class or a
// subclass, its type's tp_init, which for this class is object_init and does nothing (its
// __new__ is not object's), and for a subclass with an __init__ of its own is that, with the
// arguments as a tuple.
PyObject* NewOnly(PyTypeObject* type, PyObject* make, PyObject* const* args, Py_ssize_t nargs) {
  Py_INCREF(make);  // the MRO's dicts hold it, but __new__ may replace itself
  PyObject* obj = python::CallFunctionWithFirst(CurrentThreadState(), make,
                                                reinterpret_cast<PyObject*>(type), args, nargs);
  Py_DECREF(make);
  if (obj == nullptr || !PyObject_TypeCheck(obj, type) ||
      Py_TYPE(obj)->tp_init == PyBaseObject_Type.tp_init) {
    return obj;
  }
  PyObject* tuple = python::ArgumentTuple(args, nargs);
  if (tuple == nullptr || Py_TYPE(obj)->tp_init(obj, tuple, nullptr) < 0) Py_CLEAR(obj);
  Py_XDECREF(tuple);
  return obj;
}

// object_new itself, with no arguments: tp_alloc, then the instance's inline values (3.11's
// _PyObject_InitializeDict), without which every attribute site of the object would miss.
inline PyObject* NewObject(PyTypeObject* type) {
  static PyObject* const no_args = PyTuple_New(0);
  return no_args != nullptr ? type->tp_new(type, no_args, nullptr) : nullptr;
}

// What __init__ returned (`result`, a new reference or NULL) -> the call's result: the object
// for None, else NULL with type_call's error. Takes both references.
PyObject* InitResult(PyObject* self, PyObject* result) {
  if (result == Py_None) {
    Py_DECREF(result);
    return self;
  }
  if (result != nullptr) {
    PyErr_Format(PyExc_TypeError, "__init__() should return None, not '%.200s'",
                 Py_TYPE(result)->tp_name);
    Py_DECREF(result);
  }
  Py_DECREF(self);
  return nullptr;
}

// The references CALL's stack sp[1 .. oparg+1] holds (the class and its arguments), released.
void ReleaseCall(PyObject** sp, int64_t oparg) {
  for (int64_t i = 1; i <= oparg + 1; i++) Py_DECREF(sp[i]);
}

}  // namespace

bool Instantiable(PyTypeObject* type) {
  return PythonInit(type) != nullptr || PythonNew(type) != nullptr;
}

PyObject* a64_instantiate(PyObject* callable, PyObject* const* args, size_t nargsf,
                          PyObject* kwnames) {
  const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
  auto* type = reinterpret_cast<PyTypeObject*>(callable);
  const bool plain = kwnames == nullptr && PyType_Check(callable);
  PyObject* init = plain ? PythonInit(type) : nullptr;
  if (init == nullptr) {
    PyObject* make = plain ? PythonNew(type) : nullptr;
    return make != nullptr ? NewOnly(type, make, args, nargs)
                           : PyObject_Vectorcall(callable, args, nargsf, kwnames);
  }
  Py_INCREF(init);  // the MRO's dicts hold it, but allocating may run code that replaces it
  PyObject* self = NewObject(type);
  PyObject* res = self != nullptr
                      ? python::CallFunctionWithFirst(CurrentThreadState(), init, self, args, nargs)
                      : nullptr;
  Py_DECREF(init);
  return self != nullptr ? InitResult(self, res) : nullptr;
}

namespace {

// The compiled __init__ that calling `callable` runs, and its code's state (nullptr when the
// state cache does not have it: EnterCompiledCall's way then), or false when this path does not
// take it: not a class PythonInit takes, or an __init__ that is not compiled. From the site's
// memo while it holds (site_cache.h's InitMemo: the tests PythonInit makes on every call, the
// metaclass's; then the version tag, which stands for the rest); else found again and
// remembered. The memo saved the class's __init__ lookup, the function's test and the state
// cache's lookup: about 40 guest instructions of each instantiation.
bool FindInit(PyObject* callable, CCallCache* cache, PyFunctionObject** init,
              python::CodeState** state) {
  if (!PyType_Check(callable)) return false;
  auto* type = reinterpret_cast<PyTypeObject*>(callable);
  InitMemo& memo = cache->init;
  if (memo.version != 0 && python::ValidVersionTag(type) == memo.version && CalledAsType(type)) {
    auto* func = static_cast<PyFunctionObject*>(memo.init);
    if (func->func_code == memo.code && python::IsJitVectorcall(func->vectorcall)) {
      *init = func;
      *state = static_cast<python::CodeState*>(const_cast<void*>(memo.state));
      return true;
    }
  }
  PyObject* found = PythonInit(type);
  if (found == nullptr || !python::IsCompiledFunction(found)) return false;
  *init = reinterpret_cast<PyFunctionObject*>(found);
  *state = python::CachedState(reinterpret_cast<PyCodeObject*>((*init)->func_code));
  // A class without a valid tag now (its lookup could not give it one) is not remembered.
  if (*state != nullptr) {
    memo = InitMemo{python::ValidVersionTag(type), found, (*init)->func_code, *state};
  }
  return true;
}

// a64_init_enter inside its level of recursion: the entry of __init__'s pushed frame, or 0 with
// the whole call made and its result in sp[0].
uint64_t EnterInit(PyThreadState* ts, PyObject** sp, int64_t oparg, CCallCache* cache) {
  PyObject* callable = sp[1];
  auto* type = reinterpret_cast<PyTypeObject*>(callable);
  PyFunctionObject* func = nullptr;
  python::CodeState* st = nullptr;
  if (!FindInit(callable, cache, &func, &st)) {
    // Not (or no longer) a class this path takes, or an __init__ not compiled: its C entry.
    sp[0] = a64_instantiate(callable, sp + 2, static_cast<size_t>(oparg), nullptr);
    ReleaseCall(sp, oparg);
    return 0;
  }
  auto* init = reinterpret_cast<PyObject*>(func);
  Py_INCREF(init);  // the reference __init__'s frame takes; held across the allocation
  PyObject* self = NewObject(type);
  if (self == nullptr) {
    Py_DECREF(init);
    ReleaseCall(sp, oparg);
    sp[0] = nullptr;
    return 0;
  }
  python::Runtime& r = python::TheRuntime();
  r.stats.init_entries++;
  // The stack's reference to the class goes (the object holds one: a heap type's instances
  // do). The object's moves into the frame with the arguments', and one more stays in sp[1]
  // for a64_init_leave.
  Py_DECREF(callable);
  sp[1] = Py_NewRef(self);
  // The stub's own tests (call_stub.cc bb25-bb26), after the allocation, which may have run
  // code: its thread, tracing off, below the recursion limit, room on the data stack.
  if (ts == r.stub_thread && ts->recursion_remaining > 0 &&
      python::PlainCallFits(ts, oparg + 1, st)) {
    _PyInterpreterFrame* frame = python::PushPlainFrame(ts, st, func, oparg + 1);
    for (int64_t i = 0; i <= oparg; i++) frame->localsplus[i] = sp[1 + i];
    python::MakeFrameCurrent(ts, frame);
    r.stub_entries++;
    sp[0] = reinterpret_cast<PyObject*>(frame);
    return reinterpret_cast<uintptr_t>(st->stub.entry);
  }
  _PyInterpreterFrame* frame = nullptr;
  const void* entry = python::EnterCompiledCall(ts, init, sp + 1, oparg + 1, nullptr, &frame);
  if (entry == nullptr) {  // the recursion limit, tracing, no room: the whole call here
    sp[0] = InitResult(self, python::CallCompiledConsuming(ts, init, sp + 1, oparg + 1));
    return 0;
  }
  sp[0] = reinterpret_cast<PyObject*>(frame);
  return reinterpret_cast<uintptr_t>(entry);
}

}  // namespace

uint64_t a64_init_enter(PyThreadState* ts, PyObject** sp, int64_t oparg, CCallCache* cache) {
  // Calling a class is a C call (3.11's _PyObject_MakeTpCall): a level of recursion of its
  // own, held until __init__ has returned (a64_init_leave).
  if (!python::EnterRecursiveCall(ts, " while calling a Python object")) {
    ReleaseCall(sp, oparg);
    sp[0] = nullptr;
    return 0;
  }
  const uint64_t entry = EnterInit(ts, sp, oparg, cache);
  if (entry == 0) {  // a whole call made: its level given back, the eval breaker handled
    ts->recursion_remaining++;
    sp[0] = EvalBreakerAfterCall(ts, sp[0]);
  }
  return entry;
}

PyObject* a64_init_leave(PyThreadState* ts, PyObject** sp, uint64_t result) {
  auto* frame = reinterpret_cast<_PyInterpreterFrame*>(sp[0]);
  PyObject* value = python::PlainReturn(frame, result)
                        ? python::PopPlainFrame(ts, frame, result)
                        : python::LeaveCompiledCall(ts, frame, result);
  ts->recursion_remaining++;
  // A set eval breaker is handled after the call, as after any C call (a signal handler may
  // raise). __init__'s None, the usual end, is released here (InitResult is out of line).
  if (value == Py_None) {
    Py_DECREF(value);
    return EvalBreakerAfterCall(ts, sp[1]);
  }
  return EvalBreakerAfterCall(ts, InitResult(sp[1], value));
}

}  // namespace a64jit::runtime
