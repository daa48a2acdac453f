#include "jit/python/super_lookup.h"

#include "jit/python/runtime_state.h"

namespace a64jit::python {

namespace {

// The first MRO entry to search: the one after `type` in obj_type's MRO, or -1 where
// super_getattro goes straight to the generic lookup.
Py_ssize_t FirstSearched(const SuperObject* su, PyObject* name) {
  if (su->obj_type == nullptr || !PyUnicode_CheckExact(name)) return -1;
  // super().__class__ is the super object's class, not obj's.
  if (PyUnicode_GET_LENGTH(name) == 9 && PyUnicode_CompareWithASCIIString(name, "__class__") == 0) {
    return -1;
  }
  PyObject* mro = su->obj_type->tp_mro;
  if (mro == nullptr) return -1;
  const Py_ssize_t n = PyTuple_GET_SIZE(mro);
  Py_ssize_t i = 0;
  while (i + 1 < n && PyTuple_GET_ITEM(mro, i) != reinterpret_cast<PyObject*>(su->type)) i++;
  return i + 1 < n ? i + 1 : -1;  // past `type`; the last entry is not searched if it is
}

}  // namespace

int LoadSuperMethod(PyObject* self, PyObject* name, PyObject** out) {
  auto* su = reinterpret_cast<SuperObject*>(self);
  Py_ssize_t i = FirstSearched(su, name);
  if (i < 0) return 0;
  // A reference: tp_mro may be replaced while a lookup runs an __eq__.
  PyObject* mro = Py_NewRef(su->obj_type->tp_mro);
  PyObject* found = nullptr;
  for (const Py_ssize_t n = PyTuple_GET_SIZE(mro); i < n && found == nullptr; i++) {
    PyObject* dict = reinterpret_cast<PyTypeObject*>(PyTuple_GET_ITEM(mro, i))->tp_dict;
    found = PyDict_GetItemWithError(dict, name);
    if (found == nullptr && PyErr_Occurred()) break;
  }
  Py_XINCREF(found);  // before the MRO, which may hold the last reference to its dict, goes
  Py_DECREF(mro);
  if (found == nullptr) return PyErr_Occurred() ? -1 : 0;
  // Instance mode: obj is not the type searched (class-method mode passes no instance).
  PyObject* obj = su->obj == reinterpret_cast<PyObject*>(su->obj_type) ? nullptr : su->obj;
  if (obj != nullptr && obj != Py_None &&
      (Py_TYPE(found)->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR) != 0) {
    out[0] = found;
    out[1] = Py_NewRef(obj);
    TheRuntime().stats.super_methods++;
    return 1;
  }
  if (descrgetfunc get = Py_TYPE(found)->tp_descr_get) {
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
