// The whole-function analyses the constructor runs: loops, store targets of BINARY_OP and
// FOR_ITER, module attributes of globals, isinstance tests feeding a branch.
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
      if (in.op == Op::kLoadGlobal && static_cast<size_t>(in.imm) < f_.code.names.size() &&
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

// isinstance(x, cls) that only an `if` reads: the Call, the CheckTracing after it, an IsTrue
// of its result and the result's release, in a row, the result read by nothing else. Where
// the types alone answer (an exact match, or a64_isinstance without PyObject_IsInstance), no
// other code ran, so InlineIsInstance gives the IsTrue its int and goes past the other three:
// no bool made, tested and released, and no tracing test, as 3.11's PRECALL_NO_KW_ISINSTANCE
// tests no eval breaker either. Any other outcome makes the bool and runs the three.
void Lowerer::FindIsInstanceTests(const std::vector<int>& defs, const std::vector<int>& reads) {
  for (const Block& b : f_.blocks) {
    for (size_t i = 0; i + 3 < b.instrs.size(); i++) {
      const Instr &call = b.instrs[i], &check = b.instrs[i + 1], &is_true = b.instrs[i + 2],
                  &release = b.instrs[i + 3];
      const int r = call.dst;
      if (call.op != Op::kCall || r < 0 || known_calls_.Of(call) != KnownCall::kIsInstance ||
          defs.at(static_cast<size_t>(r)) != 1 || check.op != Op::kCheckTracing ||
          is_true.op != Op::kIsTrue || is_true.args[0] != r || release.op != Op::kDecref ||
          release.args[0] != r ||
          reads.at(static_cast<size_t>(r)) !=
              check.Reads(r) + is_true.Reads(r) + release.Reads(r) ||
          !Take(decisions_, Decision::kLowerIsinstanceTest, call.bc)) {
        continue;
      }
      truth_tests_[&call] = TruthTest{&is_true, &release};
    }
  }
}

// store_targets_: each BINARY_OP result (one definition, one use) that the next instruction
// stores into a local, past releases of the operands only, for a64_box_int_reusing and
// BoxFloatResult. Nothing else runs between the two, so the local still holds its old value
// when the result is made (a borrowed copy of that value still in use gets its own
// reference before the store, which then does not follow).
void Lowerer::FindStoreTargets(const std::vector<int>& defs, const std::vector<int>& reads) {
  for (const Block& b : f_.blocks) {
    for (size_t i = 0; i + 1 < b.instrs.size(); i++) {
      const Instr& op = b.instrs[i];
      if (op.op == Op::kForIter && op.dst >= 0 && defs.at(static_cast<size_t>(op.dst)) == 1) {
        FindLoopTarget(b, i);
        continue;
      }
      if (op.op != Op::kBinaryOp || op.dst < 0) continue;
      size_t next = i + 1;
      while (next < b.instrs.size() && ReleasesOperandOf(b.instrs[next], op)) next++;
      if (next == b.instrs.size()) continue;
      const Instr& store = b.instrs[next];
      if (store.op == Op::kStoreLocal && store.args[0] == op.dst &&
          defs.at(static_cast<size_t>(op.dst)) == 1 && !f_.IsStackReg(op.dst) &&
          reads[static_cast<size_t>(op.dst)] == 1) {
        store_targets_[op.dst] =
            StoreTarget{&store, OperandHoldingLocal(b, i, store.imm), ReleaseMask(b, i, next)};
      }
    }
  }
}

// A FOR_ITER whose value the loop body's first instruction stores into a local (`for i in
// range(n)`): the value is a store target too, so a range's next int may be made in the
// local's old one (a64_box_int_reusing: one allocation and one deallocation fewer an
// iteration once the values pass the small ints). Between the two only the end-of-loop test
// and copies of the value run: b.instrs[at] is followed by IsNull of it, copies of it and
// the Branch whose not-null target starts with the StoreLocal of one of those copies.
void Lowerer::FindLoopTarget(const Block& b, size_t at) {
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
      return;
    }
  }
  const Instr& branch = b.instrs.back();
  if (branch.op != Op::kBranch || null_test < 0 || branch.args[0] != null_test) return;
  const Block& body = f_.blocks.at(static_cast<size_t>(branch.targets[1]));
  if (body.instrs.empty()) return;
  const Instr& store = body.instrs.front();
  if (store.op == Op::kStoreLocal && copies.count(store.args[0]) != 0) {
    store_targets_[value] = StoreTarget{&store, -1, 0};
  }
}

// Which operands of b.instrs[op] the Decrefs b.instrs[op + 1, end) release: bit 0 the
// first, bit 1 the second (a64_binary_op_into_local's `releases`); -1 if that cannot say.
int Lowerer::ReleaseMask(const Block& b, size_t op, size_t end) {
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
int Lowerer::OperandHoldingLocal(const Block& b, size_t at, int64_t local) {
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

// `in` is a Decref of one of `op`'s operands. Between a BINARY_OP and its store that runs no
// Python code when the result is made inline: the operands are then exact ints or floats,
// whose deallocation calls nothing (`s += math.sqrt(x)` releases the call's result there).
bool Lowerer::ReleasesOperandOf(const Instr& in, const Instr& op) {
  return in.op == Op::kDecref &&
         std::find(op.args.begin(), op.args.end(), in.args[0]) != op.args.end();
}

// Whether some local is bound at every return (hir::Function::bound_at_return).
bool Lowerer::BoundAtSomeReturn() const {
  return std::find(f_.bound_at_return.begin(), f_.bound_at_return.end(), true) !=
         f_.bound_at_return.end();
}

// `module.attr` where the module is a global: LoadGlobal %g, LoadAttr %a = %g or LoadMethod
// %null, %a = %g (a module probe, InlineModuleProbe) and Decref %g in a row, %g read by
// nothing else. Lowered as one, the hot path never takes a reference to the module: the
// globals hold it for as long as their version tag is the cached one.
void Lowerer::FindModuleAttrsOfGlobals(const std::vector<int>& defs,
                                       const std::vector<int>& reads) {
  for (const Block& b : f_.blocks) {
    for (size_t i = 0; i + 2 < b.instrs.size(); i++) {
      const Instr &global = b.instrs[i], &attr = b.instrs[i + 1], &release = b.instrs[i + 2];
      const int g = global.dst;
      const bool attr_op = attr.op == Op::kLoadAttr || attr.op == Op::kLoadMethod;
      if (global.op != Op::kLoadGlobal || g < 0 || defs.at(static_cast<size_t>(g)) != 1 ||
          !InGlobals(global) || !attr_op || attr.args[0] != g || !InlineModuleProbe(attr) ||
          release.op != Op::kDecref || release.args[0] != g) {
        continue;
      }
      // Read by the attribute load, its error state (which holds the module) and the release.
      const bool in_state =
          attr.has_state && std::count(attr.state.stack.begin(), attr.state.stack.end(), g) == 1;
      if (reads[static_cast<size_t>(g)] != 2 + (in_state ? 1 : 0)) continue;
      fused_attr_[&global] = {&attr, &release};
      fused_tail_.insert(&attr);
      fused_tail_.insert(&release);
    }
  }
}

}  // namespace a64jit::lower::internal
