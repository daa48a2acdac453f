// COMPARE_OP and truth tests: int, float and str comparisons inline, IsTrue; CONTAINS_OP.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

Lowerer::CompareForms Lowerer::CompareFormsOf(const Instr& in) const {
  CompareForms forms;
  forms.ints = HasIntForm(in);
  forms.floats = HasFloatForm(in);
  const bool equality = in.imm == Py_EQ || in.imm == Py_NE;
  const bool str_feedback = rt_.py_str_type != 0 && Allows(in, Feedback::kStr);
  forms.strs = str_feedback && equality && (IsStrConst(in.args[0]) || IsStrConst(in.args[1]));
  forms.str_order = str_feedback && !equality &&
                    (AsciiCharConst(in.args[0]) >= 0 || AsciiCharConst(in.args[1]) >= 0);
  return forms;
}

// Whether `in` gets its inline forms: an unboxed operand is read only by the int form
// (unboxed_temporaries.h), so that one is not optional.
bool Lowerer::TakeCompareForms(const Instr& in, const CompareForms& forms) {
  return forms.any() &&
         (HasUnboxedOperand(in) || Take(decisions_, Decision::kLowerCompareInline, in.bc));
}

// The forms `forms` picks (small ints, then floats; or one str form), deciding `in` into `c`
// (an i64, 0 or 1) and jumping to `done`; a failed guard jumps to `slow`.
void Lowerer::EmitCompareForm(const Instr& in, const CompareForms& forms, int c, int slow,
                              int done) {
  static const Cond kConds[] = {Cond::kSlt, Cond::kSle, Cond::kEq,
                                Cond::kNe,  Cond::kSgt, Cond::kSge};
  if (forms.ints || forms.floats) {
    if (forms.ints) {
      const int not_ints = forms.floats ? NewBlock() : slow;
      if (forms.floats) LeaveIfFloatOnly(in, not_ints);
      const int fail = BoxingFirst(in, not_ints);
      // An unboxed temporary of up to two digits' range compares as well in 64 bits.
      const auto [a, b] = SmallIntOperands(in, fail, not_ints, kTwoDigitBits);
      Compare(a, b, kConds[in.imm], c);
      Jmp(done);
      if (!forms.floats) return;
      cur_ = not_ints;
    }
    const int fail = BoxingFirst(in, slow);
    const auto [a, b] = FloatOperands(in, fail);
    Compare(V(a), V(b), kConds[in.imm], c, Type::kF64);
    Jmp(done);
  } else if (forms.strs) {
    StrEquality(in, c, slow, done);
  } else {
    StrOrderAgainstChar(in, kConds, c, slow, done);
  }
}

// bool(a op b): an inline form (CompareFormsOf), else and on its slow path a64_compare_bool.
void Lowerer::LowerCompareBool(const Instr& in) {
  const int c = LirReg(in.dst);
  const auto helper = [&] {
    CallInt(in, Helper::a64_compare_bool,
            {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(in.imm)}, c);
  };
  const CompareForms forms = CompareFormsOf(in);
  if (!TakeCompareForms(in, forms)) return helper();  // the call is the hot path
  const int slow = ColdBlock(), done = NewBlock();
  EmitCompareForm(in, forms, c, slow, done);
  cur_ = slow;
  helper();
  Jmp(done);
  cur_ = done;
}

// a op b kept as a value (`return a < b`, `x = a == b`, a generator's `yield a <= b`), which
// 3.11 never specialises (its COMPARE_OP forms need a jump after them): an inline form
// decides it and the result is True or False; else and on its slow path a64_compare_value
// (PyObject_RichCompare, shorter for a float and an int).
void Lowerer::LowerCompareOp(const Instr& in) {
  const auto helper = [&] {
    CallChecked(in, Helper::a64_compare_value,
                {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(in.imm)});
  };
  const CompareForms forms = CompareFormsOf(in);
  if (!TakeCompareForms(in, forms)) return helper();
  const int slow = ColdBlock(), decided = NewBlock(), done = NewBlock();
  const int c = out_.NewVReg(Type::kI64);
  EmitCompareForm(in, forms, c, slow, decided);
  cur_ = decided;
  const int dst = LirReg(in.dst);
  Select(V(c), Imm(rt_.py_true), Imm(rt_.py_false), Type::kPtr, dst);
  Incref(V(dst));
  Jmp(done);
  cur_ = slow;
  helper();
  Jmp(done);
  cur_ = done;
}

// a == b or a != b (in.imm) into `c`, where one operand is a str constant, as 3.11's
// COMPARE_OP_STR_JUMP decides it without comparing characters when it can: the same
// object is equal; two distinct interned strs are not (interning keeps one object per
// value). Anything else jumps to `slow`.
void Lowerer::StrEquality(const Instr& in, int c, int slow, int done) {
  const bool const_first = IsStrConst(in.args[0]);
  const int k = const_first ? in.args[0] : in.args[1];
  const int other = const_first ? in.args[1] : in.args[0];
  const int same = NewBlock(), differ = NewBlock();
  Br(Cond::kEq, V(LirReg(k)), V(LirReg(other)), same, differ);
  cur_ = same;
  Mov(Operand::Imm(in.imm == Py_EQ), Type::kI64, c);
  Jmp(done);
  cur_ = differ;
  if (ConstKindOf(k) != ConstKind::kInternedStr) return Jmp(slow);
  const Operand x = V(LirReg(other));
  const int type = Load(x, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_str_type), slow);
  // PyASCIIObject.state's first bit field, `interned` (2 bits), is its low bits.
  const int state = Load(x, offsetof(PyASCIIObject, state), Type::kI32);
  const int interned = Binary(lir::Op::kAnd, V(ZExt(V(state))), Operand::Imm(3), Type::kI64);
  SlowIf(Cond::kEq, Type::kI64, V(interned), Operand::Imm(0), slow);
  Mov(Operand::Imm(in.imm == Py_NE), Type::kI64, c);
  Jmp(done);
}

// a op b (an ordering, in.imm: `"a" <= ch`, `ch < "0"`) into `c`, where one operand is a
// one-character ASCII str constant k and the other an exact compact ASCII str x of at least
// one character. 3.11 has no specialised form and compares through unicode_compare; here
// x's first character decides unless it is k's, and then x is the greater exactly when it is
// longer. So each side is keyed 2 * first character + (longer than one), and the keys
// compare as the strs do. Anything else (not an exact str, not ASCII, empty) jumps to `slow`.
void Lowerer::StrOrderAgainstChar(const Instr& in, const Cond* conds, int c, int slow, int done) {
  const bool const_first = AsciiCharConst(in.args[0]) >= 0;
  const int k = AsciiCharConst(const_first ? in.args[0] : in.args[1]);
  const Operand x = V(LirReg(const_first ? in.args[1] : in.args[0]));
  RequireAsciiStr(x, slow);
  const int length = Load(x, offsetof(PyASCIIObject, length), Type::kI64);
  SlowIf(Cond::kEq, Type::kI64, V(length), Operand::Imm(0), slow);
  const int first = ZExt(V(Load(x, sizeof(PyASCIIObject), Type::kI8)));
  const int longer = Compare(V(length), Operand::Imm(1), Cond::kNe);
  const int key =
      Binary(lir::Op::kOr, V(Binary(lir::Op::kShl, V(first), Operand::Imm(1), Type::kI64)),
             V(longer), Type::kI64);
  // `k op x` is `x op' k` with the operands' roles swapped (< for >, <= for >=).
  static const int kSwapped[] = {Py_GT, Py_GE, Py_EQ, Py_NE, Py_LT, Py_LE};
  const int op = const_first ? kSwapped[in.imm] : static_cast<int>(in.imm);
  Compare(V(key), Operand::Imm(2 * int64_t{k}), conds[op], c);
  Jmp(done);
}

// True/False/None inline; anything else through the truth stub (site_stubs.h), which reads an
// exact str's, list's, dict's, tuple's or int's size and calls PyObject_IsTrue for the rest;
// without the stubs, an exact int inline and the rest through PyObject_IsTrue.
void Lowerer::LowerIsTrue(const Instr& in) {
  const int c = LirReg(in.dst);
  const Operand v = V(LirReg(in.args[0]));
  const int done = NewBlock();
  if (UnboxedInt(in.args[0])) {  // `if x & 1:` tests the C value (an int temporary)
    const int raw = NewBlock(), boxed = NewBlock();
    Br(Cond::kEq, v, Operand::Imm(0), raw, boxed);
    cur_ = raw;
    Compare(V(RawOf(in.args[0])), Operand::Imm(0), Cond::kNe, c);
    Jmp(done);
    cur_ = boxed;
  }
  Mov(Operand::Imm(1), Type::kI64, c);
  int next = NewBlock();
  Br(Cond::kEq, v, Imm(rt_.py_true), done, next);
  cur_ = next;
  Mov(Operand::Imm(0), Type::kI64, c);
  next = NewBlock();
  Br(Cond::kEq, v, Imm(rt_.py_false), done, next);
  cur_ = next;
  next = NewBlock();
  cold_[static_cast<size_t>(next)] = 1;  // neither a bool nor None: rare in conditions
  Br(Cond::kEq, v, Imm(rt_.py_none), done, next);
  cur_ = next;
  if (rt_.site_stubs != 0 && Take(decisions_, Decision::kLowerTruthStub, in.bc)) {
    SetPrevInstr(in.bc);  // a __bool__ or __len__ may run
    CheckInt(in, CallNamed(kTruthStubName, {v}, Type::kI64), c);
    Jmp(done);
    cur_ = done;
    return;
  }
  if (rt_.py_long_type != 0) {  // an exact int is true unless 0 (ob_size 0)
    const int other = NewBlock(), is_int = NewBlock();
    const int type = Load(v, offsetof(PyObject, ob_type), Type::kPtr);
    Br(Cond::kEq, V(type), Imm(rt_.py_long_type), is_int, other);
    cur_ = is_int;
    const int size = Load(v, offsetof(PyVarObject, ob_size), Type::kI64);
    Compare(V(size), Operand::Imm(0), Cond::kNe, c);
    Jmp(done);
    cur_ = other;
  }
  CallInt(in, Helper::PyObject_IsTrue, {v}, c);
  Jmp(done);
  cur_ = done;
}

// A tuple display compared (the builder's fusion): the left operand, the display's values
// spilled in a row, one call.
void Lowerer::LowerCompareTupleItems(const Instr& in) {
  const std::vector<int> items(in.args.begin() + 1, in.args.end());
  const int p = Spill(items);
  CallChecked(in, Helper::a64_compare_tuple_items,
              {V(LirReg(in.args[0])), V(p), Operand::Imm(static_cast<int64_t>(items.size())),
               Operand::Imm(in.imm)});
}

// CONTAINS_OP (`x in ("a", "b")`): a constant tuple's members through a64_contains_in_tuple,
// which compares strs, numbers and None without PyObject_RichCompareBool; any other container
// through PySequence_Contains, with no test on the way (a dict's or set's lookup is its own).
void Lowerer::LowerContains(const Instr& in) {
  const bool members = ConstKindOf(in.args[1]) == ConstKind::kTuple &&
                       Take(decisions_, Decision::kLowerContainsConstTuple, in.bc);
  CallInt(in, members ? Helper::a64_contains_in_tuple : Helper::PySequence_Contains,
          {V(LirReg(in.args[1])), V(LirReg(in.args[0]))}, LirReg(in.dst));
}

}  // namespace a64jit::lower::internal
