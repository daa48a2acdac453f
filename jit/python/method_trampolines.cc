// The trampolines of method_trampolines.h. Each does what CPython 3.11's vectorcall of the
// function's convention (Objects/descrobject.c, methodobject.c) does after its checks, which
// the call stub or the inline path has made: self of exactly a descriptor's type, the
// recursion limit.
#include "jit/python/method_trampolines.h"

#include <descrobject.h>

#include "jit/python/arguments.h"
#include "jit/python/str_search.h"

namespace a64jit::runtime {

// A METH_VARARGS (or METH_VARARGS | METH_KEYWORDS) function's call with the cache's argument
// vector, as CPython's method_vectorcall_VARARGS and cfunction_call make it: the arguments in a
// tuple, no keywords. `def` is the cache's entry_context; the call stub, or the inline path,
// has checked self's exact type (a descriptor's) and the recursion limit, as for a C entry.
PyObject* a64_varargs_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                             const PyMethodDef* def) {
  PyObject* tuple = python::ArgumentTuple(args, nargs);
  if (tuple == nullptr) return nullptr;
  PyObject* result = (def->ml_flags & METH_KEYWORDS) != 0
                         ? reinterpret_cast<PyCFunctionWithKeywords>(
                               reinterpret_cast<void (*)()>(def->ml_meth))(self, tuple, nullptr)
                         : def->ml_meth(self, tuple);
  Py_DECREF(tuple);
  return result;
}

namespace {

// A METH_METHOD | METH_FASTCALL | METH_KEYWORDS method descriptor's call without keywords, as
// CPython's method_vectorcall_FASTCALL_KEYWORDS_METHOD makes it: the descriptor's type passed
// as the defining class. `descriptor` is the cache's entry_context.
PyObject* a64_defining_class_method(PyObject* self, PyObject* const* args, Py_ssize_t nargs,
                                    PyObject* descriptor) {
  auto* descr = reinterpret_cast<PyMethodDescrObject*>(descriptor);
  const auto meth =
      reinterpret_cast<PyCMethod>(reinterpret_cast<void (*)()>(descr->d_method->ml_meth));
  return meth(self, descr->d_common.d_type, args, static_cast<size_t>(nargs), nullptr);
}

// METH_VARARGS, with or without METH_KEYWORDS (METH_COEXIST ignored, as CEntryOf does).
bool Varargs(int flags) {
  flags &= ~METH_COEXIST;
  return flags == METH_VARARGS || flags == (METH_VARARGS | METH_KEYWORDS);
}

// A trampoline as the cache calls it: `entry` with the argument vector, the count and
// `context` (4 integer arguments).
void TrampolineEntry(void* entry, const void* context, CCallCache* out, int* arity) {
  out->entry = entry;
  out->entry_context = const_cast<void*>(context);
  out->fastcall = 1;
  *arity = 4;
}

// The entry of a METH_VARARGS function with PyMethodDef `def`: str's search methods their own
// (str_search.h), any other a64_varargs_method; both take `def` as context.
void VarargsEntry(const PyMethodDef* def, CCallCache* out, int* arity) {
  void* search = StrSearchEntry(def);
  TrampolineEntry(search != nullptr ? search : reinterpret_cast<void*>(&a64_varargs_method), def,
                  out, arity);
}

}  // namespace

// LOAD_METHOD's method descriptor of a convention with no C entry the stub can call as it is,
// called through a trampoline: str's search methods (str_search.h); METH_VARARGS, with or
// without METH_KEYWORDS (re.Match.group, str.format: a64_varargs_method), with the
// PyMethodDef as context; and METH_METHOD | METH_FASTCALL | METH_KEYWORDS (re.Pattern.match,
// search, sub: a64_defining_class_method), with the descriptor. 3.11 has no specialisation
// for these, so each call took a64_call_enter, a64_call and the descriptor's vectorcall.
bool TrampolineMethodEntry(PyObject* callable, CCallCache* out, int* arity) {
  if (!Py_IS_TYPE(callable, &PyMethodDescr_Type)) return false;
  auto* descr = reinterpret_cast<PyMethodDescrObject*>(callable);
  const int flags = descr->d_method->ml_flags;
  if (Varargs(flags)) {
    VarargsEntry(descr->d_method, out, arity);
  } else if (flags == (METH_METHOD | METH_FASTCALL | METH_KEYWORDS)) {
    TrampolineEntry(reinterpret_cast<void*>(&a64_defining_class_method), callable, out, arity);
  } else {
    return false;
  }
  out->self_type = descr->d_common.d_type;
  return true;
}

// A bound C method or another module's function of METH_VARARGS: held in a local, it was
// rejected by its site and took a64_call_enter, a64_call and _PyObject_MakeTpCall on every call
// (html_scan's `startswith = rawdata.startswith`: about 800 calls a warm call). Its
// PyMethodDef is static, so the cache keeps nothing alive.
bool TrampolineFunctionEntry(PyObject* callable, CCallCache* out, int* arity) {
  if (!Py_IS_TYPE(callable, &PyCFunction_Type)) return false;
  const PyMethodDef* def = reinterpret_cast<PyCFunctionObject*>(callable)->m_ml;
  if (!Varargs(def->ml_flags)) return false;
  VarargsEntry(def, out, arity);
  out->self = nullptr;
  out->method_def = def;
  return true;
}

}  // namespace a64jit::runtime
