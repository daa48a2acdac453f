#include "jit/python/attr_descriptors.h"

#include <structmember.h>

#include <cstddef>

#include "jit/python/type_memo.h"

namespace a64jit::runtime {

namespace {

// `Cls.name` for a class whose metaclass is exactly `type`: type_getattro finds no attribute
// of the metaclass's (type's dict never changes), so it returns the class's own attribute
// through its __get__(None, Cls), or itself.
DescrEntry ClassAttrEntryFor(PyObject* cls, PyObject* name) {
  if (!Py_IS_TYPE(cls, &PyType_Type) || _PyType_Lookup(&PyType_Type, name) != nullptr) return {};
  auto* type = reinterpret_cast<PyTypeObject*>(cls);
  PyObject* attr = _PyType_Lookup(type, name);
  if (attr == nullptr) return {};
  return {python::ValidVersionTag(type), DescrKind::kClassAttr, 0, 0, attr, cls};
}

// Whether `descr`, found for `name`, is object's own `__class__`: a getset descriptor, data,
// so no instance attribute hides it.
bool IsObjectClassDescriptor(PyObject* descr, PyObject* name) {
  return descr != nullptr && Py_IS_TYPE(descr, &PyGetSetDescr_Type) &&
         PyUnicode_CompareWithASCIIString(name, "__class__") == 0 &&
         descr == _PyType_Lookup(&PyBaseObject_Type, name);
}

// `obj.__class__` as 3.11's specialize.c takes it (DUNDER_CLASS): LOAD_ATTR_SLOT of the word
// at ob_type's offset, the object's type, guarded by that type's version. Without it, the
// slot site that 3.11's feedback made took the generic path on every load (about 220 guest
// instructions, a dataclass's __eq__ reading two).
AttrEntry ClassOfEntry(PyTypeObject* tp) {
  const uint32_t version = python::ValidVersionTag(tp);
  if (version == 0) return {};
  return {version, 0, static_cast<int64_t>(offsetof(PyObject, ob_type))};
}

}  // namespace

PyDictKeysObject* KeysWithout(PyObject* obj, PyObject* name, uint16_t* nentries) {
  if ((Py_TYPE(obj)->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0 || InlineValues(obj) == nullptr) {
    return nullptr;
  }
  return TypeKeysWithout(Py_TYPE(obj), name, nentries);
}

PyDictKeysObject* TypeKeysWithout(PyTypeObject* type, PyObject* name, uint16_t* nentries) {
  if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0) return nullptr;
  PyDictKeysObject* keys = reinterpret_cast<PyHeapTypeObject*>(type)->ht_cached_keys;
  if (keys == nullptr || keys->dk_kind != DICT_KEYS_SPLIT || keys->dk_nentries > UINT16_MAX) {
    return nullptr;
  }
  PyDictUnicodeEntry* entries = DK_UNICODE_ENTRIES(keys);
  for (Py_ssize_t i = 0; i < keys->dk_nentries; i++) {
    if (entries[i].me_key == name) return nullptr;  // instances may have it
  }
  *nentries = static_cast<uint16_t>(keys->dk_nentries);
  return keys;
}

DictHint DictHintFor(PyObject* obj, PyObject* name, bool store) {
  PyTypeObject* type = Py_TYPE(obj);
  if (!PyUnicode_CheckExact(name) || type->tp_getattro != PyObject_GenericGetAttr) return {};
  if (store && type->tp_setattro != PyObject_GenericSetAttr) return {};
  PyObject* dict = InstanceDict(obj);
  if (dict == nullptr || !PyDict_CheckExact(dict)) return {};
  // A data descriptor of the type would come before the dict.
  PyObject* descr = _PyType_Lookup(type, name);
  if (descr != nullptr && Py_TYPE(descr)->tp_descr_set != nullptr) return {};
  const uint32_t version = python::ValidVersionTag(type);
  if (version == 0) return {};
  const Py_ssize_t i =
      python::DictIndexOf(reinterpret_cast<PyDictObject*>(dict), name, kMaxHintIndex);
  return i >= 0 ? DictHint{version, static_cast<uint32_t>(i)} : DictHint{};
}

DescrEntry DescrEntryFor(PyObject* obj, PyObject* name) {
  if (!PyUnicode_CheckExact(name)) return {};  // a name the type's cache can hold
  if (PyType_Check(obj)) return ClassAttrEntryFor(obj, name);
  PyTypeObject* type = Py_TYPE(obj);
  // Only PyObject_GenericGetAttr's order (no __getattribute__ or __getattr__ of the class's
  // own).
  if (type->tp_getattro != PyObject_GenericGetAttr) return {};
  PyObject* descr = _PyType_Lookup(type, name);
  if (descr == nullptr) return {};
  const uint32_t version = python::ValidVersionTag(type);
  if (Py_TYPE(descr)->tp_descr_get != nullptr && Py_TYPE(descr)->tp_descr_set != nullptr) {
    const uint8_t property = Py_IS_TYPE(descr, &PyProperty_Type) ? 1 : 0;
    return {version, DescrKind::kData, property, 0, descr, nullptr};
  }
  // A non-data descriptor or a plain value yields to the instance's own attribute: only
  // where the instance cannot have one.
  if ((type->tp_flags & Py_TPFLAGS_MANAGED_DICT) != 0) {
    uint16_t nentries = 0;
    PyDictKeysObject* keys = KeysWithout(obj, name, &nentries);
    if (keys == nullptr) return {};
    return {version, DescrKind::kTypeAttr, 0, nentries, descr, keys};
  }
  if (type->tp_dictoffset != 0) return {};  // a __dict__ elsewhere: not handled
  return {version, DescrKind::kTypeAttr, 0, 0, descr, nullptr};
}

// The entry for a `__slots__` member of `obj`'s type named `name`, as 3.11's specialize.c
// takes one for LOAD_ATTR_SLOT and STORE_ATTR_SLOT: the type reads (stores) attributes the
// generic way, and the name's descriptor is a T_OBJECT_EX member that applies to obj, not
// audited when read (for a store, not read-only), at an offset a uint16 holds. Else
// type_version 0.
AttrEntry SlotEntryFor(PyObject* obj, PyObject* name, bool store) {
  PyTypeObject* tp = Py_TYPE(obj);
  if (!PyUnicode_CheckExact(name) || (store ? tp->tp_setattro != PyObject_GenericSetAttr
                                            : tp->tp_getattro != PyObject_GenericGetAttr)) {
    return {};
  }
  PyObject* descr = _PyType_Lookup(tp, name);
  if (!store && IsObjectClassDescriptor(descr, name)) return ClassOfEntry(tp);
  if (descr == nullptr || !Py_IS_TYPE(descr, &PyMemberDescr_Type)) return {};
  auto* member = reinterpret_cast<PyMemberDescrObject*>(descr);
  const PyMemberDef* def = member->d_member;
  if (def->type != T_OBJECT_EX || (def->flags & PY_AUDIT_READ) != 0 ||
      (store && (def->flags & READONLY) != 0) || def->offset <= 0 || def->offset > UINT16_MAX ||
      !PyObject_TypeCheck(obj, member->d_common.d_type)) {
    return {};
  }
  if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_version_tag == 0) return {};
  return {tp->tp_version_tag, 0, static_cast<int64_t>(def->offset)};
}

}  // namespace a64jit::runtime
