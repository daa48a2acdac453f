#include "jit/hir/loops.h"

#include <algorithm>
#include <string>

namespace a64jit::hir {
namespace {

// A function that loads its own name as a global (`fib(n - 1)`) is taken to call itself:
// recursion is its loop, so all of it counts as in one (hot functions without a loop of
// their own: the benchmark set's `recursion` and `deep_copy` lost 2-4% of their translated
// blocks to site stubs before this). Attributes of that name are not counted: `def
// read(self, n): return self._f.read(n)` delegates, it does not recurse.
bool LoadsOwnName(const Function& f) {
  const std::string& q = f.code.qualname;
  const std::string own = q.substr(q.rfind('.') + 1);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (Unfused(in.op) == Op::kLoadGlobal && static_cast<size_t>(in.imm) < f.code.names.size() &&
          f.code.names[static_cast<size_t>(in.imm)] == own) {
        return true;
      }
    }
  }
  return false;
}

}  // namespace

// The code units each back edge of the HIR spans, from the block it goes to up to the jump:
// 3.11 closes every loop with one (JUMP_BACKWARD, or POP_JUMP_BACKWARD_IF_* at the bottom of
// `while cond:`, which has no JUMP_BACKWARD), and the builder's blocks keep where they start.
Loops FindLoops(const Function& f) {
  Loops loops;
  for (const Block& b : f.blocks) {
    if (b.instrs.empty() || b.instrs.back().bc < 0) continue;
    const Instr& jump = b.instrs.back();
    for (int target : jump.targets) {
      if (target < 0) continue;
      const int start = f.blocks[static_cast<size_t>(target)].bc_start;
      if (start >= 0 && start <= jump.bc) loops.spans.emplace_back(start, jump.bc);
    }
  }
  loops.recursive = LoadsOwnName(f);
  return loops;
}

bool Loops::Contains(int bc) const {
  if (recursive) return true;
  return std::any_of(spans.begin(), spans.end(), [bc](const std::pair<int64_t, int64_t>& l) {
    return l.first <= bc && bc <= l.second;
  });
}

}  // namespace a64jit::hir
