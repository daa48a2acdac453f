// LOAD_ATTR sites whose attribute is a data descriptor of the object's type (a `__slots__`
// member, a C type's member or getter, a property, a named tuple's field): the site's
// DescrEntry (jit/runtime/site_cache.h) calls the descriptor's getter as
// PyObject_GenericGetAttr would, without looking the name up in the type's MRO each time.
#ifndef A64JIT_JIT_PYTHON_ATTR_DESCRIPTORS_H_
#define A64JIT_JIT_PYTHON_ATTR_DESCRIPTORS_H_

#include <Python.h>

#include "jit/runtime/site_cache.h"

namespace a64jit::runtime {

// The entry for `obj.name` when PyObject_GenericGetAttr would call a data descriptor of obj's
// type for it; type_version 0 otherwise.
DescrEntry DescrEntryFor(PyObject* obj, PyObject* name);

// `obj`'s attribute through `e` when e holds obj's type version: a new reference, or NULL
// with the getter's exception. `*hit` false (and NULL returned) when e does not apply.
inline PyObject* CachedDescrValue(PyObject* obj, const DescrEntry& e, bool* hit) {
  PyTypeObject* type = Py_TYPE(obj);
  *hit = e.type_version != 0 && e.type_version == type->tp_version_tag;
  if (!*hit) return nullptr;
  // Held during the call, as PyObject_GenericGetAttr holds it: the getter may delete it from
  // the type.
  auto* descr = static_cast<PyObject*>(e.descr);
  Py_INCREF(descr);
  PyObject* value =
      reinterpret_cast<descrgetfunc>(e.get)(descr, obj, reinterpret_cast<PyObject*>(type));
  Py_DECREF(descr);
  return value;
}

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_ATTR_DESCRIPTORS_H_
