// Reading and writing a dict's entries in place, as 3.11's specialised instructions do:
// by an entry index found once (a hint), and a miss decided without a lookup that could run
// code. The layouts are those of 3.11's `internal/pycore_dict.h` (docs/cpython311.md, "A dict's
// hash table").
//
// A dict change must give the dict a fresh `ma_version_tag` (PEP 509): the JIT's global,
// module and keyword-default caches compare tags only. 3.11 takes fresh tags from
// `_pydict_global_version`, which Debian's libpython does not export, so ReplaceDictValue takes
// its tags from a counter of its own that starts at 2^63. CPython's counter starts at 0 and
// grows by one a change, so it never reaches that range, and tags stay unique in the process
// (docs/cpython311.md, "No watchers").
#ifndef A64JIT_JIT_PYTHON_DICT_ACCESS_H_
#define A64JIT_JIT_PYTHON_DICT_ACCESS_H_

#include <Python.h>
#include <internal/pycore_dict.h>

#include <cstdint>

namespace a64jit::python {

// The place of the value at entry `index` of dict `d` when that entry's key is `name`, else
// nullptr: the dict's keys are unicode ones and hold the index. A dict has one live entry per
// key and a deleted entry's key is NULL (docs/cpython311.md), so this is where d[name] is,
// without a lookup. A split dict (made from inline values) keeps its values apart, in key
// order; there a deleted key keeps its entry and its value is NULL.
inline PyObject** DictPlaceAt(PyDictObject* d, PyObject* name, uint64_t index) {
  PyDictKeysObject* keys = d->ma_keys;
  if (!DK_IS_UNICODE(keys) || index >= static_cast<uint64_t>(keys->dk_nentries)) return nullptr;
  if (DK_UNICODE_ENTRIES(keys)[index].me_key != name) return nullptr;
  return d->ma_values != nullptr ? &d->ma_values->values[index]
                                 : &DK_UNICODE_ENTRIES(keys)[index].me_value;
}

// The value (borrowed) at DictPlaceAt, or nullptr.
inline PyObject* DictValueAt(PyDictObject* d, PyObject* name, uint64_t index) {
  PyObject** place = DictPlaceAt(d, name, index);
  return place != nullptr ? *place : nullptr;
}

// The index of `name`'s entry in dict `d`, found by identity among its first `limit` entries
// (a linear walk: for refills, not for every use), or -1; -1 too for keys that are not
// unicode ones.
inline Py_ssize_t DictIndexOf(PyDictObject* d, PyObject* name, Py_ssize_t limit) {
  PyDictKeysObject* keys = d->ma_keys;
  if (!DK_IS_UNICODE(keys)) return -1;
  const Py_ssize_t n = keys->dk_nentries < limit ? keys->dk_nentries : limit;
  for (Py_ssize_t i = 0; i < n; i++) {
    if (DK_UNICODE_ENTRIES(keys)[i].me_key == name) return i;
  }
  return -1;
}

// Whether `d` surely does not hold the str `name` (an exact str whose hash is computed): its
// keys are unicode ones and the probe for name's hash reaches an empty slot without meeting
// name or another key of the same hash. False when it holds name or may: only identity and
// hashes are compared, so no key's __eq__ runs. A split dict's deleted key still has its entry,
// so such a key counts as held.
bool SurelyLacks(PyDictObject* d, PyObject* name);

// Stores a new reference to `value` at `place`, the value slot of a key `dict` holds with a
// value (DictPlaceAt, set), as dict assignment would: a fresh version tag, and the dict
// tracked by the GC if `value` may need it. Releases the old value last, because its release
// may run code that reads the dict.
void ReplaceDictValue(PyDictObject* dict, PyObject** place, PyObject* value);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_DICT_ACCESS_H_
