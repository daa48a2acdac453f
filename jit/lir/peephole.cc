#include "jit/lir/peephole.h"

#include <utility>
#include <vector>

namespace a64jit::lir {

namespace {

// The index of the kCmp in `b` that defines `flag` for the block's branch, when nothing after
// it redefines the flag or the compare's operands (so the compare can move down to the
// branch); else b.instrs.size(). Loads, stores, moves and calls between are fine: a compare
// reads registers only (`for` loops put the stack's copy of FOR_ITER's value there).
size_t CompareFeeding(const Block& b, int flag) {
  for (size_t i = b.instrs.size() - 1; i-- > 0;) {
    const Instr& in = b.instrs[i];
    if (in.op == Op::kCmp && in.dst == flag) {
      for (size_t k = i + 1; k + 1 < b.instrs.size(); k++) {
        const int dst = b.instrs[k].dst;
        for (const Operand& o : in.args) {
          if (o.is_vreg() && o.vreg == dst) return b.instrs.size();
        }
      }
      return i;
    }
    if (in.dst == flag) return b.instrs.size();
  }
  return b.instrs.size();
}

}  // namespace

int FuseCompareBranches(Function& f, Decisions* d) {
  std::vector<int> reads(f.vreg_types.size(), 0);
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      ForEachUse(in, [&](int v) {
        if (v >= 0 && static_cast<size_t>(v) < reads.size()) reads[static_cast<size_t>(v)]++;
      });
    }
  }
  int fused = 0;
  for (Block& b : f.blocks) {
    if (b.instrs.size() < 2) continue;
    Instr& br = b.instrs.back();
    if (br.op != Op::kBr || br.args.empty() || !br.args[0].is_vreg()) continue;
    const size_t at = CompareFeeding(b, br.args[0].vreg);
    if (at == b.instrs.size()) continue;
    const Instr cmp = b.instrs[at];
    bool taken_when_true;  // the branch goes to targets[0] exactly when the compare holds
    if (br.br_on_value) {
      taken_when_true = true;  // br %c: c != 0
    } else if (br.args.size() == 2 && br.args[1].is_imm() && br.args[1].imm == 0 &&
               (br.cond == Cond::kEq || br.cond == Cond::kNe)) {
      taken_when_true = br.cond == Cond::kNe;
    } else {
      continue;
    }
    if (reads[static_cast<size_t>(cmp.dst)] != 1) continue;
    if (!Take(d, "lir.fuse-compare-branch")) continue;
    Instr fusedbr = br;
    fusedbr.br_on_value = false;
    fusedbr.cond = cmp.cond;
    if (!taken_when_true && IsFloat(cmp.cmp_type)) {
      std::swap(fusedbr.targets[0], fusedbr.targets[1]);  // Negate is not exact with NaN
    } else if (!taken_when_true) {
      fusedbr.cond = Negate(cmp.cond);
    }
    fusedbr.cmp_type = cmp.cmp_type;
    fusedbr.args = cmp.args;
    b.instrs.back() = fusedbr;
    b.instrs.erase(b.instrs.begin() + static_cast<std::ptrdiff_t>(at));
    fused++;
  }
  return fused;
}

}  // namespace a64jit::lir
