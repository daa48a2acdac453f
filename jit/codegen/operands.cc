// Operands and immediates: reading a vreg or constant into a register, committing results,
// materialising integer and float immediates, the frequent forms encoded directly.
#include "jit/codegen/function_compiler.h"

namespace a64jit::codegen::internal {

// ---- immediates ---------------------------------------------------------------------
asmjit::Label FunctionCompiler::PoolLabel(uint64_t value) {
  auto it = pool_.find(value);
  if (it != pool_.end()) return it->second;
  asmjit::Label l = a_->newLabel();
  pool_.emplace(value, l);
  return l;
}

// dst = v, in as few instructions as the encodings allow.
void FunctionCompiler::MovImm(int dst, uint64_t v, int width) {
  if (width == 32) v &= 0xffffffffull;
  const Gp d = width == 32 ? W(dst) : X(dst);
  const int len = MovSequenceLength(v, width);
  if (len > 1 && IsLogicalImm(v, width)) {
    a_->orr(d, width == 32 ? Gp(asmjit::a64::wzr) : Gp(asmjit::a64::xzr), v);
    return;
  }
  if (len > 2 && width == 64 && pools_) {
    a_->ldr(d, asmjit::a64::ptr(PoolLabel(v)));
    return;
  }
  const int chunks = width / 16;
  int zeros = 0, ones = 0;
  for (int i = 0; i < chunks; i++) {
    zeros += ((v >> (16 * i)) & 0xffff) == 0;
    ones += ((v >> (16 * i)) & 0xffff) == 0xffff;
  }
  const bool inverted = ones > zeros;
  const uint64_t skip = inverted ? 0xffff : 0;
  bool first = true;
  for (int i = 0; i < chunks; i++) {
    const uint64_t c = (v >> (16 * i)) & 0xffff;
    if (c == skip && !(first && i == chunks - 1)) continue;
    if (first) {
      if (inverted) {
        a_->movn(d, ~c & 0xffff, 16 * i);
      } else {
        a_->movz(d, c, 16 * i);
      }
      first = false;
    } else {
      a_->movk(d, c, 16 * i);
    }
  }
}

// x<d> = sp + offset (offset >= 0), with no other register.
void FunctionCompiler::SpPlus(int d, int64_t offset) {
  const auto v = static_cast<uint64_t>(offset);
  if (v <= 0xffffff) return AddImm(X(d), asmjit::a64::sp, v, 64, d);
  MovImm(d, v, 64);
  a_->add(X(d), asmjit::a64::sp, X(d), asmjit::arm::uxtx(0));  // the extended form names SP
}

// d = s + imm (mod 2^width); d and s may be SP. Uses `scratch` only when the immediate
// needs more than two add/sub instructions.
void FunctionCompiler::AddImm(const Gp& d, const Gp& s, uint64_t imm, int width, int scratch) {
  const uint64_t mask = width == 32 ? 0xffffffffull : ~uint64_t{0};
  const uint64_t v = imm & mask;
  const uint64_t neg = (0 - v) & mask;
  if (v == 0) {
    if (d.id() != s.id()) Mov(d, s);
  } else if (IsAddSubImm(v)) {
    Add(d, s, v);
  } else if (IsAddSubImm(neg)) {
    Sub(d, s, neg);
  } else if (v <= 0xffffff) {
    Add(d, s, v & 0xfff000);
    Add(d, d, v & 0xfff);
  } else if (neg <= 0xffffff) {
    Sub(d, s, neg & 0xfff000);
    Sub(d, d, neg & 0xfff);
  } else if (s.isSP() || d.isSP()) {
    // Beyond 24 bits with SP involved: the register form of add cannot name SP, so go
    // through x17 (the second scratch; `scratch` holds the immediate).
    MovImm(scratch, v, 64);
    Mov(X(kS1), s);
    Add(X(kS1), X(kS1), X(scratch));
    Mov(d, X(kS1));
  } else {
    MovImm(scratch, v, width);
    Add(d, s, width == 32 ? W(scratch) : X(scratch));
  }
}

void FunctionCompiler::MovFpImm(int dst, uint64_t bits) {
  double d;
  std::memcpy(&d, &bits, sizeof d);
  if (bits == 0) {
    a_->fmov(D(dst), asmjit::a64::xzr);
  } else if (asmjit::a64::Utils::isFP64Imm8(bits)) {
    a_->fmov(D(dst), d);
  } else if (pools_) {
    a_->ldr(D(dst), asmjit::a64::ptr(PoolLabel(bits)));
  } else {
    MovImm(kS1, bits, 64);
    a_->fmov(D(dst), X(kS1));
  }
}

// ---- the frequent forms, encoded directly (direct_encoding.h); the rest through asmjit --
// Appends `word` when the form fit (the Encode* functions of direct_encoding.h).
bool FunctionCompiler::Emitted(std::optional<uint32_t> word) {
  if (word) EmitWord(*a_, *word);
  return word.has_value();
}

asmjit::Error FunctionCompiler::LoadStore(bool load, int size, const Gp& rt, const Mem& m) {
  const bool base_and_offset = m.hasBaseReg() && !m.hasBaseLabel() && !m.hasIndex() &&
                               m.isFixedOffset() && m.baseType() == asmjit::RegType::kARM_GpX;
  if (base_and_offset && Emitted(EncodeLoadStore(load, size, rt.id(), m.baseId(), m.offset()))) {
    return asmjit::kErrorOk;
  }
  switch (size) {
    case 1:
      return load ? a_->ldrb(rt, m) : a_->strb(rt, m);
    case 2:
      return load ? a_->ldrh(rt, m) : a_->strh(rt, m);
    default:
      return load ? a_->ldr(rt, m) : a_->str(rt, m);
  }
}

asmjit::Error FunctionCompiler::Mov(const Gp& d, const Gp& s) {
  if (d.isGpX() == s.isGpX() && Emitted(EncodeMovReg(d.isGpX(), d.id(), s.id()))) {
    return asmjit::kErrorOk;
  }
  return a_->mov(d, s);
}

asmjit::Error FunctionCompiler::AddSub(bool sub, const Gp& d, const Gp& s, uint64_t imm) {
  if (d.isGpX() == s.isGpX() &&
      Emitted(EncodeAddSubImm(sub, false, d.isGpX(), d.id(), s.id(), imm))) {
    return asmjit::kErrorOk;
  }
  return sub ? a_->sub(d, s, imm) : a_->add(d, s, imm);
}

asmjit::Error FunctionCompiler::AddSub(bool sub, const Gp& d, const Gp& a, const Gp& b) {
  if (d.isGpX() == a.isGpX() && a.isGpX() == b.isGpX() &&
      Emitted(EncodeAddSubReg(sub, false, d.isGpX(), d.id(), a.id(), b.id()))) {
    return asmjit::kErrorOk;
  }
  return sub ? a_->sub(d, a, b) : a_->add(d, a, b);
}

asmjit::Error FunctionCompiler::Cmp(const Gp& a, uint64_t imm) {
  if (Emitted(EncodeAddSubImm(true, true, a.isGpX(), kZrId, a.id(), imm))) {
    return asmjit::kErrorOk;
  }
  return a_->cmp(a, imm);
}

asmjit::Error FunctionCompiler::Cmp(const Gp& a, const Gp& b) {
  if (a.isGpX() == b.isGpX() &&
      Emitted(EncodeAddSubReg(true, true, a.isGpX(), kZrId, a.id(), b.id()))) {
    return asmjit::kErrorOk;
  }
  return a_->cmp(a, b);
}

// ---- operands -----------------------------------------------------------------------
// The register holding a GP operand (64-bit view), loading spills and materialising
// immediates into `scratch`.
int FunctionCompiler::ReadGp(const Operand& o, int scratch, int width) {
  if (o.is_vreg()) {
    const Location& l = Loc(o.vreg);
    if (l.is_reg()) return l.index;
    if (const std::optional<int64_t> offset = SpAddress(o.vreg)) {  // no location
      SpPlus(scratch, *offset);
      return scratch;
    }
    if (!l.is_spill()) Fail("internal: %" + std::to_string(o.vreg) + " has no location");
    Ldr(X(scratch), asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
    return scratch;
  }
  if (const std::optional<int> held = ConstantRegister(static_cast<uint64_t>(o.imm))) {
    return *held;  // for 32 bits its low half, as MovImm would have truncated it
  }
  MovImm(scratch, static_cast<uint64_t>(o.imm), width);
  return scratch;
}

int FunctionCompiler::ReadFp(const Operand& o, int scratch) {
  if (o.is_vreg()) {
    const Location& l = Loc(o.vreg);
    if (l.is_reg()) return l.index;
    a_->ldr(D(scratch),
            asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
    return scratch;
  }
  uint64_t bits;
  std::memcpy(&bits, &o.fimm, sizeof bits);
  MovFpImm(scratch, bits);
  return scratch;
}

// Where to compute a definition: its register, or `scratch` when it lives in a spill slot.
int FunctionCompiler::DstReg(int vreg, int scratch) const {
  const Location& l = Loc(vreg);
  return l.is_reg() ? l.index : scratch;
}

void FunctionCompiler::CommitGp(int vreg, int reg) {
  const Location& l = Loc(vreg);
  if (l.is_spill()) {
    Str(X(reg), asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
  }
}

void FunctionCompiler::CommitFp(int vreg, int reg) {
  const Location& l = Loc(vreg);
  if (l.is_spill()) {
    a_->str(D(reg), asmjit::a64::ptr(asmjit::a64::sp, static_cast<int32_t>(SpillOffset(l.index))));
  }
}

// Extends the low `bits` of register `src` to 32 bits into `dst` (for i8/i16).
void FunctionCompiler::Extend32(int dst, int src, int bits, bool is_signed) {
  if (bits == 8) {
    is_signed ? a_->sxtb(W(dst), W(src)) : a_->uxtb(W(dst), W(src));
  } else {
    is_signed ? a_->sxth(W(dst), W(src)) : a_->uxth(W(dst), W(src));
  }
}

}  // namespace a64jit::codegen::internal
