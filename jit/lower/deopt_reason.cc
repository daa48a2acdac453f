#include "jit/lower/deopt_reason.h"

namespace a64jit::lower {

const char* DeoptReasonName(DeoptReason reason) {
  switch (reason) {
    case DeoptReason::kException:
      return "exception";
    case DeoptReason::kEvalBreaker:
      return "eval breaker";
    case DeoptReason::kUnboundLocal:
      return "unbound local";
    case DeoptReason::kEmptyCell:
      return "empty cell";
    case DeoptReason::kTracing:
      return "tracing";
    case DeoptReason::kHelperDeclined:
      return "left to the interpreter";
    case DeoptReason::kGenerator:
      return "generator";
    case DeoptReason::kColdPath:
      return "cold path";
    case DeoptReason::kTypeGuard:
      return "type guard";
  }
  return "?";
}

DeoptReason DeoptReasonFor(const hir::Op* op, hir::FrameState::Kind kind) {
  using hir::Op;
  if (kind != hir::FrameState::Kind::kResume) {
    // A signal handler's exception surfaces at the check that ran it.
    if (op != nullptr && *op == Op::kCheckEvalBreaker) return DeoptReason::kEvalBreaker;
    return DeoptReason::kException;
  }
  if (op == nullptr) return DeoptReason::kHelperDeclined;
  switch (hir::Unfused(*op)) {
    case Op::kLoadLocal:
    case Op::kDeleteLocal:
      return DeoptReason::kUnboundLocal;
    case Op::kLoadDeref:
    case Op::kDeleteDeref:
      return DeoptReason::kEmptyCell;
    // The eval-breaker check resumes the interpreter only when tracing is on, and RERAISE
    // leaves the re-raise to it then (its trace events).
    case Op::kCheckTracing:
    case Op::kCheckEvalBreaker:
    case Op::kReraise:
      return DeoptReason::kTracing;
    case Op::kEnterInterpreter:
      return DeoptReason::kGenerator;
    case Op::kColdExit:
      return DeoptReason::kColdPath;
    default:
      return DeoptReason::kHelperDeclined;
  }
}

}  // namespace a64jit::lower
