// LOAD_ATTR sites whose attribute the object's type gives (a data descriptor, a method read as
// a value, a class constant) or, for a class, the class itself: the site's DescrEntry
// (jit/runtime/site_cache.h) returns what PyObject_GenericGetAttr or type_getattro would,
// without looking the name up in the MRO and the instance each time.
#ifndef A64JIT_JIT_PYTHON_ATTR_DESCRIPTORS_H_
#define A64JIT_JIT_PYTHON_ATTR_DESCRIPTORS_H_

#include <Python.h>
#include <internal/pycore_dict.h>

#include "jit/python/dict_access.h"
#include "jit/runtime/site_cache.h"

namespace a64jit::runtime {

// The inline values of an object of a managed-dict type (3.11: four words before it), or
// nullptr when it has a real dict instead. 3.11 makes that dict as soon as an attribute is
// set that the type's shared keys cannot take, so while an object has inline values its
// attributes are all names of the shared keys.
inline PyObject** InlineValues(PyObject* obj) {
  return *reinterpret_cast<PyObject***>(reinterpret_cast<char*>(obj) + kInlineValuesOffset);
}

// The shared keys that `obj`'s inline values follow, with their length, when obj has inline
// values and the keys are split and do not hold `name` (so obj, and every instance of its
// heap type with inline values, lacks that attribute); else nullptr.
PyDictKeysObject* KeysWithout(PyObject* obj, PyObject* name, uint16_t* nentries);
// The same for the type alone: its shared keys when they do not hold `name`, whatever the
// state of any one instance.
PyDictKeysObject* TypeKeysWithout(PyTypeObject* type, PyObject* name, uint16_t* nentries);

// Whether `obj`, of a type whose instances' keys were `keys` of length `nentries` when an
// entry was made, still cannot have its own attribute of the entry's name: it has inline
// values, and its type's keys are the same, no longer.
inline bool Unshadowed(PyObject* obj, const void* keys, uint32_t nentries) {
  if (keys == nullptr) return true;  // the type's instances have no __dict__
  auto* heap = reinterpret_cast<PyHeapTypeObject*>(Py_TYPE(obj));
  return InlineValues(obj) != nullptr && heap->ht_cached_keys == keys &&
         static_cast<uint32_t>(heap->ht_cached_keys->dk_nentries) == nentries;
}

// The instance dict of `obj` when it has a real one: a managed dict that replaced the inline
// values (3.11 keeps its pointer three words before the object), or the dict at the type's
// tp_dictoffset; else nullptr.
inline PyObject* InstanceDict(PyObject* obj) {
  PyTypeObject* type = Py_TYPE(obj);
  if ((type->tp_flags & Py_TPFLAGS_MANAGED_DICT) != 0) {
    if (InlineValues(obj) != nullptr) return nullptr;
    return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + kManagedDictOffset);
  }
  if (type->tp_dictoffset <= 0) return nullptr;
  return *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + type->tp_dictoffset);
}

// How far into a dict's keys DictHintFor looks for the name: instance dicts are small, and
// a linear walk over a big one at every refill would cost more than it saves.
constexpr Py_ssize_t kMaxHintIndex = 64;

// The hint for `obj.name`: obj's type reads attributes the generic way (and, for a store,
// writes them the generic way: no __setattr__ of its own) and has no data descriptor of that
// name, and obj's real __dict__ (an exact dict of str keys) holds the name among its first
// kMaxHintIndex keys. type_version 0 otherwise.
DictHint DictHintFor(PyObject* obj, PyObject* name, bool store);

// `obj`'s real dict when hint `e` holds for obj's type, else nullptr.
inline PyDictObject* HintedDict(PyObject* obj, const DictHint& e) {
  if (e.type_version == 0 || Py_TYPE(obj)->tp_version_tag != e.type_version) return nullptr;
  return reinterpret_cast<PyDictObject*>(InstanceDict(obj));
}

// `obj`'s attribute through `e` (borrowed), or nullptr when the hint does not hold.
inline PyObject* CachedDictValue(PyObject* obj, PyObject* name, const DictHint& e) {
  PyDictObject* dict = HintedDict(obj, e);
  return dict != nullptr ? python::DictValueAt(dict, name, e.index) : nullptr;
}

// The AttrEntry of a slot site (AttrForm::kSlot) for `obj.name`: a `__slots__` member of obj's
// type under 3.11's rules (attr_descriptors.cc), its offset in the object, or for a load of
// object's own `__class__` the offset of ob_type (3.11 specialises that to LOAD_ATTR_SLOT too);
// else type_version 0.
AttrEntry SlotEntryFor(PyObject* obj, PyObject* name, bool store);

// The entry for `obj.name`, or type_version 0 when none of DescrKind's cases holds.
DescrEntry DescrEntryFor(PyObject* obj, PyObject* name);

// 3.11's propertyobject (Objects/descrobject.c; no header declares it): the getter is the
// first field after the object header. cpython311_facts_test checks the layout against
// properties made by libpython.
struct PropertyLayout {
  PyObject ob_base;  // PyObject_HEAD
  PyObject* prop_get;
  PyObject* prop_set;
  PyObject* prop_del;
  PyObject* prop_doc;
  PyObject* prop_name;
  int getter_doc;
};

// The getter of an exact `property` object (borrowed; nullptr when it has none).
inline PyObject* PropertyGetter(PyObject* property) {
  return reinterpret_cast<PropertyLayout*>(property)->prop_get;
}

// `obj`'s attribute through `e` when e holds for obj: a new reference, or NULL with the
// __get__'s exception. `*hit` false (and NULL returned) when e does not apply.
// An exact `property` (the entry says it is one) is read by `read_property(property, obj,
// type)` instead, which must do what property's __get__ does (a helper that may call a compiled
// getter itself).
template <typename PropertyRead>
inline PyObject* CachedDescrValue(PyObject* obj, const DescrEntry& e, bool* hit,
                                  PropertyRead read_property) {
  *hit = false;
  if (e.type_version == 0) return nullptr;
  PyTypeObject* type = Py_TYPE(obj);
  PyObject* instance = obj;
  PyTypeObject* owner = type;
  auto* descr = static_cast<PyObject*>(e.descr);
  switch (e.kind) {
    case DescrKind::kData:
      // Still a data descriptor: a class of Python descriptors may have lost its __set__.
      if (type->tp_version_tag != e.type_version || Py_TYPE(descr)->tp_descr_set == nullptr) {
        return nullptr;
      }
      break;
    case DescrKind::kTypeAttr:
      if (type->tp_version_tag != e.type_version || !Unshadowed(obj, e.guard, e.nentries)) {
        return nullptr;
      }
      break;
    case DescrKind::kClassAttr:
      owner = reinterpret_cast<PyTypeObject*>(obj);
      if (obj != e.guard || type != &PyType_Type || owner->tp_version_tag != e.type_version) {
        return nullptr;
      }
      instance = nullptr;  // type_getattro's "found on the class itself"
      break;
    case DescrKind::kEmpty:
      return nullptr;
  }
  // Read at each use, not cached: a Python class's __get__ may come or go.
  descrgetfunc get = Py_TYPE(descr)->tp_descr_get;
  if (get == nullptr && e.kind == DescrKind::kData) return nullptr;
  *hit = true;
  if (get == nullptr) return Py_NewRef(descr);
  // On the way of other data descriptors, the flag's load and branch alone.
  if (__builtin_expect(e.property != 0, 0)) return read_property(descr, obj, owner);
  // Held during the call, as the generic path holds it: the getter may delete it from the
  // type.
  Py_INCREF(descr);
  PyObject* value = get(descr, instance, reinterpret_cast<PyObject*>(owner));
  Py_DECREF(descr);
  return value;
}

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_PYTHON_ATTR_DESCRIPTORS_H_
