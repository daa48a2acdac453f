// Loads and stores (pairs, pre-indexed), branches and their conditions, returns, and the
// exits (by call to a shared exit block, or by a shared tail).
#include "jit/codegen/function_compiler.h"

namespace a64jit::codegen::internal {

// The memory operand of a load/store; uses x16 and x17.
Mem FunctionCompiler::Address(const Instr& in, int size) {
  if (const std::optional<int64_t> offset = SpAddress(in.base)) {  // without an index
    const int64_t disp = *offset + in.disp;
    if (IsScaledOffset(disp, size) || IsUnscaledOffset(disp)) {
      return asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(disp));
    }
    SpPlus(kS0, disp);
    return asmjit::a64::ptr(X(kS0));
  }
  int base = ReadGp(in.base, kS0);
  int64_t disp = in.disp;
  if (in.index.is_vreg()) {
    const int idx = ReadGp(in.index, kS1);
    const uint32_t shift = static_cast<uint32_t>(__builtin_ctz(static_cast<unsigned>(in.scale)));
    if (disp == 0 && (in.scale == 1 || in.scale == size)) {
      return shift == 0 ? asmjit::a64::ptr(X(base), X(idx))
                        : asmjit::a64::ptr(X(base), X(idx), asmjit::arm::lsl(shift));
    }
    if (shift == 0) {
      Add(X(kS0), X(base), X(idx));
    } else {
      a_->add(X(kS0), X(base), X(idx), asmjit::arm::lsl(shift));
    }
    base = kS0;
  }
  if (IsScaledOffset(disp, size) || IsUnscaledOffset(disp)) {
    return asmjit::a64::ptr(X(base), static_cast<int32_t>(disp));
  }
  AddImm(X(kS0), X(base), static_cast<uint64_t>(disp), 64, kS1);
  return asmjit::a64::ptr(X(kS0));
}

void FunctionCompiler::EmitLoad(const Instr& in) {
  const Type t = f_.TypeOf(in.dst);
  const int size = lir::TypeBits(t) / 8;
  const Mem m = Address(in, size);
  if (lir::IsFloat(t)) {
    const int d = DstReg(in.dst, kF0);
    a_->ldr(D(d), m);
    return CommitFp(in.dst, d);
  }
  const int d = DstReg(in.dst, kS2);
  LoadStore(true, size, size == 8 ? X(d) : W(d), m);  // ldrb, ldrh and ldr w zero-extend
  CommitGp(in.dst, d);
}

void FunctionCompiler::EmitStore(const Instr& in) {
  const Type t = in.store_type;
  const int size = lir::TypeBits(t) / 8;
  if (lir::IsFloat(t)) {
    const int v = ReadFp(in.args[0], kF0);
    a_->str(D(v), Address(in, size));
    return;
  }
  const bool zero =
      in.args[0].is_imm() && lir::Truncate(static_cast<uint64_t>(in.args[0].imm), t) == 0;
  const int v = zero ? 31 : ReadGp(in.args[0], kS2, size == 8 ? 64 : 32);
  const Gp vx = zero ? Gp(asmjit::a64::xzr) : X(v);
  const Gp vw = zero ? Gp(asmjit::a64::wzr) : W(v);
  LoadStore(false, size, size == 8 ? vx : vw, Address(in, size));
}

// Two 64-bit stores in a row to neighbouring words off one base register (a call's
// arguments, cleared locals, a frame's fields) as one stp; false if they are not that.
bool FunctionCompiler::EmitStorePair(const Instr& a, const Instr& b) {
  auto pairable = [](const Instr& in) {
    return in.op == Op::kStore && !lir::IsFloat(in.store_type) &&
           lir::TypeBits(in.store_type) == 64 && in.base.is_vreg() && !in.index.is_vreg() &&
           (in.args[0].is_vreg() || (in.args[0].is_imm() && in.args[0].imm == 0));
  };
  if (!pairable(a) || !pairable(b) || a.base.vreg != b.base.vreg) return false;
  const Instr* low = &a;
  const Instr* high = &b;
  if (b.disp + 8 == a.disp) std::swap(low, high);
  const std::optional<int64_t> sp_offset = SpAddress(a.base);
  const int64_t disp = low->disp + sp_offset.value_or(0);
  if (low->disp + 8 != high->disp || disp % 8 != 0 || disp < -512 || disp > 504) return false;
  auto source = [&](const Operand& v, int scratch) {
    return v.is_imm() ? Gp(asmjit::a64::xzr) : X(ReadGp(v, scratch));
  };
  const Gp first = source(low->args[0], kS2);
  const Gp second = source(high->args[0], kS1);
  const Gp base = sp_offset ? Gp(asmjit::a64::sp) : X(ReadGp(a.base, kS0));
  a_->stp(first, second, asmjit::a64::ptr(base, static_cast<int32_t>(disp)));
  return true;
}

// A pointer stepped in place and then loaded through (`%p = add %p, k; %v = load [%p]`: a
// walk over a cache's entries) as one pre-indexed load, `ldr v, [p, #k]!`; false if they
// are not that.
bool FunctionCompiler::EmitPreIndexedLoad(const Instr& step, const Instr& load) {
  if (step.op != Op::kAdd || step.dst < 0 || !step.args[0].is_vreg() ||
      step.args[0].vreg != step.dst || !step.args[1].is_imm() || step.args[1].imm < -256 ||
      step.args[1].imm > 255 || load.op != Op::kLoad || !load.base.is_vreg() ||
      load.base.vreg != step.dst || load.index.is_vreg() || load.disp != 0 ||
      load.dst == step.dst || !Loc(step.dst).is_reg()) {
    return false;
  }
  const Type t = f_.TypeOf(load.dst);
  const int size = lir::TypeBits(t) / 8;
  if (lir::IsFloat(t) || (size != 4 && size != 8)) return false;
  const int p = Loc(step.dst).index;
  const int d = DstReg(load.dst, kS2);
  if (d == p) return false;  // a writeback load into its own base is unpredictable
  const auto m = asmjit::a64::ptr_pre(X(p), static_cast<int32_t>(step.args[1].imm));
  size == 8 ? Ldr(X(d), m) : Ldr(W(d), m);
  CommitGp(load.dst, d);
  return true;
}

void FunctionCompiler::BranchIf(const BranchTest& test, int target) {
  if (long_ranges_) {  // b.cond and cbz reach +-1 MiB: skip over an unconditional b
    EmitWord(*a_, BranchTestWord(test.Negated(), 8));
    JumpToBlock(target);
  } else {
    EmitBlockBranch(BranchTestWord(test, 0), target);
  }
}

// The b.cond, cbz or cbnz of `test`, over `delta` bytes.
uint32_t FunctionCompiler::BranchTestWord(const BranchTest& test, int64_t delta) {
  const uint32_t reg = static_cast<uint32_t>(test.zero_reg);
  const std::optional<uint32_t> word =
      test.zero_reg < 0 ? EncodeBCond(test.cc, delta)
      : test.sign_bit < 0
          ? EncodeCbz(test.nonzero, test.bits == 64, reg, delta)
          : EncodeTbz(test.nonzero, static_cast<uint32_t>(test.sign_bit), reg, delta);
  if (!word) Fail("internal: no encoding for a branch test");
  return *word;
}

// Rule: a branch on a 32- or 64-bit value being zero or not is one cbz/cbnz, where the
// general path takes a cmp and a b.cond. Otherwise the flags are set here.
FunctionCompiler::BranchTest FunctionCompiler::EmitBranchCondition(const Instr& in) {
  BranchTest test;
  if (lir::IsEitherBranch(in)) {
    if (FlagOrNullPointer(in)) {
      // Rule: a byte flag set, or a pointer NULL (tracing on, or a call's error) is one
      // compare of the pointer with the flag's low byte shifted to the top byte: a
      // user-space address is below 2^56 (48 bits on aarch64 Linux and on x86-64), so the
      // pointer is at most that only when it is NULL or the flag is set. The flag here is
      // use_tracing, which 3.11 sets to 255 (docs/cpython311.md): above a pointer with a
      // hardware tag in its top byte too. Where cmp and ccmp took two instructions.
      const int flag = ReadGp(in.args[0], kS0);
      a_->cmp(X(ReadGp(in.args[2], kS1)), X(flag), asmjit::arm::lsl(56));
      test.cc = CondCode::kLS;
      return test;
    }
    EmitEitherCompare(in);
    test.cc = ToCondCode(in.cond2, in.cmp_type2);
    return test;
  }
  if (sign_tests_ && TestsSign(in)) {
    // Rule: a branch on a 32- or 64-bit value being negative or not (a helper's status)
    // is one tbnz/tbz on its sign bit, in a function short enough for their reach.
    test.bits = lir::TypeBits(in.cmp_type);
    test.zero_reg = ReadGp(in.args[0], kS0);
    test.sign_bit = test.bits - 1;
    test.nonzero = in.cond == Cond::kSlt;
    return test;
  }
  const bool against_zero = in.br_on_value || ComparesWithZero(in);
  const Type t = in.br_on_value ? f_.TypeOf(in.args[0].vreg) : in.cmp_type;
  if (against_zero && lir::TypeBits(t) >= 32) {
    test.zero_reg = ReadGp(in.args[0], kS0);
    test.bits = lir::TypeBits(t);
    test.nonzero = in.br_on_value || in.cond == Cond::kNe;
  } else if (in.br_on_value) {
    EmitTestNonZero(ReadGp(in.args[0], kS0), t);
  } else if (against_zero) {
    // An i8 or i16 against zero: one tst of its low bits, not a zero-extension and a cmp.
    EmitTestNonZero(ReadGp(in.args[0], kS0), t);
    test.cc = ToCondCode(in.cond);
  } else {
    EmitCompare(in.cond, in.cmp_type, in.args[0], in.args[1]);
    test.cc = ToCondCode(in.cond, in.cmp_type);
  }
  return test;
}

void FunctionCompiler::EmitBranch(const Instr& in) {
  BranchTest test = EmitBranchCondition(in);
  int taken = in.targets[0], other = in.targets[1];
  if (taken == block_ + 1 && other != block_ + 1) {
    // Branch on the opposite condition and fall through into the taken block.
    std::swap(taken, other);
    test = test.Negated();
  } else if (other <= block_ && taken > block_ + 1) {
    // Neither follows: the conditional branch goes backward (a loop's back edge, where the
    // forward target is an exit lowering put out of line), so that the likely way is one
    // taken branch instead of a branch not taken and then a `b` (one block under QEMU).
    std::swap(taken, other);
    test = test.Negated();
  }
  BranchIf(test, taken);
  if (other != block_ + 1) JumpToBlock(other);
}

void FunctionCompiler::EmitRet(const Instr& in) {
  if (f_.ret) {
    const Type t = *f_.ret;
    if (lir::IsFloat(t)) {
      const int s = ReadFp(in.args[0], kF0);
      if (s != 0) a_->fmov(D(0), D(s));
    } else if (in.args[0].is_imm()) {
      if (EmitExitByCall(static_cast<uint64_t>(in.args[0].imm))) return;
      // Straight into x0 (deopt exits return small codes).
      MovImm(0, static_cast<uint64_t>(lir::Truncate(static_cast<uint64_t>(in.args[0].imm), t)), 64);
    } else {
      // Results are returned zero-extended to 64 bits.
      const int s = ReadGp(in.args[0], kS0);
      switch (lir::TypeBits(t)) {
        case 8:
          a_->uxtb(W(0), W(s));
          break;
        case 16:
          a_->uxth(W(0), W(s));
          break;
        case 32:
          Mov(W(0), W(s));
          break;
        default:
          if (s != 0) Mov(X(0), X(s));
          break;
      }
    }
  }
  if (frameless_) {
    a_->ret(asmjit::a64::x30);  // each return its own: no jump to a shared one
  } else if (block_ != epilogue_block_) {
    a_->b(epilogue_);
  }
}

// The vregs of fewer than 64 bits whose every definition is an integer load (EmitConvert).
void FunctionCompiler::FindNarrowLoads() {
  narrow_loads_.assign(f_.vreg_types.size(), true);
  for (const lir::Block& b : f_.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.dst < 0) continue;
      const Type t = f_.TypeOf(in.dst);
      const bool narrow_load = in.op == Op::kLoad && !lir::IsFloat(t) && lir::TypeBits(t) < 64;
      if (!narrow_load) narrow_loads_[static_cast<size_t>(in.dst)] = false;
    }
  }
  for (int p : f_.params) narrow_loads_[static_cast<size_t>(p)] = false;
}

// An exit block whose stores a tail makes (exit_tails.h): `bl` to the tail, which stores
// and goes on to the exit block with this bl's return address. False if it is not one.
bool FunctionCompiler::EmitExitByTail(int b) {
  const int tail = exit_tails_.tail_of_block[static_cast<size_t>(b)];
  if (tail < 0 || b == epilogue_block_) return false;
  current_ = &f_.blocks[static_cast<size_t>(b)].instrs.back();
  const bool called = CallExit(static_cast<uint64_t>(current_->args[0].imm),
                               tail_labels_[static_cast<size_t>(tail)]);
  Check();
  return called;
}

// The exit `code` as a `bl` to `target` (made once needed) when its offset is below the
// limit, recorded for ExitCodeAt; false if the offset is not.
bool FunctionCompiler::CallExit(uint64_t code, asmjit::Label& target) {
  const uint64_t at = a_->offset();
  if ((at | kExitByOffset) >= options_.exit_code_limit) return false;
  if (!target.isValid()) target = a_->newLabel();
  a_->bl(target);
  exits_.push_back(ExitByCall{static_cast<uint32_t>(at), static_cast<uint32_t>(code)});
  stats_.exits_by_call++;
  return true;
}

// The tails some exit called: its block's stores, then on to the exit block.
void FunctionCompiler::EmitExitTails() {
  for (size_t t = 0; t < tail_labels_.size(); t++) {
    if (!tail_labels_[t].isValid()) continue;
    a_->bind(tail_labels_[t]);
    const auto& instrs = f_.blocks[static_cast<size_t>(exit_tails_.first_block[t])].instrs;
    EmitInstrs(instrs, instrs.size() - 1);  // not its ret
    current_ = nullptr;
    if (!exit_block_.isValid()) exit_block_ = a_->newLabel();
    a_->b(exit_block_);
    Check();
  }
}

// instrs[0, end): each one, or two in one instruction where a rule pairs them.
void FunctionCompiler::EmitInstrs(const lir::InstrList& instrs, size_t end) {
  for (size_t i = 0; i < end; i++) {
    current_ = &instrs[i];
    const Op op = instrs[i].op;  // each rule starts with one op: the others skip it unasked
    if (const size_t n = op == Op::kReleaseAt ? EmitReleaseByStub(instrs, i) : 0; n > 0) {
      i += n - 1;  // the call, and the jump after it when the data word stands for it
    } else if (const size_t m = op == Op::kBinaryOpIntoLocal ? EmitIntoLocalByStub(instrs, i) : 0;
               m > 0) {
      i += m - 1;  // the call, and the branch after it when the words stand for it
    } else if (i + 1 < end && ((op == Op::kStore && EmitStorePair(instrs[i], instrs[i + 1])) ||
                               (op == Op::kAdd && EmitPreIndexedLoad(instrs[i], instrs[i + 1])))) {
      i++;  // both in one instruction
    } else {
      EmitInstr(instrs[i]);
    }
    Check();
  }
}

// The exits' shared block: x0 = (the calling bl's offset) | kExitByOffset, which is the
// return address's offset - 1, then the epilogue.
void FunctionCompiler::EmitExitBlock() {
  if (!exit_block_.isValid()) return;
  a_->bind(exit_block_);
  a_->adr(asmjit::a64::x16, entry_);
  Sub(asmjit::a64::x0, asmjit::a64::x30, asmjit::a64::x16);
  Sub(asmjit::a64::x0, asmjit::a64::x0, 4 - kExitByOffset);
  a_->b(epilogue_);
}

// The block the epilogue follows, so that its `ret` needs no jump there: the last one in
// layout order that returns a register (a compiled function's return block, which lowering
// puts straight after the hot code; the exits to the interpreter return constants), else
// the last block. The blocks after it follow the epilogue.
int FunctionCompiler::EpilogueBlock() const {
  for (size_t b = f_.blocks.size(); b-- > 0;) {
    const Instr& t = f_.blocks[b].instrs.back();
    if (t.op == Op::kRet && !t.args.empty() && t.args[0].is_vreg()) return static_cast<int>(b);
  }
  return static_cast<int>(f_.blocks.size()) - 1;
}

}  // namespace a64jit::codegen::internal
