// CALL: the call stub, builtins and method descriptors called inline (len, ord, chr,
// isinstance, list.append, conversions).
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

void Lowerer::LowerCall(const Instr& in) {
  if (in.kwnames >= 0) return CallWithKeywords(in);
  const KnownCall known = known_calls_.Of(in);
  if (known == KnownCall::kMethodDescriptor || known == KnownCall::kCFunction) {
    // Both paths use one CCallCache: the stub's call fills what the inline path reads.
    auto* cache =
        rt_.call_stub != 0 ? reinterpret_cast<runtime::CCallCache*>(NewSiteCache(&in)) : nullptr;
    if (cache == nullptr || rt_.eval_breaker == 0) return CallGeneric(in, cache);
    const bool method = known == KnownCall::kMethodDescriptor;
    return FastOrGeneric(
        method ? Decision::kLowerMethodDescriptorCall : Decision::kLowerCFunctionCall, in,
        [&](int slow) { InlineCCall(in, cache, method, slow); }, [&] { CallGeneric(in, cache); });
  }
  if (KnownCallInline(known)) {
    return FastOrGeneric(
        Decision::kLowerKnownCall, in, [&](int slow) { LowerKnownCall(in, known, slow); },
        [&] { CallGeneric(in); });
  }
  CallGeneric(in);
}

// CALL without keywords. The call stub makes the call: a C function through the site's
// CCallCache (`c_call`, or a new one), a compiled callee without a host frame between (and
// under Unicorn without nested emulation). Without it, the host helper.
void Lowerer::CallGeneric(const Instr& in, runtime::CCallCache* c_call) {
  OwnLentOperands(in);  // the stub's and the helper's calls take every reference
  const int p = Spill(in.args);
  const int dst = LirReg(in.dst);
  if (rt_.call_stub != 0 && c_call == nullptr) {
    c_call = reinterpret_cast<runtime::CCallCache*>(NewSiteCache(&in));  // argc in its header
  }
  if (rt_.call_stub != 0 && c_call != nullptr) {  // the stub takes no site without a cache
    // The stub stores prev_instr from the cache's header: two or three instructions fewer a
    // site (the stdlib functions have 10,000), and two more run a C call.
    const int tagged = SiteAddress(
        c_call, IsNullReg(in.args[0]) ? 0 : static_cast<int64_t>(runtime::kCCallMethodShape));
    // By name: a direct call when the stub is in range (an indirect one costs a lookup
    // under QEMU and a literal and a register here).
    Mov(V(CallNamed(kCallStubName, {V(tstate_), V(p), V(tagged)}, Type::kI64)), Type::kPtr, dst);
  } else {
    SetPrevInstr(in.bc);
    Call(Helper::a64_call, {V(tstate_), V(p), Operand::Imm(in.imm), Operand::Imm(0)}, dst);
  }
  NotePrevInstr(-1);  // not relied on past a call of Python code (a tracer may move it)
  CallResultCheck(in, dst);
}

// CALL with keyword arguments (KW_NAMES' constant names). The keyword-call stub, made with the
// call stub (call_stub.h), enters a compiled callee with no host frame between; without it,
// the host helper makes the whole call.
void Lowerer::CallWithKeywords(const Instr& in) {
  OwnLentOperands(in);  // both take every reference
  const int p = Spill(in.args);
  const Operand kwnames = Imm(Const(in.kwnames));
  if (rt_.call_stub == 0) {
    return CallChecked(in, Helper::a64_call, {V(tstate_), V(p), Operand::Imm(in.imm), kwnames});
  }
  const int dst = LirReg(in.dst);
  SetPrevInstr(in.bc);
  Mov(V(CallNamed(kKeywordCallStubName, {V(tstate_), V(p), Operand::Imm(in.imm), kwnames},
                  Type::kI64)),
      Type::kPtr, dst);
  NotePrevInstr(-1);  // not relied on past a call of Python code (a tracer may move it)
  CallResultCheck(in, dst);
}

// A call's result `dst` NULL: its error exit. When the CheckTracing after it is a
// CheckTracingOfCall (fuse_call_checks.cc), the test is left to it, which tests both in one
// branch (a cold block then tells them apart).
void Lowerer::CallResultCheck(const Instr& in, int dst) {
  const Instr* next = Following(in, 1);
  if (next != nullptr && next->op == Op::kCheckTracingOfCall && rt_.eval_breaker != 0) {
    pending_result_check_ = ResultCheck{in.state, dst};
    return;
  }
  DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));
}

bool Lowerer::KnownCallInline(KnownCall known) const {
  switch (known) {
    case KnownCall::kNone:
    case KnownCall::kMethodDescriptor:  // LowerCall's own cases
    case KnownCall::kCFunction:
      return false;
    case KnownCall::kLen:
      return rt_.builtin_len != 0 && rt_.py_list_type != 0 && rt_.py_tuple_type != 0 &&
             rt_.py_str_type != 0;
    case KnownCall::kIsInstance:
      return rt_.builtin_isinstance != 0;
    case KnownCall::kListAppend:
      return rt_.list_append != 0 && rt_.py_list_type != 0;
    case KnownCall::kOrd:
      return rt_.builtin_ord != 0 && rt_.py_str_type != 0 && rt_.small_int_zero != 0;
    case KnownCall::kChr:
      return rt_.builtin_chr != 0 && rt_.ascii_char_zero != 0 && rt_.py_long_type != 0;
    case KnownCall::kIntOf:
      return rt_.py_long_type != 0;
    case KnownCall::kStrOf:
      return rt_.py_str_type != 0;
    case KnownCall::kTupleOf:
      return rt_.py_tuple_type != 0;
    case KnownCall::kTypeOf:
      return rt_.py_type_type != 0;
  }
  return false;
}

// The inline form of a known call (known_calls.h) into in.dst, taking the references of
// in.args; `slow` (the generic call, with every reference still held) when the callable is
// not the one expected or the arguments are not ones the inline form handles.
void Lowerer::LowerKnownCall(const Instr& in, KnownCall known, int slow) {
  switch (known) {
    case KnownCall::kNone:
    case KnownCall::kMethodDescriptor:
    case KnownCall::kCFunction:
      break;
    case KnownCall::kLen:
      return InlineLen(in, slow);
    case KnownCall::kIsInstance:
      return InlineIsInstance(in, slow);
    case KnownCall::kListAppend:
      return InlineListAppend(in, slow);
    case KnownCall::kOrd:
      return InlineOrd(in, slow);
    case KnownCall::kChr:
      return InlineChr(in, slow);
    case KnownCall::kIntOf:
      return InlineConversion(in, rt_.py_long_type, slow);
    case KnownCall::kStrOf:
      return InlineConversion(in, rt_.py_str_type, slow);
    case KnownCall::kTupleOf:
      return InlineConversion(in, rt_.py_tuple_type, slow);
    case KnownCall::kTypeOf:
      return InlineTypeOf(in, slow);
  }
}

// A Call's operand `i` released after an inline form borrowed it: unless it was lent
// (hir::Instr::borrowed), when the frame's local holds it and the call had no reference.
void Lowerer::ReleaseOperand(const Instr& in, size_t i) {
  if (hir::Lent(in, i)) return;
  if (i == 1 && in.lent_self) return;  // only called on the method shape (the inline forms')
  Decref(LirReg(in.args[i]), false, in.bc);
}

// As ReleaseOperand, for a callable the runtime also holds (ReleaseHeld).
void Lowerer::ReleaseHeldOperand(const Instr& in, size_t i) {
  if (!hir::Lent(in, i)) ReleaseHeld(V(LirReg(in.args[i])));
}

// A reference to each operand `in` was lent, for a path that takes them all (the call stub,
// a64_call): what the refcount pass would have added before the Call without the loan.
void Lowerer::OwnLentOperands(const Instr& in) {
  for (size_t i = 0; i < in.args.size(); i++) {
    if (hir::Lent(in, i)) Incref(V(LirReg(in.args[i])));
  }
  // A lent self (hir::Instr::lent_self) lacks its reference on the method shape alone.
  if (in.lent_self) OnMethodShape(LirReg(in.args[0]), [&] { Incref(V(LirReg(in.args[1]))); });
}

// The callable's reference, released without a test: the runtime holds one more
// (code_info.cc), so this one is never the last.
void Lowerer::ReleaseHeld(Operand obj) {
  const int rc = Load(obj, 0, Type::kI64);
  Binary(lir::Op::kSub, V(rc), Operand::Imm(1), Type::kI64, rc);
  Store(V(rc), obj, 0, Type::kI64);
}

// len(x), as 3.11's PRECALL_NO_KW_LEN makes it: for an exact list, tuple, dict or (ready) str
// the word after the object header (ob_size, ma_used, PyASCIIObject.length), read inline; for
// anything else PyObject_Size, called directly (a set, bytes, a class's __len__) instead of
// through the call stub and the builtin's own call (about 100 instructions fewer).
void Lowerer::InlineLen(const Instr& in, int slow) {
  static_assert(offsetof(PyVarObject, ob_size) == 16 && offsetof(PyASCIIObject, length) == 16 &&
                    offsetof(PyDictObject, ma_used) == 16,
                "one load reads the length of all four");
  const Operand callable = V(LirReg(in.args[1]));
  const int x = LirReg(in.args[2]);
  SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_len), slow);
  const int type = Load(V(x), offsetof(PyObject, ob_type), Type::kPtr);
  const int have = NewBlock(), is_str = NewBlock(), not_str = NewBlock(), other = ColdBlock();
  const int boxed = NewBlock();
  Br(Cond::kEq, V(type), Imm(rt_.py_str_type), is_str, not_str);
  cur_ = is_str;
  const int state = Load(V(x), offsetof(PyASCIIObject, state), Type::kI32);
  const int ready = Binary(lir::Op::kAnd, V(state), Operand::Imm(StrReadyBit()), Type::kI32);
  SlowIf(Cond::kEq, Type::kI32, V(ready), Operand::Imm(0), other);
  Jmp(have);
  cur_ = not_str;
  const int not_list = NewBlock(), not_tuple = NewBlock();
  Br(Cond::kEq, V(type), Imm(rt_.py_list_type), have, not_list);
  cur_ = not_list;
  Br(Cond::kEq, V(type), Imm(rt_.py_tuple_type), have, not_tuple);
  cur_ = not_tuple;
  if (rt_.py_dict_type != 0) {
    Br(Cond::kEq, V(type), Imm(rt_.py_dict_type), have, other);
  } else {
    Jmp(other);
  }
  cur_ = have;
  const int n = Load(V(x), offsetof(PyVarObject, ob_size), Type::kI64);
  ReleaseOperand(in, 2);
  ReleaseHeldOperand(in, 1);
  Jmp(boxed);
  cur_ = other;  // PyObject_Length's -1 is the error exit, with both references released
  SetPrevInstr(in.bc);
  Call(Helper::PyObject_Size, {V(x)}, n, Type::kI64);
  ReleaseOperand(in, 2);
  ReleaseHeldOperand(in, 1);
  DeoptIf(in, Cond::kSlt, V(n), Operand::Imm(0));
  Jmp(boxed);
  cur_ = boxed;
  BoxInt(in, n);
}

int64_t Lowerer::StrStateMask(bool compact_ascii) {
  PyASCIIObject probe{};
  probe.state.ready = 1;
  probe.state.compact = compact_ascii ? 1 : 0;
  probe.state.ascii = compact_ascii ? 1 : 0;
  uint32_t word = 0;
  std::memcpy(&word, &probe.state, sizeof(word));
  return word;
}

// The int value `v` into in.dst: one of the small ints (a new reference) from kSmallIntMin
// to kSmallIntMax, else a64_box_int's.
void Lowerer::BoxInt(const Instr& in, int v) {
  if (rt_.small_int_zero == 0) return CallChecked(in, Helper::a64_box_int, {V(v)});
  const std::optional<hir::StoreTarget> target = StoreTargetOfValue(in);
  bool small_ints_taken = false;
  FastOrGeneric(
      Decision::kLowerSmallIntBox, in,
      [&](int big) {
        // one unsigned compare: v - kSmallIntMin wraps past the range for v < kSmallIntMin
        const int index = Binary(lir::Op::kSub, V(v), Operand::Imm(kSmallIntMin), Type::kI64);
        SlowIf(Cond::kUgt, Type::kI64, V(index), Operand::Imm(kSmallIntMax - kSmallIntMin), big);
        SmallInt(v, LirReg(in.dst));
        small_ints_taken = true;
      },
      [&] {
        // A result the next instruction stores into a local (StoreLocalResult) may be made in
        // the local's old int (ReuseInt). Asked after the small-int form, so that
        // a limit declining that one declines this one too.
        if (small_ints_taken && target &&
            Take(decisions_, Decision::kLowerIntStoreInPlace, in.bc)) {
          return ReuseInt(in, v, *target->store, target->local_operand);
        }
        CallChecked(in, Helper::a64_box_int, {V(v)});
      });
}

// in.dst = the int `v` (past the small ints) made in the local's old int. Where that int is
// an operand (`n = n + 1`: OperandHoldingLocal), it passed the int guards, so it is an exact
// int of one or two digits (a zero of none is the small int, never held by one), and
// a64_box_int_reusing's work for one digit is inline: when only the local holds it and `v`
// fits one digit, its size and digit are written and its count set to 2 (the local's and the
// result's; the store's release takes one). About 25 guest instructions fewer than the
// helper's call. Otherwise the helper, out of line, which writes a value of two digits into
// an old int of two (a 32-bit hash's state) or makes a new int. Any other store target
// (`x = a + b`, a range loop's variable) calls the helper, which tests the local's value
// itself: inline, those tests made the stdlib's code 1% larger for a fifth of the gain.
void Lowerer::ReuseInt(const Instr& in, int v, const Instr& store, int local_operand) {
  // The helper's call, given the local's address, wherever it is emitted.
  const auto call_helper = [&] {
    const int slot =
        Binary(lir::Op::kAdd, V(frame_), Operand::Imm(LocalOffset(store.imm)), Type::kPtr);
    CallChecked(in, Helper::a64_box_int_reusing, {V(v), V(slot)});
  };
  // Only a BINARY_OP's target has a local operand (FindLoopTarget's: none).
  if (local_operand < 0) return call_helper();
  constexpr int64_t kDigitMax = (int64_t{1} << 30) - 1;
  const int call = ColdBlock(), done = NewBlock();
  const int old = LirReg(in.args[static_cast<size_t>(local_operand)]);
  const int biased = Binary(lir::Op::kAdd, V(v), Operand::Imm(kDigitMax), Type::kI64);
  const int count = Load(V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
  SlowIfEither(Cond::kNe, Type::kI64, V(count), Operand::Imm(1), Cond::kUgt, V(biased),
               Operand::Imm(2 * kDigitMax), call, in.bc);
  // sign = -1 or 0 (v >> 63); the size is sign | 1 and the digit |v| = (v ^ sign) - sign
  const int sign = Binary(lir::Op::kAShr, V(v), Operand::Imm(63), Type::kI64);
  Store(V(Binary(lir::Op::kOr, V(sign), Operand::Imm(1), Type::kI64)), V(old),
        offsetof(PyVarObject, ob_size), Type::kI64);
  const int magnitude = Binary(lir::Op::kSub, V(Binary(lir::Op::kXor, V(v), V(sign), Type::kI64)),
                               V(sign), Type::kI64);
  Store(V(Truncate(magnitude, Type::kI32)), V(old), offsetof(PyLongObject, ob_digit), Type::kI32);
  Store(Operand::Imm(2), V(old), offsetof(PyObject, ob_refcnt), Type::kI64);
  Mov(V(old), Type::kPtr, LirReg(in.dst));
  Jmp(done);
  cur_ = call;
  call_helper();  // a value of two digits may still go into an old int of two
  Jmp(done);
  cur_ = done;
}

// dst = the small int whose value `v` is known to be in range, a new reference.
void Lowerer::SmallInt(int v, int dst) {
  static_assert(kSmallIntStride == 32, "a shift by 5");
  const int offset = Binary(lir::Op::kShl, V(v), Operand::Imm(5), Type::kI64);
  Binary(lir::Op::kAdd, V(offset), Imm(rt_.small_int_zero), Type::kPtr, dst);
  Incref(V(dst));
}

// ord(c) of an exact str of one ASCII character (compact: its bytes follow the header).
void Lowerer::InlineOrd(const Instr& in, int slow) {
  const Operand callable = V(LirReg(in.args[1]));
  const int c = LirReg(in.args[2]);
  SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_ord), slow);
  const int type = Load(V(c), offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_str_type), slow);
  const int length = Load(V(c), offsetof(PyASCIIObject, length), Type::kI64);
  SlowIf(Cond::kNe, Type::kI64, V(length), Operand::Imm(1), slow);
  RequireCompactAscii(V(c), slow);
  const int byte = Load(V(c), sizeof(PyASCIIObject), Type::kI8);
  const int code = ZExt(V(byte));
  ReleaseOperand(in, 2);
  ReleaseHeldOperand(in, 1);
  SmallInt(code, LirReg(in.dst));
}

// chr(i) for a small int 0 <= i < 128: the interpreter's own one-character str.
void Lowerer::InlineChr(const Instr& in, int slow) {
  const Operand callable = V(LirReg(in.args[1]));
  SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_chr), slow);
  const Operand value = SmallIntOperand(in.args[2], slow);
  const int code = value.is_vreg() ? value.vreg : Mov(value, Type::kI64);
  SlowIf(Cond::kUgt, Type::kI64, V(code), Operand::Imm(127), slow);
  AsciiChar(code, LirReg(in.dst));
  ReleaseOperand(in, 2);
  ReleaseHeldOperand(in, 1);
}

// `s` is an exact str, compact and ASCII (its bytes follow the header), or a jump to `slow`.
void Lowerer::RequireAsciiStr(Operand s, int slow) {
  const int type = Load(s, offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_str_type), slow);
  RequireCompactAscii(s, slow);
}

// A str's `state` has its ready, compact and ascii bits (its characters are the bytes after
// the header), else a jump to `slow`.
void Lowerer::RequireCompactAscii(Operand s, int slow) {
  const int state = Load(s, offsetof(PyASCIIObject, state), Type::kI32);
  const int64_t bits = StrCompactAsciiBits();
  const int has = Binary(lir::Op::kAnd, V(state), Operand::Imm(bits), Type::kI32);
  SlowIf(Cond::kNe, Type::kI32, V(has), Operand::Imm(bits), slow);
}

// dst = the interpreter's own one-character str for `code` (known to be below 128), a new
// reference.
void Lowerer::AsciiChar(int code, int dst) {
  const int offset =
      Binary(lir::Op::kMul, V(code), Operand::Imm(rt_.ascii_char_stride), Type::kI64);
  Binary(lir::Op::kAdd, V(offset), Imm(rt_.ascii_char_zero), Type::kPtr, dst);
  Incref(V(dst));
}

// isinstance(x, cls): True for x exactly of type cls, else a64_isinstance (what the
// builtin calls after parsing its arguments, PyObject_IsInstance, with its __class__
// lookup skipped where that can only find type(x)).
void Lowerer::InlineIsInstance(const Instr& in, int slow) {
  const Operand callable = V(LirReg(in.args[1]));
  const int x = LirReg(in.args[2]), cls = LirReg(in.args[3]);
  SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.builtin_isinstance), slow);
  const int type = Load(V(x), offsetof(PyObject, ob_type), Type::kPtr);
  const int result = out_.NewVReg(Type::kI64);
  const int exact = NewBlock(), other = NewBlock(), done = NewBlock();
  Br(Cond::kEq, V(type), V(cls), exact, other);
  cur_ = exact;
  Mov(Operand::Imm(1), Type::kI64, result);
  Jmp(done);
  cur_ = other;
  SetPrevInstr(in.bc);
  SExtInt(Call(Helper::a64_isinstance, {V(x), V(cls)}, -1, Type::kI64), result);
  Jmp(done);
  cur_ = done;
  ReleaseOperand(in, 2);
  ReleaseOperand(in, 3);
  ReleaseHeldOperand(in, 1);
  // FuseIsInstanceTests' IsTrueOfIsInstance two on, the result's release the one after it.
  const Instr* is_true = Following(in, 2);
  if (is_true != nullptr && is_true->op == Op::kIsTrueOfIsInstance && is_true->args[0] == in.dst) {
    // 0 or 1, answered by the types: the IsTrue's int
    const int pure = NewBlock(), ran_code = NewBlock(), after = NewBlock();
    Br(Cond::kUlt, V(result), Operand::Imm(runtime::kIsInstanceRanCode), pure, ran_code);
    cur_ = pure;
    Mov(V(result), Type::kI64, LirReg(is_true->dst));
    Jmp(after);
    RejoinAfter(Following(in, 3), after);
    cur_ = ran_code;
  }
  DeoptIf(in, Cond::kSlt, V(result), Operand::Imm(0));  // the references are released
  const int answer = Binary(lir::Op::kAnd, V(result), Operand::Imm(1), Type::kI64);
  Select(V(answer), Imm(rt_.py_true), Imm(rt_.py_false), Type::kPtr, LirReg(in.dst));
  Incref(V(LirReg(in.dst)));
}

// int(x), str(x) or tuple(x), `type` being the callable expected (&PyLong_Type,
// &PyUnicode_Type, &PyTuple_Type; a static type, never freed): x itself when it is exactly of
// that type (its reference is the result), else the conversion the type's constructor makes of
// one positional argument (a64_int_of, PyObject_Str, PySequence_Tuple), without the type call's
// dispatch and argument parsing.
void Lowerer::InlineConversion(const Instr& in, uint64_t type, int slow) {
  const Operand callable = V(LirReg(in.args[1]));
  const int x = LirReg(in.args[2]), dst = LirReg(in.dst);
  SlowIf(Cond::kNe, Type::kI64, callable, Imm(type), slow);
  const int x_type = Load(V(x), offsetof(PyObject, ob_type), Type::kPtr);
  const int same = NewBlock(), other = NewBlock(), done = NewBlock();
  Br(Cond::kEq, V(x_type), Imm(type), same, other);
  cur_ = same;
  Mov(V(x), Type::kPtr, dst);
  if (hir::Lent(in, 2)) Incref(V(dst));  // the result's own reference
  Jmp(done);
  cur_ = other;
  SetPrevInstr(in.bc);
  if (type == rt_.py_long_type) {
    Call(Helper::a64_int_of, {V(tstate_), V(x)}, dst);
  } else if (type == rt_.py_tuple_type) {
    Call(Helper::PySequence_Tuple, {V(x)}, dst);
  } else {
    Call(Helper::PyObject_Str, {V(x)}, dst);
  }
  ReleaseOperand(in, 2);
  Jmp(done);
  cur_ = done;
  ReleaseHeldOperand(in, 1);
  DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));  // the references are released
}

// type(x), the callable being `type` itself: x's type with a new reference, taken before x's
// reference goes (x may hold the last one to a heap type), as PRECALL_NO_KW_TYPE_1 does. No
// call, so no eval breaker test, as that instruction makes none.
void Lowerer::InlineTypeOf(const Instr& in, int slow) {
  const Operand callable = V(LirReg(in.args[1]));
  const int x = LirReg(in.args[2]), dst = LirReg(in.dst);
  SlowIf(Cond::kNe, Type::kI64, callable, Imm(rt_.py_type_type), slow);
  Load(V(x), offsetof(PyObject, ob_type), Type::kPtr, dst);
  Incref(V(dst));
  ReleaseOperand(in, 2);
  ReleaseHeldOperand(in, 1);
}

// list.append(x) on an exact list with room for one more item (3.11's
// _PyList_AppendTakeRef): the item's reference moves into the list; the result is None.
void Lowerer::InlineListAppend(const Instr& in, int slow) {
  const Operand method = V(LirReg(in.args[0]));
  const int self = LirReg(in.args[1]);
  const Operand item = V(LirReg(in.args[2]));
  SlowIf(Cond::kNe, Type::kI64, method, Imm(rt_.list_append), slow);
  const int type = Load(V(self), offsetof(PyObject, ob_type), Type::kPtr);
  SlowIf(Cond::kNe, Type::kPtr, V(type), Imm(rt_.py_list_type), slow);
  AppendInPlace(V(self), item, hir::Lent(in, 2), slow);  // the list keeps the item
  ReleaseOperand(in, 1);
  ReleaseHeldOperand(in, 0);
  Mov(Imm(rt_.py_none), Type::kPtr, LirReg(in.dst));
  Incref(V(LirReg(in.dst)));
}

// list.append(item) when the exact list `list` has room, else a jump to `slow`: the item
// stored after the last, with a new reference when `incref` (else the caller's moves in).
void Lowerer::AppendInPlace(Operand list, Operand item, bool incref, int slow) {
  const int size = Load(list, offsetof(PyVarObject, ob_size), Type::kI64);
  const int allocated = Load(list, offsetof(PyListObject, allocated), Type::kI64);
  SlowIf(Cond::kSge, Type::kI64, V(size), V(allocated), slow);
  if (incref) Incref(item);
  const int items = Load(list, offsetof(PyListObject, ob_item), Type::kPtr);
  const int offset = Binary(lir::Op::kShl, V(size), Operand::Imm(3), Type::kI64);
  Store(item, V(Binary(lir::Op::kAdd, V(items), V(offset), Type::kPtr)), 0, Type::kPtr);
  Store(V(Binary(lir::Op::kAdd, V(size), Operand::Imm(1), Type::kI64)), list,
        offsetof(PyVarObject, ob_size), Type::kI64);
}

// A C call the site's CCallCache holds, inline: what the call stub's C path does
// (call_stub.cc, bb1-bb10) without the stub's prologue, argument spill and shape tests (about
// 65 guest instructions a call). `method`: a method descriptor (KnownCall::kMethodDescriptor)
// called with LOAD_METHOD's pair, guarded by the cached descriptor and self's exact type
// (3.11's PRECALL_NO_KW_METHOD_DESCRIPTOR_* test the same). Else a builtin C function or class
// (KnownCall::kCFunction) called in the plain shape [NULL, callable, args...], guarded by the
// cached callable and by the cache holding a C call (no compiled callee's state and no class
// a64_instantiate makes: both are borrowed, and the stub's), with the cache's self (the
// function's module, or the class for its vectorcall). Both then test the recursion limit and
// call the C entry with self and the argument (METH_O), NULL (METH_NOARGS) or the argument
// vector (METH_FASTCALL, a vectorcall, METH_VARARGS through a64_varargs_method) and the
// cache's entry_context, release the references and handle a set eval breaker after the call.
// Anything else, an empty cache included, is `slow`: the stub's call with this cache, which
// fills it.
void Lowerer::InlineCCall(const Instr& in, runtime::CCallCache* cache, bool method, int slow) {
  using runtime::CCallCache;
  const SiteRef c = SiteRefOf(cache);
  const Operand callable = V(LirReg(in.args[method ? 0 : 1]));
  const int cached = LoadSite(c, offsetof(CCallCache, callable), Type::kPtr);
  SlowIf(Cond::kNe, Type::kI64, callable, V(cached), slow);
  int self = -1;
  if (method) {
    self = LirReg(in.args[1]);
    // NULL unless the cache holds a descriptor: no object's type matches it then.
    const int self_type = LoadSite(c, offsetof(CCallCache, self_type), Type::kPtr);
    const int type = Load(V(self), offsetof(PyObject, ob_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kI64, V(type), V(self_type), slow);
  } else {
    const int state = LoadSite(c, offsetof(CCallCache, state), Type::kPtr);
    const int self_type = LoadSite(c, offsetof(CCallCache, self_type), Type::kPtr);
    SlowIf(Cond::kNe, Type::kI64, V(Binary(lir::Op::kOr, V(state), V(self_type), Type::kI64)),
           Operand::Imm(0), slow);
    self = LoadSite(c, offsetof(CCallCache, self), Type::kPtr);
  }
  Operand arg = Operand::Imm(0);  // METH_NOARGS, or METH_FASTCALL with no arguments
  if (in.args.size() > 2) {
    const int vector = Spill(std::vector<int>(in.args.begin() + 2, in.args.end()));
    const int fastcall = LoadSite(c, offsetof(CCallCache, fastcall), Type::kI64);
    if (in.args.size() == 3) {
      arg = V(Select(V(fastcall), V(vector), V(LirReg(in.args[2])), Type::kPtr));
    } else {
      SlowIf(Cond::kEq, Type::kI64, V(fastcall), Operand::Imm(0), slow);
      arg = V(vector);
    }
  }
  const int remaining = Load(V(tstate_), kRecursionRemaining, Type::kI32);
  SlowIf(Cond::kSle, Type::kI32, V(remaining), Operand::Imm(0), slow);
  Store(V(Binary(lir::Op::kSub, V(remaining), Operand::Imm(1), Type::kI32)), V(tstate_),
        kRecursionRemaining, Type::kI32);
  const int entry = LoadSite(c, offsetof(CCallCache, entry), Type::kPtr);
  const int context = LoadSite(c, offsetof(CCallCache, entry_context), Type::kPtr);
  SetPrevInstr(in.bc);
  const int result = CallThrough(entry, {V(self), arg, Operand::Imm(in.imm), V(context)});
  NotePrevInstr(-1);  // not relied on past a C function, which may call Python code
  const int after = Load(V(tstate_), kRecursionRemaining, Type::kI32);
  Store(V(Binary(lir::Op::kAdd, V(after), Operand::Imm(1), Type::kI32)), V(tstate_),
        kRecursionRemaining, Type::kI32);
  for (size_t i = 2; i < in.args.size(); i++) ReleaseOperand(in, i);
  if (method) ReleaseOperand(in, 1);       // the plain shape's self is the cache's, borrowed
  ReleaseHeldOperand(in, method ? 0 : 1);  // the cache holds the C function too
  const int dst = LirReg(in.dst);
  Mov(V(result), Type::kPtr, dst);
  const int breaker = Load(V(Mov(Imm(rt_.eval_breaker), Type::kPtr)), 0, Type::kI32);
  const int handle = ColdBlock(), cont = NewBlock();
  Emit(BrInstr(Cond::kNe, Type::kI32, V(breaker), Operand::Imm(0), handle, cont));
  cur_ = handle;
  Call(Helper::a64_after_c_call, {V(tstate_), V(dst)}, dst);
  Jmp(cont);
  cur_ = cont;
  DeoptIf(in, Cond::kEq, V(dst), Operand::Imm(0));
}

// [i64] call *%target(args...): a call of machine code whose address is known at run time.
int Lowerer::CallThrough(int target, lir::Operands args) {
  lir::Instr in;
  in.op = lir::Op::kCall;
  in.base = V(target);
  in.args = InRegisters(std::move(args));
  in.dst = out_.NewVReg(Type::kI64);
  return Emit(std::move(in)).dst;
}

// `isinstance(x, (A, B))` (the builder's fusion): one call with the callable, x, the builtin
// expected and the display's values spilled in a row. The frame's line is set first: an
// __instancecheck__ or a __class__ property may run Python code.
void Lowerer::LowerIsInstanceOfItems(const Instr& in) {
  const std::vector<int> items(in.args.begin() + 2, in.args.end());
  const int p = Spill(items);
  SetPrevInstr(in.bc);
  CallChecked(in, Helper::a64_isinstance_items,
              {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Imm(rt_.builtin_isinstance), V(p),
               Operand::Imm(static_cast<int64_t>(items.size()))});
}

}  // namespace a64jit::lower::internal
