// BINARY_OP: small-int and float arithmetic inline, unboxed temporaries, float boxing and
// the float free list.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// When `obj` (whose count reached 0) is an exact float and the free list has room, gives it
// back to the list and jumps to `done`, as float deallocation does (nothing else runs: no
// __del__, so prev_instr need not be written); else falls through to a new block.
void Lowerer::FreeFloat(int obj, int done) {
  const int other = ColdBlock();
  const int type = Load(V(obj), offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_float_type), other);
  const int list = Mov(Imm(rt_.float_free_list), Type::kPtr);
  const int count = Load(V(list), offsetof(FloatFreeListLayout, numfree), Type::kI32);
  SlowIf(Cond::kSge, Type::kI32, V(count), Operand::Imm(kFloatFreeListMax), other);
  StoreFreeCount(list, count, lir::Op::kAdd);
  const int head = Load(V(list), offsetof(FloatFreeListLayout, free_list), Type::kPtr);
  Store(V(head), V(obj), offsetof(PyObject, ob_type), Type::kPtr);
  Store(V(obj), V(list), offsetof(FloatFreeListLayout, free_list), Type::kPtr);
  Jmp(done);
  cur_ = other;
}

// The free list's count = `count` op 1 (kAdd: a float given back; kSub: one taken).
void Lowerer::StoreFreeCount(int list, int count, lir::Op op) {
  Store(V(Binary(op, V(count), Operand::Imm(1), Type::kI32)), V(list),
        offsetof(FloatFreeListLayout, numfree), Type::kI32);
}

// in.dst = a new float holding `d`, taken from the free list inline as PyFloat_FromDouble
// does (the list not empty, tracemalloc not tracing: it must see every new reference);
// else from PyFloat_FromDouble in a cold block.
void Lowerer::BoxFloat(const Instr& in, int d) {
  if (!InlineFloatFreeList()) {
    return CallChecked(in, Helper::PyFloat_FromDouble, {V(d)});
  }
  FastOrGeneric(
      Decision::kLowerFloatBoxInline, in,
      [&](int slow) {
        const int list = Mov(Imm(rt_.float_free_list), Type::kPtr);
        const int obj =
            Load(V(list), offsetof(FloatFreeListLayout, free_list), Type::kPtr, LirReg(in.dst));
        SlowIf(Cond::kEq, Type::kPtr, V(obj), Operand::Imm(0), slow);
        const int tracing = Load(V(Mov(Imm(rt_.tracemalloc_tracing), Type::kPtr)), 0, Type::kI32);
        SlowIf(Cond::kNe, Type::kI32, V(tracing), Operand::Imm(0), slow);
        Store(V(Load(V(obj), offsetof(PyObject, ob_type), Type::kPtr)), V(list),
              offsetof(FloatFreeListLayout, free_list), Type::kPtr);
        StoreFreeCount(list, Load(V(list), offsetof(FloatFreeListLayout, numfree), Type::kI32),
                       lir::Op::kSub);
        Store(Imm(rt_.py_float_type), V(obj), offsetof(PyObject, ob_type), Type::kPtr);
        Store(Operand::Imm(1), V(obj), offsetof(PyObject, ob_refcnt), Type::kI64);
        Store(V(d), V(obj), offsetof(PyFloatObject, ob_fval), Type::kF64);
      },
      [&] { CallChecked(in, Helper::PyFloat_FromDouble, {V(d)}); });
}

// in.dst = a float holding `d`, in.args both exact floats. A result stored into a local
// (StoreLocalResult, fusions.h) is written into the local's old float when only the local holds it
// and that is an exact float, as stock's `s += x` cannot: no float is taken from the free list and
// none given back. When an operand is the local's value (`s = s + x`), that is the old float,
// already known to be one.
//
// Where BINARY_OP has no int form, the store is done here (store_done_): the local
// already holds the result, so the StoreLocal emits nothing and the hot path takes no count
// and releases nothing. Any other case goes to `generic` (boxed operands, PyNumber_*), where
// one helper makes the operation and the store (GenericIntoLocal). Else the old float's
// count goes to 2 for the store's release, and a new float comes from PyFloat_FromDouble
// out of line (once a loop runs, the local holds a float of its own).
void Lowerer::BoxFloatResult(const Instr& in, int d, int generic) {
  const std::optional<hir::StoreTarget> target = StoreTargetOfValue(in);
  if (!target) return BoxFloat(in, d);
  const Instr& store = *target->store;
  const int operand = target->local_operand;
  const bool known = operand >= 0 && !UnboxedFloat(in.args[operand]);
  const bool fused = !HasIntForm(in) && FusibleStore(in, *target);
  const auto in_place = [&](int fresh) {
    in_place_floats_.insert(in.dst);
    const int old =
        known ? LirReg(in.args[operand]) : Load(V(frame_), LocalOffset(store.imm), Type::kPtr);
    if (!known) {
      if (!store.bound) SlowIf(Cond::kEq, Type::kPtr, V(old), Operand::Imm(0), fresh);
      const int type = Load(V(old), offsetof(PyObject, ob_type), Type::kPtr);
      SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_float_type), fresh);
    }
    const int count = Load(V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
    SlowIf(Cond::kNe, Type::kI64, V(count), Operand::Imm(1), fresh);
    Store(V(d), V(old), offsetof(PyFloatObject, ob_fval), Type::kF64);
    if (fused) return;  // in.dst, read by the store alone, is not needed
    Store(Operand::Imm(2), V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
    Mov(V(old), Type::kPtr, LirReg(in.dst));
  };
  if (fused) {
    if (!Take(decisions_, Decision::kLowerFloatStoreInPlace, in.bc)) return BoxFloat(in, d);
    store_done_ = &store;
    return in_place(generic);
  }
  FastOrGeneric(Decision::kLowerFloatStoreInPlace, in, in_place, [&] {
    // declined: the usual box; taken: the rare case, out of line
    if (in_place_floats_.count(in.dst) == 0) return BoxFloat(in, d);
    CallChecked(in, Helper::PyFloat_FromDouble, {V(d)});
  });
}

// Whether one helper (a64_binary_op_into_local) can make `in` and its store `target`: the
// releases between the two are of the operands, and the store's local and distance fit `how`.
bool Lowerer::FusibleStore(const Instr& in, const hir::StoreTarget& target) {
  return target.release_mask >= 0 && target.store->imm < (int64_t{1} << 40) &&
         target.store->bc - in.bc <= 3;  // `how`'s gap
}

// `s += t` or `s = s + t` of strs (3.11 specialised the site to BINARY_OP_INPLACE_ADD_UNICODE)
// whose result the next instruction stores back into s's local: the operation and the store
// by one helper, which appends t to s's own object when the local holds its only reference,
// as stock does. Through PyNumber_InPlaceAdd each step copied all of s: building a string of
// 20,000 pieces so took 2.4 times stock's time, and more the longer it grows.
bool Lowerer::StrAppendIntoLocal(const Instr& in) {
  if (in.feedback != Feedback::kStr || (in.imm != NB_ADD && in.imm != NB_INPLACE_ADD)) {
    return false;
  }
  const std::optional<hir::StoreTarget> target = StoreTargetOfValue(in);
  if (!target || target->local_operand != 0 || !FusibleStore(in, *target)) return false;
  if (!Take(decisions_, Decision::kLowerStrAppendInPlace, in.bc)) return false;
  store_done_ = target->store;
  return GenericIntoLocal(in);
}

// The generic path of a BINARY_OP whose store BoxFloatResult or StrAppendIntoLocal fused: the
// operation, the operands' releases (Python code may run there when they are not floats) and
// the store, in stock's order, by one helper; then on past the store.
bool Lowerer::GenericIntoLocal(const Instr& in) {
  if (store_done_ == nullptr) return false;  // neither took the store
  const std::optional<hir::StoreTarget> target = StoreTargetOfValue(in);
  if (!target || store_done_ != target->store) return false;
  const Instr& store = *target->store;
  const int64_t how =
      in.imm | target->release_mask << 8 | (store.bc - in.bc) << 10 | store.imm << 12;
  lir::Instr call = HelperCall(
      Helper::a64_binary_op_into_local,
      {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(how), Operand::Imm(store.bc)});
  call.op = lir::Op::kBinaryOpIntoLocal;
  call.dst = out_.NewVReg(Type::kI64);
  const int status = Emit(std::move(call)).dst;
  NotePrevInstr(-1);  // the helper set it, to the operation's unit and then the store's
  DeoptIf(in, Cond::kEq, V(status), Operand::Imm(0));
  const int after = NewBlock();
  RejoinAfter(&store, after);
  Jmp(after);
  cur_ = NewBlock();  // unreachable: takes the caller's jump to the operation's join
  return true;
}

// `a + b` at a site 3.11 specialised to strs (BINARY_OP_ADD_UNICODE) whose result no local
// takes back (StrAppendIntoLocal's case): a64_str_concat (lower.str-concat).
bool Lowerer::StrConcatSite(const Instr& in) {
  return in.feedback == Feedback::kStr && (in.imm == NB_ADD || in.imm == NB_INPLACE_ADD) &&
         Take(decisions_, Decision::kLowerStrConcat, in.bc);
}

// Whether BINARY_OP `in` may apply an operator a class defines in Python, which
// a64_binary_object calls directly: 3.11 specialised the site to no number or str form, the
// operator is not `**` (ternary in 3.11, with a third operand a64_binary_object does not
// take), and neither operand is a constant. co_consts holds no instance of a class, and a
// number constant on the right (`count - 1`, `x ^ 0xd008`) mostly meets a number: taking
// those sites too made Richards' IdleTask.step 98 bytes longer, past its code-size budget,
// for no class met there. (a64_binary_object itself takes an int or float right operand.)
bool Lowerer::MayOverloadOperator(const Instr& in) const {
  if (in.feedback != Feedback::kNone || in.imm == NB_POWER || in.imm == NB_INPLACE_POWER) {
    return false;
  }
  return !ConstIndex(in.args[0]) && !ConstIndex(in.args[1]);
}

// The generic path MayOverloadOperator allows: a64_binary_object for a left operand of a heap
// type (a class defined in Python), which it may call straight; PyNumber_* directly for any
// other. An int or float that left the inline forms (`sin(i) * 3`, a float times an int) took
// the helper's call and its table's indirect branch, about 10 guest instructions each:
// pyperformance's float benchmark ran 0.6% slower until this test was inline.
void Lowerer::CallBinaryObject(const Instr& in) {
  const Operand a = V(LirReg(in.args[0])), b = V(LirReg(in.args[1]));
  SetPrevInstr(in.bc);
  const int object = NewBlock(), done = NewBlock();
  const int type = Load(a, offsetof(PyObject, ob_type), Type::kPtr);
  const int flags = Load(V(type), offsetof(PyTypeObject, tp_flags), Type::kI64);
  const int heap = Binary(lir::Op::kAnd, V(flags), Operand::Imm(Py_TPFLAGS_HEAPTYPE), Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(heap), Operand::Imm(0), object);
  Call(kBinaryHelpers[in.imm], {a, b}, LirReg(in.dst));
  Jmp(done);
  cur_ = object;
  Call(Helper::a64_binary_object, {a, b, Operand::Imm(in.imm)}, LirReg(in.dst));
  Jmp(done);
  cur_ = done;
  NotePrevInstr(in.bc);
  DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
}

// BINARY_OP with inline forms, as 3.11's specialised BINARY_OPs have: ints of at most one
// digit (|v| < 2**30) for + - * // % (a divisor > 0), exact in 64 bits and boxed by
// a64_box_int; exact floats for + - * / (a divisor other than +-0.0, which raises),
// computed in D registers and boxed by PyFloat_FromDouble. An operand that is an int
// constant rules the float form out (int op float is mixed: stock takes it generically
// too), a float constant the int form, and a constant of any other type (`"%d" % n`) both.
// Anything else, and a failed guard, through kBinaryHelpers (PyNumber_*, or for + - * / the
// a64_number_* helpers, which take a float and an int of one digit themselves).
void Lowerer::LowerArithmetic(const Instr& in) {
  const bool ints = HasIntForm(in);
  // An unboxed result's C value is read only while its object is NULL, but is defined on
  // every path.
  if (UnboxedInt(in.dst)) Mov(Operand::Imm(0), Type::kI64, RawOf(in.dst));
  if (UnboxedFloat(in.dst)) {
    Mov(Operand::FImm(0.0), Type::kF64, RawFloatOf(in.dst));
  }
  const std::optional<lir::Op> fop = FloatFormOf(in.imm);
  const bool floats = HasFloatForm(in);
  const auto generic = [&] {
    if (GenericIntoLocal(in)) return;  // after the fast path, which decides it
    if (StrAppendIntoLocal(in)) return;
    if (MayOverloadOperator(in) && Take(decisions_, Decision::kLowerBinaryObject, in.bc)) {
      return CallBinaryObject(in);
    }
    if (StrConcatSite(in)) {
      return CallChecked(in, Helper::a64_str_concat,
                         {V(LirReg(in.args[0])), V(LirReg(in.args[1])),
                          Operand::Imm(in.imm == NB_INPLACE_ADD ? 1 : 0)});
    }
    CallChecked(in, kBinaryHelpers[in.imm], {V(LirReg(in.args[0])), V(LirReg(in.args[1]))});
  };
  if (!ints && !floats) return generic();
  FastOrGeneric(  // with an unboxed operand, the fast path without a choice
      HasUnboxedOperand(in) ? std::nullopt : std::optional(Decision::kLowerArithmeticInline), in,
      [&](int slow) {
        if (!floats) return SmallIntArithmetic(in, slow);
        if (!ints) return FloatArithmetic(in, *fop, slow);
        const int not_ints = NewBlock(), done = NewBlock();
        SmallIntArithmetic(in, not_ints);
        Jmp(done);
        cur_ = not_ints;
        FloatArithmetic(in, *fop, slow);
        Jmp(done);
        cur_ = done;
      },
      generic);
}

// The small-int form of in.imm (HasSmallIntForm) into in.dst; `slow` when an operand is
// not a small int or a variable divisor is not positive. An operand that is an unboxed
// float goes straight to `not_ints` (the float form, which reads it unboxed). Every form but
// `*` also reads an unboxed temporary or an int object of up to two digits' range (`x * y % m`:
// the product stays unboxed): with |a|, |b| < 2^60, a + b and a - b fit in 64 bits, & | ^
// are exact in two's complement, and // and % by a positive divisor cannot overflow. `*`
// reads them within ProductOperandBits.
void Lowerer::SmallIntArithmetic(const Instr& in, int not_ints) {
  LeaveIfFloatOnly(in, not_ints);
  const int slow = BoxingFirst(in, not_ints);
  const int64_t nb = BinaryOf(in.imm);
  const int bits = nb == NB_MULTIPLY ? ProductOperandBits(in) : kTwoDigitBits;
  const auto [a, b] = SmallIntOperands(in, slow, not_ints, bits);
  const int lhs = a.is_vreg() ? a.vreg : Mov(a, Type::kI64);
  int r;
  if (std::optional<lir::Op> op = SmallIntOp(nb)) {
    r = Binary(*op, V(lhs), b, Type::kI64);  // |a * b| < 2**62
  } else if (nb == NB_RSHIFT || nb == NB_LSHIFT) {
    if (!b.is_imm()) throw std::logic_error("lowering: a shift's count is not a constant");
    r = SmallIntShift(nb, lhs, b.imm, slow);  // by a constant count (HasSmallIntForm)
  } else {
    const int divisor = b.is_vreg() ? b.vreg : Mov(b, Type::kI64);
    if (b.is_vreg()) SlowIf(Cond::kSle, Type::kI64, V(divisor), Operand::Imm(0), slow);
    r = FloorDivOrMod(lhs, divisor, nb == NB_REMAINDER);
  }
  if (!UnboxedInt(in.dst)) return BoxInt(in, r);
  Mov(V(r), Type::kI64, RawOf(in.dst));  // the object stays NULL: unboxed_temporaries.h
  Mov(Operand::Imm(0), Type::kPtr, LirReg(in.dst));
}

// a >> count or a << count for an int a of at most two digits' range and a constant count
// >= 0 (< 63 for <<). Python's >> rounds toward minus infinity, as an arithmetic shift does,
// and past 63 places gives 0 or -1. A << whose result would not keep a bit to spare (shifted
// one place further and back, it is not a) goes to `slow`, where int's slot makes the longer
// int: the spare bit keeps the result off INT64_MIN, an unboxed temporary's float mark.
int Lowerer::SmallIntShift(int64_t nb, int a, int64_t count, int slow) {
  if (nb == NB_RSHIFT) {
    return Binary(lir::Op::kAShr, V(a), Operand::Imm(std::min<int64_t>(count, 63)), Type::kI64);
  }
  const int spare = Binary(lir::Op::kShl, V(a), Operand::Imm(count + 1), Type::kI64);
  const int back = Binary(lir::Op::kAShr, V(spare), Operand::Imm(count + 1), Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(back), V(a), slow);
  return Binary(lir::Op::kAShr, V(spare), Operand::Imm(1), Type::kI64);
}

// How large a product's operands may be, in bits, so that the product fits in 64 bits with a
// bit to spare (|a * b| < 2**62): 31 each, or with a constant k (of one digit) the other's
// 62 - bits(|k|). The FNV prime times a 32-bit hash, a linear congruential generator's
// multiplier times its 31-bit state, a product of two values reduced modulo 2**31 - 1 all
// fit, without a test on the result.
int Lowerer::ProductOperandBits(const Instr& in) const {
  for (int reg : in.args) {
    if (std::optional<int64_t> k = SmallIntConst(reg)) {
      const uint64_t magnitude = *k < 0 ? 0 - static_cast<uint64_t>(*k) : static_cast<uint64_t>(*k);
      const int width = magnitude == 0 ? 0 : 64 - __builtin_clzll(magnitude);
      return std::clamp(62 - width, kOneDigitBits + 1, kTwoDigitBits);
    }
  }
  return kOneDigitBits + 1;
}

// An int form's first step: operands that are unboxed floats only (not of both kinds) go to
// `float_form` while their object is NULL, since the int form reads objects.
void Lowerer::LeaveIfFloatOnly(const Instr& in, int float_form) {
  for (int a : in.args) {
    if (UnboxedFloat(a) && !IsDual(a)) {
      SlowIf(Cond::kEq, Type::kPtr, V(LirReg(a)), Operand::Imm(0), float_form);
    }
  }
}

int Lowerer::RawVReg(std::map<int, int>* regs, int reg, Type t) {
  auto it = regs->find(reg);
  if (it == regs->end()) it = regs->emplace(reg, out_.NewVReg(t)).first;
  return it->second;
}

// The block `in`'s small-int form leaves for when a guard fails: `target` itself, or, when
// an operand is an unboxed temporary, a cold block that boxes those still unboxed (the
// other forms and the generic call take objects) and then goes to `target`.
int Lowerer::BoxingFirst(const Instr& in, int target) {
  std::vector<int> raw_operands;
  for (int a : in.args) {
    if (IsUnboxed(a)) raw_operands.push_back(a);
  }
  if (raw_operands.empty()) return target;
  const int saved = cur_;
  const int box = ColdBlock();
  cur_ = box;
  for (int a : raw_operands) {
    const int boxed = NewBlock(), unboxed = NewBlock();
    Br(Cond::kEq, V(LirReg(a)), Operand::Imm(0), unboxed, boxed);
    cur_ = unboxed;
    SetPrevInstr(in.bc);
    BoxRaw(a);
    DeoptIf(in, Cond::kEq, V(LirReg(a)), Operand::Imm(0));  // the state may hold NULLs
    Jmp(boxed);
    cur_ = boxed;
  }
  Jmp(target);
  cur_ = saved;
  return box;
}

// Unboxed temporary `a`'s object from its raw value (NULL when out of memory).
void Lowerer::BoxRaw(int a) {
  const auto box_int = [&] { Call(Helper::a64_box_int, {V(RawOf(a))}, LirReg(a)); };
  const auto box_float = [&] { Call(Helper::PyFloat_FromDouble, {V(RawFloatOf(a))}, LirReg(a)); };
  const int done = NewBlock();
  if (IsDual(a)) {
    const int as_int = NewBlock(), as_float = NewBlock();
    Br(Cond::kEq, V(RawOf(a)), Operand::Imm(kRawFloatMark), as_float, as_int);
    cur_ = as_int;
    box_int();
    Jmp(done);
    cur_ = as_float;
    box_float();
  } else if (UnboxedInt(a)) {
    box_int();
  } else {
    box_float();
  }
  Jmp(done);
  cur_ = done;
}

// Python's a // b or a % b for b > 0: C's truncating quotient and remainder, moved down by
// one step when the remainder is negative (the quotient rounds toward -inf, the remainder
// takes b's sign).
int Lowerer::FloorDivOrMod(int a, int b, bool mod) {
  const int rem = Binary(lir::Op::kSRem, V(a), V(b), Type::kI64);
  const int neg = Compare(V(rem), Operand::Imm(0), Cond::kSlt);
  const int exact = mod ? rem : Binary(lir::Op::kSDiv, V(a), V(b), Type::kI64);
  const int stepped = mod ? Binary(lir::Op::kAdd, V(rem), V(b), Type::kI64)
                          : Binary(lir::Op::kSub, V(exact), Operand::Imm(1), Type::kI64);
  return Select(V(neg), V(stepped), V(exact), Type::kI64);
}

// a op b of two exact floats into in.dst; `slow` when either is not one, or for a division
// by +-0.0.
void Lowerer::FloatArithmetic(const Instr& in, lir::Op op, int not_floats) {
  const int slow = BoxingFirst(in, not_floats);
  const auto [fa, fb] = FloatOperands(in, slow);
  if (op == lir::Op::kFDiv) {
    // The divisor's bits (LIR has no f64 compare): from its object, or, when it may be an
    // unboxed float, through the scratch slot.
    int bits;
    if (UnboxedFloat(in.args[1])) {
      const int scratch = ScratchAddr();
      Store(V(fb), V(scratch), 0, Type::kF64);
      bits = Load(V(scratch), 0, Type::kI64);
    } else {
      bits = Load(V(LirReg(in.args[1])), offsetof(PyFloatObject, ob_fval), Type::kI64);
    }
    const int magnitude =
        Binary(lir::Op::kAnd, V(bits), Operand::Imm(INT64_MAX), Type::kI64);  // sign off
    SlowIf(Cond::kEq, Type::kI64, V(magnitude), Operand::Imm(0), slow);
  }
  const int r = Binary(op, V(fa), V(fb), Type::kF64);
  if (!UnboxedFloat(in.dst)) return BoxFloatResult(in, r, slow);
  Mov(V(r), Type::kF64, RawFloatOf(in.dst));  // the object stays NULL: unboxed_temporaries.h
  if (IsDual(in.dst)) Mov(Operand::Imm(kRawFloatMark), Type::kI64, RawOf(in.dst));
  Mov(Operand::Imm(0), Type::kPtr, LirReg(in.dst));
}

// HIR register `reg`'s double: a float constant's, its raw value while it is an unboxed
// float, else its object's when that is an exact float; else a jump to `slow` (a temporary
// of both kinds, or an int one, that holds an int goes there too).
int Lowerer::FloatOperand(int reg, int slow) {
  if (ConstKindOf(reg) == ConstKind::kFloat) {  // a float constant: no type test
    return Load(V(LirReg(reg)), offsetof(PyFloatObject, ob_fval), Type::kF64);
  }
  if (!UnboxedFloat(reg)) {
    if (UnboxedInt(reg)) {  // an int temporary: NULL while it holds a C int
      SlowIf(Cond::kEq, Type::kPtr, V(LirReg(reg)), Operand::Imm(0), slow);
    }
    return FloatValue(V(LirReg(reg)), slow);
  }
  const auto raw = [&] {
    if (IsDual(reg)) {
      const int is_float = NewBlock();
      Br(Cond::kEq, V(RawOf(reg)), Operand::Imm(kRawFloatMark), is_float, slow);
      cur_ = is_float;
    }
    return RawFloatOf(reg);
  };
  return RawOrBoxed(reg, Type::kF64, raw, [&] { return FloatValue(V(LirReg(reg)), slow); });
}

// `obj`'s double when it is an exact float, else a jump to `slow`.
int Lowerer::FloatValue(Operand obj, int slow) {
  const int type = Load(obj, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_float_type), slow);
  return Load(obj, offsetof(PyFloatObject, ob_fval), Type::kF64);
}

// Both operands of `in` as FloatOperand reads them. When both are objects that need a type
// test (not float constants, not unboxed temporaries), the two tests are one branch
// (SlowIfEither).
std::pair<int, int> Lowerer::FloatOperands(const Instr& in, int slow) {
  const int ra = in.args[0], rb = in.args[1];
  if (ra == rb) {
    const int a = FloatOperand(ra, slow);
    return {a, a};
  }
  const auto tested = [this](int reg) {
    return ConstKindOf(reg) != ConstKind::kFloat && !IsUnboxed(reg);
  };
  if (!tested(ra) || !tested(rb)) {
    const int a = FloatOperand(ra, slow);
    return {a, FloatOperand(rb, slow)};
  }
  const Operand oa = V(LirReg(ra)), ob = V(LirReg(rb));
  // Straight after the int form's failure (only its paired tests lead here), the types it
  // loaded are still in their registers.
  const OperandTypes& known = operand_types_;
  const bool reuse = known.fail == cur_ && known.a == ra && known.b == rb;
  const int ta = reuse ? known.ta : Load(oa, offsetof(PyObject, ob_type), Type::kPtr);
  const int tb = reuse ? known.tb : Load(ob, offsetof(PyObject, ob_type), Type::kPtr);
  const Operand float_type = Imm(rt_.py_float_type);
  SlowIfEither(Cond::kNe, Type::kPtr, V(ta), float_type, Cond::kNe, V(tb), float_type, slow, in.bc);
  const int a = Load(oa, offsetof(PyFloatObject, ob_fval), Type::kF64);
  return {a, Load(ob, offsetof(PyFloatObject, ob_fval), Type::kF64)};
}

}  // namespace a64jit::lower::internal
