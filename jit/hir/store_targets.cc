// MarkStoreTargets (fusions.h): each BINARY_OP result (one definition, one use) that the next
// instruction stores into a local, past releases of the operands only, and each FOR_ITER
// value the loop body's first instruction stores (`for i in range(n)`). Lowering then makes
// the value in the local's old object (a64_box_int_reusing, BoxFloatResult) or does the
// store with the operation. Nothing else runs between the two, so the local still holds its
// old value when the result is made (a borrowed copy of that value still in use gets its own
// reference before the store, which then does not follow).
#include <algorithm>
#include <set>

#include "jit/hir/fusions.h"

namespace a64jit::hir {
namespace {

// `in` is a Decref of one of `op`'s operands. Between a BINARY_OP and its store that runs no
// Python code when the result is made inline: the operands are then exact ints or floats,
// whose deallocation calls nothing (`s += math.sqrt(x)` releases the call's result there).
bool ReleasesOperandOf(const Instr& in, const Instr& op) {
  return in.op == Op::kDecref &&
         std::find(op.args.begin(), op.args.end(), in.args[0]) != op.args.end();
}

// Which operands of b.instrs[op] the Decrefs b.instrs[op + 1, end) release: bit 0 the first,
// bit 1 the second (a64_binary_op_into_local's `releases`); -1 if that cannot say.
int ReleaseMask(const Block& b, size_t op, size_t end) {
  const std::vector<int>& args = b.instrs[op].args;
  int mask = 0;
  for (size_t k = op + 1; k < end; k++) {
    const int reg = b.instrs[k].args[0];
    if (args.size() != 2) return -1;
    if (reg == args[0] && (mask & 1) == 0) {
      mask |= 1;
    } else if (reg == args[1] && (mask & 2) == 0) {
      mask |= 2;
    } else {
      return -1;
    }
  }
  return mask;
}

// Which operand of b.instrs[at] (0 or 1) is the value local `local` holds: a LoadLocal of it
// earlier in the block, with no write of the local since. -1 if neither.
int OperandHoldingLocal(const Block& b, size_t at, int64_t local) {
  const Instr& op = b.instrs[at];
  for (size_t k = 0; k < op.args.size() && k < 2; k++) {
    for (size_t i = at; i-- > 0;) {
      const Instr& x = b.instrs[i];
      if (x.dst == op.args[k] || x.dst2 == op.args[k]) {
        if (x.op == Op::kLoadLocal && x.imm == local) return static_cast<int>(k);
        break;
      }
      if (WritesLocal(x, local)) break;
    }
  }
  return -1;
}

// The shape of a BinaryOp's store target: its releases, then a store of its result.
std::optional<StoreTarget> BinaryOpTarget(const Block& b, size_t at) {
  const Instr& op = b.instrs[at];
  size_t next = at + 1;
  while (next < b.instrs.size() && ReleasesOperandOf(b.instrs[next], op)) next++;
  if (next == b.instrs.size()) return std::nullopt;
  const Instr& store = b.instrs[next];
  if (Unfused(store.op) != Op::kStoreLocal || store.args[0] != op.dst) return std::nullopt;
  return StoreTarget{&store, OperandHoldingLocal(b, at, store.imm), ReleaseMask(b, at, next)};
}

// The shape of a ForIter's store target. Between the two only the end-of-loop test and copies
// of the value run: b.instrs[at] is followed by IsNull of it, copies of it and the Branch
// whose not-null target starts with the store of one of those copies.
std::optional<StoreTarget> LoopTarget(const Function& f, const Block& b, size_t at) {
  const int value = b.instrs[at].dst;
  std::set<int> copies{value};
  int null_test = -1;
  for (size_t k = at + 1; k + 1 < b.instrs.size(); k++) {
    const Instr& x = b.instrs[k];
    if (x.op == Op::kIsNull && x.args[0] == value) {
      null_test = x.dst;
    } else if (x.op == Op::kMov && copies.count(x.args[0]) != 0) {
      copies.insert(x.dst);
    } else {
      return std::nullopt;
    }
  }
  const Instr& branch = b.instrs.back();
  if (branch.op != Op::kBranch || null_test < 0 || branch.args[0] != null_test) {
    return std::nullopt;
  }
  const Block& body = f.blocks.at(static_cast<size_t>(branch.targets[1]));
  if (body.instrs.empty()) return std::nullopt;
  const Instr& store = body.instrs.front();
  if (Unfused(store.op) != Op::kStoreLocal || copies.count(store.args[0]) == 0) {
    return std::nullopt;
  }
  return StoreTarget{&store, -1, 0};
}

std::optional<StoreTarget> TargetShape(const Function& f, const Block& b, size_t at) {
  const Instr& op = b.instrs[at];
  if (op.dst < 0 || at + 1 >= b.instrs.size()) return std::nullopt;
  if (Unfused(op.op) == Op::kForIter) return LoopTarget(f, b, at);
  if (op.op == Op::kBinaryOp) return BinaryOpTarget(b, at);
  return std::nullopt;
}

}  // namespace

RegisterCounts::RegisterCounts(const Function& f)
    : defs(f.DefinitionCounts()), reads(f.UseCounts()) {}

void MarkStoreTargets(Function& f, const RegisterCounts& counts) {
  const std::vector<int>& defs = counts.defs;
  const std::vector<int>& reads = counts.reads;
  for (Block& b : f.blocks) {
    for (size_t i = 0; i < b.instrs.size(); i++) {
      const Instr& op = b.instrs[i];
      const std::optional<StoreTarget> target = TargetShape(f, b, i);
      if (!target || defs.at(static_cast<size_t>(op.dst)) != 1) continue;
      // A BinaryOp's value must be read by the store alone (a ForIter's copies are moves).
      if (op.op == Op::kBinaryOp &&
          (f.IsStackReg(op.dst) || reads.at(static_cast<size_t>(op.dst)) != 1)) {
        continue;
      }
      // The store is an instruction of f, which is not const here.
      const_cast<Instr*>(target->store)->op = Op::kStoreLocalResult;
    }
  }
}

std::optional<StoreTarget> StoreTargetOf(const Function& f, const Block& b, size_t at) {
  std::optional<StoreTarget> target = TargetShape(f, b, at);
  if (!target || target->store->op != Op::kStoreLocalResult) return std::nullopt;
  return target;
}

}  // namespace a64jit::hir
