#include "jit/python/helpers.h"

#include <Python.h>
#include <internal/pycore_dict.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_moduleobject.h>

#include <mutex>
#include <type_traits>
#include <unordered_map>

#include "emulation/helper_registry.h"
#include "jit/python/attr_descriptors.h"
#include "jit/python/deopt_stats.h"
#include "jit/python/dict_access.h"
#include "jit/python/instantiate.h"
#include "jit/python/interp_state.h"
#include "jit/python/jit.h"
#include "jit/python/keyword_calls.h"
#include "jit/python/make_function.h"
#include "jit/python/method_trampolines.h"
#include "jit/python/site_entry.h"
#include "jit/python/super_lookup.h"
#include "jit/python/type_memo.h"
#include "jit/runtime/helpers.h"

namespace a64jit::runtime {

// ---- Per-site caches (layouts in jit/runtime/site_cache.h; compiled code checks them inline
// and calls these on a miss, which also fill them) ----

// LOAD_ATTR / STORE_ATTR of an instance attribute kept in the object's inline values (3.11
// heap types with a managed dict): the type's version tag and the attribute's index in the
// type's shared keys, as 3.11's LOAD_ATTR_INSTANCE_VALUE specialisation keeps them. A type
// change gives the type a new version tag; anything unusual takes the generic path.

// Where a new entry for a type goes: the type's own stale entry (an attribute deleted and
// set again), an empty one, or, with all taken, one in turn. Entry 0, the one compiled code
// checks inline, is the first type the site sees unless the site keeps changing.
template <typename Entry>
Entry& SlotFor(Entry (&entries)[kPolymorphicEntries], uint32_t version, uint32_t turn) {
  for (Entry& e : entries) {
    if (e.type_version == version || e.type_version == 0) return e;
  }
  return entries[turn % kPolymorphicEntries];
}

// The type as AttrEntry::type_tag holds it: its address above the 16-byte alignment,
// truncated to 32 bits. Only a hint: a hit is always the version's.
static uint32_t TypeTag(const PyTypeObject* type) {
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(type) >> 4);
}
static void Tag(AttrEntry& e, const PyTypeObject* receiver) { e.type_tag = TypeTag(receiver); }
static void Tag(MethodEntry&, const PyTypeObject*) {}  // its shared keys say whose it is

// Whether `e` was made for `receiver` at an older version, as far as the entry can tell: an
// instance attribute's entry by its tag, a method's by the type's shared keys (each heap type
// has its own; a type without them cannot tell).
static bool MadeForOlder(const AttrEntry& e, const PyTypeObject* receiver) {
  return e.type_tag == TypeTag(receiver) && e.type_version != receiver->tp_version_tag;
}
static bool MadeForOlder(const MethodEntry& e, const PyTypeObject* receiver) {
  const void* keys = (receiver->tp_flags & Py_TPFLAGS_HEAPTYPE) != 0
                         ? reinterpret_cast<const PyHeapTypeObject*>(receiver)->ht_cached_keys
                         : nullptr;
  return keys != nullptr && e.keys == keys && e.type_version != receiver->tp_version_tag;
}
// Makes a stale entry no one's: its version is dead already, so nothing reads what it forgets.
static void Forget(AttrEntry& e) { e.type_tag = 0; }
static void Forget(MethodEntry& e) { e.keys = nullptr; }

// The entry `receiver` made at an older version, or nullptr. Entries are filled in order
// (SlotFor): the first empty one ends them.
template <typename Entry>
Entry* OlderEntryOf(Entry (&entries)[kPolymorphicEntries], const PyTypeObject* receiver) {
  for (Entry& e : entries) {
    if (e.type_version == 0) break;
    if (MadeForOlder(e, receiver)) return &e;
  }
  return nullptr;
}

// After a miss the generic path served: adds the entry `entry_for()` makes for the receiver's
// type (none when its type_version is 0). A type modified since its entry was made (a class
// attribute assigned: an instance counter, a registry; each assignment gives the type and its
// subclasses new versions) has that entry refreshed in place. Any other miss spends the
// site's budget, which counts misses, not entries: a site that sees more types than it holds,
// or that can never be cached, stops trying. A refresh that finds the attribute no longer
// cacheable forgets whose the entry was (emptying it would hide the entries after it), so
// that the next miss spends the budget. A miss at a site that had an entry is a failed type
// guard (a64jit.get_deopt_stats()).
template <typename Cache, typename EntryFor>
void Specialize(Cache* cache, PyTypeObject* receiver, EntryFor entry_for) {
  decltype(&cache->entries[0]) own = nullptr;
  if (cache->entries[0].type_version != 0) {
    python::RecordGuardMiss(cache, receiver);
    own = OlderEntryOf(cache->entries, receiver);
  }
  uint32_t turn = 0;
  if (own == nullptr) {
    if (cache->respecializations >= kMaxRespecializations) return;
    turn = cache->respecializations++;
  }
  auto e = entry_for();
  if (e.type_version == 0) {
    if (own != nullptr) Forget(*own);  // the next miss spends the budget
    return;
  }
  Tag(e, receiver);
  (own != nullptr ? *own : SlotFor(cache->entries, e.type_version, turn)) = e;
}

// The entry for `obj`'s type, or type_version 0 when the attribute is not in inline values.
static AttrEntry AttrEntryFor(PyObject* obj, PyObject* name, bool store) {
  PyTypeObject* tp = Py_TYPE(obj);
  if (!(tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) || !(tp->tp_flags & Py_TPFLAGS_HEAPTYPE) ||
      !PyUnicode_CheckExact(name)) {
    return {};
  }
  if (store ? tp->tp_setattro != PyObject_GenericSetAttr
            : tp->tp_getattro != PyObject_GenericGetAttr) {
    return {};
  }
  if (_PyType_Lookup(tp, name) != nullptr) return {};  // a class attribute or descriptor
  if (!(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_version_tag == 0) return {};
  if (InlineValues(obj) == nullptr) return {};
  PyDictKeysObject* keys = reinterpret_cast<PyHeapTypeObject*>(tp)->ht_cached_keys;
  if (keys == nullptr || keys->dk_kind != DICT_KEYS_SPLIT) return {};
  PyDictUnicodeEntry* entries = DK_UNICODE_ENTRIES(keys);
  for (Py_ssize_t i = 0; i < keys->dk_nentries; i++) {
    if (entries[i].me_key == name) {
      return {tp->tp_version_tag, 0, static_cast<int64_t>(i * sizeof(PyObject*))};
    }
  }
  return {};
}

// Where the cached attribute of `obj` is, set or not: in its inline values, or at a slot site
// in the object itself. nullptr on a miss.
static PyObject** CachedPlace(PyObject* obj, const AttrCache* cache) {
  const uint32_t version = Py_TYPE(obj)->tp_version_tag;
  for (const AttrEntry& e : cache->entries) {
    if (e.type_version == 0) return nullptr;  // filled in order (SlotFor): no more after it
    if (e.type_version == version) {
      char* base = cache->form == AttrForm::kSlot ? reinterpret_cast<char*>(obj)
                                                  : reinterpret_cast<char*>(InlineValues(obj));
      if (base == nullptr) return nullptr;
      return reinterpret_cast<PyObject**>(base + e.offset);
    }
  }
  return nullptr;
}

// The place of the cached attribute when it is set, or nullptr.
static PyObject** CachedSlot(PyObject* obj, const AttrCache* cache) {
  PyObject** place = CachedPlace(obj, cache);
  return place != nullptr && *place != nullptr ? place : nullptr;
}

// The module entry's value (borrowed) when `obj` is its module and the module's dict is
// unchanged since, else nullptr.
static PyObject* CachedModuleValue(PyObject* obj, const ModuleEntry& e) {
  if (e.module != obj || !PyModule_CheckExact(obj)) return nullptr;  // the address reused
  auto* dict = reinterpret_cast<PyDictObject*>(reinterpret_cast<PyModuleObject*>(obj)->md_dict);
  return dict->ma_version_tag == e.version ? static_cast<PyObject*>(e.value) : nullptr;
}

// After `obj.name` gave `value`: when obj is a plain module whose dict holds `value` under
// `name` (no attribute of the module type in between, no __getattr__ involved), the entry
// remembers it with the dict's version tag. Within the site's budget of misses.
static void RememberModuleValue(ModuleEntry& e, uint32_t& respecializations, PyObject* obj,
                                PyObject* name, PyObject* value) {
  if (!PyModule_CheckExact(obj) || !PyUnicode_CheckExact(name) ||
      respecializations >= kMaxRespecializations) {
    return;
  }
  respecializations++;
  PyObject* dict = reinterpret_cast<PyModuleObject*>(obj)->md_dict;
  if (dict == nullptr || !PyDict_CheckExact(dict) ||
      _PyType_Lookup(&PyModule_Type, name) != nullptr) {
    return;
  }
  PyObject* found = PyDict_GetItemWithError(dict, name);  // borrowed
  if (found != value) {
    PyErr_Clear();
    return;
  }
  e = {obj, reinterpret_cast<PyDictObject*>(dict)->ma_version_tag, value};
}

// `obj.name` through an exact `property` (CachedDescrValue's read_property): a getter that is a
// compiled function is called with obj, as CallFunctionWithFirst makes a plain call, without
// property's __get__, PyObject_CallOneArg and the function's vectorcall between (about 50
// guest instructions of a read of about 450); anything else through the __get__. Out of line:
// the helper's other paths keep their prologue and take one branch for it.
static __attribute__((noinline)) PyObject* ReadProperty(PyObject* property, PyObject* obj,
                                                        PyTypeObject* type) {
  // Held during the call, as property's __get__ is by its caller: the getter may delete the
  // property from the class, and with it the getter's last other reference.
  Py_INCREF(property);
  PyObject* getter = obj != Py_None ? PropertyGetter(property) : nullptr;
  PyObject* value =
      getter != nullptr && python::IsCompiledFunction(getter)
          ? python::CallFunctionWithFirst(CurrentThreadState(), getter, obj, nullptr, 0)
          : Py_TYPE(property)->tp_descr_get(property, obj, reinterpret_cast<PyObject*>(type));
  Py_DECREF(property);
  return value;
}

PyObject* a64_load_attr_cached(PyObject* obj, AttrCache* cache) {
  PyObject* name = EnterSite(RunningFrame(), cache);
  // The entries exclude each other, so their order is for speed: an object's type (or class)
  // at one version has a descriptor entry, instance entries or a hint, never two of them
  // (AttrEntryFor and DictHintFor take none where the type has a data descriptor of the name,
  // kTypeAttr none where an instance may shadow it), and only a module a module entry. The
  // descriptor entry comes first: the site stub answers plain instance and class attributes
  // itself, so most loads that reach here are descriptors with a __get__ (a C type's getter,
  // a property, a method read as a value).
  bool hit = false;
  if (PyObject* value = CachedDescrValue(obj, cache->descr, &hit, ReadProperty); hit) {
    return value;
  }
  if (PyObject** slot = CachedSlot(obj, cache)) return Py_NewRef(*slot);
  if (PyObject* value = CachedDictValue(obj, name, cache->hint)) return Py_NewRef(value);
  if (PyObject* value = CachedModuleValue(obj, cache->module)) return Py_NewRef(value);
  PyObject* res = PyObject_GetAttr(obj, name);
  if (res == nullptr) return nullptr;
  if (PyModule_CheckExact(obj)) {
    RememberModuleValue(cache->module, cache->respecializations, obj, name, res);
  } else if (cache->form == AttrForm::kSlot) {
    Specialize(cache, Py_TYPE(obj), [&] { return SlotEntryFor(obj, name, false); });
  } else if (cache->form == AttrForm::kDictHint) {
    // Compiled code reads the hint's dict where a managed one is (LoadDictHint).
    Remember(cache->respecializations, cache->hint, [&] {
      return (Py_TYPE(obj)->tp_flags & Py_TPFLAGS_MANAGED_DICT) != 0 ? DictHintFor(obj, name, false)
                                                                     : DictHint{};
    });
  } else if (!Remember(cache->respecializations, cache->descr,
                       [&] { return DescrEntryFor(obj, name); }) &&
             !Remember(cache->respecializations, cache->hint,
                       [&] { return DictHintFor(obj, name, false); })) {
    Specialize(cache, Py_TYPE(obj), [&] { return AttrEntryFor(obj, name, false); });
  }
  return res;
}

int64_t a64_module_attr_of_global(_PyInterpreterFrame* frame, GlobalCache* global_cache,
                                  SiteCache* attr_cache, PyObject** out, int64_t method) {
  PyObject* module = a64_load_global_module_cached(global_cache);
  if (module == nullptr) return 1;
  int failed;
  if (method) {
    failed = a64_load_method_cached(module, out, reinterpret_cast<MethodCache*>(attr_cache)) < 0;
  } else {
    out[0] = a64_load_attr_cached(module, reinterpret_cast<AttrCache*>(attr_cache));
    failed = out[0] == nullptr;
  }
  if (failed) {
    out[0] = module;
    return 2;
  }
  Py_DECREF(module);
  return 0;
}

PyObject* a64_module_attr_into_frame(_PyInterpreterFrame* frame, GlobalCache* global_cache,
                                     int64_t how) {
  SiteCache* attr_cache = NextSiteCache(reinterpret_cast<SiteCache*>(global_cache));
  PyObject* out[2] = {nullptr, nullptr};
  const int64_t status = a64_module_attr_of_global(frame, global_cache, attr_cache, out, how & 1);
  if (status != 0) {
    frame->localsplus[how >> 1] = status == 2 ? out[0] : nullptr;
    return nullptr;
  }
  if ((how & 1) == 0) return out[0];     // LOAD_ATTR's attribute
  if (out[0] == nullptr) return out[1];  // LOAD_METHOD's [NULL, attribute]
  // [method, self]: the global is no longer a module, and the call gets the same from the
  // bound form, which is what the method descriptor's __get__ makes for LOAD_ATTR.
  PyObject* method = out[0];
  PyObject* self = out[1];
  descrgetfunc get = Py_TYPE(method)->tp_descr_get;
  PyObject* bound = get != nullptr ? get(method, self, reinterpret_cast<PyObject*>(Py_TYPE(self)))
                                   : Py_NewRef(method);
  Py_DECREF(method);
  if (bound == nullptr) {  // the attribute's error, its object on the stack
    frame->localsplus[how >> 1] = self;
    return nullptr;
  }
  Py_DECREF(self);
  return bound;
}

// 0 or -1, as PyObject_SetAttr. In inline values, only replaces an attribute that exists (a
// new one changes the values' insertion order, which the generic path maintains); a
// `__slots__` member is set either way, as 3.11's STORE_ATTR_SLOT sets it.
int64_t a64_store_attr_cached(PyObject* obj, PyObject* value, AttrCache* cache) {
  PyObject* name = EnterSite(RunningFrame(), cache);
  PyObject** place = CachedPlace(obj, cache);
  if (place != nullptr && (*place != nullptr || cache->form == AttrForm::kSlot)) {
    PyObject* old = *place;
    *place = Py_NewRef(value);
    Py_XDECREF(old);
    return 0;
  }
  // An attribute the object's real dict holds at the hint (3.11's STORE_ATTR_WITH_HINT): with
  // the type's version unchanged there is no data descriptor of the name and no __setattr__,
  // so the generic store would end in the dict's own, replacing the value of a key it holds,
  // which is what ReplaceDictValue does without the lookup. Any site but a slot one keeps a
  // hint: one compiled for inline values meets objects whose dicts were made later (their
  // class's shared keys ran out, or `__dict__` was read).
  if (cache->form != AttrForm::kSlot) {
    if (PyDictObject* dict = HintedDict(obj, cache->hint)) {
      PyObject** place = python::DictPlaceAt(dict, name, cache->hint.index);
      if (place != nullptr && *place != nullptr) {
        python::ReplaceDictValue(dict, place, value);
        return 0;
      }
    }
  }
  const int rc = PyObject_SetAttr(obj, name, value);
  if (rc != 0) return rc;
  if (cache->form != AttrForm::kSlot && InstanceDict(obj) != nullptr) {
    Remember(cache->respecializations, cache->hint, [&] { return DictHintFor(obj, name, true); });
  } else {
    Specialize(cache, Py_TYPE(obj), [&] {
      return cache->form == AttrForm::kSlot ? SlotEntryFor(obj, name, true)
                                            : AttrEntryFor(obj, name, true);
    });
  }
  return rc;
}

// LOAD_METHOD of a method defined by the type (3.11's LOAD_METHOD_WITH_VALUES and
// LOAD_METHOD_NO_DICT): the type's version tag, and for instances with inline values the
// type's shared keys and their length, so no instance attribute can shadow the method (the
// shared keys only grow; a new name makes them longer).
static MethodEntry MethodEntryFor(PyObject* obj, PyObject* name) {
  PyTypeObject* tp = Py_TYPE(obj);
  if (tp->tp_getattro != PyObject_GenericGetAttr || !PyUnicode_CheckExact(name) ||
      !(tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG) || tp->tp_version_tag == 0) {
    return {};
  }
  PyObject* descr = _PyType_Lookup(tp, name);
  if (descr == nullptr || !(Py_TYPE(descr)->tp_flags & Py_TPFLAGS_METHOD_DESCRIPTOR)) return {};
  MethodEntry e{tp->tp_version_tag, 0, nullptr, descr};
  if (tp->tp_flags & Py_TPFLAGS_MANAGED_DICT) {
    // The shared keys guard instances with inline values (Unshadowed); one with a real dict,
    // such as `obj` may be, is looked at on each use (NotInRealDict).
    uint16_t nentries = 0;
    PyDictKeysObject* keys = TypeKeysWithout(tp, name, &nentries);
    if (keys == nullptr) return {};  // instances may shadow it
    e.keys = keys;
    e.nentries = nentries;
  } else if (tp->tp_dictoffset != 0) {
    return {};  // a __dict__ elsewhere: not handled
  }
  return e;
}

// Whether `obj`, for which InstanceDict found no dict, is of a type with a managed dict and
// has no inline values either, so that it has no attribute of its own: an instance of a
// subclass of a builtin type (`class Stack(list)`), which the builtin's tp_new makes without
// _PyObject_InitializeDict (only object_new calls it); its dict appears when an attribute is
// first set. Inline values, by contrast, may hold the name.
static bool WithoutDict(PyObject* obj) {
  return (Py_TYPE(obj)->tp_flags & Py_TPFLAGS_MANAGED_DICT) != 0 && InlineValues(obj) == nullptr;
}

// Whether `obj` has a real dict (3.11's LOAD_METHOD_WITH_DICT case: its inline values became a
// dict, or its type's instances outgrew their shared keys) without `name` in it, or no dict at
// all (WithoutDict), so that its type's method is the attribute. Looked up only in a dict of str
// keys: their comparisons run no Python code, which could change the type behind its version.
static bool NotInRealDict(PyObject* obj, PyObject* name) {
  auto* dict = reinterpret_cast<PyDictObject*>(InstanceDict(obj));
  if (dict == nullptr) return WithoutDict(obj);
  if (!PyDict_CheckExact(dict) || !DK_IS_UNICODE(dict->ma_keys) || !PyUnicode_CheckExact(name)) {
    return false;
  }
  if (python::SurelyLacks(dict, name)) return true;  // without a call and a lookup
  if (PyDict_GetItemWithError(reinterpret_cast<PyObject*>(dict), name) != nullptr) return false;
  if (PyErr_Occurred()) {
    PyErr_Clear();  // the generic path looks again, and raises what it raises
    return false;
  }
  return true;
}

int64_t a64_load_method_cached(PyObject* obj, PyObject** out, MethodCache* cache) {
  PyObject* name = EnterSite(RunningFrame(), cache);
  if (PyObject* value = CachedModuleValue(obj, cache->module)) {
    out[0] = nullptr;
    out[1] = Py_NewRef(value);
    return 0;
  }
  PyTypeObject* tp = Py_TYPE(obj);
  for (const MethodEntry& e : cache->entries) {
    if (e.type_version != tp->tp_version_tag || e.type_version == 0) continue;
    if (Unshadowed(obj, e.keys, e.nentries) || NotInRealDict(obj, name)) {
      out[0] = Py_NewRef(static_cast<PyObject*>(e.method));
      out[1] = Py_NewRef(obj);
      return 0;
    }
    break;  // this type's entry is stale, or the instance's dict has the name
  }
  const int rc = a64_load_method(obj, name, out);
  if (rc == 0 && out[0] != nullptr) {
    Specialize(cache, Py_TYPE(obj), [&] { return MethodEntryFor(obj, name); });
  } else if (rc == 0) {
    RememberModuleValue(cache->module, cache->respecializations, obj, name, out[1]);
  }
  return rc;
}

// LOAD_METHOD: out = [method, self] or [NULL, attribute]; the new references are the
// caller's, `obj` stays borrowed. -1 on error.
int a64_load_method(PyObject* obj, PyObject* name, PyObject** out) {
  if (Py_TYPE(obj) == &PySuper_Type) {  // not a subclass: it may have its own __getattribute__
    const int found = python::LoadSuperMethod(obj, name, out);
    if (found != 0) return found > 0 ? 0 : -1;
  }
  PyObject* meth = nullptr;
  const int found = _PyObject_GetMethod(obj, name, &meth);
  if (meth == nullptr) return -1;
  if (found) {
    Py_INCREF(obj);
    out[0] = meth;
    out[1] = obj;
  } else {
    out[0] = nullptr;
    out[1] = meth;
  }
  return 0;
}

// PRECALL + CALL. sp = [method or NULL, self or callable, args...] (oparg args), all owned
// and consumed here, as the interpreter does.
namespace {

// A C function compiled code or a64_call can call without its vectorcall trampoline, as
// 3.11's PRECALL_NO_KW_* and PRECALL_*_FAST_WITH_KEYWORDS specialisations call it: a builtin
// taking one argument or a vector (len(x), isinstance(a, b), sorted(xs)), or a method
// descriptor (lst.append(x), d.get(k), s.split(','), p.sub(f, s)), whose self is the first
// argument and must be exactly of `self_type`. A call site without keyword names passes a
// METH_FASTCALL | METH_KEYWORDS function NULL for them, as those specialisations do.
struct CEntry {
  PyCFunction meth;
  bool descriptor;          // a method descriptor: self comes first among the arguments
  PyTypeObject* self_type;  // a descriptor's type
  PyObject* self;           // a builtin's self (its module, or a bound method's object)
  bool fastcall;            // METH_FASTCALL: meth(self, args, nargs); else meth(self, arg)
  bool keywords;            // and METH_KEYWORDS: meth(self, args, nargs, NULL)
};

// `callable`'s CEntry for a call with `nargs` arguments (after self, for a descriptor), or
// false when it is not such a function or not called in its convention's way.
bool CEntryOf(PyObject* callable, Py_ssize_t nargs, CEntry* out) {
  int flags = 0;
  if (Py_IS_TYPE(callable, &PyCFunction_Type)) {
    flags = PyCFunction_GET_FLAGS(callable);
    *out = CEntry{PyCFunction_GET_FUNCTION(callable), false, nullptr,
                  PyCFunction_GET_SELF(callable),     false, false};
  } else if (Py_IS_TYPE(callable, &PyMethodDescr_Type)) {
    auto* descr = reinterpret_cast<PyMethodDescrObject*>(callable);
    flags = descr->d_method->ml_flags;
    *out = CEntry{descr->d_method->ml_meth, true, descr->d_common.d_type, nullptr, false, false};
  } else {
    return false;
  }
  // Exactly these flags, METH_METHOD (a defining class passed too) excluded. METH_COEXIST
  // only says how the method went into its type's dict (beside a slot's wrapper: set's and
  // dict's __contains__, dict's __getitem__), not how it is called: ignored. Rejected, such
  // a bound method held in a local (difflib's `isbjunk = self.bjunk.__contains__`) missed its
  // site's cache on every call.
  flags &= ~METH_COEXIST;
  out->keywords = flags == (METH_FASTCALL | METH_KEYWORDS);
  out->fastcall = flags == METH_FASTCALL || out->keywords;
  return out->fastcall || (flags == METH_O && nargs == 1) || (flags == METH_NOARGS && nargs == 0);
}

// `e`'s function called in its convention with `total` arguments from `args`.
PyObject* CallEntry(const CEntry& e, PyObject* self, PyObject** args, Py_ssize_t total) {
  const auto entry = reinterpret_cast<void (*)()>(e.meth);
  if (e.keywords) {
    return reinterpret_cast<_PyCFunctionFastWithKeywords>(entry)(self, args, total, nullptr);
  }
  if (e.fastcall) return reinterpret_cast<_PyCFunctionFast>(entry)(self, args, total);
  return e.meth(self, total == 1 ? args[0] : nullptr);
}

// Calls `function` through its CEntry if it has one for these arguments (a descriptor's
// self, args[0], of exactly its type). nullptr with no exception set: not such a call.
PyObject* CallCFunctionDirect(PyThreadState* ts, PyObject* function, PyObject** args,
                              Py_ssize_t total, bool* handled) {
  const bool descriptor = Py_IS_TYPE(function, &PyMethodDescr_Type);
  if (descriptor && total < 1) return nullptr;
  CEntry e;
  if (!CEntryOf(function, descriptor ? total - 1 : total, &e)) return nullptr;
  PyObject* self = e.self;
  if (descriptor) {
    if (!Py_IS_TYPE(args[0], e.self_type)) return nullptr;
    self = args[0];
    args++;
    total--;
  }
  *handled = true;
  // "CPython promises to check all non-vectorcall function calls" (ceval.c).
  if (!python::EnterRecursiveCall(ts, " while calling a Python object")) return nullptr;
  PyObject* res = CallEntry(e, self, args, total);
  ts->recursion_remaining++;
  return res;
}

// CALL's stack sp[0 .. oparg+1] with a bound method in the callable's place becomes
// [function, self, args...], as the interpreter's CALL does. Whether sp[0] now holds the
// function (self then counts as the first argument). Inline: under QEMU a call out of line costs
// a lookup of its return, on every CALL that a64_call or a64_call_kw_enter makes.
inline __attribute__((always_inline)) int UnbindMethod(PyObject** sp) {
  if (sp[0] == nullptr && Py_TYPE(sp[1]) == &PyMethod_Type) {
    PyObject* bound = sp[1];
    sp[0] = Py_NewRef(PyMethod_GET_FUNCTION(bound));
    sp[1] = Py_NewRef(PyMethod_GET_SELF(bound));
    Py_DECREF(bound);
  }
  return sp[0] != nullptr;
}

}  // namespace

PyObject* a64_call(PyThreadState* ts, PyObject** sp, int64_t oparg, PyObject* kwnames) {
  const int is_meth = UnbindMethod(sp);
  const Py_ssize_t total = oparg + is_meth;
  PyObject* function = sp[1 - is_meth];
  PyObject** args = sp + 2 - is_meth;
  const Py_ssize_t nkw = kwnames != nullptr ? PyTuple_GET_SIZE(kwnames) : 0;
  const size_t nargsf = static_cast<size_t>(total - nkw) | PY_VECTORCALL_ARGUMENTS_OFFSET;
  // A compiled Python function is called straight through the JIT, taking our references.
  if (python::IsCompiledFunction(function)) {
    return python::CallCompiledConsuming(ts, function, args, total, kwnames);
  }
  bool handled = false;
  PyObject* res =
      kwnames == nullptr ? CallCFunctionDirect(ts, function, args, total, &handled) : nullptr;
  if (!handled) {
    // The callable's vectorcall slot directly (one call less than PyObject_Vectorcall).
    vectorcallfunc vectorcall = PyVectorcall_Function(function);
    res = vectorcall != nullptr ? vectorcall(function, args, nargsf, kwnames)
                                : PyObject_Vectorcall(function, args, nargsf, kwnames);
  }
  Py_DECREF(function);
  for (Py_ssize_t i = 0; i < total; i++) Py_DECREF(args[i]);
  // `_thread.interrupt_main()` raises KeyboardInterrupt at the call that made it.
  return EvalBreakerAfterCall(ts, res);
}

namespace {

// A callable the stub calls through its vectorcall with the callable as the first argument
// (4 arguments: it, args, nargs, NULL keyword names), as 3.11's PRECALL_BUILTIN_CLASS calls a
// builtin type with a vectorcall slot (`range`, `list`, `float`, `enumerate`).
void VectorcallEntry(PyObject* callable, vectorcallfunc vectorcall, CCallCache* out, int* arity) {
  out->entry = reinterpret_cast<void*>(vectorcall);
  out->self = callable;
  out->fastcall = 1;
  *arity = 4;
}

// A C entry the stub calls directly (self, args or the one argument, nargs; and NULL keyword
// names for METH_KEYWORDS, which the stub always passes as its fourth argument).
void DirectEntry(const CEntry& e, CCallCache* out, int* arity) {
  out->entry = reinterpret_cast<void*>(e.meth);
  out->self_type = e.self_type;
  out->self = e.self;
  out->fastcall = e.fastcall ? 1 : 0;
  *arity = e.keywords ? 4 : 3;
}

// How a CCallCache calls `callable` (entry, self, self type, convention) and how many integer
// arguments its entry takes, or false when it is not cached:
// - for LOAD_METHOD's [method, self] pair, a method descriptor of a convention CEntryOf takes,
//   or through a trampoline (TrampolineMethodEntry);
// - a builtin type with a vectorcall slot;
// - a static type without one (bytes, zip, an exception class): PyObject_Vectorcall, which
//   makes the type call; such a type is never freed. Rejected, they took this helper's path
//   on every call (checksums' `bytes((a, b, c, d))`: about 4,600 a warm call);
// - a user class a64_instantiate takes (a Python __init__, or a Python __new__ and object's
//   __init__: instantiate.h): a64_instantiate, the class borrowed;
// - a builtin (len, sorted, print): its C entry, or for another convention (METH_VARARGS with
//   keywords: max, min) its vectorcall, which saves this helper's path (about 200
//   instructions a call); the cache holds a reference to it;
// - another module's function (math.sqrt) or a bound C method (`d.get` held in a local): by
//   its PyMethodDef, with no reference (it would keep the module or object alive past where
//   stock releases it), self taken from each callable; its C entry, or for METH_VARARGS
//   (`startswith = s.startswith`, `_elementtree.SubElement`) a trampoline
//   (TrampolineFunctionEntry).
bool CacheableEntry(PyObject* callable, int64_t oparg, bool method, CCallCache* out, int* arity) {
  if (!method && PyType_Check(callable)) {
    auto* type = reinterpret_cast<PyTypeObject*>(callable);
    if (type->tp_vectorcall != nullptr) {
      VectorcallEntry(callable, type->tp_vectorcall, out, arity);
      return true;
    }
    if ((type->tp_flags & Py_TPFLAGS_HEAPTYPE) == 0) {
      VectorcallEntry(callable, &PyObject_Vectorcall, out, arity);
      return true;
    }
    if (!Instantiable(type)) return false;
    VectorcallEntry(callable, &a64_instantiate, out, arity);
    // Not a self type: the entry, which the call stub's self-type test then fails on in the
    // plain shape, and so takes the class to a64_init_enter (call_stub.cc bb51).
    out->self_type = reinterpret_cast<void*>(&a64_instantiate);
    return true;
  }
  CEntry e;
  const bool direct = CEntryOf(callable, oparg, &e);
  if (method) {
    if (!direct || !e.descriptor) return TrampolineMethodEntry(callable, out, arity);
    DirectEntry(e, out, arity);
    return true;
  }
  if (!Py_IS_TYPE(callable, &PyCFunction_Type)) return false;
  // A builtin (len, max: the builtins module's, which lives as long as the interpreter) is
  // held by the cache. Any other C function would be kept alive with its self past where
  // stock releases it: a bound method's object, or a module's (test_struct checks that a
  // dropped _struct module is collected after calls of its functions). It is cached by its
  // PyMethodDef, with no reference, and called with each callable's own self.
  PyObject* self = PyCFunction_GET_SELF(callable);
  const bool builtin =
      self == nullptr || (PyModule_Check(self) && PyModule_GetDict(self) == PyEval_GetBuiltins());
  if (!builtin) {
    if (!direct) return TrampolineFunctionEntry(callable, out, arity);
    DirectEntry(e, out, arity);
    out->self = nullptr;
    out->method_def = reinterpret_cast<PyCFunctionObject*>(callable)->m_ml;
    return true;
  }
  if (direct) {
    DirectEntry(e, out, arity);
  } else {
    VectorcallEntry(callable, &PyObject_Vectorcall, out, arity);
  }
  return true;
}

// Whether the cache holds a compiled function and `callable`, the live object at its address,
// is not one with the cached code (its __code__ was replaced, or the function died and another
// object took its address): the stub then misses on every call, so the site may refill.
bool StaleFunction(const CCallCache& cache, PyObject* callable) {
  return cache.state != nullptr &&
         (!PyFunction_Check(callable) ||
          reinterpret_cast<PyFunctionObject*>(callable)->func_code != cache.code);
}

// Whether the stub would call `callable` through `cache`: it is the cached callable, or a bound
// C method with the cached PyMethodDef.
bool Holds(const CCallCache& cache, PyObject* callable) {
  if (cache.method_def != nullptr) {
    return callable != nullptr && Py_IS_TYPE(callable, &PyCFunction_Type) &&
           reinterpret_cast<PyCFunctionObject*>(callable)->m_ml == cache.method_def;
  }
  return callable == cache.callable;
}

// Whether the cache holds a reference to its callable (site_cache.h): a C callable but a
// class made by a64_instantiate; not a compiled function, not a bound C method's (nullptr).
bool OwnsCallable(const CCallCache& cache) {
  return cache.state == nullptr && cache.callable != nullptr &&
         cache.entry != reinterpret_cast<void*>(&a64_instantiate);
}

// Replaces the cache's contents with `filled` (which holds its own reference to a C
// callable), counting a refill and releasing the old C callable's reference.
void Refill(CCallCache* cache, CCallCache filled) {
  filled.respecializations = cache->respecializations + 1;
  PyObject* old = OwnsCallable(*cache) ? static_cast<PyObject*>(cache->callable) : nullptr;
  *cache = filled;
  Py_XDECREF(old);
}

// On a miss of compiled code's C-call fast path (sp as CALL has it): caches the callable if
// it is a C function of the site's shape, within the site's budget of refills. Under Unicorn
// compiled code can call only registered host functions, so the entry is registered (three
// integer arguments, CCallCache's convention) unless it is a helper already.
void FillCCallCache(uint64_t tagged, PyObject* const* sp, int64_t oparg) {
  auto* cache = reinterpret_cast<CCallCache*>(tagged & ~kCCallMethodShape);
  // LOAD_METHOD's [NULL, attribute] (a module's function: `math.sqrt(x)`) has the plain shape,
  // as the stub sees it.
  const bool method = (tagged & kCCallMethodShape) != 0 && sp[0] != nullptr;
  PyObject* callable = method ? sp[0] : sp[1];
  // A miss of a cached C function is a failed guard (a64jit.get_deopt_stats()); a site that
  // holds a compiled function takes its other callees through the stub's own lookups.
  if (cache != nullptr && (cache->callable != nullptr || cache->method_def != nullptr) &&
      cache->state == nullptr && !Holds(*cache, callable)) {
    python::RecordGuardMiss(cache, callable != nullptr ? Py_TYPE(callable) : nullptr);
  }
  if (cache == nullptr || callable == nullptr || (!method && sp[0] != nullptr) ||
      callable == cache->rejected ||
      (Holds(*cache, callable) && !StaleFunction(*cache, callable)) ||
      cache->respecializations >= kMaxRespecializations) {
    return;
  }
  CCallCache filled{};
  if (PyFunction_Check(callable)) {  // a compiled callee: the stub enters it directly
    filled.state = python::DirectCallState(callable, oparg + (method ? 1 : 0));
    if (filled.state == nullptr) return;
    filled.code = reinterpret_cast<PyFunctionObject*>(callable)->func_code;
    filled.callable = callable;  // borrowed (site_cache.h)
    Refill(cache, filled);
    return;
  }
  int arity = 0;
  if (!CacheableEntry(callable, oparg, method, &filled, &arity)) {
    cache->rejected = callable;
    return;
  }
  const auto* known = emu::LookupHelper(reinterpret_cast<uint64_t>(filled.entry));
  if (known == nullptr) {
    emu::RegisterHelper(filled.entry, emu::HelperSignature{"C entry of a cached call site", arity,
                                                           0, runtime::RetKind::kInt});
  } else if (known->int_args < 2 || known->double_args != 0) {
    return;  // a helper of another shape: leave the call to the generic path
  }
  // The cache holds a C callable (a class borrowed), or for a bound C method its PyMethodDef
  // only.
  if (filled.method_def == nullptr) filled.callable = callable;
  if (OwnsCallable(filled)) Py_INCREF(callable);
  Refill(cache, filled);
}

}  // namespace

uint64_t a64_call_enter(PyThreadState* ts, PyObject** sp, uint64_t c_call_cache, int64_t oparg) {
  if (c_call_cache != 0) FillCCallCache(c_call_cache, sp, oparg);
  const int is_meth = UnbindMethod(sp);
  PyObject* function = sp[1 - is_meth];
  if (python::IsCompiledFunction(function)) {
    _PyInterpreterFrame* frame = nullptr;
    const void* entry =
        python::EnterCompiledCall(ts, function, sp + 2 - is_meth, oparg + is_meth, nullptr, &frame);
    if (entry != nullptr) {
      sp[0] = reinterpret_cast<PyObject*>(frame);
      return reinterpret_cast<uintptr_t>(entry);
    }
  }
  sp[0] = a64_call(ts, sp, oparg, nullptr);
  return 0;
}

uint64_t a64_call_kw_enter(PyThreadState* ts, PyObject** sp, int64_t oparg, PyObject* kwnames) {
  const int is_meth = UnbindMethod(sp);
  PyObject* function = sp[1 - is_meth];
  if (python::IsCompiledFunction(function)) {
    _PyInterpreterFrame* frame = nullptr;
    const Py_ssize_t nargs = oparg + is_meth - PyTuple_GET_SIZE(kwnames);
    const void* entry =
        python::EnterKeywordCall(ts, function, sp + 2 - is_meth, nargs, kwnames, &frame);
    if (entry != nullptr) {
      sp[0] = reinterpret_cast<PyObject*>(frame);
      return reinterpret_cast<uintptr_t>(entry);
    }
  }
  sp[0] = a64_call(ts, sp, oparg, kwnames);
  return 0;
}

PyObject* a64_after_c_call(PyThreadState* ts, PyObject* result) {
  return EvalBreakerAfterCall(ts, result);
}

PyObject* a64_call_leave(PyThreadState* ts, _PyInterpreterFrame* frame, uint64_t result) {
  return python::LeaveCompiledCall(ts, frame, result);
}

int64_t a64_eval_breaker(PyThreadState* ts) {
  python::CountBreakerCall();
  if (ts->cframe->use_tracing == 0 && HandleEvalBreaker(ts) < 0) return -1;
  // A handler may have switched tracing on as well.
  return ts->cframe->use_tracing != 0 ? 1 : 0;
}

PyObject* a64_build_list(PyObject** items, int64_t n) {
  PyObject* list = PyList_New(n);
  if (list == nullptr) {
    for (int64_t i = 0; i < n; i++) Py_DECREF(items[i]);
    return nullptr;
  }
  for (int64_t i = 0; i < n; i++) PyList_SET_ITEM(list, i, items[i]);
  return list;
}

PyObject* a64_build_tuple(PyObject** items, int64_t n) {
  PyObject* tuple = PyTuple_New(n);
  if (tuple == nullptr) {
    for (int64_t i = 0; i < n; i++) Py_DECREF(items[i]);
    return nullptr;
  }
  for (int64_t i = 0; i < n; i++) PyTuple_SET_ITEM(tuple, i, items[i]);
  return tuple;
}

// BUILD_MAP: items = [k0, v0, k1, v1, ...], consumed.
PyObject* a64_build_map(PyObject** items, int64_t n) {
  PyObject* d = _PyDict_NewPresized(n);
  for (int64_t i = 0; d != nullptr && i < n; i++) {
    if (PyDict_SetItem(d, items[2 * i], items[2 * i + 1]) < 0) Py_CLEAR(d);
  }
  for (int64_t i = 0; i < 2 * n; i++) Py_DECREF(items[i]);
  return d;
}

// BUILD_CONST_KEY_MAP: values consumed, keys a constant tuple.
PyObject* a64_build_const_key_map(PyObject** values, int64_t n, PyObject* keys) {
  PyObject* d = nullptr;
  if (!PyTuple_CheckExact(keys) || PyTuple_GET_SIZE(keys) != n) {
    PyErr_SetString(PyExc_SystemError, "bad BUILD_CONST_KEY_MAP keys argument");
  } else {
    d = _PyDict_NewPresized(n);
    for (int64_t i = 0; d != nullptr && i < n; i++) {
      if (PyDict_SetItem(d, PyTuple_GET_ITEM(keys, i), values[i]) < 0) Py_CLEAR(d);
    }
  }
  for (int64_t i = 0; i < n; i++) Py_DECREF(values[i]);
  return d;
}

// BUILD_STRING: the pieces consumed.
PyObject* a64_build_string(PyObject** items, int64_t n, uint64_t lent) {
  // The empty str is one of 3.11's static singletons: looked up once, not made each time.
  static PyObject* const empty = PyUnicode_FromString("");
  PyObject* s = empty != nullptr ? _PyUnicode_JoinArray(empty, items, n) : nullptr;
  for (int64_t i = 0; i < n; i++) {
    if (i >= 64 || ((lent >> i) & 1) == 0) Py_DECREF(items[i]);
  }
  return s;
}

// FORMAT_VALUE: conversion 0 none, 1 str, 2 repr, 3 ascii; spec may be NULL. Borrows.
PyObject* a64_format_value(PyObject* value, PyObject* spec, int64_t conversion) {
  PyObject* v = value;
  Py_INCREF(v);
  if (conversion != 0) {
    PyObject* converted = conversion == 1   ? PyObject_Str(v)
                          : conversion == 2 ? PyObject_Repr(v)
                                            : PyObject_ASCII(v);
    Py_DECREF(v);
    if (converted == nullptr) return nullptr;
    v = converted;
  }
  if (PyUnicode_CheckExact(v) && spec == nullptr) return v;
  PyObject* r = PyObject_Format(v, spec);
  Py_DECREF(v);
  return r;
}

// MAKE_FUNCTION: items (consumed) = [defaults] [kwdefaults] [annotations] [closure] code;
// `cache` the site's (null: none).
PyObject* a64_make_function(_PyInterpreterFrame* frame, PyObject** items, int64_t n, int64_t flags,
                            FunctionCache* cache) {
  PyObject* code = items[n - 1];
  PyFunctionObject* func = python::NewFunction(code, frame->f_globals, cache);
  Py_DECREF(code);
  if (func == nullptr) {
    for (int64_t i = 0; i < n - 1; i++) Py_DECREF(items[i]);
    return nullptr;
  }
  int64_t i = n - 2;  // popped in this order, as the interpreter does
  if (flags & 0x08) func->func_closure = items[i--];
  if (flags & 0x04) func->func_annotations = items[i--];
  if (flags & 0x02) func->func_kwdefaults = items[i--];
  if (flags & 0x01) func->func_defaults = items[i--];
  python::AdoptJitVectorcall(func);
  return reinterpret_cast<PyObject*>(func);
}

// LIST_EXTEND: -1 on error, with 3.11's message for a non-iterable.
int a64_list_extend(PyObject* list, PyObject* iterable) {
  PyObject* none = _PyList_Extend(reinterpret_cast<PyListObject*>(list), iterable);
  if (none == nullptr) {
    if (PyErr_ExceptionMatches(PyExc_TypeError) && Py_TYPE(iterable)->tp_iter == nullptr &&
        !PySequence_Check(iterable)) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "Value after * must be an iterable, not %.200s",
                   Py_TYPE(iterable)->tp_name);
    }
    return -1;
  }
  Py_DECREF(none);
  return 0;
}

PyObject* a64_int_of(PyThreadState* ts, PyObject* x) {
  if (!python::EnterRecursiveCall(ts, " while calling a Python object")) return nullptr;
  PyObject* res = PyNumber_Long(x);
  ts->recursion_remaining++;
  return res;
}

// FOR_ITER: the next value, NULL when exhausted (StopIteration cleared), 1 on error.
PyObject* a64_for_iter(PyObject* iter) {
  PyObject* next = (*Py_TYPE(iter)->tp_iternext)(iter);
  if (next != nullptr) return next;
  if (PyErr_Occurred()) {
    if (!PyErr_ExceptionMatches(PyExc_StopIteration)) return reinterpret_cast<PyObject*>(1);
    PyErr_Clear();
  }
  return nullptr;
}

namespace {

struct HelperEntry {
  uint64_t address;
  emu::HelperSignature signature;
};

// The signature comes from the function's own type, so it cannot disagree with it.
template <typename Ret, typename... Args>
HelperEntry Describe(const char* name, Ret (*fn)(Args...)) {
  constexpr int doubles = (0 + ... + int{std::is_same_v<Args, double>});
  constexpr int ints = static_cast<int>(sizeof...(Args)) - doubles;
  static_assert(ints <= 8 && doubles <= 8, "at most 8 register arguments of each kind");
  static_assert(
      ((std::is_pointer_v<Args> || std::is_integral_v<Args> || std::is_same_v<Args, double>)&&...),
      "integer, pointer and double arguments only");
  static_assert(!std::is_floating_point_v<Ret>, "integer, pointer or void results only");
  const runtime::RetKind ret =
      std::is_void_v<Ret> ? runtime::RetKind::kVoid : runtime::RetKind::kInt;
  return HelperEntry{reinterpret_cast<uint64_t>(fn),
                     emu::HelperSignature{name, ints, doubles, ret}};
}

// Every row of the helper table (jit/runtime/helpers.h), by the name LIR calls it.
// Hashed: code generation looks up every call's helper by name (a sorted map took about
// 400 instructions a lookup, eight string compares).
const std::unordered_map<std::string, HelperEntry>& Table() {
  static const std::unordered_map<std::string, HelperEntry> table = [] {
    std::unordered_map<std::string, HelperEntry> t;
#define A64JIT_HELPER_ENTRY(fn, ...) t[#fn] = Describe(#fn, &fn);
    A64JIT_HELPERS(A64JIT_HELPER_ENTRY)
#undef A64JIT_HELPER_ENTRY
    return t;
  }();
  return table;
}

}  // namespace

}  // namespace a64jit::runtime

namespace a64jit::python {

using runtime::Table;

std::optional<uint64_t> ResolveHelper(const std::string& name) {
  auto it = Table().find(name);
  if (it == Table().end()) return std::nullopt;
  return it->second.address;
}

void RegisterHelpers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (const auto& [name, h] : Table()) {
      emu::RegisterHelper(reinterpret_cast<const void*>(h.address), h.signature);
    }
  });
}

}  // namespace a64jit::python
