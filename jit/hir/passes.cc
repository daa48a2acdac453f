#include "jit/hir/passes.h"

#include <algorithm>
#include <cstdint>

#include "jit/hir/fusions.h"

namespace a64jit::hir {

namespace {

// A block's successors (none, one or two), without allocating.
struct Successors {
  explicit Successors(const Block& b) {
    if (b.instrs.empty()) return;
    const Instr& t = b.instrs.back();
    if (t.op == Op::kJump || t.op == Op::kBranch) targets[count++] = t.targets[0];
    if (t.op == Op::kBranch) targets[count++] = t.targets[1];
  }
  const int* begin() const { return targets; }
  const int* end() const { return targets + count; }
  int targets[2] = {-1, -1};
  int count = 0;
};

// How `in` changes which locals are bound: stores, cells and free variables bind, deletions
// unbind.
void UpdateBound(const Function& f, const Instr& in, uint8_t* bound) {
  switch (Unfused(in.op)) {
    case Op::kStoreLocal:
    case Op::kMakeCell:
      bound[static_cast<size_t>(in.imm)] = 1;
      break;
    case Op::kDeleteLocal:
      bound[static_cast<size_t>(in.imm)] = 0;
      break;
    case Op::kClearLocals:
      // A call of a function with loop entries: its parameters are bound and the rest NULL.
      // (A generator's call path keeps the generator's rule: nothing known.)
      if (!IsGenerator(f.code.flags)) {
        for (int i = 0; i < f.code.nlocalsplus; i++)
          bound[static_cast<size_t>(i)] = i < f.code.nargs;
      }
      break;
    case Op::kCopyFreeVars:
      for (int i = f.code.nlocalsplus - static_cast<int>(in.imm); i < f.code.nlocalsplus; i++) {
        bound[static_cast<size_t>(i)] = 1;
      }
      break;
    default:
      break;
  }
}

// Locals assigned on every path to each block's entry (a forward "must" dataflow): a load of
// one needs no unbound test, and a store to one releases an old value that is not NULL. A
// generator resumes with whatever its earlier runs left, so there nothing is known; nor is
// it at a loop entry, where the interpreter hands over a frame.
void RemoveUnboundChecks(Function& f, Decisions* d) {
  const size_t n = static_cast<size_t>(f.code.nlocalsplus);
  const size_t nb = f.blocks.size();
  // Per block, a byte per local: bound on entry (one array for all blocks, and one buffer
  // for a block's walk: no allocation a block).
  std::vector<uint8_t> in(nb * n, 1);
  auto in_of = [&](size_t b) { return in.data() + b * n; };
  std::vector<bool> reached(nb, false);
  const bool resumes = IsGenerator(f.code.flags) || !f.loop_entries.empty();
  const size_t bound_on_entry = resumes ? 0 : static_cast<size_t>(f.code.nargs);
  for (size_t i = 0; i < n; i++) in[i] = i < bound_on_entry;
  reached[0] = true;
  bool changed = true;
  std::vector<uint8_t> out(n);
  while (changed) {
    changed = false;
    for (size_t b = 0; b < nb; b++) {
      if (!reached[b]) continue;
      std::copy(in_of(b), in_of(b) + n, out.begin());
      auto flow_to = [&](int s) {
        uint8_t* target = in_of(static_cast<size_t>(s));
        if (!reached[static_cast<size_t>(s)]) {
          reached[static_cast<size_t>(s)] = true;
          std::copy(out.begin(), out.end(), target);
          changed = true;
          return;
        }
        for (size_t i = 0; i < n; i++) {
          if (target[i] && !out[i]) {
            target[i] = 0;
            changed = true;
          }
        }
      };
      for (const Instr& ins : f.blocks[b].instrs) {
        // An exception handler is entered with the locals as they were before the raise.
        if (ins.has_state && ins.state.catch_block >= 0) flow_to(ins.state.catch_block);
        UpdateBound(f, ins, out.data());
      }
      for (int s : Successors(f.blocks[b])) flow_to(s);
    }
  }
  // What is bound at every return, for the return's release of the locals (a generator's
  // returns do not release them).
  std::vector<bool> at_return(n, !IsGenerator(f.code.flags));
  std::vector<uint8_t> assigned(n);
  for (size_t b = 0; b < nb; b++) {
    std::copy(in_of(b), in_of(b) + n, assigned.begin());
    for (Instr& ins : f.blocks[b].instrs) {
      if (Unfused(ins.op) == Op::kStoreLocal && assigned[static_cast<size_t>(ins.imm)]) {
        ins.bound = Take(d, Decision::kHirBoundStore, ins.bc);
      }
      UpdateBound(f, ins, assigned.data());
      if (ins.op == Op::kReturn && reached[b]) {
        for (size_t i = 0; i < at_return.size(); i++) at_return[i] = at_return[i] && assigned[i];
      }
      if (ins.op == Op::kLoadLocal && assigned[static_cast<size_t>(ins.imm)]) {
        if (ins.checked && !Take(d, Decision::kHirUnboundCheck, ins.bc)) continue;
        ins.checked = false;
        ins.has_state = false;
      }
    }
  }
  f.bound_at_return = std::move(at_return);
}

// Branch(IsTrue(BoolFromCInt(c))) -> Branch(c), targets swapped when inverted.
void FoldBoolBranches(Function& f, Decisions* d) {
  for (Block& b : f.blocks) {
    if (b.instrs.empty() || b.instrs.back().op != Op::kBranch) continue;
    Instr& br = b.instrs.back();
    for (size_t i = 0; i + 1 < b.instrs.size(); i++) {
      Instr& is_true = b.instrs[i];
      if (is_true.op != Op::kIsTrue || is_true.dst != br.args[0]) continue;
      const int boolean = is_true.args[0];
      for (size_t j = 0; j < i; j++) {
        const Instr& def = b.instrs[j];
        if (def.op != Op::kBoolFromCInt || def.dst != boolean) continue;
        if (!Take(d, Decision::kHirFoldBoolBranch, br.bc)) break;
        br.args[0] = def.args[0];
        if (def.imm != 0) std::swap(br.targets[0], br.targets[1]);
        b.instrs.erase(b.instrs.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
      break;
    }
  }
}

// Removable when unused: the op has no side effect and this instance cannot leave for the
// interpreter (an unchecked LoadLocal can't; a checked one can).
bool IsPure(const Instr& in) { return InfoOf(in.op).pure && !in.has_state; }

enum class Kind { kOwned, kBorrowedStable, kBorrowedMutable, kNull, kCInt };

Kind ResultKind(const Function& f, const Instr& in, int reg) {
  if (f.reg_types[static_cast<size_t>(reg)] == ValueType::kCInt) return Kind::kCInt;
  if (reg != in.dst) return Kind::kOwned;  // LoadMethod's second result
  switch (InfoOf(in.op).result) {
    case Result::kBorrowedStable:
      return Kind::kBorrowedStable;
    case Result::kBorrowedMutable:
      return Kind::kBorrowedMutable;
    case Result::kNull:
      return Kind::kNull;
    case Result::kCInt:
      return Kind::kCInt;
    case Result::kNone:
    case Result::kOwned:
    case Result::kOwnedOrNull:
      return Kind::kOwned;
  }
  return Kind::kOwned;
}

bool MaybeNull(const Instr& in, int reg) {
  return reg == in.dst && InfoOf(in.op).result == Result::kOwnedOrNull;
}

bool Steals(Op op) { return InfoOf(op).steals; }

// Terminators whose frame state's values go to the frame (it owns them afterwards), or to
// the exception handler's landing block.
bool HandsStackToFrame(Op op) {
  return op == Op::kDeopt || op == Op::kColdExit || op == Op::kYield || op == Op::kRaise ||
         op == Op::kReraise;
}

// One definition of a register within a block.
struct Value {
  int reg = -1;
  Kind kind = Kind::kOwned;
  bool maybe_null = false;
  int def = -1;  // instruction index; -1: live in (s_k)
  int last_use = -2;
  bool stolen = false;
  bool live_out = false;
};

Instr RefOp(Op op, int reg, int bc) {
  Instr in;
  in.op = op;
  in.args = {reg};
  in.bc = bc;
  return in;
}

// An instruction the refcount pass inserts: before instrs[pos], ordered by `order` among
// those at the same position.
struct Insertion {
  int pos;
  int order;
  Instr in;
};

std::vector<Instr> Merge(std::vector<Instr> instrs, std::vector<Insertion>& inserts) {
  std::stable_sort(inserts.begin(), inserts.end(), [](const Insertion& x, const Insertion& y) {
    return x.pos != y.pos ? x.pos < y.pos : x.order < y.order;
  });
  std::vector<Instr> out;
  out.reserve(instrs.size() + inserts.size());
  size_t next = 0;
  for (size_t i = 0; i <= instrs.size(); i++) {
    while (next < inserts.size() && inserts[next].pos == static_cast<int>(i)) {
      out.push_back(std::move(inserts[next++].in));
    }
    if (i < instrs.size()) out.push_back(std::move(instrs[i]));
  }
  return out;
}

// A decref placed after the terminator (a value last used by it) goes before it.
std::vector<Instr> TerminatorLast(std::vector<Instr> out) {
  if (out.size() < 2) return out;
  size_t term = out.size();
  for (size_t i = 0; i < out.size(); i++) {
    if (IsTerminator(out[i].op)) term = i;
  }
  if (term + 1 < out.size()) {
    std::vector<Instr> tail(out.begin() + static_cast<std::ptrdiff_t>(term) + 1, out.end());
    Instr t = std::move(out[term]);
    out.resize(term);
    for (Instr& x : tail) out.push_back(std::move(x));
    out.push_back(std::move(t));
  }
  return out;
}

// Per register, the index of its value in the block being counted, or -1: one array for
// the whole function (a std::map per block took a quarter of this pass's time), reset after
// each block for the registers it set.
class CurrentValues {
 public:
  explicit CurrentValues(const Function& f) : index_(f.reg_types.size(), -1) {}
  void Set(int reg, int value) {
    const size_t r = static_cast<size_t>(reg);
    if (r >= index_.size()) index_.resize(r + 1, -1);  // a stack register made since
    if (index_[r] < 0) set_.push_back(reg);
    index_[r] = value;
  }
  int Find(int reg) const {
    const size_t r = static_cast<size_t>(reg);
    return reg >= 0 && r < index_.size() ? index_[r] : -1;
  }
  void Clear() {
    for (int reg : set_) index_[static_cast<size_t>(reg)] = -1;
    set_.clear();
  }

 private:
  std::vector<int> index_;
  std::vector<int> set_;
};

// Where a value appears in a frame state: the instruction and the stack slot.
struct StateUse {
  size_t value;
  int at;
  size_t slot;
};

// A local's value needs no reference of its own while the local is not stored to: the
// frame's reference keeps it alive (nothing else writes a compiled frame's locals). Such a
// LoadLocal's value becomes borrowed-stable in `values`.
void KeepLocalsBorrowed(const Block& b, const std::vector<int>& steal_at,
                        std::vector<Value>& values) {
  for (size_t vi = 0; vi < values.size(); vi++) {
    Value& v = values[vi];
    if (v.kind != Kind::kBorrowedMutable || v.def < 0) continue;
    const Instr& def = b.instrs[static_cast<size_t>(v.def)];
    if (def.op != Op::kLoadLocal) continue;
    const int end = std::max(v.last_use, steal_at[vi]);
    bool stored = false;
    for (int i = v.def + 1; i <= end && !stored; i++) {
      const Instr& x = b.instrs[static_cast<size_t>(i)];
      if (!WritesLocal(x, def.imm)) continue;
      // Storing this very value back (x = x) is fine: it gets its reference first.
      stored = !(Unfused(x.op) == Op::kStoreLocal && i == steal_at[vi] && x.args[0] == v.reg);
    }
    if (!stored) v.kind = Kind::kBorrowedStable;
  }
}

// A new reference that a LoadMethod reads last (`self.items` in `self.items.append(x)`) is given
// to it (Instr::given_self) instead of released after it: the method shape's self takes it over
// where lowering would take another, and the attribute shape releases it, as the decref would.
// Not a value that may be NULL, is stolen or lives on past the block, nor a global (`math.sqrt`
// is fused whole by FuseModuleAttrs, its module never referenced on the hot path).
void GiveSelves(Block& b, std::vector<Value>& values, Decisions* d) {
  for (Value& v : values) {
    if (v.kind != Kind::kOwned || v.maybe_null || v.stolen || v.live_out || v.last_use < 0)
      continue;
    // A global's module keeps its LoadGlobal, LoadMethod, Decref row for FuseModuleAttrs.
    if (v.def >= 0 && Unfused(b.instrs[static_cast<size_t>(v.def)].op) == Op::kLoadGlobal) continue;
    Instr& user = b.instrs[static_cast<size_t>(v.last_use)];
    if (user.op != Op::kLoadMethod || user.args[0] != v.reg || user.dst2 < 0) continue;
    if (!Take(d, Decision::kHirGivenSelf, user.bc)) continue;
    user.given_self = true;
    v.stolen = true;
  }
}

// A value that needs no reference of its own (a local not stored to, a constant) is lent
// rather than given to the ops that can borrow it: the op's `borrowed` bit for each operand
// `reg` is set, and no reference is taken before it (Lends, hir.h). A Call (`len(x)`,
// `s.startswith(p)`): lowering's inline C calls neither take nor release one, and every path
// of it that does steal (the call stub, a Python callee's frame) takes the reference first
// (jit/lower/calls.cc). A BuildString (an f-string's constant parts): its helper releases only
// the parts it was given. Declined, the op steals an incref'd value.
bool Lend(Instr& thief, int reg, Decisions* d) {
  if (!Lends(thief.op) || thief.args.size() > kMaxBorrowedOperands) return false;
  if (!Take(d, Decision::kHirLentOperand, thief.bc)) return false;
  for (size_t i = 0; i < thief.args.size(); i++) {
    if (thief.args[i] == reg) thief.borrowed |= uint32_t{1} << i;
  }
  return true;
}

// RefcountBlock's working vectors, kept from block to block: cleared, not freed (a
// function's blocks each allocated their own, about fifty allocations a function).
struct RefcountScratch {
  std::vector<Value> values;
  std::vector<int> steal_at;
  std::vector<StateUse> in_states;
  std::vector<std::pair<int, int>> incref_before;
  std::vector<Insertion> inserts;
  void Clear() {
    values.clear();
    steal_at.clear();
    in_states.clear();
    incref_before.clear();
    inserts.clear();
  }
};

void RefcountBlock(Function& f, Block& b, CurrentValues& current, RefcountScratch& scratch,
                   Decisions* d) {
  scratch.Clear();
  std::vector<Value>& values = scratch.values;
  values.reserve(2 * b.instrs.size() + static_cast<size_t>(b.in_depth));  // dst and dst2
  current.Clear();
  auto define = [&](int reg, Kind kind, bool maybe_null, int at) {
    values.push_back(Value{reg, kind, maybe_null, at});
    current.Set(reg, static_cast<int>(values.size()) - 1);
  };
  for (int k = 0; k < b.in_depth; k++) define(f.StackReg(k), Kind::kOwned, true, -1);

  // Where each value is stolen, and where it appears in frame states.
  std::vector<int>& steal_at = scratch.steal_at;
  steal_at.reserve(values.capacity());
  std::vector<StateUse>& in_states = scratch.in_states;
  auto grow = [&] { steal_at.resize(values.size(), -1); };
  grow();
  for (size_t i = 0; i < b.instrs.size(); i++) {
    Instr& in = b.instrs[i];
    const int at = static_cast<int>(i);
    for (int a : in.args) {
      const int vi = current.Find(a);
      if (vi < 0) continue;  // a cint defined elsewhere cannot happen; be safe
      Value& v = values[static_cast<size_t>(vi)];
      v.last_use = at;
      if (Steals(in.op) && v.kind != Kind::kCInt) {
        v.stolen = true;
        steal_at[static_cast<size_t>(vi)] = at;
      }
    }
    if (in.has_state) {
      in.state.borrowed.clear();  // none borrowed; sized below when one is (a bit vector each
                                  // state was most of this pass's allocations)
      for (size_t slot = 0; slot < in.state.stack.size(); slot++) {
        const int vi = current.Find(in.state.stack[slot]);
        if (vi < 0) continue;
        Value& v = values[static_cast<size_t>(vi)];
        in_states.push_back(StateUse{static_cast<size_t>(vi), at, slot});
        // Still on the stack here, so alive here (POP_TOP drops values without a use).
        v.last_use = std::max(v.last_use, at);
        if (HandsStackToFrame(in.op)) {
          v.stolen = true;  // handed to the frame
          steal_at[static_cast<size_t>(vi)] = at;
        }
      }
    }
    for (int d : {in.dst, in.dst2}) {
      if (d >= 0) define(d, ResultKind(f, in, d), MaybeNull(in, d), at);
    }
    grow();
  }
  for (int k = 0; k < b.out_depth; k++) {
    const int vi = current.Find(f.StackReg(k));
    if (vi >= 0) values[static_cast<size_t>(vi)].live_out = true;
  }

  KeepLocalsBorrowed(b, steal_at, values);
  GiveSelves(b, values, d);

  // Stolen borrowed-stable values need a reference first: (instruction index, reg). Frame
  // states mark them, so a deopt gives the frame its own reference.
  std::vector<std::pair<int, int>>& incref_before = scratch.incref_before;
  for (size_t vi = 0; vi < values.size(); vi++) {
    const Value& v = values[vi];
    if (v.kind != Kind::kBorrowedStable) continue;
    if (steal_at[vi] >= 0) {
      // A frame state takes the value with a reference lowering adds (`borrowed`); an
      // operand the op steals needs one first.
      Instr& thief = b.instrs[static_cast<size_t>(steal_at[vi])];
      const bool operand =
          std::find(thief.args.begin(), thief.args.end(), v.reg) != thief.args.end();
      if (operand && Lend(thief, v.reg, d)) continue;
      if (!HandsStackToFrame(thief.op) || operand) incref_before.emplace_back(steal_at[vi], v.reg);
    }
  }
  for (const StateUse& use : in_states) {
    if (values[use.value].kind != Kind::kBorrowedStable) continue;
    FrameState& state = b.instrs[static_cast<size_t>(use.at)].state;
    if (state.borrowed.size() < state.stack.size()) state.borrowed.resize(state.stack.size());
    state.borrowed[use.slot] = true;
  }

  std::vector<Insertion>& inserts = scratch.inserts;
  auto bc_at = [&](int i) { return i >= 0 ? b.instrs[static_cast<size_t>(i)].bc : b.bc_start; };
  for (auto& [at, reg] : incref_before)
    inserts.push_back({at, 0, RefOp(Op::kIncref, reg, bc_at(at))});
  for (Value& v : values) {
    if (v.kind == Kind::kCInt || v.kind == Kind::kNull || v.kind == Kind::kBorrowedStable) continue;
    if (v.kind == Kind::kBorrowedMutable) {
      inserts.push_back({v.def + 1, 1, RefOp(Op::kIncref, v.reg, bc_at(v.def))});
    }
    if (v.stolen || v.live_out) continue;
    const int after = std::max(v.last_use, v.def);
    inserts.push_back(
        {after + 1, 2, RefOp(v.maybe_null ? Op::kXDecref : Op::kDecref, v.reg, bc_at(after))});
  }
  if (inserts.empty()) return;  // nothing to count here: the block stays as it is
  b.instrs = TerminatorLast(Merge(std::move(b.instrs), inserts));
}

}  // namespace

namespace {
// not (a op b), as a comparison: Py_LT..Py_GE are 0..5, and LT/GE, LE/GT, EQ/NE sum to 5.
// (For the flip-branch plant only: with a NaN, not (a < b) is not a >= b.)
int64_t NegatedComparison(int64_t op) { return 5 - op; }
}  // namespace

// IsTrue(CompareOp(a, b)) of a comparison used for nothing else -> CompareBool(a, b): no
// bool object, and lowering can compare small ints inline.
void FuseCompareTruth(Function& f, Decisions* d) {
  const std::vector<int> uses = f.UseCounts();
  for (Block& b : f.blocks) {
    for (size_t j = 0; j < b.instrs.size(); j++) {
      Instr& is_true = b.instrs[j];
      if (is_true.op != Op::kIsTrue) continue;
      const int x = is_true.args[0];
      // The IsTrue's own use and the x in its own error state are all there may be.
      if (uses[static_cast<size_t>(x)] != 2) continue;
      for (size_t i = 0; i < j; i++) {
        Instr& cmp = b.instrs[i];
        if (cmp.op != Op::kCompareOp || cmp.dst != x) continue;
        bool clear = true;  // nothing in between may have x in its state
        for (size_t k = i + 1; k < j; k++) {
          if (b.instrs[k].has_state) clear = false;
        }
        if (!clear || !Take(d, Decision::kHirFuseCompareTruth, cmp.bc)) break;
        cmp.op = Op::kCompareBool;
        if (Planted(d, Plant::kFlipBranch)) cmp.imm = NegatedComparison(cmp.imm);
        cmp.dst = is_true.dst;
        b.instrs.erase(b.instrs.begin() + static_cast<std::ptrdiff_t>(j));
        j--;
        break;
      }
    }
  }
}

void Simplify(Function& f, Decisions* d) {
  RemoveUnboundChecks(f, d);
  FoldBoolBranches(f, d);
  FuseCompareTruth(f, d);
}

void EliminateDeadCode(Function& f, Decisions* d) {
  bool changed = true;
  while (changed) {
    changed = false;
    // Per register, whether anything reads it (a byte each: a std::set took a node a value).
    std::vector<uint8_t> used(f.reg_types.size(), 0);
    auto mark = [&](int reg) {
      if (reg >= 0) used[static_cast<size_t>(reg)] = 1;
    };
    for (const Block& b : f.blocks) {
      for (const Instr& in : b.instrs) {
        for (int a : in.args) mark(a);
        if (!in.has_state) continue;
        for (int a : in.state.stack) mark(a);
      }
    }
    for (Block& b : f.blocks) {
      auto dead = [&](const Instr& in) {
        return IsPure(in) && in.dst >= 0 && !f.IsStackReg(in.dst) &&
               used[static_cast<size_t>(in.dst)] == 0 && Take(d, Decision::kHirDeadCode, in.bc);
      };
      const size_t before = b.instrs.size();
      b.instrs.erase(std::remove_if(b.instrs.begin(), b.instrs.end(), dead), b.instrs.end());
      changed |= b.instrs.size() != before;
    }
  }
}

void InsertRefcounts(Function& f, Decisions* d) {
  CurrentValues current(f);
  RefcountScratch scratch;
  for (Block& b : f.blocks) RefcountBlock(f, b, current, scratch, d);
}

void RunFusions(Function& f, Decisions* d) {
  const RegisterCounts counts(f);
  MarkStoreTargets(f, counts);
  FuseModuleAttrs(f, counts, d);
  FuseIsInstanceTests(f, counts, d);
  FuseCallChecks(f, d);
  FuseKnownIterators(f, counts, d);
}

void RunPasses(Function& f, Decisions* d) {
  Simplify(f, d);
  EliminateDeadCode(f, d);
  InsertRefcounts(f, d);
  LendSelves(f, d);
  RunFusions(f, d);
}

}  // namespace a64jit::hir
