// Why compiled code leaves at a deopt exit, as `a64jit.get_deopt_stats()` reports it. Decided
// once, at lowering, from the HIR op being lowered and the kind of exit (FrameState::Kind):
// the runtime only counts.
#ifndef A64JIT_JIT_LOWER_DEOPT_REASON_H_
#define A64JIT_JIT_LOWER_DEOPT_REASON_H_

#include <cstdint>

#include "jit/hir/hir.h"

namespace a64jit::lower {

enum class DeoptReason : uint8_t {
  kException,       // an exception was raised, no compiled handler catches it
  kEvalBreaker,     // a signal handler or an asynchronous exception raised at a check
  kUnboundLocal,    // a local read or deleted while unbound: the interpreter raises
  kEmptyCell,       // a free variable read or deleted while empty: the interpreter raises
  kTracing,         // sys.settrace / sys.setprofile switched on while compiled code ran
  kHelperDeclined,  // a helper left the instruction to the interpreter (a case it does not do)
  kGenerator,       // a generator frame the interpreter must finish (resume or close)
  kColdPath,        // a block that had not run when the function was compiled (ColdExit)
  // An inline cache's type test failed and the site called its generic helper: not an exit
  // (compiled code goes on), counted by the helper.
  kTypeGuard,
};

const char* DeoptReasonName(DeoptReason reason);

// `op`: the HIR op whose lowering made the exit (nullopt: none, e.g. the prologue).
DeoptReason DeoptReasonFor(const hir::Op* op, hir::FrameState::Kind kind);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_DEOPT_REASON_H_
