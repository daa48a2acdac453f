// LOAD_GLOBAL's helpers, declared in jit/runtime/helpers.h: the generic lookup, and the
// misses of compiled code's cached forms (jit/runtime/site_cache.h's GlobalCache), which
// refill the cache.
#include <Python.h>
#include <internal/pycore_dict.h>
#include <internal/pycore_frame.h>

#include "jit/python/attr_descriptors.h"
#include "jit/python/dict_access.h"
#include "jit/python/interp_state.h"
#include "jit/python/site_entry.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

// LOAD_GLOBAL: globals, then builtins. NULL without an exception when the name is missing
// or the lookup failed: compiled code then lets the interpreter redo the instruction, which
// raises exactly what stock raises (NameError with its `name` attribute, ...).
PyObject* a64_load_global(_PyInterpreterFrame* frame, PyObject* name) {
  PyObject* v = nullptr;
  if (PyDict_CheckExact(frame->f_globals) && PyDict_CheckExact(frame->f_builtins)) {
    v = PyDict_GetItemWithError(frame->f_globals, name);
    if (v == nullptr && !PyErr_Occurred()) v = PyDict_GetItemWithError(frame->f_builtins, name);
  }
  if (v == nullptr) {
    PyErr_Clear();
    return nullptr;
  }
  Py_INCREF(v);
  return v;
}

// LOAD_GLOBAL: 3.11 gives every dict mutation a fresh, process-unique ma_version_tag, so
// the same dicts with the same tags still hold the cached value.
PyObject* a64_load_global_cached(GlobalCache* cache) {
  _PyInterpreterFrame* frame = RunningFrame();
  PyObject* name = EnterSite(frame, cache);
  auto* g = reinterpret_cast<PyDictObject*>(frame->f_globals);
  auto* b = reinterpret_cast<PyDictObject*>(frame->f_builtins);
  if (cache->globals == g && cache->builtins == b && g->ma_version_tag == cache->globals_version &&
      b->ma_version_tag == cache->builtins_version) {
    return Py_NewRef(static_cast<PyObject*>(cache->value));
  }
  PyObject* v = a64_load_global(frame, name);
  if (v != nullptr && PyDict_CheckExact(g) && PyDict_CheckExact(b)) {
    cache->globals = g;
    cache->builtins = b;
    cache->globals_version = g->ma_version_tag;
    cache->builtins_version = b->ma_version_tag;
    cache->value = v;
  }
  return v;
}

// How far a refill walks the globals' keys for the name's entry: a module's globals are a
// few hundred names at most.
constexpr Py_ssize_t kMaxGlobalIndex = 1024;

// A site that found its name in the globals: only the globals can change the answer (the
// builtins are not reached), so compiled code checks the globals' version tag alone, and the
// cache takes nothing that came from the builtins (which that check would not guard).
PyObject* a64_load_global_module_cached(GlobalCache* cache) {
  _PyInterpreterFrame* frame = RunningFrame();
  PyObject* name = EnterSite(frame, cache);
  auto* g = reinterpret_cast<PyDictObject*>(frame->f_globals);
  if (cache->globals == g && g->ma_version_tag == cache->globals_version) {
    return Py_NewRef(static_cast<PyObject*>(cache->value));
  }
  if (PyDict_CheckExact(g)) {
    // A store to another global since: the name's entry, where it was, without a lookup.
    PyObject* v = cache->globals == g && cache->entry != 0
                      ? python::DictValueAt(g, name, cache->entry - 1)
                      : nullptr;
    const uint64_t version = g->ma_version_tag;  // before the lookup: a key's __eq__ may write
    const bool looked_up = v == nullptr;
    if (looked_up) v = PyDict_GetItemWithError(frame->f_globals, name);
    if (v != nullptr && g->ma_version_tag == version) {
      if (looked_up) {
        cache->entry = static_cast<uint32_t>(python::DictIndexOf(g, name, kMaxGlobalIndex) + 1);
      }
      cache->globals = g;
      cache->globals_version = version;
      cache->value = v;
      return Py_NewRef(v);
    }
    PyErr_Clear();
  }
  return a64_load_global(frame, name);
}

}  // namespace a64jit::runtime
