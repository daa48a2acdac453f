// The lowering stage: HIR -> LIR. The LIR function is `ptr @name(ptr tstate, ptr frame)` and
// returns the function's result (a new reference), or a deopt code (below kDeoptCodeLimit) after
// writing the value stack's owned values into the frame. The code's low bits say how to resume:
//   kDeoptError  (1): an exception is set; resume the interpreter with throwflag = 1
//   kDeoptResume (2): resume the interpreter at prev_instr + 1 with throwflag = 0
// and the rest indexes the DeoptSite from which the runtime completes the frame: prev_instr,
// stacktop, and the stack's borrowed values (locals and constants), each with a new
// reference. Leaving that to the runtime keeps each exit short: the JIT's code generator
// makes each one a single `bl` to an exit block the function's exits share, which returns
// the bl's offset with low bits 3 (codegen::CompileOptions::exit_code_limit); the runtime
// maps that back to the code (codegen::ExitCodeAt).
// Operations are calls of the helpers in jit/runtime/helpers.h (by typed id; the LIR names
// them, and the runtime resolves the name from the same table); reference counting, truth
// tests of bools and None, and identity tests are inline.
#ifndef A64JIT_JIT_LOWER_LOWER_H_
#define A64JIT_JIT_LOWER_LOWER_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "jit/decisions.h"
#include "jit/hir/hir.h"
#include "jit/hir/number_forms.h"
#include "jit/lir/lir.h"
#include "jit/lower/deopt_reason.h"
#include "jit/runtime/site_cache.h"
#include "jit/runtime/stub_entries.h"

namespace a64jit::lower {

// The guest call stub's name (call_stub.h): compiled CALLs call it by name.
inline constexpr const char kCallStubName[] = "a64_call_stub";
// The keyword-call stub's name (call_stub.h): CALLs with keyword arguments call it by name
// whenever the call stub is there (RuntimeAddresses::call_stub).
inline constexpr const char kKeywordCallStubName[] = "a64_kw_call_stub";
// The send stub's name (send_stub.h), by which SEND calls it.
inline constexpr const char kSendStubName[] = "a64_send_stub";

constexpr uint64_t kDeoptError = 1;
constexpr uint64_t kDeoptResume = 2;
constexpr uint64_t kDeoptKindMask = 3;
// Results below this are deopt codes, or exits' offsets (low bits 3) in functions of less
// than 1 MiB: no object lives in the first MiB of the address space (Linux maps nothing
// below 64 KiB, and the loader, the heap and mmap place nothing near it).
constexpr uint64_t kDeoptCodeLimit = uint64_t{1} << 20;

struct DeoptSite {
  int prev_unit = 0;  // prev_instr, in code units from _PyCode_CODE(code)
  int depth = 0;      // value-stack entries; stacktop = co_nlocalsplus + depth
  // Stack entries the runtime fills: localsplus[slot] of the stack <- a new reference to
  // localsplus[index] (a local the value was borrowed from) or co_consts[index].
  struct Ref {
    int slot;
    bool is_const;
    int index;
  };
  std::vector<Ref> refs;
  // The frame is complete as it is (a generator suspended where compiled code cannot resume
  // it): the runtime changes nothing before the interpreter takes it.
  bool keep_frame = false;
  // prev_instr already names the raising instruction (a handler's landing block, which
  // every instruction that raises into it shares): the runtime leaves it.
  bool keep_prev_instr = false;
  // An error no handler of the function covers, in a function frame past its prologue: the
  // runtime can add the traceback entry and release the stack itself (the interpreter would
  // find no handler and leave the frame) unless tracing is on.
  bool unwinds = false;
  // The exception was re-raised (RERAISE): the runtime adds no traceback entry.
  bool reraised = false;
  // An exit that also stands for another: when the top of the stack it left in the frame is
  // NULL, the runtime takes the exit of this deopt code (site and kind) instead. -1: none.
  // A call's tracing exit stands for the call's error exit (frames.cc MergeableErrorExit, the
  // top being the call's result); a module attribute's error exit for its global's resume
  // exit (ModuleAttrExit, the top being the module the helper wrote, or NULL).
  int64_t code_if_top_null = -1;
  // For a64jit.get_deopt_stats(): the instruction whose lowering made the exit (its code
  // unit; -1: none), and why the exit is taken.
  int bc = -1;
  DeoptReason reason = DeoptReason::kException;
};

// Every address the generated code embeds; the code object keeps them alive. Lowering
// takes them from here only, so golden tests can lower with fixed, readable addresses.
struct RuntimeAddresses {
  // A new zeroed SiteCache that lives as long as the compiled code, for the instruction at
  // code unit `bc` (the runtime names the site in its statistics) whose name is
  // co_names[name] (-1: none), or for a CALL its oparg `argc` (-1: not a call). The runtime
  // puts them in the cache's SiteHeader, where the global, attribute and method helpers and
  // the call stub find them. nullptr: no caches.
  std::function<runtime::SiteCache*(int bc, int name, int argc)> new_site_cache;
  // Writes GlobalCache::miss_how of a cache new_site_cache made: a module attribute's stub
  // then calls its helper on a miss (site_stubs.h). Unset: that stub is not used.
  std::function<void(runtime::SiteCache*, int64_t how)> set_miss_how;
  // Sets AttrCache::form of a cache new_site_cache made (a slot site's entries are then
  // `__slots__` members', a dict-hint site's hint one of a managed dict). Unset: such sites take
  // the helper.
  std::function<void(runtime::SiteCache*, runtime::AttrForm)> set_attr_form;
  // Room for `count` caches, which new_site_cache then hands out in order: the address of
  // the first. Lowering reserves as many as the function may ask for, holds that address in
  // one register and makes each cache's address from it (an add; no literal a site); a cache
  // outside the room gets a literal. Unset or nullptr: a literal for each.
  std::function<runtime::SiteCache*(int count)> reserve_site_caches;
  std::vector<uint64_t> consts;  // co_consts items
  // Per co_consts item: its value when it is an exact int of at most one digit (compared
  // as an immediate, without the type and size checks a variable needs).
  std::vector<std::optional<int64_t>> small_int_consts;
  // Per co_consts item: its character's code when it is a one-character ASCII str (an
  // ordering against it is decided inline by first characters), else -1.
  std::vector<int> ascii_char_consts;
  // Per co_consts item: what its type is known to be (hir/number_forms.h).
  using ConstKind = hir::ConstKind;
  std::vector<ConstKind> const_kinds;
  std::vector<uint64_t> names;  // co_names items
  uint64_t first_instr = 0;     // _PyCode_CODE(code)
  uint64_t py_true = 0, py_false = 0, py_none = 0;
  uint64_t py_long_type = 0;    // &PyLong_Type
  uint64_t py_list_type = 0;    // &PyList_Type; 0: list[int] is not indexed inline
  uint64_t py_float_type = 0;   // &PyFloat_Type; 0: float arithmetic is not inline
  uint64_t py_str_type = 0;     // &PyUnicode_Type; 0: str (in)equality is not tested inline
  uint64_t py_module_type = 0;  // &PyModule_Type; 0: module attributes are not read inline
  uint64_t py_type_type = 0;    // &PyType_Type; 0: type(x) is not inline
  uint64_t py_dict_type = 0;    // &PyDict_Type; 0: len(dict) is PyObject_Size's
  // The interpreter's float free list (object_layouts.h FloatFreeListLayout) and
  // _Py_tracemalloc_config.tracing; either 0: floats are boxed by PyFloat_FromDouble and
  // freed by a64_dealloc, not inline.
  uint64_t float_free_list = 0, tracemalloc_tracing = 0;
  uint64_t py_tuple_type = 0;  // &PyTuple_Type; 0: tuples are not unpacked inline
  // The iterators FOR_ITER steps inline (object_layouts.h); 0: through the helper.
  uint64_t py_list_iter_type = 0, py_tuple_iter_type = 0, py_range_iter_type = 0;
  // &PyEnum_Type, &PyDictIterItem_Type, &PyDictIterKey_Type, &PyDictIterValue_Type and
  // &PyZip_Type (object_layouts.h EnumerateLayout, DictIterLayout, ZipLayout); 0:
  // ForIterOfEnumerate, ForIterOfDictItems, ForIterOfDictKeys, ForIterOfDictValues and
  // ForIterOfZip are plain ForIters.
  uint64_t py_enum_type = 0, py_dict_item_iter_type = 0, py_zip_type = 0;
  uint64_t py_dict_key_iter_type = 0, py_dict_value_iter_type = 0;
  // The interpreter's eval breaker (an int32); 0: compiled code does not test it.
  uint64_t eval_breaker = 0;
  // The guest call stub (call_stub.h); 0: compiled CALLs call the helper a64_call. Compiled
  // code calls it by name, kCallStubName (a direct `bl` when in range): the resolver passed to
  // code generation must know it.
  uint64_t call_stub = 0;
  // The send stub (send_stub.h); 0: SEND calls the helper a64_send. Called by name,
  // kSendStubName, which the resolver must know.
  uint64_t send_stub = 0;
  // Nonzero when the site stubs (site_stubs.h) are compiled and the resolver knows their
  // names: sites outside loops call them instead of their guards inline.
  uint64_t site_stubs = 0;
  // Where the release stubs are (codegen/release_stubs.h); 0: none, and every dealloc block
  // keeps its inline form (prev_instr, a64_dealloc, the jump back).
  uint64_t release_stubs = 0;
  // Where the into-local stub is (codegen/into_local_stub.h); 0: none, and each fused float
  // store's generic path calls a64_binary_op_into_local as written.
  uint64_t into_local_stub = 0;
  // The shared stubs with extra entries (runtime/stub_entries.h), or null: each site places
  // all its arguments.
  const runtime::StubEntryTable* stub_entries = nullptr;
  // An object whose reference count never reaches 0 (2^60), released in place of a NULL
  // local when a returning frame clears its locals without a branch per local; 0: branch.
  uint64_t null_sink = 0;
  // Calls made inline (jit/hir/known_calls.h), each guarded by the callable's identity: the
  // builtins `len` and `isinstance` and the descriptor `list.append`; 0: that call is not
  // inline.
  uint64_t builtin_len = 0, builtin_isinstance = 0, list_append = 0;
  uint64_t builtin_ord = 0, builtin_chr = 0;
  // The int 0 among the interpreter's small ints, which lie kSmallIntStride bytes apart from
  // kSmallIntMin to kSmallIntMax; 0: ints are boxed by a call.
  uint64_t small_int_zero = 0;
  // The interpreter's one-character ASCII strs: chr(0), and the bytes from one to the next;
  // 0: chr is not inline.
  uint64_t ascii_char_zero = 0;
  int64_t ascii_char_stride = 0;
};

constexpr int64_t kSmallIntStride = 32;  // sizeof(PyLongObject) on a 64-bit build
constexpr int64_t kSmallIntMin = -5;     // -_PY_NSMALLNEGINTS
constexpr int64_t kSmallIntMax = 256;    // _PY_NSMALLPOSINTS - 1

// What hir::ChooseNumberForms needs to know of `rt` and of the forms lowering can emit. It
// refers to `rt`, which must outlive it.
hir::NumberFacts NumberFactsOf(const RuntimeAddresses& rt);

// `f`'s number forms must have been chosen (hir::ChooseNumberForms, with NumberFactsOf(rt));
// compiler::LowerToLir does both. `deopt_sites` receives the exits' sites, indexed by their
// codes. Each inline fast path is an optional decision (jit/decisions.h); `decisions` null
// takes them all.
lir::Function Lower(const hir::Function& f, const RuntimeAddresses& rt, const std::string& name,
                    std::vector<DeoptSite>* deopt_sites, Decisions* decisions = nullptr);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_LOWER_H_
