// Helpers for 3.11's container, call, name, import, pattern-matching and `with` instructions
// (BUILD_SET ... BEFORE_WITH), declared in jit/runtime/helpers.h. Each does what
// Python/ceval.c does for the instruction of the same name, raising the same exception
// types with the same messages, so compiled code fails exactly where and as stock does.
// Operands are borrowed unless helpers.h says the helper consumes them.
#include <Python.h>
#include <internal/pycore_frame.h>
#include <opcode.h>

#include <array>
#include <cstring>

#include "jit/codegen/into_local_stub.h"
#include "jit/codegen/release_stubs.h"
#include "jit/python/arguments.h"
#include "jit/python/interp_state.h"
#include "jit/python/plain_bound.h"
#include "jit/python/runtime_state.h"
#include "jit/runtime/helpers.h"

// Exported by libpython and by Debian's python3.11 executable, but declared only in
// internal/pycore_object.h, which C++ cannot include (it pulls in pycore_atomic.h).
extern "C" PyObject* _PyObject_LookupSpecial(PyObject* self, PyObject* name);

namespace a64jit::runtime {

namespace {

// An interned str, made on first use and kept for the life of the process. 3.11's own
// identifiers (_Py_ID) live in headers C++ cannot include; an equal str finds the same
// dict entries and attributes.
PyObject* Interned(const char* text, PyObject*& slot) {
  if (slot == nullptr) slot = PyUnicode_InternFromString(text);
  return slot;
}

#define A64JIT_STR(name)             \
  ([]() -> PyObject* {               \
    static PyObject* slot = nullptr; \
    return Interned(#name, slot);    \
  }())

// A TypeError whose message starts with the callee's name (`format`'s first %U), as ceval.c
// words errors about a call's * and ** arguments.
template <typename... Args>
void TypeErrorAboutCallee(PyObject* func, const char* format, Args... args) {
  PyObject* funcstr = _PyObject_FunctionStr(func);
  if (funcstr == nullptr) return;
  PyErr_Format(PyExc_TypeError, format, funcstr, args...);
  Py_DECREF(funcstr);
}

// _PyDict_MergeEx reports a non-mapping as the AttributeError of its `keys` lookup and a
// repeated keyword as a KeyError holding the key; stock turns both into the TypeErrors a
// call with ** gives (ceval.c's format_kwargs_error). Anything else stays as it is.
void FormatKwargsError(PyObject* func, PyObject* kwargs) {
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    TypeErrorAboutCallee(func, "%U argument after ** must be a mapping, not %.200s",
                         Py_TYPE(kwargs)->tp_name);
  } else if (PyErr_ExceptionMatches(PyExc_KeyError)) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    // Only _PyDict_MergeEx's own KeyError carries the key as a 1-tuple (unnormalized).
    if (value != nullptr && PyTuple_Check(value) && PyTuple_GET_SIZE(value) == 1) {
      TypeErrorAboutCallee(func, "%U got multiple values for keyword argument '%S'",
                           PyTuple_GET_ITEM(value, 0));
      Py_XDECREF(type);
      Py_XDECREF(value);
      Py_XDECREF(tb);
    } else {
      PyErr_Restore(type, value, tb);
    }
  }
}

// ceval.c's check_args_iterable: the TypeError for `f(*x)` with a non-iterable x, which
// names the callee. 0 when `args` may be iterable (converting it reports anything else).
int CheckArgsIterable(PyObject* func, PyObject* args) {
  if (Py_TYPE(args)->tp_iter != nullptr || PySequence_Check(args)) return 0;
  // _PyObject_FunctionStr must not run with an exception set.
  PyErr_Clear();
  TypeErrorAboutCallee(func, "%U argument after * must be an iterable, not %.200s",
                       Py_TYPE(args)->tp_name);
  return -1;
}

// The TypeError unpacking gives for an object that cannot be iterated at all; other errors
// from iter() are left as they are.
void FormatNotIterableForUnpack(PyObject* seq) {
  if (PyErr_ExceptionMatches(PyExc_TypeError) && Py_TYPE(seq)->tp_iter == nullptr &&
      !PySequence_Check(seq)) {
    PyErr_Format(PyExc_TypeError, "cannot unpack non-iterable %.200s object",
                 Py_TYPE(seq)->tp_name);
  }
}

}  // namespace

// BUILD_SET: every item is consumed, also when adding one fails (stock keeps dropping the
// rest without adding them).
PyObject* a64_build_set(PyObject** items, int64_t n) {
  PyObject* set = PySet_New(nullptr);
  int err = set == nullptr ? -1 : 0;
  for (int64_t i = 0; i < n; i++) {
    if (err == 0) err = PySet_Add(set, items[i]);
    Py_DECREF(items[i]);
  }
  if (err != 0) {
    Py_XDECREF(set);
    return nullptr;
  }
  return set;
}

int a64_dict_update(PyObject* dict, PyObject* update) {
  if (PyDict_Update(dict, update) == 0) return 0;
  // PyDict_Update looks up `keys` on a non-dict; its AttributeError means "not a mapping".
  if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Format(PyExc_TypeError, "'%.200s' object is not a mapping", Py_TYPE(update)->tp_name);
  }
  return -1;
}

// DICT_MERGE: override mode 2 raises on a repeated key, which FormatKwargsError turns into
// the call's "got multiple values" error.
int a64_dict_merge(PyObject* func, PyObject* dict, PyObject* update) {
  if (_PyDict_MergeEx(dict, update, 2) == 0) return 0;
  FormatKwargsError(func, update);
  return -1;
}

// CALL_FUNCTION_EX: stock converts **kwargs first, then *args, so with both wrong the
// kwargs error wins. Without tracing, do_call_core is PyObject_Call for every callable.
PyObject* a64_call_ex(PyObject* func, PyObject* callargs, PyObject* kwargs) {
  PyObject* kwdict = nullptr;
  if (kwargs != nullptr) {
    if (PyDict_CheckExact(kwargs)) {
      kwdict = Py_NewRef(kwargs);
    } else {
      kwdict = PyDict_New();
      if (kwdict == nullptr) return nullptr;
      if (_PyDict_MergeEx(kwdict, kwargs, 2) < 0) {
        Py_DECREF(kwdict);
        FormatKwargsError(func, kwargs);
        return nullptr;
      }
    }
  }
  PyObject* args;
  if (PyTuple_CheckExact(callargs)) {
    args = Py_NewRef(callargs);
  } else {
    args = CheckArgsIterable(func, callargs) < 0 ? nullptr : PySequence_Tuple(callargs);
    if (args == nullptr) {
      Py_XDECREF(kwdict);
      return nullptr;
    }
  }
  PyObject* result = PyObject_Call(func, args, kwdict);
  Py_DECREF(args);
  Py_XDECREF(kwdict);
  // CALL_FUNCTION_EX checks the eval breaker after the call, whatever was called.
  return EvalBreakerAfterCall(CurrentThreadState(), result);
}

// UNPACK_SEQUENCE: out[0..n) = the items, last first (stack order); `seq` borrowed. The
// messages are 3.11's.
int a64_unpack_sequence(PyObject* seq, int64_t n, PyObject** out) {
  // An exact tuple or list of n items (longer than lowering unpacks inline): copied, as the
  // interpreter's UNPACK_SEQUENCE does, without an iterator.
  if ((PyTuple_CheckExact(seq) || PyList_CheckExact(seq)) && Py_SIZE(seq) == n) {
    PyObject** items = PySequence_Fast_ITEMS(seq);
    for (int64_t i = 0; i < n; i++) out[n - 1 - i] = Py_NewRef(items[i]);
    return 0;
  }
  PyObject* it = PyObject_GetIter(seq);
  if (it == nullptr) {
    FormatNotIterableForUnpack(seq);
    return -1;
  }
  int64_t got = 0;
  for (; got < n; got++) {
    PyObject* w = PyIter_Next(it);
    if (w == nullptr) {
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected %d, got %d)",
                     static_cast<int>(n), static_cast<int>(got));
      }
      break;
    }
    out[n - 1 - got] = w;
  }
  if (got == n) {
    PyObject* extra = PyIter_Next(it);
    if (extra == nullptr && !PyErr_Occurred()) {
      Py_DECREF(it);
      return 0;
    }
    if (extra != nullptr) {
      Py_DECREF(extra);
      PyErr_Format(PyExc_ValueError, "too many values to unpack (expected %d)",
                   static_cast<int>(n));
    }
  }
  for (int64_t i = 0; i < got; i++) Py_DECREF(out[n - 1 - i]);
  Py_DECREF(it);
  return -1;
}

// UNPACK_EX (ceval.c's unpack_iterable with a starred target). Bottom to top, the stack it
// leaves holds the values after the star (last first), the list of those it matched, and
// the values before it (last first, so the first is on top, for the first store). As in
// stock, the slots are filled from the top down, and the values after the star are moved
// out of the list by shrinking it rather than copied.
int a64_unpack_ex(PyObject* seq, int64_t before, int64_t after, PyObject** out) {
  PyObject* it = PyObject_GetIter(seq);
  if (it == nullptr) {
    FormatNotIterableForUnpack(seq);
    return -1;
  }
  PyObject** sp = out + before + 1 + after;
  int64_t stored = 0;
  auto fail = [&] {
    for (; stored > 0; stored--, sp++) Py_DECREF(*sp);
    Py_DECREF(it);
    return -1;
  };
  const int expected = static_cast<int>(before + after);
  for (; stored < before; stored++) {
    PyObject* w = PyIter_Next(it);
    if (w == nullptr) {
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected at least %d, got %d)",
                     expected, static_cast<int>(stored));
      }
      return fail();
    }
    *--sp = w;
  }
  PyObject* rest = PySequence_List(it);
  if (rest == nullptr) return fail();
  *--sp = rest;
  stored++;
  const Py_ssize_t len = PyList_GET_SIZE(rest);
  if (len < after) {
    PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected at least %d, got %zd)",
                 expected, static_cast<Py_ssize_t>(before) + len);
    return fail();
  }
  for (int64_t j = after; j > 0; j--, stored++) *--sp = PyList_GET_ITEM(rest, len - j);
  Py_SET_SIZE(rest, len - after);  // the list's references to them are now the stack's
  Py_DECREF(it);
  return 0;
}

int a64_store_global(_PyInterpreterFrame* frame, PyObject* name, PyObject* value) {
  return PyDict_SetItem(frame->f_globals, name, value);
}

// DELETE_GLOBAL: stock's NameError for a missing name carries `name` (for suggestions) and
// is raised by the interpreter when it redoes the instruction, so here the KeyError only
// says "missing".
int a64_delete_global(_PyInterpreterFrame* frame, PyObject* name) {
  if (PyDict_DelItem(frame->f_globals, name) == 0) return 0;
  if (PyErr_ExceptionMatches(PyExc_KeyError)) {
    PyErr_Clear();
    return 1;
  }
  return -1;
}

// IMPORT_NAME (ceval.c's import_name): whatever __import__ the frame's builtins hold, called
// as stock calls an overridden one. Stock's fast path for the original __import__ calls
// PyImport_ImportModuleLevelObject directly with the same arguments, which is what the
// original __import__ does after parsing them, so the result and errors are the same.
PyObject* a64_import_name(_PyInterpreterFrame* frame, PyObject* name, PyObject* fromlist,
                          PyObject* level) {
  PyObject* import_func = _PyDict_GetItemWithError(frame->f_builtins, A64JIT_STR(__import__));
  if (import_func == nullptr) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ImportError, "__import__ not found");
    return nullptr;
  }
  PyObject* locals = frame->f_locals != nullptr ? frame->f_locals : Py_None;
  PyObject* args[] = {name, frame->f_globals, locals, fromlist, level};
  Py_INCREF(import_func);  // the call may replace builtins.__import__
  PyObject* res = PyObject_Vectorcall(import_func, args, 5, nullptr);
  Py_DECREF(import_func);
  return res;
}

namespace {

// ceval.c's import_from error path: the ImportError for `from module import name`, saying
// whether the module is still being initialised (a likely circular import). Consumes
// `pkgname`, the module's __name__ or NULL when it has no str one.
PyObject* RaiseCannotImport(PyObject* module, PyObject* name, PyObject* pkgname) {
  PyObject* pkgpath = PyModule_GetFilenameObject(module);
  PyObject* pkgname_or_unknown = pkgname;
  if (pkgname == nullptr) {
    pkgname_or_unknown = PyUnicode_FromString("<unknown module name>");
    if (pkgname_or_unknown == nullptr) {
      Py_XDECREF(pkgpath);
      return nullptr;
    }
  }
  PyObject* errmsg;
  if (pkgpath == nullptr || !PyUnicode_Check(pkgpath)) {
    PyErr_Clear();
    errmsg = PyUnicode_FromFormat("cannot import name %R from %R (unknown location)", name,
                                  pkgname_or_unknown);
    PyErr_SetImportError(errmsg, pkgname, nullptr);  // checks errmsg for NULL itself
  } else {
    PyObject* spec = PyObject_GetAttr(module, A64JIT_STR(__spec__));
    const char* fmt = _PyModuleSpec_IsInitializing(spec)
                          ? "cannot import name %R from partially initialized module %R "
                            "(most likely due to a circular import) (%S)"
                          : "cannot import name %R from %R (%S)";
    Py_XDECREF(spec);
    errmsg = PyUnicode_FromFormat(fmt, name, pkgname_or_unknown, pkgpath);
    PyErr_SetImportError(errmsg, pkgname, pkgpath);
  }
  Py_XDECREF(errmsg);
  Py_DECREF(pkgname_or_unknown);
  Py_XDECREF(pkgpath);
  return nullptr;
}

}  // namespace

// IMPORT_FROM: the attribute, or (bpo-17636: a circular relative import has not set it
// yet) the submodule `<module.__name__>.<name>` already in sys.modules.
PyObject* a64_import_from(PyObject* module, PyObject* name) {
  PyObject* x;
  if (_PyObject_LookupAttr(module, name, &x) != 0) return x;  // found, or an error
  PyObject* pkgname = PyObject_GetAttr(module, A64JIT_STR(__name__));
  if (pkgname == nullptr) return RaiseCannotImport(module, name, nullptr);
  if (!PyUnicode_Check(pkgname)) {
    Py_DECREF(pkgname);
    return RaiseCannotImport(module, name, nullptr);
  }
  PyObject* fullmodname = PyUnicode_FromFormat("%U.%U", pkgname, name);
  if (fullmodname == nullptr) {
    Py_DECREF(pkgname);
    return nullptr;
  }
  x = PyImport_GetModule(fullmodname);
  Py_DECREF(fullmodname);
  if (x == nullptr && !PyErr_Occurred()) return RaiseCannotImport(module, name, pkgname);
  Py_DECREF(pkgname);
  return x;
}

PyObject* a64_get_slice(PyObject* container, PyObject* start, PyObject* stop) {
  PyTypeObject* type = Py_TYPE(container);
  const bool sliced_here = type == &PyUnicode_Type || type == &PyList_Type || type == &PyTuple_Type;
  Py_ssize_t i = 0;
  Py_ssize_t j = 0;
  if (sliced_here && PlainBound(start, 0, &i) && PlainBound(stop, PY_SSIZE_T_MAX, &j)) {
    // Step 1: the bounds adjusted as unicode_subscript, list_subscript and tuple_subscript
    // adjust them; each GetSlice/Substring then gives what they return (an empty result's
    // singleton, the object itself for all of an exact str or tuple).
    const Py_ssize_t length =
        type == &PyUnicode_Type ? PyUnicode_GET_LENGTH(container) : Py_SIZE(container);
    PySlice_AdjustIndices(length, &i, &j, 1);
    if (type == &PyUnicode_Type) return PyUnicode_Substring(container, i, j);
    if (type == &PyList_Type) return PyList_GetSlice(container, i, j);
    return PyTuple_GetSlice(container, i, j);
  }
  PyObject* slice = PySlice_New(start, stop, nullptr);
  if (slice == nullptr) return nullptr;
  PyObject* result = PyObject_GetItem(container, slice);
  Py_DECREF(slice);
  return result;
}

PyObject* a64_get_len(PyObject* obj) {
  const Py_ssize_t len = PyObject_Length(obj);
  if (len < 0) return nullptr;
  return PyLong_FromSsize_t(len);
}

namespace {

// Types whose instances' __class__ is their type (object's descriptor, found by the generic
// getattr), each with the version tag it had then. Valid while the tag is: assigning
// __class__ or __getattribute__ on a class, or on a base, changes its tag, and 3.11 never
// gives a tag twice, so a new type at a dead one's address cannot match.
struct ClassIsTypeEntry {
  PyTypeObject* type;
  unsigned int version;
};
constexpr uintptr_t kClassIsTypeEntries = 64;
ClassIsTypeEntry g_class_is_type[kClassIsTypeEntries];

// Whether `type`'s instances report `type` as their __class__ (then isinstance needs no
// lookup of it): about 35 guest instructions of _PyType_Lookup saved on a cached type.
bool ClassIsType(PyTypeObject* type) {
  ClassIsTypeEntry& e =
      g_class_is_type[(reinterpret_cast<uintptr_t>(type) >> 4) % kClassIsTypeEntries];
  const bool tagged = PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG);
  if (e.type == type && tagged && e.version == type->tp_version_tag) return true;
  PyObject* name = A64JIT_STR(__class__);
  // object's __class__ getset descriptor, which object's dict keeps alive.
  static PyObject* const object_class = _PyType_Lookup(&PyBaseObject_Type, name);
  const bool is_type = name != nullptr && type->tp_getattro == PyObject_GenericGetAttr &&
                       _PyType_Lookup(type, name) == object_class;
  // _PyType_Lookup gave the type a tag if it can have one.
  if (is_type && PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG)) {
    e = {type, type->tp_version_tag};
  }
  return is_type;
}

}  // namespace

int a64_isinstance(PyObject* x, PyObject* cls) {
  if (PyType_CheckExact(cls)) {
    PyTypeObject* type = Py_TYPE(x);
    if (PyType_IsSubtype(type, reinterpret_cast<PyTypeObject*>(cls))) return 1;
    if (ClassIsType(type)) return 0;
  }
  const int found = PyObject_IsInstance(x, cls);
  return found < 0 ? found : kIsInstanceRanCode + found;
}

// For the builtin: PyObject_IsInstance of a tuple (object_recursive_isinstance) first tests
// type(x) is the tuple, never true, then takes one recursion level " in __instancecheck__"
// and asks each item in turn, stopping at the first that answers 1 or fails.
PyObject* a64_isinstance_items(PyObject* callable, PyObject* x, PyObject* expected,
                               PyObject** items, int64_t n) {
  if (callable != expected) {
    PyObject* tuple = python::ArgumentTuple(items, n);
    if (tuple == nullptr) return nullptr;
    PyObject* args[2] = {x, tuple};
    PyThreadState* ts = CurrentThreadState();
    PyObject* result = PyObject_Vectorcall(callable, args, 2, nullptr);
    if (!PyFunction_Check(callable)) result = EvalBreakerAfterCall(ts, result);
    Py_DECREF(tuple);
    return result;
  }
  PyThreadState* ts = CurrentThreadState();
  if (!python::EnterRecursiveCall(ts, " in __instancecheck__")) return nullptr;
  int found = 0;  // a64_isinstance's answer: 1 or 0 in its low bit, or -1
  for (int64_t i = 0; i < n && found >= 0 && (found & 1) == 0; i++) {
    found = a64_isinstance(x, items[i]);
  }
  ts->recursion_remaining++;
  return found < 0 ? nullptr : Py_NewRef((found & 1) != 0 ? Py_True : Py_False);
}

namespace {
static_assert(PYLONG_BITS_IN_DIGIT == 30, "one digit holds |v| < 2**30");
// _Py_tracemalloc_config.tracing (interp_state.h: its header is internal).
const int* const g_tracemalloc_tracing = static_cast<const int*>(TracemallocTracingAddress());

// Dead ints of one digit, linked through ob_type, as 3.11 links its free floats. Each block
// came from PyObject_Malloc for an int of at least one digit, so it holds one. Only
// a64_dealloc adds to it and only a64_box_int takes from it, both with the GIL held.
struct IntFreeList {
  int count = 0;
  PyObject* head = nullptr;
};
constexpr int kIntFreeListMax = 100;  // as PyFloat_MAXFREELIST: at most 3.2 kB held
IntFreeList g_int_free_list;
// The same for dead ints of two digits (|v| < 2**60: the helpers' wide ints, int_values.h),
// whose blocks hold two. A block is listed by the digits its int had when it died, never
// more than it was allocated for: no int grows in place.
IntFreeList g_two_digit_free_list;

#define A64JIT_HELPER_INLINE inline __attribute__((always_inline))

// An int's ob_size is 1 or -1: one digit (0 is the int 0, a small int).
A64JIT_HELPER_INLINE bool OneDigit(PyObject* obj) {
  return ((Py_SIZE(obj) + 1) & ~Py_ssize_t{2}) == 0;
}

// An int's ob_size is 2 or -2.
A64JIT_HELPER_INLINE bool TwoDigits(PyObject* obj) {
  return ((Py_SIZE(obj) + 2) & ~Py_ssize_t{4}) == 0;
}

// A dead int onto `list`, linked through ob_type.
A64JIT_HELPER_INLINE void Push(IntFreeList& list, PyObject* obj) {
  Py_SET_TYPE(obj, reinterpret_cast<PyTypeObject*>(list.head));
  list.head = obj;
  list.count++;
}

// `list`'s head, which is not null, taken off it.
A64JIT_HELPER_INLINE PyObject* Pop(IntFreeList& list) {
  PyObject* head = list.head;
  list.head = reinterpret_cast<PyObject*>(Py_TYPE(head));
  list.count--;
  return head;
}
}  // namespace

namespace {
// Puts `obj`, dead, on an int free list if it is an int of one digit (or of two) and the
// list has room.
A64JIT_HELPER_INLINE bool FreeInt(PyObject* obj) {
  if (Py_TYPE(obj) != &PyLong_Type || *g_tracemalloc_tracing != 0) return false;
  IntFreeList* list;
  if (OneDigit(obj)) {
    list = &g_int_free_list;
  } else if (TwoDigits(obj)) {
    list = &g_two_digit_free_list;
  } else {
    return false;
  }
  if (list->count >= kIntFreeListMax) return false;
  Push(*list, obj);
  return true;
}
}  // namespace

void a64_dealloc(PyObject* obj) {
  if (FreeInt(obj)) return;
  Py_TYPE(obj)->tp_dealloc(obj);  // all that 3.11's _Py_Dealloc does without Py_TRACE_REFS
}

void a64_dealloc_at(PyObject* obj, _PyInterpreterFrame* frame, int64_t unit) {
  if (FreeInt(obj)) return;
  if (unit >= 0) frame->prev_instr = _PyCode_CODE(frame->f_code) + unit;
  Py_TYPE(obj)->tp_dealloc(obj);
}

uint64_t a64_release_by_stub(PyObject* obj, _PyInterpreterFrame* frame, uint64_t word,
                             uint64_t at) {
  a64_dealloc_at(obj, frame, codegen::ReleaseUnit(word));
  return codegen::ReleaseContinuation(word, at);
}

namespace {

// Whether v is an int the runtime makes itself: of one digit (|v| < 2**30), and not one of
// the small ints (-5 to 256, _PY_NSMALLNEGINTS and _PY_NSMALLPOSINTS: singletons). Each
// test is one unsigned compare.
A64JIT_HELPER_INLINE bool MediumInt(int64_t v) {
  constexpr int64_t kDigitMax = (int64_t{1} << PyLong_SHIFT) - 1;
  return static_cast<uint64_t>(v + kDigitMax) <= 2 * kDigitMax &&
         static_cast<uint64_t>(v + 5) > 261;
}

// A one-digit int's value: its sign in ob_size, its magnitude in its digit.
A64JIT_HELPER_INLINE void SetOneDigit(PyLongObject* obj, int64_t v) {
  Py_SET_SIZE(obj, v < 0 ? -1 : 1);
  obj->ob_digit[0] = static_cast<digit>(v < 0 ? -v : v);
}

// A two-digit int's value: its sign in ob_size, the low and high 30 bits of `magnitude` (|v|)
// in its digits.
A64JIT_HELPER_INLINE void SetTwoDigits(PyLongObject* obj, int64_t v, uint64_t magnitude) {
  Py_SET_SIZE(obj, v < 0 ? -2 : 2);
  obj->ob_digit[0] = static_cast<digit>(magnitude & PyLong_MASK);
  obj->ob_digit[1] = static_cast<digit>(magnitude >> PyLong_SHIFT);
}

// `block` made an int with one reference, as _Py_NewReference does while tracemalloc is not
// tracing; its size and digits are the caller's to set.
A64JIT_HELPER_INLINE PyLongObject* NewInt(void* block) {
  auto* obj = static_cast<PyLongObject*>(block);
  Py_SET_REFCNT(obj, 1);
  Py_SET_TYPE(obj, &PyLong_Type);
  return obj;
}

// `block` (room for a one-digit int) made the int v (MediumInt).
A64JIT_HELPER_INLINE PyObject* MakeMediumInt(void* block, int64_t v) {
  PyLongObject* obj = NewInt(block);
  SetOneDigit(obj, v);
  return reinterpret_cast<PyObject*>(obj);
}

// `block` (room for two digits) made the int v, whose magnitude needs two digits (TwoDigitInt).
A64JIT_HELPER_INLINE PyObject* MakeTwoDigitInt(void* block, int64_t v, uint64_t magnitude) {
  PyLongObject* obj = NewInt(block);
  SetTwoDigits(obj, v, magnitude);
  return reinterpret_cast<PyObject*>(obj);
}

// |v|, as an unsigned value (INT64_MIN's too).
A64JIT_HELPER_INLINE uint64_t Magnitude(int64_t v) {
  return v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
}

// Whether a magnitude needs exactly two digits: 2**30 <= m < 2**60, one unsigned compare.
A64JIT_HELPER_INLINE bool TwoDigitMagnitude(uint64_t m) {
  constexpr uint64_t kLow = uint64_t{1} << PyLong_SHIFT, kHigh = uint64_t{1} << 2 * PyLong_SHIFT;
  return m - kLow < kHigh - kLow;
}

// The small int 0 (interp_state.h): the int v of -5 to 256 is `g_small_int_zero + v`.
PyLongObject* const g_small_int_zero = reinterpret_cast<PyLongObject*>(SmallIntZeroObject());

// Whether v is one of the small ints, one unsigned compare.
A64JIT_HELPER_INLINE bool SmallInt(int64_t v) { return static_cast<uint64_t>(v + 5) <= 261; }

// a64_box_int's ways when the free list for v's digits has no block, or tracemalloc traces: a
// new block (one or two digits both take 32 bytes, as _PyLong_New(2) allocates). Out of line,
// so that a64_box_int needs no stack frame; each for one kind of value, so that none tests it
// again.
constexpr size_t kTwoDigitBlock = offsetof(PyLongObject, ob_digit) + 2 * sizeof(digit);
static_assert(sizeof(PyLongObject) >= kTwoDigitBlock, "a one-digit int's block holds two digits");

__attribute__((noinline)) PyObject* NewMediumInt(int64_t v) {
  if (*g_tracemalloc_tracing != 0) return PyLong_FromLongLong(v);
  void* block = PyObject_Malloc(kTwoDigitBlock);
  return block != nullptr ? MakeMediumInt(block, v) : PyErr_NoMemory();
}

__attribute__((noinline)) PyObject* NewTwoDigitInt(int64_t v, uint64_t magnitude) {
  if (*g_tracemalloc_tracing != 0) return PyLong_FromLongLong(v);
  void* block = PyObject_Malloc(kTwoDigitBlock);
  return block != nullptr ? MakeTwoDigitInt(block, v, magnitude) : PyErr_NoMemory();
}

}  // namespace

// Ints of one or two digits come from the runtime's free lists (a64_dealloc fills them), the
// small ints are the singletons, all without a stack frame: a two-digit int took about 55
// guest instructions through a frame and repeated tests, and takes about 25. The tests go
// from the most frequent kind of value (one digit) to the least; bigger ints are
// PyLong_FromLongLong's.
PyObject* a64_box_int(int64_t v) {
  if (MediumInt(v)) {
    if (g_int_free_list.head == nullptr || *g_tracemalloc_tracing != 0) return NewMediumInt(v);
    return MakeMediumInt(Pop(g_int_free_list), v);
  }
  if (SmallInt(v)) return Py_NewRef(reinterpret_cast<PyObject*>(g_small_int_zero + v));
  const uint64_t magnitude = Magnitude(v);
  if (!TwoDigitMagnitude(magnitude)) return PyLong_FromLongLong(v);
  if (g_two_digit_free_list.head == nullptr || *g_tracemalloc_tracing != 0) {
    return NewTwoDigitInt(v, magnitude);
  }
  return MakeTwoDigitInt(Pop(g_two_digit_free_list), v, magnitude);
}

PyObject* a64_box_int_reusing(int64_t v, PyObject** slot) {
  PyObject* old = *slot;
  if (old == nullptr || !Py_IS_TYPE(old, &PyLong_Type) || Py_REFCNT(old) != 1) {
    return a64_box_int(v);
  }
  // A value of one digit fits an int of one or two; one of two only an int of two (a block
  // holds the digits its int was made with, and no more under a debug allocator).
  const bool two_digits = TwoDigits(old);
  if (MediumInt(v) && (two_digits || OneDigit(old))) {
    SetOneDigit(reinterpret_cast<PyLongObject*>(old), v);
  } else if (const uint64_t magnitude = Magnitude(v); two_digits && TwoDigitMagnitude(magnitude)) {
    SetTwoDigits(reinterpret_cast<PyLongObject*>(old), v, magnitude);
  } else {
    return a64_box_int(v);
  }
  Py_INCREF(old);
  return old;
}

namespace {
// The helper of each BINARY_OP with a float form, by its NB_* code; null for the others.
constexpr auto kFloatForms = [] {
  std::array<binaryfunc, NB_INPLACE_XOR + 1> forms{};
  forms[NB_ADD] = a64_number_add;
  forms[NB_INPLACE_ADD] = a64_number_inplace_add;
  forms[NB_SUBTRACT] = a64_number_subtract;
  forms[NB_INPLACE_SUBTRACT] = a64_number_inplace_subtract;
  forms[NB_MULTIPLY] = a64_number_multiply;
  forms[NB_INPLACE_MULTIPLY] = a64_number_inplace_multiply;
  forms[NB_TRUE_DIVIDE] = a64_number_true_divide;
  forms[NB_INPLACE_TRUE_DIVIDE] = a64_number_inplace_true_divide;
  return forms;
}();

// `*local += b` for the str `a` the local holds, in the local's own object, as stock's
// BINARY_OP_INPLACE_ADD_UNICODE does through PyUnicode_Append: only when no one else can see
// the object change (the local's is its only reference besides compiled code's own, if
// `owned`; it was never hashed nor interned), both are exact strs of one kind (an ASCII str
// takes only ASCII), and the object is compact, so that PyUnicode_Resize grows it where it
// is (or moves it, which no one sees). Then compiled code's own reference is released.
// False when it does not apply, or when growing failed (no memory): nothing has changed, and
// no exception is set. Without this, `s += t` in a loop copied s on every step.
bool AppendInPlace(PyObject** local, PyObject* a, PyObject* b, bool owned) {
  // `s += s`: a's only reference may be the local's when compiled code borrowed both operands
  // from it, but growing a would move b too.
  if (a == b || !PyUnicode_CheckExact(a) || !PyUnicode_CheckExact(b) || !PyUnicode_IS_READY(b) ||
      !PyUnicode_IS_COMPACT(a) || Py_REFCNT(a) != 1 + (owned ? 1 : 0) ||
      reinterpret_cast<PyASCIIObject*>(a)->hash != -1 || PyUnicode_CHECK_INTERNED(a) ||
      PyUnicode_KIND(a) != PyUnicode_KIND(b) || (PyUnicode_IS_ASCII(a) && !PyUnicode_IS_ASCII(b))) {
    return false;
  }
  const Py_ssize_t old_length = PyUnicode_GET_LENGTH(a), more = PyUnicode_GET_LENGTH(b);
  if (more > PY_SSIZE_T_MAX / 4 - old_length) return false;  // the generic path raises
  if (owned) Py_DECREF(a);  // the local keeps it: the count goes to 1
  PyObject* grown = a;
  if (PyUnicode_Resize(&grown, old_length + more) != 0) {  // `a` is as it was
    PyErr_Clear();
    if (owned) Py_INCREF(a);
    return false;
  }
  const int kind = PyUnicode_KIND(grown);
  std::memcpy(static_cast<char*>(PyUnicode_DATA(grown)) + old_length * kind, PyUnicode_DATA(b),
              static_cast<size_t>(more) * static_cast<size_t>(kind));
  *local = grown;
  return true;
}

}  // namespace

int64_t a64_binary_op_into_local(PyObject* a, PyObject* b, int64_t how, int64_t store_unit) {
  const int nb = static_cast<int>(how & 0xff);
  const binaryfunc op = nb < static_cast<int>(kFloatForms.size()) ? kFloatForms[nb] : nullptr;
  if (op == nullptr) {
    PyErr_Format(PyExc_SystemError, "a64jit: BINARY_OP %d has no float form", nb);
    return 0;
  }
  _PyInterpreterFrame* const frame = RunningFrame();
  _Py_CODEUNIT* const first = _PyCode_CODE(frame->f_code);
  PyObject** const target = &frame->localsplus[how >> 12];
  if ((nb == NB_ADD || nb == NB_INPLACE_ADD) && *target == a &&
      AppendInPlace(target, a, b, (how & 0x100) != 0)) {
    if ((how & 0x200) != 0) Py_DECREF(b);  // a str: its deallocation runs no Python code
    frame->prev_instr = first + store_unit;
    python::TheRuntime().stats.str_appends_in_place++;
    return 1;
  }
  frame->prev_instr = first + store_unit - ((how >> 10) & 3);
  PyObject* result = op(a, b);
  if (result == nullptr) return 0;
  if ((how & 0x100) != 0) Py_XDECREF(a);
  if ((how & 0x200) != 0) Py_XDECREF(b);
  PyObject* old = *target;
  *target = result;
  frame->prev_instr = first + store_unit;
  Py_XDECREF(old);
  return 1;
}

uint64_t a64_binary_op_by_stub(const uint64_t* regs, uint64_t at) {
  const codegen::IntoLocalSite site = codegen::IntoLocalSiteAt(at);
  const auto a = reinterpret_cast<PyObject*>(regs[site.a]);
  const auto b = reinterpret_cast<PyObject*>(regs[site.b]);
  if (a64_binary_op_into_local(a, b, site.how, site.unit) == 0) return 0;
  return codegen::IntoLocalContinuation(site, at);
}

namespace {

// The values of `keys` in `subject` as a tuple, None when one is missing, NULL on error.
// `get` is subject.get (unbound when `unbound`: then the subject is its first argument);
// `missing` is the default it is passed, which comes back only for a missing key.
PyObject* LookUpKeys(PyObject* subject, PyObject* keys, PyObject* get, bool unbound, PyObject* seen,
                     PyObject* missing) {
  const Py_ssize_t nkeys = PyTuple_GET_SIZE(keys);
  PyObject* values = PyTuple_New(nkeys);
  if (values == nullptr) return nullptr;
  for (Py_ssize_t i = 0; i < nkeys; i++) {
    PyObject* key = PyTuple_GET_ITEM(keys, i);
    if (PySet_Contains(seen, key) || PySet_Add(seen, key)) {
      if (!PyErr_Occurred()) {
        PyErr_Format(PyExc_ValueError, "mapping pattern checks duplicate key (%R)", key);
      }
      Py_DECREF(values);
      return nullptr;
    }
    PyObject* args[] = {subject, key, missing};
    PyObject* value = unbound ? PyObject_Vectorcall(get, args, 3, nullptr)
                              : PyObject_Vectorcall(get, args + 1, 2, nullptr);
    if (value == nullptr || value == missing) {
      Py_DECREF(values);
      if (value == nullptr) return nullptr;
      Py_DECREF(value);
      return Py_NewRef(Py_None);
    }
    PyTuple_SET_ITEM(values, i, value);
  }
  return values;
}

}  // namespace

// MATCH_KEYS (ceval.c's match_keys): map.get(key, <a fresh object>) for each key, so that
// dict subclasses with __missing__ (defaultdict) neither create keys nor raise; the fresh
// object coming back means "missing". A key given twice is a ValueError.
PyObject* a64_match_keys(PyObject* subject, PyObject* keys) {
  if (PyTuple_GET_SIZE(keys) == 0) return PyTuple_New(0);
  PyObject* get = nullptr;
  const int unbound = _PyObject_GetMethod(subject, A64JIT_STR(get), &get);
  if (get == nullptr) return nullptr;
  PyObject* seen = PySet_New(nullptr);
  PyObject* missing = seen != nullptr
                          ? PyObject_CallNoArgs(reinterpret_cast<PyObject*>(&PyBaseObject_Type))
                          : nullptr;
  PyObject* values =
      missing != nullptr ? LookUpKeys(subject, keys, get, unbound, seen, missing) : nullptr;
  Py_DECREF(get);
  Py_XDECREF(seen);
  Py_XDECREF(missing);
  return values;
}

namespace {

// ceval.c's match_class_attr: subject.<name> for one sub-pattern, NULL both on a missing
// attribute (no match, no exception) and on an error. A name used twice is a TypeError.
PyObject* MatchClassAttr(PyObject* subject, PyObject* type, PyObject* name, PyObject* seen) {
  if (PySet_Contains(seen, name) || PySet_Add(seen, name)) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "%s() got multiple sub-patterns for attribute %R",
                   reinterpret_cast<PyTypeObject*>(type)->tp_name, name);
    }
    return nullptr;
  }
  PyObject* attr = PyObject_GetAttr(subject, name);
  if (attr == nullptr && PyErr_ExceptionMatches(PyExc_AttributeError)) PyErr_Clear();
  return attr;
}

// Appends subject.<name> to `attrs`; 0, or -1 on no match or error.
int AppendMatchedAttr(PyObject* subject, PyObject* type, PyObject* name, PyObject* seen,
                      PyObject* attrs) {
  PyObject* attr = MatchClassAttr(subject, type, name, seen);
  if (attr == nullptr) return -1;
  const int rc = PyList_Append(attrs, attr);
  Py_DECREF(attr);
  return rc;
}

// The positional sub-patterns: the attributes type.__match_args__ names, or for the
// builtins that match themselves (bool, int, str, ...: _Py_TPFLAGS_MATCH_SELF, unless a
// subclass defines __match_args__) the subject itself. 0, or -1 on no match or error.
int MatchPositional(PyObject* subject, PyObject* type, Py_ssize_t nargs, PyObject* seen,
                    PyObject* attrs) {
  const char* type_name = reinterpret_cast<PyTypeObject*>(type)->tp_name;
  bool match_self = false;
  PyObject* match_args = PyObject_GetAttrString(type, "__match_args__");
  if (match_args != nullptr) {
    if (!PyTuple_CheckExact(match_args)) {
      PyErr_Format(PyExc_TypeError, "%s.__match_args__ must be a tuple (got %s)", type_name,
                   Py_TYPE(match_args)->tp_name);
      Py_DECREF(match_args);
      return -1;
    }
  } else if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
    PyErr_Clear();
    match_args = PyTuple_New(0);
    if (match_args == nullptr) return -1;
    match_self = PyType_HasFeature(reinterpret_cast<PyTypeObject*>(type), _Py_TPFLAGS_MATCH_SELF);
  } else {
    return -1;
  }
  const Py_ssize_t allowed = match_self ? 1 : PyTuple_GET_SIZE(match_args);
  int rc = 0;
  if (allowed < nargs) {
    PyErr_Format(PyExc_TypeError, "%s() accepts %zd positional sub-pattern%s (%zd given)",
                 type_name, allowed, allowed == 1 ? "" : "s", nargs);
    rc = -1;
  } else if (match_self) {
    rc = PyList_Append(attrs, subject);
  } else {
    for (Py_ssize_t i = 0; rc == 0 && i < nargs; i++) {
      PyObject* name = PyTuple_GET_ITEM(match_args, i);
      if (!PyUnicode_CheckExact(name)) {
        PyErr_Format(PyExc_TypeError, "__match_args__ elements must be strings (got %s)",
                     Py_TYPE(name)->tp_name);
        rc = -1;
      } else {
        rc = AppendMatchedAttr(subject, type, name, seen, attrs);
      }
    }
  }
  Py_DECREF(match_args);
  return rc;
}

// ceval.c's match_class: the tuple of matched attributes, or NULL on no match (no
// exception) or error.
PyObject* MatchClass(PyObject* subject, PyObject* type, Py_ssize_t nargs, PyObject* names) {
  if (!PyType_Check(type)) {
    PyErr_SetString(PyExc_TypeError, "called match pattern must be a type");
    return nullptr;
  }
  if (PyObject_IsInstance(subject, type) <= 0) return nullptr;
  PyObject* seen = PySet_New(nullptr);
  if (seen == nullptr) return nullptr;
  PyObject* attrs = PyList_New(0);
  if (attrs == nullptr) {
    Py_DECREF(seen);
    return nullptr;
  }
  int rc = nargs != 0 ? MatchPositional(subject, type, nargs, seen, attrs) : 0;
  for (Py_ssize_t i = 0; rc == 0 && i < PyTuple_GET_SIZE(names); i++) {
    rc = AppendMatchedAttr(subject, type, PyTuple_GET_ITEM(names, i), seen, attrs);
  }
  Py_DECREF(seen);
  if (rc != 0) {
    Py_DECREF(attrs);
    return nullptr;
  }
  Py_SETREF(attrs, PyList_AsTuple(attrs));
  return attrs;
}

}  // namespace

PyObject* a64_match_class(PyObject* subject, PyObject* type, int64_t nargs, PyObject* names) {
  PyObject* attrs = MatchClass(subject, type, nargs, names);
  if (attrs != nullptr || PyErr_Occurred()) return attrs;
  return Py_NewRef(Py_None);
}

// LOAD_BUILD_CLASS: a missing __build_class__ is a NameError, also when the builtins are a
// mapping other than a dict (its KeyError becomes the NameError).
PyObject* a64_load_build_class(_PyInterpreterFrame* frame) {
  PyObject* builtins = frame->f_builtins;
  PyObject* name = A64JIT_STR(__build_class__);
  if (PyDict_CheckExact(builtins)) {
    PyObject* bc = _PyDict_GetItemWithError(builtins, name);
    if (bc == nullptr) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_NameError, "__build_class__ not found");
      return nullptr;
    }
    return Py_NewRef(bc);
  }
  PyObject* bc = PyObject_GetItem(builtins, name);
  if (bc == nullptr && PyErr_ExceptionMatches(PyExc_KeyError)) {
    PyErr_SetString(PyExc_NameError, "__build_class__ not found");
  }
  return bc;
}

// BEFORE_WITH / BEFORE_ASYNC_WITH: both methods are looked up on the type (special method
// lookup, bound to `mgr`), __enter__ first, as stock does; calling __enter__ is left to
// compiled code so the call stays visible to it.
int a64_before_with(PyObject* mgr, PyObject** out, int64_t is_async) {
  PyObject* enter_name = is_async ? A64JIT_STR(__aenter__) : A64JIT_STR(__enter__);
  PyObject* exit_name = is_async ? A64JIT_STR(__aexit__) : A64JIT_STR(__exit__);
  const char* protocol = is_async ? "asynchronous context manager" : "context manager";
  PyObject* enter = _PyObject_LookupSpecial(mgr, enter_name);
  if (enter == nullptr) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError, "'%.200s' object does not support the %s protocol",
                   Py_TYPE(mgr)->tp_name, protocol);
    }
    return -1;
  }
  PyObject* exit = _PyObject_LookupSpecial(mgr, exit_name);
  if (exit == nullptr) {
    if (!PyErr_Occurred()) {
      PyErr_Format(PyExc_TypeError,
                   "'%.200s' object does not support the %s protocol (missed %U method)",
                   Py_TYPE(mgr)->tp_name, protocol, exit_name);
    }
    Py_DECREF(enter);
    return -1;
  }
  out[0] = exit;
  out[1] = enter;
  return 0;
}

#undef A64JIT_STR

}  // namespace a64jit::runtime
