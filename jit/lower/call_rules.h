// The vocabulary of the op table's lowering column (hir/ops.h): an op lowered as one helper
// call names the helper, what comes before and after the op's operands in its argument list,
// and how its result reports an error. frames.cc's LowerByCallRule applies them; ops that need
// more (inline fast paths, several results) have rules of their own in the family files
// (lowerer.h).
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

// An op's lowering column (hir/ops.h), as data: is_call false for ops with a rule of their own.
struct CallRule {
  bool is_call;
  runtime::Helper helper;
  Lead lead;
  Tail tail;
  Outcome outcome;
};

// The lowering column of every op, indexed by hir::Op.
#define A64JIT_CALL_RULE_ \
  CallRule { false, {}, Lead::kNone, Tail::kNone, Outcome::kVoid }
#define A64JIT_CALL_RULE_Call(helper, lead, tail, outcome) \
  CallRule { true, runtime::Helper::helper, Lead::lead, Tail::tail, Outcome::outcome }
#define A64JIT_CALL_RULE(name, result, steals, leaves, pure, arity, kind, imm, ...) \
  A64JIT_CALL_RULE_##__VA_ARGS__,
inline constexpr CallRule kCallRules[] = {A64JIT_HIR_OPS(A64JIT_CALL_RULE)};
#undef A64JIT_CALL_RULE
#undef A64JIT_CALL_RULE_Call
#undef A64JIT_CALL_RULE_

constexpr const CallRule& CallRuleOf(hir::Op op) { return kCallRules[static_cast<size_t>(op)]; }

// Whether every Call column agrees with its helper's row (runtime/helpers.h): the op steals
// its operands exactly when the helper consumes them all, and the outcome lowering tests is
// the helper's way of failing.
constexpr bool CallRulesAgreeWithHelpers() {
  for (size_t i = 0; i < sizeof(kCallRules) / sizeof(kCallRules[0]); i++) {
    const CallRule& rule = kCallRules[i];
    if (!rule.is_call) continue;
    const bool steals = hir::InfoOf(static_cast<hir::Op>(i)).steals;
    const runtime::Consumes consumes = runtime::HelperConsumes(rule.helper);
    if (consumes != (steals ? runtime::Consumes::kAll : runtime::Consumes::kNone)) return false;
    const runtime::OnError on_error = runtime::HelperOnError(rule.helper);
    switch (rule.outcome) {
      case Outcome::kObject:
        if (on_error != runtime::OnError::kNull) return false;
        break;
      case Outcome::kStatus:
        if (on_error != runtime::OnError::kNegative) return false;
        break;
      case Outcome::kVoid:
      case Outcome::kValue:
        if (on_error != runtime::OnError::kCannotFail) return false;
        break;
    }
  }
  return true;
}
static_assert(CallRulesAgreeWithHelpers(),
              "a Call column in hir/ops.h disagrees with its helper's row in runtime/helpers.h "
              "(steals vs consumes, or outcome vs on error)");

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_CALL_RULES_H_
