#include "jit/python/dict_access.h"

#include <internal/pycore_gc.h>  // Py_BUILD_CORE comes from the BUILD file

namespace a64jit::python {

namespace {

// The JIT's own range of dict version tags (dict_access.h); the GIL guards it.
uint64_t own_dict_version = uint64_t{1} << 63;

// Slot `i` of the keys' index table: an entry index, or DKIX_EMPTY (-1) or DKIX_DUMMY (-2).
// The slots are as wide as a table of that size needs: 1 byte below 2^8 slots, 2 below 2^16,
// 4 below 2^32, else 8 (dictkeys_get_index in 3.11's dictobject.c).
Py_ssize_t IndexAt(const PyDictKeysObject* keys, size_t i) {
  const uint8_t log2_size = keys->dk_log2_size;
  if (log2_size < 8) return reinterpret_cast<const int8_t*>(keys->dk_indices)[i];
  if (log2_size < 16) return reinterpret_cast<const int16_t*>(keys->dk_indices)[i];
  if (log2_size < 32) return reinterpret_cast<const int32_t*>(keys->dk_indices)[i];
  return reinterpret_cast<const int64_t*>(keys->dk_indices)[i];
}

}  // namespace

// 3.11's open addressing (dictobject.c): slot hash & mask first, then i = i*5 + perturb + 1
// with perturb (the hash, unsigned) shifted right by 5 before each step; an empty slot ends
// the probe, a dummy (a deleted key) does not.
bool SurelyLacks(PyDictObject* d, PyObject* name) {
  PyDictKeysObject* keys = d->ma_keys;
  if (!DK_IS_UNICODE(keys) || !PyUnicode_CheckExact(name)) return false;
  const Py_hash_t hash = reinterpret_cast<PyASCIIObject*>(name)->hash;
  if (hash == -1) return false;
  const size_t mask = DK_SIZE(keys) - 1;
  size_t perturb = static_cast<size_t>(hash);
  size_t i = static_cast<size_t>(hash) & mask;
  for (;;) {
    const Py_ssize_t ix = IndexAt(keys, i);
    if (ix == DKIX_EMPTY) return true;
    if (ix >= 0) {
      PyObject* key = DK_UNICODE_ENTRIES(keys)[ix].me_key;
      if (key == name || reinterpret_cast<PyASCIIObject*>(key)->hash == hash) return false;
    }
    perturb >>= 5;  // PERTURB_SHIFT
    i = (i * 5 + perturb + 1) & mask;
  }
}

void ReplaceDictValue(PyDictObject* dict, PyObject** place, PyObject* value) {
  PyObject* old = *place;
  *place = Py_NewRef(value);
  dict->ma_version_tag = ++own_dict_version;
  // 3.11's dicts are tracked only once they hold a value the GC may need to see
  // (MAINTAIN_TRACKING in dictobject.c).
  auto* object = reinterpret_cast<PyObject*>(dict);
  if (!_PyObject_GC_IS_TRACKED(object) && _PyObject_GC_MAY_BE_TRACKED(value)) {
    PyObject_GC_Track(object);
  }
  Py_DECREF(old);
}

}  // namespace a64jit::python
