#include "jit/python/attr_descriptors.h"

namespace a64jit::runtime {

DescrEntry DescrEntryFor(PyObject* obj, PyObject* name) {
  PyTypeObject* type = Py_TYPE(obj);
  // Only PyObject_GenericGetAttr's order (no __getattribute__ or __getattr__ of the class's
  // own), and only a name the type's cache can hold.
  if (type->tp_getattro != PyObject_GenericGetAttr || !PyUnicode_CheckExact(name)) return {};
  PyObject* descr = _PyType_Lookup(type, name);
  if (descr == nullptr) return {};
  // A data descriptor: both slots. A non-data one (a method, a class attribute) yields to
  // the instance's own attribute, which this entry would not see.
  descrgetfunc get = Py_TYPE(descr)->tp_descr_get;
  if (get == nullptr || Py_TYPE(descr)->tp_descr_set == nullptr) return {};
  // The version the lookup saw (it assigns one when it can).
  if ((type->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) == 0 || type->tp_version_tag == 0) return {};
  return {type->tp_version_tag, 0, descr, reinterpret_cast<void*>(get)};
}

}  // namespace a64jit::runtime
