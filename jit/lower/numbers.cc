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

// The value of an int object of at most one digit (|ob_size| <= 1), or a jump to `slow`.
int Lowerer::SmallIntValue(Operand obj, int slow) {
  const int type = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kI64, V(type), Imm(rt_.py_long_type), slow);
  const int size = Load(obj, offsetof(PyVarObject, ob_size), Type::kI64);
  SlowIf(Cond::kUgt, Type::kI64, V(BiasedSize(size)), Operand::Imm(kBiasedSizeMax), slow);
  return OneDigitValue(obj, size);
}

// The value of int `obj` whose ob_size `size` is -1, 0 or 1.
int Lowerer::OneDigitValue(Operand obj, int size) {
  const int digit = Load(obj, offsetof(PyLongObject, ob_digit), Type::kI32);
  return Binary(lir::Op::kMul, V(size), V(ZExt(V(digit))), Type::kI64);
}

// HIR register `reg` as a small int: its constant, or its value (a jump to `slow` when it
// is not an int of at most one digit). A temporary of both kinds that holds a double goes
// to `float_form` (the consumer's float form, which reads it unboxed). With `wide`, an
// unboxed temporary's C value may be up to two digits' range (WideRaw).
Operand Lowerer::SmallIntOperand(int reg, int slow, int float_form, bool wide) {
  const std::optional<int64_t> k = SmallIntConst(reg);
  if (k) return Operand::Imm(*k);
  if (UnboxedInt(reg)) return V(UnboxedSmallInt(reg, slow, float_form, wide));
  return V(SmallIntValue(V(LirReg(reg)), slow));
}

// Both operands of `in` as SmallIntOperand reads them. When both are objects (not
// constants, not unboxed temporaries) their guards go in pairs, each pair one branch
// (SlowIfEither): the two type tests, then the two size tests.
std::pair<Operand, Operand> Lowerer::SmallIntOperands(const Instr& in, int slow, int float_form,
                                                      bool wide) {
  const int ra = in.args[0], rb = in.args[1];
  if (ra == rb) {
    const Operand a = SmallIntOperand(ra, slow, float_form, wide);
    return {a, a};
  }
  const auto boxed = [this](int reg) { return !SmallIntConst(reg) && !IsUnboxed(reg); };
  if (!boxed(ra) || !boxed(rb)) {
    const Operand a = SmallIntOperand(ra, slow, float_form, wide);
    return {a, SmallIntOperand(rb, slow, float_form, wide)};
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
  SlowIfEither(Cond::kUgt, Type::kI64, V(ba), max, Cond::kUgt, V(bb), max, slow, in.bc);
  const Operand a = V(OneDigitValue(oa, sa));
  return {a, V(OneDigitValue(ob, sb))};
}

// An unboxed temporary's value, from its C value while its object is NULL (a jump to
// `slow` outside the small-int range: |v| < 2^30, as an int of one digit; with `wide`,
// |v| < 2^60, as one of two digits), else from the object as SmallIntValue reads it. A
// temporary of both kinds holding a double goes to `float_form`.
int Lowerer::UnboxedSmallInt(int reg, int slow, int float_form, bool wide) {
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
    const int64_t max = (int64_t{1} << (wide ? 60 : 30)) - 1;
    const int biased = Binary(lir::Op::kAdd, V(RawOf(reg)), Operand::Imm(max), Type::kI64);
    SlowIf(Cond::kUgt, Type::kI64, V(biased), Operand::Imm(2 * max), out_of_range);
    return RawOf(reg);
  };
  return RawOrBoxed(reg, Type::kI64, raw, [&] { return SmallIntValue(V(LirReg(reg)), slow); });
}

// The small-int form of NB_* `nb`, if it has one; `divisor` is b's constant, if any.
bool Lowerer::HasSmallIntForm(int64_t nb, std::optional<int64_t> divisor) {
  switch (BinaryOf(nb)) {
    case NB_FLOOR_DIVIDE:
    case NB_REMAINDER:
      return !divisor || *divisor > 0;  // a variable divisor is guarded > 0
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
