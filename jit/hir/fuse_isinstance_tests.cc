// FuseIsInstanceTests (fusions.h): isinstance(x, cls) that only an `if` reads. The Call, the
// CheckTracing after it, an IsTrue of its result and the result's release, in a row, the
// result read by nothing else; the IsTrue becomes IsTrueOfIsInstance. Where the types alone
// answer (an exact match, or a64_isinstance without PyObject_IsInstance), no other code ran,
// so the call's inline path gives the IsTrue its int and goes past the other three: no bool
// made, tested and released, and no tracing test, as 3.11's PRECALL_NO_KW_ISINSTANCE tests
// no eval breaker either. Any other outcome makes the bool and runs the three.
#include "jit/hir/fusions.h"
#include "jit/hir/known_calls.h"

namespace a64jit::hir {
namespace {

bool IsInstanceTest(const KnownCallSites& known, const std::vector<int>& defs,
                    const std::vector<int>& reads, const Instr& call, const Instr& check,
                    const Instr& is_true, const Instr& release) {
  const int r = call.dst;
  if (call.op != Op::kCall || r < 0 || known.Of(call) != KnownCall::kIsInstance ||
      defs.at(static_cast<size_t>(r)) != 1) {
    return false;
  }
  if (Unfused(check.op) != Op::kCheckTracing || is_true.op != Op::kIsTrue || is_true.args[0] != r ||
      release.op != Op::kDecref || release.args[0] != r) {
    return false;
  }
  return reads.at(static_cast<size_t>(r)) == check.Reads(r) + is_true.Reads(r) + release.Reads(r);
}

}  // namespace

void FuseIsInstanceTests(Function& f, const RegisterCounts& counts, Decisions* d) {
  const std::vector<int>& defs = counts.defs;
  const std::vector<int>& reads = counts.reads;
  const KnownCallSites known(f, defs);
  for (Block& b : f.blocks) {
    for (size_t i = 0; i + 3 < b.instrs.size(); i++) {
      const Instr& call = b.instrs[i];
      Instr& is_true = b.instrs[i + 2];
      if (IsInstanceTest(known, defs, reads, call, b.instrs[i + 1], is_true, b.instrs[i + 3]) &&
          Take(d, Decision::kLowerIsinstanceTest, call.bc)) {
        is_true.op = Op::kIsTrueOfIsInstance;
      }
    }
  }
}

}  // namespace a64jit::hir
