#include "jit/lir/jump_threading.h"

#include <algorithm>
#include <vector>

namespace a64jit::lir {

namespace {

bool IsJumpOnly(const Block& b) { return b.instrs.size() == 1 && b.instrs[0].op == Op::kJmp; }

// Where a branch to `b` ends up after following blocks that only jump; a cycle of such
// blocks (an empty infinite loop) stays as it is.
int FinalTarget(const Function& f, int b) {
  int at = b;
  for (size_t steps = 0; steps <= f.blocks.size(); steps++) {
    const Block& block = f.blocks[static_cast<size_t>(at)];
    if (!IsJumpOnly(block)) return at;
    at = block.instrs[0].targets[0];
  }
  return b;
}

std::vector<char> Reachable(const Function& f) {
  std::vector<char> seen(f.blocks.size(), 0);
  std::vector<int> work = {0};
  seen[0] = 1;
  while (!work.empty()) {
    const int b = work.back();
    work.pop_back();
    for (int t : f.blocks[static_cast<size_t>(b)].instrs.back().targets) {
      if (t >= 0 && !seen[static_cast<size_t>(t)]) {
        seen[static_cast<size_t>(t)] = 1;
        work.push_back(t);
      }
    }
  }
  return seen;
}

// Whether the last instruction before `b`'s terminator to touch `v` sets it: a branch on `v`
// put there reads what `b` itself computed.
bool SetsLast(const Block& b, int v) {
  for (size_t i = b.instrs.size() - 1; i-- > 0;) {
    const Instr& in = b.instrs[i];
    if (ReadsVReg(in, v)) return false;
    if (in.dst == v) return true;
  }
  return false;
}

// A `jmp` to a block that is one branch on a value the jumping block sets becomes a copy of
// that branch: the value's compare can then fuse with it (peephole.h). Each form of a Python
// compare (ints, floats) jumps to one such branch at their join.
void CopyBranchesIntoJumps(Function& f) {
  for (Block& b : f.blocks) {
    Instr& t = b.instrs.back();
    if (t.op != Op::kJmp) continue;
    const Block& target = f.blocks[static_cast<size_t>(t.targets[0])];
    if (target.instrs.size() != 1) continue;
    const int value = BranchValue(target.instrs[0]);
    if (value >= 0 && SetsLast(b, value)) t = target.instrs[0];
  }
}

}  // namespace

int ThreadJumps(Function& f, Decisions* d) {
  if (f.blocks.empty() || !Take(d, Decision::kLirThreadJumps)) return 0;
  for (Block& b : f.blocks) {
    Instr& t = b.instrs.back();
    for (int& target : t.targets) {
      if (target >= 0) target = FinalTarget(f, target);
    }
    if (t.op == Op::kBr && t.targets[0] == t.targets[1]) {
      Instr jmp;
      jmp.op = Op::kJmp;
      jmp.targets[0] = t.targets[0];
      jmp.line = t.line;
      t = jmp;
    }
  }
  CopyBranchesIntoJumps(f);
  return RemoveUnreachableBlocks(f);
}

int RemoveUnreachableBlocks(Function& f) {
  if (f.blocks.empty()) return 0;
  const std::vector<char> live = Reachable(f);
  if (std::find(live.begin(), live.end(), 0) == live.end()) return 0;  // all reachable
  std::vector<int> index(f.blocks.size(), -1);
  std::vector<Block> kept;
  kept.reserve(f.blocks.size());
  for (size_t b = 0; b < f.blocks.size(); b++) {
    if (!live[b]) continue;
    index[b] = static_cast<int>(kept.size());
    kept.push_back(std::move(f.blocks[b]));
  }
  const int removed = static_cast<int>(f.blocks.size() - kept.size());
  for (Block& b : kept) {
    for (int& target : b.instrs.back().targets) {
      if (target >= 0) target = index[static_cast<size_t>(target)];
    }
  }
  f.blocks = std::move(kept);
  return removed;
}

}  // namespace a64jit::lir
