// a64_getitem_cached, declared in jit/runtime/helpers.h: BINARY_SUBSCR at a site 3.11
// specialised to BINARY_SUBSCR_GETITEM, a container whose class defines __getitem__ in Python.
// And a64_dict_getitem and a64_dict_setitem, at sites it specialised to BINARY_SUBSCR_DICT and
// STORE_SUBSCR_DICT.
//
// For that case compiled code called PyObject_GetItem, which runs the class's
// slot_mp_subscript, vectorcall_method's lookup of "__getitem__" (_PyType_Lookup) and a
// vectorcall: under QEMU about 130 guest instructions besides the call itself. The site's cache
// keeps the class's version tag and its function, which is then called directly with the
// container first (jit.h's CallFunctionWithFirst, which enters a compiled one without its
// vectorcall).
//
// What 3.11's specialiser asks of the class (specialize.c, BINARY_SUBSCR_GETITEM): a heap type
// whose __getitem__, found through its MRO, is a Python function taking exactly two positional
// parameters. Such a class's mp_subscript is slot_mp_subscript, which looks the same function
// up and calls it with (container, key); a version tag is unique while not 0 and changes with
// any change to the class's MRO dicts, so the cached function is the one that lookup finds.
#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_pyerrors.h>

#include <cstdint>

#include "jit/python/interp_state.h"
#include "jit/python/jit.h"
#include "jit/python/runtime_state.h"
#include "jit/python/site_entry.h"
#include "jit/python/type_memo.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

namespace {

// The entry for `type` when 3.11 would call its __getitem__ directly, else type_version 0.
GetItemEntry GetItemEntryFor(PyTypeObject* type) {
  static PyObject* const name = PyUnicode_InternFromString("__getitem__");
  const unsigned int version = python::ValidVersionTag(type);
  if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 || name == nullptr || version == 0) return {};
  PyObject* function = _PyType_Lookup(type, name);
  if (function == nullptr || !PyFunction_Check(function)) return {};
  const auto* code = reinterpret_cast<PyCodeObject*>(PyFunction_GET_CODE(function));
  if (!python::OnlyPositionalParameters(code) || code->co_argcount != 2) return {};
  return {version, function};
}

}  // namespace

PyObject* a64_getitem_cached(PyObject* container, PyObject* sub, GetItemCache* cache) {
  EnterSite(RunningFrame(), cache);  // prev_instr for what the call or the lookup raises
  PyTypeObject* type = Py_TYPE(container);
  const GetItemEntry& e = cache->entry;
  const bool hit = e.type_version != 0 && type->tp_version_tag == e.type_version;
  PyObject* function = hit || Remember(cache->respecializations, cache->entry,
                                       [type] { return GetItemEntryFor(type); })
                           ? static_cast<PyObject*>(e.function)
                           : nullptr;
  if (function == nullptr) return PyObject_GetItem(container, sub);
  Py_INCREF(function);  // held during the call, as slot_mp_subscript holds what it found
  PyObject* result =
      python::CallFunctionWithFirst(CurrentThreadState(), function, container, &sub, 1);
  Py_DECREF(function);
  return result;
}

// 3.11's BINARY_SUBSCR_DICT: a missing key is a KeyError of the key, unless the lookup (a
// key's __hash__ or __eq__) raised.
PyObject* a64_dict_getitem(PyObject* container, PyObject* sub) {
  if (!PyDict_CheckExact(container)) return PyObject_GetItem(container, sub);
  PyObject* item = PyDict_GetItemWithError(container, sub);
  if (item == nullptr) {
    if (!PyErr_Occurred()) _PyErr_SetKeyError(sub);
    return nullptr;
  }
  return Py_NewRef(item);
}

int a64_dict_setitem(PyObject* container, PyObject* sub, PyObject* value) {
  if (!PyDict_CheckExact(container)) return PyObject_SetItem(container, sub, value);
  return PyDict_SetItem(container, sub, value);
}

}  // namespace a64jit::runtime
