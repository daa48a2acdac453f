// HIR ops whose lowering is one helper call, each a row: which helper, what comes before and
// after the op's operands in the helper's argument list, and how the result reports an
// error. frames.cc's LowerByCallRule applies the rows; ops that need more (inline fast paths,
// several results) have rules of their own in the family files (lowerer.h).
#ifndef A64JIT_JIT_LOWER_CALL_RULES_H_
#define A64JIT_JIT_LOWER_CALL_RULES_H_

#include <cstdint>

#include "jit/hir/ops.h"
#include "jit/runtime/helpers.h"

namespace a64jit::lower {

// Arguments before the operands.
enum class Lead : uint8_t {
  kNone,
  kFrame,      // the frame
  kFrameName,  // the frame, then co_names[imm]
  kThread,     // the thread state
};

// Arguments after the operands.
enum class Tail : uint8_t {
  kNone,
  kName,      // co_names[imm]
  kImm,       // imm as an integer
  kNameNull,  // co_names[imm], then NULL (PyObject_SetAttr deleting)
  kNullPad,   // NULL for each optional operand the op does not have, up to the arity
};

// How the helper reports an error.
enum class Outcome : uint8_t {
  kObject,  // a new reference, NULL on error
  kStatus,  // an int, negative on error
  kVoid,    // cannot fail
  kValue,   // a new reference; cannot fail
};

struct CallRule {
  hir::Op op;
  runtime::Helper helper;
  Lead lead;
  Tail tail;
  Outcome outcome;
};

// clang-format off
inline constexpr CallRule kCallRules[] = {
  // op                        helper                                  lead              tail             outcome
  {hir::Op::kMakeCell,         runtime::Helper::a64_make_cell,          Lead::kFrame,     Tail::kImm,      Outcome::kStatus},
  {hir::Op::kSetAdd,           runtime::Helper::PySet_Add,              Lead::kNone,      Tail::kNone,     Outcome::kStatus},
  {hir::Op::kSetUpdate,        runtime::Helper::_PySet_Update,          Lead::kNone,      Tail::kNone,     Outcome::kStatus},
  {hir::Op::kMapAdd,           runtime::Helper::PyDict_SetItem,         Lead::kNone,      Tail::kNone,     Outcome::kStatus},
  {hir::Op::kDictUpdate,       runtime::Helper::a64_dict_update,        Lead::kNone,      Tail::kNone,     Outcome::kStatus},
  {hir::Op::kDictMerge,        runtime::Helper::a64_dict_merge,         Lead::kNone,      Tail::kNone,     Outcome::kStatus},
  {hir::Op::kListToTuple,      runtime::Helper::PyList_AsTuple,         Lead::kNone,      Tail::kNone,     Outcome::kObject},
  {hir::Op::kCallEx,           runtime::Helper::a64_call_ex,            Lead::kNone,      Tail::kNullPad,  Outcome::kObject},
  {hir::Op::kDeleteAttr,       runtime::Helper::PyObject_SetAttr,       Lead::kNone,      Tail::kNameNull, Outcome::kStatus},
  {hir::Op::kDeleteSubscr,     runtime::Helper::PyObject_DelItem,       Lead::kNone,      Tail::kNone,     Outcome::kStatus},
  {hir::Op::kStoreGlobal,      runtime::Helper::a64_store_global,       Lead::kFrameName, Tail::kNone,     Outcome::kStatus},
  {hir::Op::kImportName,       runtime::Helper::a64_import_name,        Lead::kFrameName, Tail::kNone,     Outcome::kObject},
  {hir::Op::kImportFrom,       runtime::Helper::a64_import_from,        Lead::kNone,      Tail::kName,     Outcome::kObject},
  {hir::Op::kGetLen,           runtime::Helper::a64_get_len,            Lead::kNone,      Tail::kNone,     Outcome::kObject},
  {hir::Op::kMatchKeys,        runtime::Helper::a64_match_keys,         Lead::kNone,      Tail::kNone,     Outcome::kObject},
  {hir::Op::kLoadBuildClass,   runtime::Helper::a64_load_build_class,   Lead::kFrame,     Tail::kNone,     Outcome::kObject},
  {hir::Op::kGetAwaitable,     runtime::Helper::a64_get_awaitable,      Lead::kNone,      Tail::kImm,      Outcome::kObject},
  {hir::Op::kGetAiter,         runtime::Helper::a64_get_aiter,          Lead::kNone,      Tail::kNone,     Outcome::kObject},
  {hir::Op::kGetAnext,         runtime::Helper::a64_get_anext,          Lead::kNone,      Tail::kNone,     Outcome::kObject},
  {hir::Op::kGetYieldFromIter, runtime::Helper::a64_get_yield_from_iter, Lead::kFrame,    Tail::kNone,     Outcome::kObject},
  {hir::Op::kAsyncGenWrap,     runtime::Helper::a64_async_gen_wrap,     Lead::kNone,      Tail::kNone,     Outcome::kObject},
  {hir::Op::kPushExcInfo,      runtime::Helper::a64_push_exc_info,      Lead::kThread,    Tail::kNone,     Outcome::kValue},
  {hir::Op::kPopExcept,        runtime::Helper::a64_pop_except,         Lead::kThread,    Tail::kNone,     Outcome::kVoid},
  {hir::Op::kCheckExcMatch,    runtime::Helper::a64_check_exc_match,    Lead::kNone,      Tail::kNone,     Outcome::kStatus},
  {hir::Op::kWithExceptStart,  runtime::Helper::a64_with_except_start,  Lead::kNone,      Tail::kNone,     Outcome::kObject},
};
// clang-format on

// The row of `op`, or nullptr when the op is lowered by a function of its own.
inline const CallRule* CallRuleFor(hir::Op op) {
  for (const CallRule& r : kCallRules) {
    if (r.op == op) return &r;
  }
  return nullptr;
}

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_CALL_RULES_H_
