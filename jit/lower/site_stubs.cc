#include "jit/lower/site_stubs.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_dict.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_moduleobject.h>

#include <cstddef>
#include <cstring>
#include <map>
#include <stdexcept>
#include <utility>

#include "jit/lir/text.h"
#include "jit/lower/stub_text.h"
#include "jit/runtime/site_cache.h"

namespace a64jit::lower {

namespace {

// The tags are compared before anything is read through the cache's pointers: a tag no other
// dict has or had (docs/cpython311.md) means the dict the cache was filled from, unchanged,
// so the value it holds borrowed is alive. The module entry's module is compared by address
// (borrowed): its exact type, then its dict's tag, rule out another object at that address.
constexpr const char kSiteStubsTemplate[] = R"(
func @a64_global_stub(%0:ptr, %1:ptr) -> ptr {
bb0:
  %2:ptr = load [%0 + $f_globals]
  %3:i64 = load [%2 + $ma_version_tag]
  %4:i64 = load [%1 + $globals_version]
  br.i64 ne %3, %4, bb2, bb1
bb1:
  %5:ptr = load [%1 + $global_value]
  %6:i64 = load [%5]
  %6:i64 = add %6, 1
  store.i64 %6, [%5]
  ret %5
bb2:
  %7:ptr = mov 0
  ret %7
}

func @a64_global_builtin_stub(%0:ptr, %1:ptr) -> ptr {
bb0:
  %2:ptr = load [%0 + $f_globals]
  %3:i64 = load [%2 + $ma_version_tag]
  %4:i64 = load [%1 + $globals_version]
  %8:ptr = load [%0 + $f_builtins]
  %9:i64 = load [%8 + $ma_version_tag]
  %10:i64 = load [%1 + $builtins_version]
  br.i64 ne %3, %4 or.i64 ne %9, %10, bb2, bb1
bb1:
  %5:ptr = load [%1 + $global_value]
  %6:i64 = load [%5]
  %6:i64 = add %6, 1
  store.i64 %6, [%5]
  ret %5
bb2:
  %7:ptr = mov 0
  ret %7
}
)";

// `module.attr` of a global: the blocks up to the hit's return, which both of its stubs share
// (bb4 is the miss).
constexpr const char kModuleAttrHit[] = R"(
bb0:    ; the globals' tag, and the global's value %6 the module entry's module (the entry in
        ; the next cache, the attribute's: the next_entry_ values)
  %3:ptr = load [%0 + $f_globals]
  %4:i64 = load [%3 + $ma_version_tag]
  %5:i64 = load [%1 + $globals_version]
  %6:ptr = load [%1 + $global_value]
  %7:ptr = load [%1 + $next_entry_module]
  br.i64 ne %4, %5 or.i64 ne %6, %7, bb4, bb1
bb1:
  %8:ptr = load [%6 + $ob_type]
  br.i64 ne %8, $module_type, bb4, bb2
bb2:
  %9:ptr = load [%6 + $md_dict]
  %10:i64 = load [%9 + $ma_version_tag]
  %11:i64 = load [%1 + $next_entry_version]
  br.i64 ne %10, %11, bb4, bb3
bb3:
  %12:ptr = load [%1 + $next_entry_value]
  %13:i64 = load [%12]
  %13:i64 = add %13, 1
  store.i64 %13, [%12]
  ret %12
)";

// a64_module_attr_stub's miss returns NULL: the site's cold path calls a helper.
constexpr const char kModuleAttrMissIsNull[] = R"(
bb4:
  %14:ptr = mov 0
  ret %14
}
)";

// a64_module_attr_or_helper_stub's miss is a64_module_attr_into_frame's call, in the stub's
// place: the site's cold path is then only its exit. The helper's `how` is a constant of the
// site, which lowering put in the global's cache.
constexpr const char kModuleAttrMissCallsHelper[] = R"(
bb4:
  %14:i64 = load [%1 + $miss_how]
  tailcall @a64_module_attr_into_frame(%0, %1, %14)
}
)";

// a64_attr_hint_or_helper_stub, at a site of inline values or without instance feedback
// (AttrForm::kInlineValues): first the site's descriptor entry when it names a plain value of
// a class (a value without __get__, which the generic path returns as it is): a class's own
// attribute read through the class itself (DescrKind::kClassAttr: `Direction.FORWARD`) or
// one of the object's type read through the object (kTypeAttr: `self.LIMIT`), as the load
// helper's CachedDescrValue tests it (bb0-bb9). 3.11 specialises neither, so such a site has no
// feedback and every load came here to be handed over. Any object may come to the site, so the
// stub reads a field that only a type has (its version) or only an instance of the entry's
// type has (the words below it) only once it knows the object is one. The entry holds its
// value borrowed: that is read last, once the guards and the version have shown the class
// unchanged, which keeps the value alive (a class freed since, and its value with it, fails
// them first, and the value's memory may be reused or poisoned). Then 3.11's
// LOAD_ATTR_WITH_HINT on the hint the load helper keeps at such a site (helpers.cc), for
// objects of a type with a managed dict and a real dict: the entry at the hint holds the
// site's name (from the site's header), and its value, or in a split dict (made from inline
// values; it shares its class's keys) the value at the same index in the dict's own values, is
// set. Every other case is the helper's, a tail call with the same arguments.
constexpr const char kAttrHintStub[] = R"(
func @a64_attr_hint_or_helper_stub(%0:ptr, %1:ptr) -> ptr {
bb0:    ; the object's type %2; the descriptor entry's kind %40, one of the two taken here
  %2:ptr = load [%0 + $ob_type]
  %40:i8 = load [%1 + $descr_kind]
  %55:i64 = zext %40
  br.i64 eq %55, $class_attr_kind or.i64 eq %55, $type_attr_kind, bb1, bb10
bb1:    ; the entry's guard %41 and version %45, which is never 0 in an entry
  %41:ptr = load [%1 + $descr_guard]
  %45:i32 = load [%1 + $descr_version]
  br.i8 ne %40, $class_attr_kind, bb4, bb2
bb2:    ; kClassAttr: the object is the entry's class, exactly a type (no metaclass)
  br.i64 ne %0, %41 or.i64 ne %2, $type_type, bb10, bb3
bb3:    ; at the entry's version
  %43:i32 = load [%0 + $tp_version_tag]
  br.i32 eq %43, 0 or.i32 ne %43, %45, bb10, bb8
bb4:    ; kTypeAttr: the object's type at the entry's version
  %44:i32 = load [%2 + $tp_version_tag]
  br.i32 eq %44, 0 or.i32 ne %44, %45, bb10, bb5
bb5:    ; and no instance attribute can shadow it: its instances have no __dict__ (no guard), or
        ; the object has inline values that follow the guard, its type's shared keys, still of
        ; the entry's length (bb6-bb7, as helpers' Unshadowed)
  br.i64 eq %41, 0, bb8, bb6
bb6:
  %47:ptr = load [%0 - $inline_values_below]
  %48:ptr = load [%2 + $ht_cached_keys]
  br.i64 eq %47, 0 or.i64 ne %48, %41, bb10, bb7
bb7:
  %49:i64 = load [%48 + $dk_nentries]
  %50:i16 = load [%1 + $descr_nentries]
  %51:i64 = zext %50
  br.i64 ne %49, %51, bb10, bb8
bb8:    ; the class is unchanged, so the value %46 is alive; it has no __get__ (read at each
        ; use, as the helper reads it); with one, the helper calls it
  %46:ptr = load [%1 + $descr_value]
  %52:ptr = load [%46 + $ob_type]
  %53:ptr = load [%52 + $tp_descr_get]
  br.i64 ne %53, 0, bb16, bb9
bb9:
  %54:i64 = load [%46]
  %54:i64 = add %54, 1
  store.i64 %54, [%46]
  ret %46
bb10:    ; the hint: the type's version %3 is the hint's, which is never 0
  %3:i32 = load [%2 + $tp_version_tag]
  %4:i32 = load [%1 + $hint_version]
  br.i32 eq %3, 0 or.i32 ne %3, %4, bb16, bb11
bb11:    ; the type keeps a managed dict (only then is the word before the object its pointer)
  %5:i64 = load [%2 + $tp_flags]
  %6:i64 = and %5, $managed_dict_flag
  br.i64 eq %6, 0, bb16, bb12
bb12:    ; the object has a real dict %7
  %7:ptr = load [%0 - $managed_dict_below]
  br.i64 eq %7, 0, bb16, bb13
bb13:    ; the hint %10 within its keys' entries, and the keys unicode ones
  %8:ptr = load [%7 + $ma_keys]
  %9:i32 = load [%1 + $hint_index]
  %10:i64 = zext %9
  %11:i64 = load [%8 + $dk_nentries]
  %12:i8 = load [%8 + $dk_kind]
  %13:i64 = zext %12
  br.i64 uge %10, %11 or.i64 eq %13, $dict_keys_general, bb16, bb14
bb14:    ; the entry %18, after the indices (1 << dk_log2_index_bytes bytes), has the site's name
        ; %20; the value %21 is the entry's, or the split dict's values' (%22 not NULL)
  %14:i8 = load [%8 + $dk_index_bytes_log]
  %15:i64 = zext %14
  %16:i64 = mov 1
  %16:i64 = shl %16, %15
  %17:i64 = shl %10, 4
  %18:ptr = add %8, %16
  %18:ptr = add %18, %17
  %19:ptr = load [%18 + $entry_key]
  %20:ptr = load [%1 - $name_below_cache]
  %22:ptr = load [%7 + $ma_values]
  %23:i64 = shl %10, 3
  %24:ptr = add %22, %23
  %25:ptr = add %18, $entry_value
  %26:ptr = select %22, %24, %25
  %21:ptr = load [%26]
  br.i64 ne %19, %20 or.i64 eq %21, 0, bb16, bb15
bb15:
  %27:i64 = load [%21]
  %27:i64 = add %27, 1
  store.i64 %27, [%21]
  ret %21
bb16:
  tailcall @a64_load_attr_cached(%0, %1)
}
)";

// a64_truth_or_helper_stub(obj): IsTrue's call, at a site whose object was neither a bool nor
// None (lowering tests those inline). An exact str, list, dict, tuple or int is true when the
// word after its header is not 0: a str's length, a list's, tuple's or int's ob_size, a dict's
// ma_used, as their nb_bool, mp_length or sq_length would say. Anything else, a subclass
// among them (which may define __bool__ or __len__), is PyObject_IsTrue's, a tail call. The
// type's flags rule most other objects out with one test (bb0): each of those types has a
// subclass flag of its own. A str made through 3.11's legacy wstr API has no length until it
// is made ready, so an unready one is the helper's too (bb2).
constexpr const char kTruthStub[] = R"(
func @a64_truth_or_helper_stub(%0:ptr) -> i64 {
bb0:    ; the object's type %1, of one of the sized families by its flags
  %1:ptr = load [%0 + $ob_type]
  %2:i64 = load [%1 + $tp_flags]
  %3:i64 = and %2, $sized_family_flags
  br.i64 eq %3, 0, bb6, bb1
bb1:
  br.i64 eq %1, $str_type, bb2, bb3
bb2:
  %4:i8 = load [%0 + $str_state]
  %5:i64 = zext %4
  %6:i64 = and %5, $str_ready_bit
  br.i64 eq %6, 0, bb6, bb5
bb3:
  br.i64 eq %1, $list_type or.i64 eq %1, $dict_type, bb5, bb4
bb4:
  br.i64 eq %1, $tuple_type or.i64 eq %1, $long_type, bb5, bb6
bb5:    ; the word after the header
  %7:i64 = load [%0 + $size_word]
  %8:i64 = cmp.i64 ne %7, 0
  ret %8
bb6:
  tailcall @PyObject_IsTrue(%0)
}
)";

std::string SiteStubsTemplate() {
  return std::string(kSiteStubsTemplate) + "\nfunc @" + kModuleAttrStubName +
         "(%0:ptr, %1:ptr) -> ptr {" + kModuleAttrHit + kModuleAttrMissIsNull + "\nfunc @" +
         kModuleAttrOrHelperStubName + "(%0:ptr, %1:ptr) -> ptr {" + kModuleAttrHit +
         kModuleAttrMissCallsHelper + kAttrHintStub + kTruthStub;
}

// Where a str's `ready` bit is: the byte of PyASCIIObject that holds it, and its mask (a bit
// field has no offsetof, so a zeroed str with only that bit set tells).
std::pair<int64_t, int64_t> StrReadyBit() {
  PyASCIIObject probe;
  std::memset(&probe, 0, sizeof probe);
  probe.state.ready = 1;
  const auto* bytes = reinterpret_cast<const unsigned char*>(&probe);
  for (size_t i = 0; i < sizeof probe; i++) {
    if (bytes[i] != 0) return {static_cast<int64_t>(i), bytes[i]};
  }
  throw std::logic_error("site stubs: no ready bit in PyASCIIObject");
}

// The truth stub reads one word for each of its types.
static_assert(offsetof(PyVarObject, ob_size) == offsetof(PyASCIIObject, length) &&
                  offsetof(PyVarObject, ob_size) == offsetof(PyDictObject, ma_used),
              "a str's length, an ob_size and a dict's ma_used at the same place");
// The families' subclass flags are one run of bits, a mask a single `and` takes.
constexpr int64_t kSizedFamilyFlags = Py_TPFLAGS_LONG_SUBCLASS | Py_TPFLAGS_LIST_SUBCLASS |
                                      Py_TPFLAGS_TUPLE_SUBCLASS | Py_TPFLAGS_BYTES_SUBCLASS |
                                      Py_TPFLAGS_UNICODE_SUBCLASS | Py_TPFLAGS_DICT_SUBCLASS;

std::map<std::string, int64_t> SiteStubValues(const SiteStubFacts& facts) {
  const auto [str_state, str_ready_bit] = StrReadyBit();
  const auto at = [](size_t offset) { return static_cast<int64_t>(offset); };
  using runtime::AttrCache;
  // A field of the attribute cache's descriptor entry.
  const auto in_descr = [&](size_t field) { return at(offsetof(AttrCache, descr) + field); };
  using runtime::DescrEntry;
  using runtime::DictHint;
  using runtime::GlobalCache;
  using runtime::ModuleEntry;
  static_assert(sizeof(PyDictUnicodeEntry) == 16, "an entry is a key and a value");
  static_assert(offsetof(PyDictValues, values) == 0, "a split dict's values come first");
  // The attribute's module entry, in the cache after the global's (runtime::NextSiteCache).
  const int64_t next_entry = runtime::kNextSiteCache + at(offsetof(runtime::AttrCache, module));
  return {
      {"f_globals", at(offsetof(_PyInterpreterFrame, f_globals))},
      {"f_builtins", at(offsetof(_PyInterpreterFrame, f_builtins))},
      {"ma_version_tag", at(offsetof(PyDictObject, ma_version_tag))},
      {"globals_version", at(offsetof(GlobalCache, globals_version))},
      {"builtins_version", at(offsetof(GlobalCache, builtins_version))},
      {"global_value", at(offsetof(GlobalCache, value))},
      {"miss_how", at(offsetof(GlobalCache, miss_how))},
      {"next_entry_module", next_entry + at(offsetof(ModuleEntry, module))},
      {"next_entry_version", next_entry + at(offsetof(ModuleEntry, version))},
      {"next_entry_value", next_entry + at(offsetof(ModuleEntry, value))},
      {"ob_type", at(offsetof(PyObject, ob_type))},
      {"md_dict", at(offsetof(PyModuleObject, md_dict))},
      {"module_type", static_cast<int64_t>(facts.module_type)},
      {"type_type", static_cast<int64_t>(facts.type_type)},
      {"descr_kind", in_descr(offsetof(DescrEntry, kind))},
      {"descr_version", in_descr(offsetof(DescrEntry, type_version))},
      {"descr_nentries", in_descr(offsetof(DescrEntry, nentries))},
      {"descr_value", in_descr(offsetof(DescrEntry, descr))},
      {"descr_guard", in_descr(offsetof(DescrEntry, guard))},
      {"class_attr_kind", static_cast<int64_t>(runtime::DescrKind::kClassAttr)},
      {"type_attr_kind", static_cast<int64_t>(runtime::DescrKind::kTypeAttr)},
      {"inline_values_below", -runtime::kInlineValuesOffset},
      {"ht_cached_keys", at(offsetof(PyHeapTypeObject, ht_cached_keys))},
      {"tp_descr_get", at(offsetof(PyTypeObject, tp_descr_get))},
      {"tp_version_tag", at(offsetof(PyTypeObject, tp_version_tag))},
      {"tp_flags", at(offsetof(PyTypeObject, tp_flags))},
      {"managed_dict_flag", Py_TPFLAGS_MANAGED_DICT},
      {"managed_dict_below", -runtime::kManagedDictOffset},
      {"hint_version", at(offsetof(AttrCache, hint) + offsetof(DictHint, type_version))},
      {"hint_index", at(offsetof(AttrCache, hint) + offsetof(DictHint, index))},
      {"name_below_cache", -runtime::kHeaderName},
      {"ma_keys", at(offsetof(PyDictObject, ma_keys))},
      {"ma_values", at(offsetof(PyDictObject, ma_values))},
      {"dk_nentries", at(offsetof(PyDictKeysObject, dk_nentries))},
      {"dk_kind", at(offsetof(PyDictKeysObject, dk_kind))},
      {"dict_keys_general", DICT_KEYS_GENERAL},
      {"dk_index_bytes_log", at(offsetof(PyDictKeysObject, dk_log2_index_bytes))},
      {"entry_key",
       at(offsetof(PyDictKeysObject, dk_indices) + offsetof(PyDictUnicodeEntry, me_key))},
      {"entry_value",
       at(offsetof(PyDictKeysObject, dk_indices) + offsetof(PyDictUnicodeEntry, me_value))},
      {"sized_family_flags", kSizedFamilyFlags},
      {"str_type", static_cast<int64_t>(facts.str_type)},
      {"list_type", static_cast<int64_t>(facts.list_type)},
      {"dict_type", static_cast<int64_t>(facts.dict_type)},
      {"tuple_type", static_cast<int64_t>(facts.tuple_type)},
      {"long_type", static_cast<int64_t>(facts.long_type)},
      {"str_state", str_state},
      {"str_ready_bit", str_ready_bit},
      {"size_word", at(offsetof(PyVarObject, ob_size))},
  };
}

}  // namespace

std::string SiteStubsText(const SiteStubFacts& facts) {
  if (facts.module_type == 0 || facts.type_type == 0 || facts.str_type == 0 ||
      facts.list_type == 0 || facts.dict_type == 0 || facts.tuple_type == 0 ||
      facts.long_type == 0) {
    throw std::invalid_argument("site stubs: incomplete runtime facts");
  }
  return FillStubText(SiteStubsTemplate(), SiteStubValues(facts), "site stubs");
}

std::vector<lir::Function> SiteStubs(const SiteStubFacts& facts) {
  lir::Module m = lir::Parse(SiteStubsText(facts));
  return std::move(m.functions);
}

}  // namespace a64jit::lower
