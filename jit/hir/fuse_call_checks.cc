// FuseCallChecks (fusions.h): every call is followed by a CheckTracing (the callee may have
// switched tracing on), and a call's result is NULL on an error. Lowered one after the other,
// that is two tests and two cold exits a call; as CheckTracingOfCall, lowering tests both
// in one guard (the tracing flag, or a NULL result) and, where the call's error leaves the
// function with the same stack as the tracing exit plus the NULL on top, makes one exit for
// both (the runtime tells them apart). A call lowered inline, without a result to test, lowers
// CheckTracingOfCall as a plain CheckTracing.
#include "jit/hir/fusions.h"

namespace a64jit::hir {

void FuseCallChecks(Function& f, Decisions* d) {
  for (Block& b : f.blocks) {
    for (size_t i = 0; i + 1 < b.instrs.size(); i++) {
      const Instr& call = b.instrs[i];
      Instr& check = b.instrs[i + 1];
      if (call.op == Op::kCall && check.op == Op::kCheckTracing &&
          Take(d, Decision::kLowerGuardPair, call.bc)) {
        check.op = Op::kCheckTracingOfCall;
      }
    }
  }
}

}  // namespace a64jit::hir
