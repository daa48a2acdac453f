// EmitInstr's dispatch and the value instructions: moves, integer and float arithmetic,
// shifts, division, conversions, compares and selects.
#include "jit/codegen/function_compiler.h"

namespace a64jit::codegen::internal {

// ---- instructions -------------------------------------------------------------------
void FunctionCompiler::EmitInstr(const Instr& in) {
  switch (in.op) {
    case Op::kMov:
      return EmitMov(in);
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kAnd:
    case Op::kOr:
    case Op::kXor:
      return EmitSimpleBinary(in);
    case Op::kShl:
    case Op::kLShr:
    case Op::kAShr:
      return EmitShift(in);
    case Op::kSDiv:
    case Op::kUDiv:
    case Op::kSRem:
    case Op::kURem:
      return EmitDivRem(in);
    case Op::kNot:
    case Op::kNeg:
      return EmitUnary(in);
    case Op::kSExt:
    case Op::kZExt:
    case Op::kTrunc:
      return EmitConvert(in);
    case Op::kFAdd:
    case Op::kFSub:
    case Op::kFMul:
    case Op::kFDiv:
      return EmitFloatBinary(in);
    case Op::kFNeg: {
      const int s = ReadFp(in.args[0], kF0);
      const int d = DstReg(in.dst, kF0);
      a_->fneg(D(d), D(s));
      return CommitFp(in.dst, d);
    }
    case Op::kSIToF:
      return EmitSIToF(in);
    case Op::kFToSI: {
      const int s = ReadFp(in.args[0], kF0);
      const int d = DstReg(in.dst, kS0);
      a_->fcvtzs(lir::TypeBits(f_.TypeOf(in.dst)) == 64 ? X(d) : W(d), D(s));
      return CommitGp(in.dst, d);
    }
    case Op::kCmp: {
      EmitCompare(in.cond, in.cmp_type, in.args[0], in.args[1]);
      const int d = DstReg(in.dst, kS0);
      a_->cset(X(d), ToCondCode(in.cond, in.cmp_type));
      return CommitGp(in.dst, d);
    }
    case Op::kSelect:
      return EmitSelect(in);
    case Op::kLoad:
      return EmitLoad(in);
    case Op::kStore:
      return EmitStore(in);
    case Op::kSlotAddr: {
      if (SpAddress(in.dst)) return;  // its uses address the slot from SP
      const int d = DstReg(in.dst, kS0);
      AddImm(X(d), asmjit::a64::sp,
             static_cast<uint64_t>(slot_offsets_[static_cast<size_t>(in.slot)]), 64, kS2);
      return CommitGp(in.dst, d);
    }
    case Op::kFramePtr: {
      const int d = DstReg(in.dst, kS0);
      Mov(X(d), asmjit::a64::x29);
      return CommitGp(in.dst, d);
    }
    case Op::kCall:
    case Op::kReleaseAt:          // a protocol without its stub (not in reach, or registers it has
    case Op::kBinaryOpIntoLocal:  // no entry for): the call as written
      return EmitCall(in);
    case Op::kPad:
      for (int64_t i = 0; i < in.count; i++) a_->nop();
      return;
    case Op::kSetPrevInstr:  // the verifier refuses them too
    case Op::kPrevInstrIs:
      Fail("a lowering note, which lowering resolves before it returns");
    case Op::kJmp:
      if (in.targets[0] != block_ + 1) JumpToBlock(in.targets[0]);
      return;
    case Op::kBr:
      return EmitBranch(in);
    case Op::kRet:
      return EmitRet(in);
    case Op::kTailCall:
      return EmitTailCall(in);
  }
}

void FunctionCompiler::EmitMov(const Instr& in) {
  const Type t = f_.TypeOf(in.dst);
  if (lir::IsFloat(t)) {
    const int d = DstReg(in.dst, kF0);
    if (in.args[0].is_vreg()) {
      const int s = ReadFp(in.args[0], kF0);
      if (s != d) a_->fmov(D(d), D(s));
    } else {
      uint64_t bits;
      std::memcpy(&bits, &in.args[0].fimm, sizeof bits);
      MovFpImm(d, bits);
    }
    return CommitFp(in.dst, d);
  }
  const int d = DstReg(in.dst, kS0);
  if (in.args[0].is_vreg()) {
    const int s = ReadGp(in.args[0], kS0);
    if (s != d) Mov(X(d), X(s));
  } else {
    MovImm(d, static_cast<uint64_t>(in.args[0].imm), lir::TypeBits(t) == 64 ? 64 : 32);
  }
  CommitGp(in.dst, d);
}

void FunctionCompiler::EmitSimpleBinary(const Instr& in) {
  const Type t = f_.TypeOf(in.dst);
  const int width = lir::TypeBits(t) == 64 ? 64 : 32;
  auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
  const int a = ReadGp(in.args[0], kS0, width);
  const int d = DstReg(in.dst, kS0);
  const Operand& b = in.args[1];
  if (b.is_imm()) {
    const uint64_t v = static_cast<uint64_t>(b.imm) & (width == 32 ? 0xffffffffull : ~0ull);
    // An immediate form: add/sub of any constant (AddImm legalises it), and/orr/eor of
    // an encodable bitmask. mul and other constants go through a register.
    if (in.op == Op::kAdd || in.op == Op::kSub) {
      AddImm(GpOfWidth(d), GpOfWidth(a), in.op == Op::kAdd ? v : 0 - v, width, kS1);
      return CommitGp(in.dst, d);
    }
    const bool logical = in.op == Op::kAnd || in.op == Op::kOr || in.op == Op::kXor;
    if (logical && IsLogicalImm(v, width)) {
      if (in.op == Op::kAnd) a_->and_(GpOfWidth(d), GpOfWidth(a), v);
      if (in.op == Op::kOr) a_->orr(GpOfWidth(d), GpOfWidth(a), v);
      if (in.op == Op::kXor) a_->eor(GpOfWidth(d), GpOfWidth(a), v);
      return CommitGp(in.dst, d);
    }
  }
  const int r = ReadGp(b, kS1, width);
  if (in.op == Op::kAdd) {
    Add(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
  } else if (in.op == Op::kSub) {
    Sub(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
  } else if (in.op == Op::kMul) {
    a_->mul(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
  } else if (in.op == Op::kAnd) {
    a_->and_(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
  } else if (in.op == Op::kOr) {
    a_->orr(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
  } else if (in.op == Op::kXor) {
    a_->eor(GpOfWidth(d), GpOfWidth(a), GpOfWidth(r));
  } else {
    Fail("internal: not a simple binary op");
  }
  CommitGp(in.dst, d);
}

void FunctionCompiler::EmitShift(const Instr& in) {
  const Type t = f_.TypeOf(in.dst);
  const int bits = lir::TypeBits(t);
  const int width = bits == 64 ? 64 : 32;
  auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
  int a = ReadGp(in.args[0], kS0, width);
  if (bits < 32 && in.op != Op::kShl) {
    // Right shifts of i8/i16 see the bits above the type: make them the extension.
    Extend32(kS0, a, bits, in.op == Op::kAShr);
    a = kS0;
  }
  const int d = DstReg(in.dst, kS0);
  if (in.args[1].is_imm()) {
    const uint32_t k =
        static_cast<uint32_t>(static_cast<uint64_t>(in.args[1].imm) % static_cast<uint64_t>(width));
    if (k == 0) {
      if (d != a) Mov(GpOfWidth(d), GpOfWidth(a));
    } else if (in.op == Op::kShl) {
      a_->lsl(GpOfWidth(d), GpOfWidth(a), k);
    } else if (in.op == Op::kLShr) {
      a_->lsr(GpOfWidth(d), GpOfWidth(a), k);
    } else {
      a_->asr(GpOfWidth(d), GpOfWidth(a), k);
    }
    return CommitGp(in.dst, d);
  }
  const int s = ReadGp(in.args[1], kS1, width);
  if (in.op == Op::kShl) a_->lslv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(s));
  if (in.op == Op::kLShr) a_->lsrv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(s));
  if (in.op == Op::kAShr) a_->asrv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(s));
  CommitGp(in.dst, d);
}

void FunctionCompiler::EmitDivRem(const Instr& in) {
  const Type t = f_.TypeOf(in.dst);
  const int bits = lir::TypeBits(t);
  const int width = bits == 64 ? 64 : 32;
  auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
  const bool is_signed = in.op == Op::kSDiv || in.op == Op::kSRem;
  int a = ReadGp(in.args[0], kS0, width);
  int b = ReadGp(in.args[1], kS1, width);
  if (bits < 32) {
    Extend32(kS0, a, bits, is_signed);
    Extend32(kS1, b, bits, is_signed);
    a = kS0;
    b = kS1;
  }
  const int d = DstReg(in.dst, kS0);
  if (in.op == Op::kSDiv || in.op == Op::kUDiv) {
    is_signed ? a_->sdiv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(b))
              : a_->udiv(GpOfWidth(d), GpOfWidth(a), GpOfWidth(b));
  } else {
    // rem = a - (a / b) * b; with b == 0 the quotient is 0 and rem == a.
    is_signed ? a_->sdiv(GpOfWidth(kS2), GpOfWidth(a), GpOfWidth(b))
              : a_->udiv(GpOfWidth(kS2), GpOfWidth(a), GpOfWidth(b));
    a_->msub(GpOfWidth(d), GpOfWidth(kS2), GpOfWidth(b), GpOfWidth(a));
  }
  CommitGp(in.dst, d);
}

void FunctionCompiler::EmitUnary(const Instr& in) {
  const int width = lir::TypeBits(f_.TypeOf(in.dst)) == 64 ? 64 : 32;
  auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
  const int a = ReadGp(in.args[0], kS0, width);
  const int d = DstReg(in.dst, kS0);
  in.op == Op::kNot ? a_->mvn(GpOfWidth(d), GpOfWidth(a)) : a_->neg(GpOfWidth(d), GpOfWidth(a));
  CommitGp(in.dst, d);
}

void FunctionCompiler::EmitConvert(const Instr& in) {
  const Type to = f_.TypeOf(in.dst);
  const Type from = f_.TypeOf(in.args[0].vreg);
  const int sb = lir::TypeBits(from), db = lir::TypeBits(to);
  const int s = ReadGp(in.args[0], kS0);
  const int d = DstReg(in.dst, kS0);
  if (in.op == Op::kSExt && sb < db) {
    if (sb == 32) {
      a_->sxtw(X(d), W(s));
    } else if (sb == 16) {
      db == 64 ? a_->sxth(X(d), W(s)) : a_->sxth(W(d), W(s));
    } else {
      db == 64 ? a_->sxtb(X(d), W(s)) : a_->sxtb(W(d), W(s));
    }
  } else if (in.op == Op::kZExt && sb < db && narrow_loads_[in.args[0].vreg]) {
    // Loaded by ldrb, ldrh or ldr w, each of which zero-extends to 64 bits: no extension
    // (spills and moves keep all 64 bits).
    if (d != s) Mov(X(d), X(s));
  } else if (in.op == Op::kZExt && sb < db) {
    // Writing a W register clears bits 32-63, so these zero-extend to 64 bits too.
    if (sb == 32) Mov(W(d), W(s));
    if (sb == 16) a_->uxth(W(d), W(s));
    if (sb == 8) a_->uxtb(W(d), W(s));
  } else if (d != s) {
    Mov(X(d), X(s));  // trunc, or same width: the bits above the type do not matter
  }
  CommitGp(in.dst, d);
}

void FunctionCompiler::EmitFloatBinary(const Instr& in) {
  const int a = ReadFp(in.args[0], kF0);
  const int b = ReadFp(in.args[1], kF1);
  const int d = DstReg(in.dst, kF0);
  if (in.op == Op::kFAdd) {
    a_->fadd(D(d), D(a), D(b));
  } else if (in.op == Op::kFSub) {
    a_->fsub(D(d), D(a), D(b));
  } else if (in.op == Op::kFMul) {
    a_->fmul(D(d), D(a), D(b));
  } else if (in.op == Op::kFDiv) {
    a_->fdiv(D(d), D(a), D(b));
  } else {
    Fail("internal: not an f64 binary op");
  }
  CommitFp(in.dst, d);
}

void FunctionCompiler::EmitSIToF(const Instr& in) {
  const int bits = lir::TypeBits(f_.TypeOf(in.args[0].vreg));
  int s = ReadGp(in.args[0], kS0);
  const int d = DstReg(in.dst, kF0);
  if (bits == 64) {
    a_->scvtf(D(d), X(s));
  } else {
    if (bits < 32) {
      Extend32(kS0, s, bits, true);
      s = kS0;
    }
    a_->scvtf(D(d), W(s));
  }
  CommitFp(in.dst, d);
}

// Sets the flags for `a cond b` over type t, extending i8/i16 operands first.
void FunctionCompiler::EmitCompare(Cond cond, Type t, const Operand& a_op, const Operand& b_op) {
  if (lir::IsFloat(t)) {
    a_->fcmp(D(ReadFp(a_op, kF0)), D(ReadFp(b_op, kF1)));
    return;
  }
  const int bits = lir::TypeBits(t);
  const int width = bits == 64 ? 64 : 32;
  const bool is_signed = IsSigned(cond);
  auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
  int a = ReadGp(a_op, kS0, width);
  if (bits < 32) {
    Extend32(kS0, a, bits, is_signed);
    a = kS0;
  }
  if (b_op.is_imm()) {
    // The immediate as the (extended) register value it is compared with.
    uint64_t v = static_cast<uint64_t>(b_op.imm);
    if (bits < 32) {
      v = is_signed ? static_cast<uint64_t>(lir::SignExtend(v, t)) : lir::Truncate(v, t);
    }
    const uint64_t mask = width == 32 ? 0xffffffffull : ~0ull;
    v &= mask;
    const uint64_t neg = (0 - v) & mask;
    if (IsAddSubImm(v)) {
      Cmp(GpOfWidth(a), v);
      return;
    }
    if (v != 0 && IsAddSubImm(neg)) {
      a_->cmn(GpOfWidth(a), neg);
      return;
    }
    const std::optional<int> held = ConstantRegister(v);
    if (!held) MovImm(kS1, v, width);
    Cmp(GpOfWidth(a), GpOfWidth(held.value_or(kS1)));
    return;
  }
  int b = ReadGp(b_op, kS1, width);
  if (bits < 32) {
    Extend32(kS1, b, bits, is_signed);
    b = kS1;
  }
  Cmp(GpOfWidth(a), GpOfWidth(b));
}

// Rule: a branch on either of two integer compares is a cmp, then a ccmp that compares the
// second pair only when the first compare does not hold, and otherwise sets the flags to
// ones under which the second condition holds; the branch then tests the second condition.
// One conditional branch where two guards with one failure block took two.
void FunctionCompiler::EmitEitherCompare(const Instr& in) {
  if (lir::TypeBits(in.cmp_type) < 32 && ComparesWithZero(in)) {  // an i8 or i16 flag: a tst
    EmitTestNonZero(ReadGp(in.args[0], kS0), in.cmp_type);
  } else {
    EmitCompare(in.cond, in.cmp_type, in.args[0], in.args[1]);
  }
  const int width = lir::TypeBits(in.cmp_type2) == 64 ? 64 : 32;
  auto GpOfWidth = [&](int n) { return width == 64 ? X(n) : W(n); };
  const asmjit::Imm when(static_cast<uint32_t>(Negate(ToCondCode(in.cond, in.cmp_type))));
  const asmjit::Imm flags(FlagsWhereHolds(ToCondCode(in.cond2, in.cmp_type2)));
  const Gp c = GpOfWidth(ReadGp(in.args[2], kS0, width));
  const Operand& d = in.args[3];
  if (!d.is_imm()) {
    a_->ccmp(c, GpOfWidth(ReadGp(d, kS1, width)), flags, when);
    return;
  }
  const uint64_t mask = width == 32 ? 0xffffffffull : ~0ull;
  const uint64_t v = static_cast<uint64_t>(d.imm) & mask;
  const uint64_t neg = (0 - v) & mask;
  if (v <= 31) {
    a_->ccmp(c, asmjit::Imm(v), flags, when);
  } else if (neg <= 31) {
    a_->ccmn(c, asmjit::Imm(neg), flags, when);
  } else {
    // The first compare left this immediate in kS1 when it could not encode it either.
    const Operand& b = in.args[1];
    const bool in_s1 = b.is_imm() && in.cmp_type == in.cmp_type2 &&
                       (static_cast<uint64_t>(b.imm) & mask) == v && !IsAddSubImm(v) &&
                       !IsAddSubImm(neg);
    const std::optional<int> held = ConstantRegister(v);
    if (!held && !in_s1) MovImm(kS1, v, width);
    a_->ccmp(c, GpOfWidth(held.value_or(kS1)), flags, when);
  }
}

// An either branch `i8 %flag != 0 or ptr %p == 0` (LowerCheckTracing's after a call).
bool FunctionCompiler::FlagOrNullPointer(const Instr& in) {
  return in.cond == Cond::kNe && in.cmp_type == Type::kI8 && ComparesWithZero(in) &&
         in.cond2 == Cond::kEq && in.cmp_type2 == Type::kPtr && in.args[2].is_vreg() &&
         in.args[3].is_imm() && in.args[3].imm == 0;
}

// A compare form's first pair is `a == 0` or `a != 0`.
// `a < 0` or `a >= 0` of a 32- or 64-bit integer (tbnz, tbz).
bool FunctionCompiler::TestsSign(const Instr& in) {
  return !in.br_on_value && in.args[0].is_vreg() && in.args[1].is_imm() && in.args[1].imm == 0 &&
         (in.cond == Cond::kSlt || in.cond == Cond::kSge) && !lir::IsFloat(in.cmp_type) &&
         lir::TypeBits(in.cmp_type) >= 32;
}

bool FunctionCompiler::ComparesWithZero(const Instr& in) {
  return in.args[1].is_imm() && in.args[1].imm == 0 &&
         (in.cond == Cond::kEq || in.cond == Cond::kNe);
}

// The NZCV value (ccmp's immediate: N 8, Z 4, C 2, V 1) under which condition `cc` holds.
uint32_t FunctionCompiler::FlagsWhereHolds(CondCode cc) {
  switch (cc) {
    case CondCode::kEQ:
    case CondCode::kLS:
    case CondCode::kLE:
      return 4;  // Z
    case CondCode::kHS:
    case CondCode::kHI:
      return 2;  // C, not Z
    case CondCode::kLT:
    case CondCode::kMI:
      return 8;  // N, not V
    case CondCode::kVS:
      return 1;
    default:
      return 0;  // NE, LO, GE, GT, PL, VC: all clear
  }
}

// Sets Z from "value != 0" for an integer register of type t (bits above t ignored).
void FunctionCompiler::EmitTestNonZero(int reg, Type t) {
  switch (lir::TypeBits(t)) {
    case 8:
      a_->tst(W(reg), 0xff);
      break;
    case 16:
      a_->tst(W(reg), 0xffff);
      break;
    case 32:
      Cmp(W(reg), 0);
      break;
    default:
      Cmp(X(reg), 0);
      break;
  }
}

void FunctionCompiler::EmitSelect(const Instr& in) {
  const Type t = f_.TypeOf(in.dst);
  const int c = ReadGp(in.args[0], kS0);
  EmitTestNonZero(c, f_.TypeOf(in.args[0].vreg));
  if (lir::IsFloat(t)) {
    const int x = ReadFp(in.args[1], kF0);
    const int y = ReadFp(in.args[2], kF1);
    const int d = DstReg(in.dst, kF2);
    a_->fcsel(D(d), D(x), D(y), CondCode::kNE);
    return CommitFp(in.dst, d);
  }
  // Materialising immediates does not touch the flags (mov/movk/orr/ldr literal); a 0 is
  // the zero register.
  const auto value = [&](const Operand& v, int scratch) {
    return v.is_imm() && v.imm == 0 ? Gp(asmjit::a64::xzr) : X(ReadGp(v, scratch));
  };
  const Gp x = value(in.args[1], kS1);
  const Gp y = value(in.args[2], kS2);
  const int d = DstReg(in.dst, kS0);
  a_->csel(X(d), x, y, CondCode::kNE);
  CommitGp(in.dst, d);
}

}  // namespace a64jit::codegen::internal
