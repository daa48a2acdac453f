#include "jit/lir/peephole.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace a64jit::lir {

namespace {

// The index of the kCmp in `b` that defines `flag` for the block's branch, when nothing after
// it reads or redefines the flag or redefines the compare's operands (so the compare can move
// down to the branch); else b.instrs.size(). Loads, stores, moves and calls between are fine: a
// compare reads registers only (`for` loops put the stack's copy of FOR_ITER's value there).
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
    if (in.dst == flag || ReadsVReg(in, flag)) return b.instrs.size();
  }
  return b.instrs.size();
}

// Whether `v` may be read after block `b` before something sets it again: a search of the
// blocks after `b`, giving up (true) past kLivenessBlocks of them. The forms of one Python
// compare each set the same register and branch on it (jump threading gave each its copy of
// the branch); their successors never read it.
constexpr size_t kLivenessBlocks = 64;
bool LiveAfter(const Function& f, const Block& b, int v) {
  std::vector<int> work, seen;
  const auto push = [&](const Block& from) {
    for (int t : from.instrs.back().targets) {
      if (t >= 0 && std::find(seen.begin(), seen.end(), t) == seen.end()) {
        seen.push_back(t);
        work.push_back(t);
      }
    }
  };
  push(b);
  while (!work.empty()) {
    if (seen.size() > kLivenessBlocks) return true;
    const Block& s = f.blocks[static_cast<size_t>(work.back())];
    work.pop_back();
    bool set = false;
    for (const Instr& in : s.instrs) {
      if (ReadsVReg(in, v)) return true;
      if (in.dst == v) {
        set = true;
        break;
      }
    }
    if (!set) push(s);
  }
  return false;
}

}  // namespace

int FuseCompareBranches(Function& f, Decisions* d) {
  // A compare's value may go when the branch is its only reader, or when nothing after the
  // branch reads it (LiveAfter).
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
    const int value = BranchValue(br);
    if (value < 0) continue;
    const size_t at = CompareFeeding(b, value);
    if (at == b.instrs.size()) continue;
    const Instr cmp = b.instrs[at];
    // the branch goes to targets[0] exactly when the compare holds (br %c: c != 0)
    const bool taken_when_true = br.br_on_value || br.cond == Cond::kNe;
    if (reads[static_cast<size_t>(cmp.dst)] != 1 && LiveAfter(f, b, cmp.dst)) continue;
    if (!Take(d, Decision::kLirFuseCompareBranch)) continue;
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
