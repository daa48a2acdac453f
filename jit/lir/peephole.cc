#include "jit/lir/peephole.h"

#include <utility>
#include <vector>

namespace a64jit::lir {

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
    Instr& cmp = b.instrs[b.instrs.size() - 2];
    if (br.op != Op::kBr || cmp.op != Op::kCmp || br.args.empty()) continue;
    const Operand& value = br.args[0];
    if (!value.is_vreg() || value.vreg != cmp.dst) continue;
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
    b.instrs.pop_back();
    b.instrs.back() = fusedbr;
    fused++;
  }
  return fused;
}

}  // namespace a64jit::lir
