#include "jit/lower/site_stubs.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_dict.h>
#include <internal/pycore_frame.h>
#include <internal/pycore_moduleobject.h>

#include <cstddef>
#include <map>
#include <stdexcept>

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

std::string SiteStubsTemplate() {
  return std::string(kSiteStubsTemplate) + "\nfunc @" + kModuleAttrStubName +
         "(%0:ptr, %1:ptr) -> ptr {" + kModuleAttrHit + kModuleAttrMissIsNull + "\nfunc @" +
         kModuleAttrOrHelperStubName + "(%0:ptr, %1:ptr) -> ptr {" + kModuleAttrHit +
         kModuleAttrMissCallsHelper;
}

std::map<std::string, int64_t> SiteStubValues(uint64_t module_type) {
  const auto at = [](size_t offset) { return static_cast<int64_t>(offset); };
  using runtime::GlobalCache;
  using runtime::ModuleEntry;
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
      {"module_type", static_cast<int64_t>(module_type)},
  };
}

}  // namespace

std::string SiteStubsText(uint64_t module_type) {
  if (module_type == 0) throw std::invalid_argument("site stubs: no module type");
  return FillStubText(SiteStubsTemplate(), SiteStubValues(module_type), "site stubs");
}

std::vector<lir::Function> SiteStubs(uint64_t module_type) {
  lir::Module m = lir::Parse(SiteStubsText(module_type));
  return std::move(m.functions);
}

}  // namespace a64jit::lower
