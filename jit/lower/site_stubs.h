// Site stubs: guest code for the hot paths of global and module-attribute loads, shared by
// every site, so that a site is one call instead of its guards inline (issue 16's smaller
// code). Each returns the value with a new reference, or NULL when a guard fails (never an
// error: the site then takes its cold path, the helper that fills the cache, as before).
//
//   a64_global_stub(frame, GlobalCache*)          LOAD_GLOBAL of a name in the globals: the
//                                                 globals' version tag (3.11's
//                                                 LOAD_GLOBAL_MODULE)
//   a64_global_builtin_stub(frame, GlobalCache*)  the same with the builtins' tag too
//                                                 (LOAD_GLOBAL_BUILTIN)
//   a64_module_attr_stub(frame, GlobalCache*)     `module.attr` with the module a global
//                                                 (attributes.cc's LowerModuleAttrOfGlobal): the
//                                                 globals' tag and the module's identity, its
//                                                 exact type and its dict's tag; the module
//                                                 entry in the next cache, the attribute's
//                                                 (runtime::NextSiteCache)
//   a64_module_attr_or_helper_stub(frame, GlobalCache*)
//                                                 the same, but a miss hands over to
//                                                 a64_module_attr_into_frame (a tail call,
//                                                 its `how` the cache's miss_how), whose
//                                                 result is the stub's: NULL is then an
//                                                 error or a global to load again, and the
//                                                 site's cold path is only its exit
//
//   a64_attr_hint_or_helper_stub(obj, AttrCache*)
//                                                 LOAD_ATTR's miss at a site compiled for
//                                                 inline values (or without instance
//                                                 feedback): a plain value (no __get__) that
//                                                 the site's descriptor entry names, a class
//                                                 attribute read through the class or the
//                                                 object; then the dict hint the load helper
//                                                 keeps (3.11's LOAD_ATTR_WITH_HINT), for an
//                                                 object whose real dict was made after the
//                                                 site compiled (its class's shared keys ran
//                                                 out), else a64_load_attr_cached (a tail
//                                                 call) with the same arguments. It is the
//                                                 site's cold path, in place of the helper,
//                                                 so no loop test (decision
//                                                 lower.attr-hint-stub)
//
//   a64_truth_or_helper_stub(obj)                 IsTrue of an object that is neither a bool
//                                                 nor None (the site tests those inline): an
//                                                 exact str, list, dict, tuple or int by the
//                                                 word after its header (its length, ob_size
//                                                 or ma_used), anything else through
//                                                 PyObject_IsTrue (a tail call). It replaces
//                                                 the site's call of that helper and its
//                                                 inline test of an int, so it is taken
//                                                 in loops too (decision lower.truth-stub)
//
// Under QEMU each call and its return end a translated block, and the return is an indirect
// branch; on hardware the return is predicted. So lowering takes a stub only for sites outside
// loops, in functions that do not call themselves by name (decision lower.site-stub), where
// the bytes matter more than the few instructions.
// The stubs are leaves with nothing on the stack, so code generation gives them no frame
// record (codegen::CodeStats::frameless): a hit is about 12 instructions and two branches. A
// tail call (LIR's `tailcall`) is a branch, not a call, so the helper-calling stub stays one.
// Written in LIR like the call stub and compiled once per runtime (jit/python/jit.cc).
//
// Instance attributes and methods (LOAD_ATTR_INSTANCE_VALUE, LOAD_METHOD_WITH_VALUES) are
// not taken out of line: stubs for them (tried at 4a7c0e0 + this change) made the stdlib's
// code 8.4% smaller still, but Richards, whose methods have no loops, ran 6.6% more guest
// instructions and 22% more translated blocks, the set's interp 7% more blocks.
#ifndef A64JIT_JIT_LOWER_SITE_STUBS_H_
#define A64JIT_JIT_LOWER_SITE_STUBS_H_

#include <cstdint>
#include <string>
#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::lower {

inline constexpr const char kGlobalStubName[] = "a64_global_stub";
inline constexpr const char kGlobalBuiltinStubName[] = "a64_global_builtin_stub";
inline constexpr const char kModuleAttrStubName[] = "a64_module_attr_stub";
inline constexpr const char kModuleAttrOrHelperStubName[] = "a64_module_attr_or_helper_stub";
inline constexpr const char kAttrHintStubName[] = "a64_attr_hint_or_helper_stub";
inline constexpr const char kTruthStubName[] = "a64_truth_or_helper_stub";

// What the stubs need from the runtime besides CPython 3.11's layouts.
struct SiteStubFacts {
  uint64_t module_type = 0;  // &PyModule_Type
  uint64_t type_type = 0;    // &PyType_Type: a class read through itself (DescrKind::kClassAttr)
  // The exact types whose truth the truth stub reads from their size word.
  uint64_t str_type = 0;    // &PyUnicode_Type
  uint64_t list_type = 0;   // &PyList_Type
  uint64_t dict_type = 0;   // &PyDict_Type
  uint64_t tuple_type = 0;  // &PyTuple_Type
  uint64_t long_type = 0;   // &PyLong_Type
};

// The stubs' LIR text; std::invalid_argument when a fact is missing (0).
std::string SiteStubsText(const SiteStubFacts& facts);

// The same, parsed and verified: one function per stub, named as above.
std::vector<lir::Function> SiteStubs(const SiteStubFacts& facts);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_SITE_STUBS_H_
