#include "jit/python/super_lookup.h"

#include <internal/pycore_dict.h>

#include "jit/python/runtime_state.h"
#include "jit/runtime/helpers.h"

namespace a64jit::python {

namespace {

// The first entry of `start`'s MRO after `type`, or -1 where super_getattro goes straight to
// the generic lookup: no MRO, `type` not in it before its last entry, or the name `__class__`
// (super().__class__ is the super object's class, not obj's).
Py_ssize_t FirstSearched(PyTypeObject* type, PyTypeObject* start, PyObject* name) {
  if (start == nullptr || start->tp_mro == nullptr || !PyUnicode_CheckExact(name)) return -1;
  if (PyUnicode_GET_LENGTH(name) == 9 && PyUnicode_CompareWithASCIIString(name, "__class__") == 0) {
    return -1;
  }
  PyObject* mro = start->tp_mro;
  const Py_ssize_t n = PyTuple_GET_SIZE(mro);
  Py_ssize_t i = 0;
  while (i + 1 < n && PyTuple_GET_ITEM(mro, i) != reinterpret_cast<PyObject*>(type)) i++;
  return i + 1 < n ? i + 1 : -1;
}

// super_getattro's search of the MRO's dicts from entry `i`: a new reference to the value, or
// NULL (an exception set when a lookup raised). With `quiet`, only dicts whose keys are all
// str are searched, where a lookup runs no Python code: another dict ends the search with
// NULL, no exception set.
PyObject* SearchMro(PyObject* mro_in, Py_ssize_t i, PyObject* name, bool quiet) {
  PyObject* mro = Py_NewRef(mro_in);  // a lookup's __eq__ may replace tp_mro
  PyObject* found = nullptr;
  for (const Py_ssize_t n = PyTuple_GET_SIZE(mro); i < n && found == nullptr; i++) {
    auto* dict = reinterpret_cast<PyDictObject*>(
        reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(mro, i))->tp_dict);
    if (quiet && (dict == nullptr || !PyDict_CheckExact(dict) || !DK_IS_UNICODE(dict->ma_keys))) {
      break;
    }
    found = PyDict_GetItemWithError(reinterpret_cast<PyObject*>(dict), name);
    if (found == nullptr && PyErr_Occurred()) break;
  }
  Py_XINCREF(found);  // before the MRO, which may hold the last reference to its dict, goes
  Py_DECREF(mro);
  return found;
}

// What `found`'s __get__ gives without running code, as LOAD_METHOD's pair: [method, obj] for
// a method descriptor of an instance; [NULL, found] for a function or C method descriptor in
// class-method mode (obj NULL: their __get__ gives themselves) and for a value with no
// __get__; a staticmethod's callable; a classmethod's function bound to `start` as
// [function, start]. False for anything else (a property's getter, a descriptor of its own).
// Takes over `found`'s reference when it returns true.
bool QuietPair(PyObject* found, PyObject* obj, PyTypeObject* start, PyObject** out) {
  PyTypeObject* kind = Py_TYPE(found);
  if (obj != nullptr && obj != Py_None && (kind->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR) != 0) {
    out[0] = found;
    out[1] = Py_NewRef(obj);
    return true;
  }
  const bool self_getting =
      kind == &PyFunction_Type || kind == &PyMethodDescr_Type || kind == &PyWrapperDescr_Type;
  if (kind->tp_descr_get == nullptr || (obj == nullptr && self_getting)) {
    out[0] = nullptr;
    out[1] = found;
    return true;
  }
  PyObject* callable = reinterpret_cast<WrappedCallable*>(found)->callable;
  if (kind == &PyStaticMethod_Type && callable != nullptr) {
    out[0] = nullptr;
    out[1] = Py_NewRef(callable);
  } else if (kind == &PyClassMethod_Type && callable != nullptr && PyFunction_Check(callable)) {
    out[0] = Py_NewRef(callable);
    out[1] = Py_NewRef(reinterpret_cast<PyObject*>(start));
  } else {
    return false;
  }
  Py_DECREF(found);
  return true;
}

}  // namespace

int LoadSuperMethod(PyObject* self, PyObject* name, PyObject** out) {
  auto* su = reinterpret_cast<SuperObject*>(self);
  const Py_ssize_t i = FirstSearched(su->type, su->obj_type, name);
  if (i < 0) return 0;
  PyObject* found = SearchMro(su->obj_type->tp_mro, i, name, false);
  if (found == nullptr) return PyErr_Occurred() ? -1 : 0;
  // Instance mode: obj is not the type searched (class-method mode passes no instance).
  PyObject* obj = su->obj == reinterpret_cast<PyObject*>(su->obj_type) ? nullptr : su->obj;
  if (QuietPair(found, obj, su->obj_type, out)) {
    TheRuntime().stats.super_methods++;
    return 1;
  }
  if (descrgetfunc get = Py_TYPE(found)->tp_descr_get) {  // one that may run code
    PyObject* bound = get(found, obj, reinterpret_cast<PyObject*>(su->obj_type));
    Py_DECREF(found);
    if (bound == nullptr) return -1;
    found = bound;
  }
  out[0] = nullptr;
  out[1] = found;
  return 1;
}

}  // namespace a64jit::python

namespace a64jit::runtime {

namespace {

// The pair for `super(type, first).name` as the super object would give it, without making
// it: supercheck's mode (a subclass of `type` is class-method mode, an instance of it instance
// mode), then super_getattro's search, quietly (QuietPair). 0, or -1 where the interpreter
// must make the super object: None or anything else for `first` (an unbound super, or
// supercheck's `__class__` attribute and its errors), a miss, a result it cannot give quietly.
int64_t QuietSuperPair(PyTypeObject* type, PyObject* first, PyObject* name, PyObject** out) {
  PyTypeObject* start = nullptr;
  PyObject* obj = nullptr;
  if (first == Py_None) return -1;
  if (PyType_Check(first) && PyType_IsSubtype(reinterpret_cast<PyTypeObject*>(first), type)) {
    start = reinterpret_cast<PyTypeObject*>(first);
  } else if (PyType_IsSubtype(Py_TYPE(first), type)) {
    start = Py_TYPE(first);
    obj = first;
  } else {
    return -1;
  }
  const Py_ssize_t i = python::FirstSearched(type, start, name);
  if (i < 0) return -1;
  PyObject* found = python::SearchMro(start->tp_mro, i, name, true);
  if (found == nullptr) return -1;  // a miss, or a dict not of str keys only: no exception
  if (!python::QuietPair(found, obj, start, out)) {
    Py_DECREF(found);
    return -1;
  }
  python::TheRuntime().stats.super_methods++;
  return 0;
}

bool IsBuiltinSuper(PyObject* super_global) {
  return super_global == reinterpret_cast<PyObject*>(&PySuper_Type);
}

}  // namespace

int64_t a64_load_method_super(PyObject* super_global, PyObject* cell, PyObject* first,
                              PyObject* name, PyObject** out) {
  if (!IsBuiltinSuper(super_global) || cell == nullptr || !PyCell_Check(cell) || first == nullptr) {
    return -1;
  }
  PyObject* cls = PyCell_GET(cell);
  if (cls == nullptr || !PyType_Check(cls)) return -1;
  return QuietSuperPair(reinterpret_cast<PyTypeObject*>(cls), first, name, out);
}

int64_t a64_load_method_super_of(PyObject* super_global, PyObject* cls, PyObject* obj,
                                 PyObject* name, PyObject** out) {
  if (!IsBuiltinSuper(super_global) || !PyType_Check(cls)) return -1;
  return QuietSuperPair(reinterpret_cast<PyTypeObject*>(cls), obj, name, out);
}

}  // namespace a64jit::runtime
