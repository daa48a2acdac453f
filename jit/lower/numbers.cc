// Constants and ints: what an operand is known to be, and small ints read, boxed and kept
// raw.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// The LoadLocal or LoadConst that is HIR register `reg`'s one definition, or null.
const Instr* Lowerer::BorrowSource(int reg) const {
  return reg >= 0 && static_cast<size_t>(reg) < borrow_source_.size()
             ? borrow_source_[static_cast<size_t>(reg)]
             : nullptr;
}

// The co_consts index of the constant HIR register `reg` holds, if it holds one.
std::optional<size_t> Lowerer::ConstIndex(int reg) const {
  const Instr* source = BorrowSource(reg);
  if (source == nullptr || source->op != Op::kLoadConst) return {};
  return static_cast<size_t>(source->imm);
}

// The value of HIR register `reg` when it holds a constant small int (see RuntimeAddresses).
std::optional<int64_t> Lowerer::SmallIntConst(int reg) const {
  const std::optional<size_t> i = ConstIndex(reg);
  return i && *i < rt_.small_int_consts.size() ? rt_.small_int_consts[*i] : std::nullopt;
}

// What HIR register `reg` is known to be when it holds a constant; kUnknown otherwise.
Lowerer::ConstKind Lowerer::ConstKindOf(int reg) const {
  const std::optional<size_t> i = ConstIndex(reg);
  return i && *i < rt_.const_kinds.size() ? rt_.const_kinds[*i] : ConstKind::kUnknown;
}

// `reg` holds a constant of a known type other than `kind` (kInt or kFloat).
bool Lowerer::KnownNot(int reg, ConstKind kind) const {
  const ConstKind k = ConstKindOf(reg);
  return k != ConstKind::kUnknown && k != kind;
}

// The character code of a one-character ASCII str constant in `reg`, or -1.
int Lowerer::AsciiCharConst(int reg) const {
  const std::optional<size_t> i = ConstIndex(reg);
  return i && *i < rt_.ascii_char_consts.size() ? rt_.ascii_char_consts[*i] : -1;
}

bool Lowerer::IsStrConst(int reg) const {
  const ConstKind k = ConstKindOf(reg);
  return k == ConstKind::kStr || k == ConstKind::kInternedStr;
}

// The value of an int object of at most one digit (|ob_size| <= 1), or a jump to `slow`. With
// `bits` past kOneDigitBits, an int of two digits too while |v| < 2**bits, read in a cold
// block: ints past 2**30 are a 32-bit hash or mask, a timestamp in milliseconds, a file
// offset, and each took a helper call before (a64_number_*), with its result boxed.
int Lowerer::SmallIntValue(Operand obj, int slow, int bits) {
  const int type = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kI64, V(type), Imm(rt_.py_long_type), slow);
  const int size = Load(obj, offsetof(PyVarObject, ob_size), Type::kI64);
  if (!ReadsTwoDigitObjects(bits, lowering_ != nullptr ? lowering_->bc : -1)) {
    SlowIf(Cond::kUgt, Type::kI64, V(BiasedSize(size)), Operand::Imm(kBiasedSizeMax), slow);
    return OneDigitValue(obj, size);
  }
  // The one-digit reading first: a wider int has room for its digit too, and the cold block
  // then has only the two-digit value to write over it.
  const int value = OneDigitValue(obj, size);
  ColdDetour(
      [&](int two) {
        SlowIf(Cond::kUgt, Type::kI64, V(BiasedSize(size)), Operand::Imm(kBiasedSizeMax), two);
      },
      [&] { TwoDigitValue(obj, size, slow, value, bits); });
  return value;
}

// The value of int `obj` whose ob_size `size` is -1, 0 or 1.
int Lowerer::OneDigitValue(Operand obj, int size) {
  const int digit = Load(obj, offsetof(PyLongObject, ob_digit), Type::kI32);
  return Binary(lir::Op::kMul, V(size), V(ZExt(V(digit))), Type::kI64);
}

// Into `dst`, the value of int `obj` whose ob_size `size` is not -1, 0 or 1, when it has two
// digits (exact in 64 bits) and |v| < 2**bits; a jump to `slow` otherwise. Inline: a helper
// call here would keep the operands in callee-saved registers, which every call of the
// function then saves and restores.
void Lowerer::TwoDigitValue(Operand obj, int size, int slow, int dst, int bits) {
  const int biased = Binary(lir::Op::kAdd, V(size), Operand::Imm(2), Type::kI64);
  SlowIf(Cond::kUgt, Type::kI64, V(biased), Operand::Imm(4), slow);  // so ob_size is 2 or -2
  constexpr int64_t kDigits = offsetof(PyLongObject, ob_digit);
  const int low = ZExt(V(Load(obj, kDigits, Type::kI32)));
  const int high = ZExt(V(Load(obj, kDigits + sizeof(digit), Type::kI32)));
  const int shifted = Binary(lir::Op::kShl, V(high), Operand::Imm(PyLong_SHIFT), Type::kI64);
  const int magnitude = Binary(lir::Op::kOr, V(low), V(shifted), Type::kI64);
  if (bits < kTwoDigitBits) {
    SlowIf(Cond::kUgt, Type::kI64, V(magnitude), Operand::Imm((int64_t{1} << bits) - 1), slow);
  }
  const int sign = Binary(lir::Op::kAShr, V(size), Operand::Imm(1), Type::kI64);  // 1 or -1
  Binary(lir::Op::kMul, V(sign), V(magnitude), Type::kI64, dst);
}

// The cold path of a pair of int operands that are not both of one digit: each of two digits
// has its value written over its one-digit reading; one of more goes to `slow`.
void Lowerer::FixTwoDigitValue(Operand obj, int size, int biased, int slow, int dst, int bits) {
  const int two = NewBlock(), done = NewBlock();
  Br(Cond::kUgt, V(biased), Operand::Imm(kBiasedSizeMax), two, done);
  cur_ = two;
  TwoDigitValue(obj, size, slow, dst, bits);
  Jmp(done);
  cur_ = done;
}

// HIR register `reg` as a small int: its constant, or its value (a jump to `slow` when it
// is not an int of at most one digit). A temporary of both kinds that holds a double goes to
// `float_form` (the consumer's float form, which reads it unboxed). Past one digit, an
// unboxed temporary's C value is taken while |v| < 2**bits, an int object of two digits
// while |v| < 2**object_bits (kOneDigitBits: never).
Operand Lowerer::SmallIntOperand(int reg, int slow, int float_form, int bits, int object_bits) {
  const std::optional<int64_t> k = SmallIntConst(reg);
  if (k) return Operand::Imm(*k);
  if (UnboxedInt(reg)) return V(UnboxedSmallInt(reg, slow, float_form, bits, object_bits));
  return V(SmallIntValue(V(LirReg(reg)), slow, object_bits));
}

// How far `in`'s int form reads int objects (SmallIntValue) when it takes values up to
// 2**bits: an operator's as far, a comparison's one digit alone. A comparison's generic path
// (a64_compare_bool, which reads two digits itself) boxes nothing, and the cold reads at
// every comparison made Richards' WorkerTask.step 9% longer.
int Lowerer::ObjectBits(const Instr& in, int bits) {
  return in.op == Op::kBinaryOp ? bits : kOneDigitBits;
}

// Both operands of `in` as SmallIntOperand reads them, each past one digit while
// |v| < 2**bits. When both are objects (not
// constants, not unboxed temporaries) their guards go in pairs, each pair one branch
// (SlowIfEither): the two type tests, then the two size tests.
std::pair<Operand, Operand> Lowerer::SmallIntOperands(const Instr& in, int slow, int float_form,
                                                      int bits) {
  const int ra = in.args[0], rb = in.args[1];
  const int object_bits = ObjectBits(in, bits);
  if (ra == rb) {
    const Operand a = SmallIntOperand(ra, slow, float_form, bits, object_bits);
    return {a, a};
  }
  const auto boxed = [this](int reg) { return !SmallIntConst(reg) && !IsUnboxed(reg); };
  if (!boxed(ra) || !boxed(rb)) {
    const Operand a = SmallIntOperand(ra, slow, float_form, bits, object_bits);
    return {a, SmallIntOperand(rb, slow, float_form, bits, object_bits)};
  }
  const Operand oa = V(LirReg(ra)), ob = V(LirReg(rb));
  const int ta = Load(oa, offsetof(PyObject, ob_type), Type::kPtr);
  const int tb = Load(ob, offsetof(PyObject, ob_type), Type::kPtr);
  const Operand long_type = Imm(rt_.py_long_type);
  SlowIfEither(Cond::kNe, Type::kPtr, V(ta), long_type, Cond::kNe, V(tb), long_type, slow, in.bc);
  operand_types_ = {ra, rb, ta, tb, slow};
  const int sa = Load(oa, offsetof(PyVarObject, ob_size), Type::kI64);
  const int sb = Load(ob, offsetof(PyVarObject, ob_size), Type::kI64);
  const int ba = BiasedSize(sa), bb = BiasedSize(sb);
  const Operand max = Operand::Imm(kBiasedSizeMax);
  if (!ReadsTwoDigitObjects(object_bits, in.bc)) {
    SlowIfEither(Cond::kUgt, Type::kI64, V(ba), max, Cond::kUgt, V(bb), max, slow, in.bc);
    const Operand a = V(OneDigitValue(oa, sa));
    return {a, V(OneDigitValue(ob, sb))};
  }
  // Either of more than one digit: in a cold block, the one of two (or each) read again
  // (SmallIntValue's order).
  const int va = OneDigitValue(oa, sa), vb = OneDigitValue(ob, sb);
  ColdDetour(
      [&](int two) {
        SlowIfEither(Cond::kUgt, Type::kI64, V(ba), max, Cond::kUgt, V(bb), max, two, in.bc);
      },
      [&] {
        FixTwoDigitValue(oa, sa, ba, slow, va, object_bits);
        FixTwoDigitValue(ob, sb, bb, slow, vb, object_bits);
      });
  return {V(va), V(vb)};
}

// An unboxed temporary's value, from its C value while its object is NULL (a jump to
// `slow` unless |v| < 2**bits: 2**30, an int of one digit, up to 2**60, two), else from the
// object as SmallIntValue reads it (up to 2**object_bits). A temporary of both kinds holding
// a double goes to `float_form`.
int Lowerer::UnboxedSmallInt(int reg, int slow, int float_form, int bits, int object_bits) {
  const auto raw = [&] {
    // A double's mark fails the range test too: for a temporary of both kinds, the cold
    // block that test leaves for tells the two apart.
    int out_of_range = slow;
    if (IsDual(reg)) {
      if (float_form < 0) throw std::logic_error("a temporary of both kinds read as an int only");
      const int saved = cur_;
      out_of_range = ColdBlock();
      cur_ = out_of_range;
      Br(Cond::kEq, V(RawOf(reg)), Operand::Imm(kRawFloatMark), float_form, slow);
      cur_ = saved;
    }
    const int64_t max = (int64_t{1} << bits) - 1;
    const int biased = Binary(lir::Op::kAdd, V(RawOf(reg)), Operand::Imm(max), Type::kI64);
    SlowIf(Cond::kUgt, Type::kI64, V(biased), Operand::Imm(2 * max), out_of_range);
    return RawOf(reg);
  };
  return RawOrBoxed(reg, Type::kI64, raw,
                    [&] { return SmallIntValue(V(LirReg(reg)), slow, object_bits); });
}

// The small-int form of NB_* `nb`, if it has one; `right` is b's constant, if any. A shift
// has one by a constant count only (`h >> 8`, `(x << 13) & mask`): `>>` by any count >= 0,
// `<<` by one below 63 (an arm64 shift takes its count mod 64), tested for overflow.
bool Lowerer::HasSmallIntForm(int64_t nb, std::optional<int64_t> right) {
  switch (BinaryOf(nb)) {
    case NB_FLOOR_DIVIDE:
    case NB_REMAINDER:
      return !right || *right > 0;  // a variable divisor is guarded > 0
    case NB_RSHIFT:
      return right && *right >= 0;
    case NB_LSHIFT:
      return right && *right >= 0 && *right < 63;
    default:
      return SmallIntOp(BinaryOf(nb)).has_value();
  }
}

// The i64 operation of NB_* `nb` on small ints, when one instruction makes it (& | ^: two's
// complement in 64 bits is Python's infinite one for ints of one digit).
std::optional<lir::Op> Lowerer::SmallIntOp(int64_t nb) {
  switch (nb) {
    case NB_ADD:
      return lir::Op::kAdd;
    case NB_SUBTRACT:
      return lir::Op::kSub;
    case NB_MULTIPLY:
      return lir::Op::kMul;
    case NB_AND:
      return lir::Op::kAnd;
    case NB_OR:
      return lir::Op::kOr;
    case NB_XOR:
      return lir::Op::kXor;
    default:
      return std::nullopt;
  }
}

// The f64 operation of NB_* `nb`, if it has an inline float form.
std::optional<lir::Op> Lowerer::FloatFormOf(int64_t nb) {
  switch (BinaryOf(nb)) {
    case NB_ADD:
      return lir::Op::kFAdd;
    case NB_SUBTRACT:
      return lir::Op::kFSub;
    case NB_MULTIPLY:
      return lir::Op::kFMul;
    case NB_TRUE_DIVIDE:
      return lir::Op::kFDiv;
    default:
      return std::nullopt;
  }
}

}  // namespace a64jit::lower::internal

namespace a64jit::lower {

hir::NumberFacts NumberFactsOf(const RuntimeAddresses& rt) {
  using internal::Lowerer;
  hir::NumberFacts facts;
  facts.const_kind = [&rt](int64_t i) {
    return static_cast<size_t>(i) < rt.const_kinds.size() ? rt.const_kinds[static_cast<size_t>(i)]
                                                          : hir::ConstKind::kUnknown;
  };
  facts.small_int_const = [&rt](int64_t i) {
    return static_cast<size_t>(i) < rt.small_int_consts.size()
               ? rt.small_int_consts[static_cast<size_t>(i)]
               : std::nullopt;
  };
  facts.small_int_arithmetic = &Lowerer::HasSmallIntForm;
  facts.float_arithmetic = [](int64_t nb) { return Lowerer::FloatFormOf(nb).has_value(); };
  facts.ints_inline = rt.py_long_type != 0;
  facts.floats_inline = rt.py_float_type != 0;
  return facts;
}

}  // namespace a64jit::lower
