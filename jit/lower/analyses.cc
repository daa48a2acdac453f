// The whole-function analyses the constructor runs: loops and recursion (InLoop).
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// The code units each back edge of the HIR spans, from the block it goes to up to the jump:
// 3.11 closes every loop with one (JUMP_BACKWARD, or POP_JUMP_BACKWARD_IF_* at the bottom of
// `while cond:`, which has no JUMP_BACKWARD), and the builder's blocks keep where they start.
void Lowerer::FindLoops() {
  for (const Block& b : f_.blocks) {
    if (b.instrs.empty() || b.instrs.back().bc < 0) continue;
    const Instr& jump = b.instrs.back();
    for (int target : jump.targets) {
      if (target < 0) continue;
      const int start = f_.blocks[static_cast<size_t>(target)].bc_start;
      if (start >= 0 && start <= jump.bc) loops_.emplace_back(start, jump.bc);
    }
  }
  recursive_ = LoadsOwnName();
}

// A function that loads its own name as a global (`fib(n - 1)`) is taken to call itself:
// recursion is its loop, so all of it counts as in one (hot functions without a loop of
// their own: the benchmark set's `recursion` and `deep_copy` lost 2-4% of their translated
// blocks to site stubs before this). Attributes of that name are not counted: `def
// read(self, n): return self._f.read(n)` delegates, it does not recurse.
bool Lowerer::LoadsOwnName() const {
  const std::string& q = f_.code.qualname;
  const std::string own = q.substr(q.rfind('.') + 1);
  for (const Block& b : f_.blocks) {
    for (const Instr& in : b.instrs) {
      if (Unfused(in.op) == Op::kLoadGlobal && static_cast<size_t>(in.imm) < f_.code.names.size() &&
          f_.code.names[static_cast<size_t>(in.imm)] == own) {
        return true;
      }
    }
  }
  return false;
}

bool Lowerer::InLoop(int bc) const {
  if (recursive_) return true;
  return std::any_of(loops_.begin(), loops_.end(), [bc](const std::pair<int64_t, int64_t>& l) {
    return l.first <= bc && bc <= l.second;
  });
}

// Whether some local is bound at every return (hir::Function::bound_at_return).
bool Lowerer::BoundAtSomeReturn() const {
  return std::find(f_.bound_at_return.begin(), f_.bound_at_return.end(), true) !=
         f_.bound_at_return.end();
}

}  // namespace a64jit::lower::internal
