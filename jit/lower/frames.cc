// Frames and control: exception handlers, cells and closures, generators, the eval
// breaker and tracing checks, frame values and stores, identity, references, returns.
#include "jit/lower/lowerer.h"

namespace a64jit::lower::internal {

// ---- Exception handlers ----
// A landing block's FrameLasti and CatchException read prev_instr, which the catch edge
// set to the raising instruction: no SetPrevInstr here. On failure (or, for
// CatchException, while tracing is on) the interpreter takes the frame there (kRaised).
void Lowerer::LowerCatch(const Instr& in) {
  if (in.op == Op::kFrameLasti) {
    Call(Helper::a64_frame_lasti, {V(frame_)}, LirReg(in.dst));
  } else {
    Call(Helper::a64_catch_exception, {V(tstate_), V(frame_), Operand::Imm(in.imm == 0)},
         LirReg(in.dst));
  }
  DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
}

// RAISE_VARARGS 1 or 2: the helper sets the exception (consuming its operands), then the
// error path: the handler's landing block, or the interpreter.
void Lowerer::LowerRaise(const Instr& in) {
  SetPrevInstr(in.bc);
  const Operand cause = in.args.size() > 1 ? V(LirReg(in.args[1])) : Operand::Imm(0);
  CallVoid(Helper::a64_raise, {V(LirReg(in.args[0])), cause});
  EmitDeopt(in.state);
}

// RERAISE: the helper re-raises (setting prev_instr from the lasti entry, if any), then the
// error path without a new traceback entry. While tracing, it does nothing and the
// interpreter redoes the RERAISE with the stack as it was.
void Lowerer::LowerReraise(const Instr& in) {
  const FrameState& st = in.state;
  const Operand lasti = in.imm > 0
                            ? V(LirReg(st.stack[st.stack.size() - static_cast<size_t>(in.imm)]))
                            : Operand::Imm(0);
  SetPrevInstr(in.bc);
  const int r = Call(Helper::a64_reraise, {V(tstate_), V(frame_), V(LirReg(in.args[0])), lasti}, -1,
                     Type::kI64);
  FrameState redo = st;
  redo.kind = FrameState::Kind::kResume;
  redo.catch_block = -1;
  redo.stack.push_back(in.args[0]);
  redo.borrowed.resize(st.stack.size(), false);
  redo.borrowed.push_back(false);  // stolen by the op: the refcount pass made it owned
  DeoptIf(redo, Cond::kNe, V(r), Operand::Imm(0));
  NotePrevInstr(-1);  // the lasti entry's offset
  EmitDeopt(st);
}

// LOAD_DEREF, STORE_DEREF, DELETE_DEREF, DELETE_FAST: cells' contents and locals inline;
// an empty cell or unbound local resumes the interpreter, which raises stock's error.
void Lowerer::LowerCellOrDelete(const Instr& in) {
  if (in.op == Op::kDeleteLocal) {
    const int old = Load(V(frame_), LocalOffset(in.imm), Type::kPtr);
    DeoptIf(in, Cond::kEq, V(old), Operand::Imm(0));
    Store(V(Mov(Operand::Imm(0), Type::kPtr)), V(frame_), LocalOffset(in.imm), Type::kPtr);
    return Decref(old, false, in.bc);
  }
  const int cell = Load(V(frame_), LocalOffset(in.imm), Type::kPtr);
  constexpr int64_t kContents = offsetof(PyCellObject, ob_ref);
  if (in.op == Op::kLoadDeref) {
    Load(V(cell), kContents, Type::kPtr, LirReg(in.dst));
    DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
    return Incref(V(LirReg(in.dst)));
  }
  const int old = Load(V(cell), kContents, Type::kPtr);
  if (in.op == Op::kStoreDeref) {
    Store(V(LirReg(in.args[0])), V(cell), kContents, Type::kPtr);
    return Decref(old, true, in.bc);
  }
  DeoptIf(in, Cond::kEq, V(old), Operand::Imm(0));  // kDeleteDeref
  Store(V(Mov(Operand::Imm(0), Type::kPtr)), V(cell), kContents, Type::kPtr);
  Decref(old, false, in.bc);
}

// COPY_FREE_VARS n: the function's closure cells into its last n locals, where 3.11's
// compiler puts the free variables (hir/passes.cc marks them bound), each with a new
// reference: one load, increment and store a cell, where a64_copy_free_vars was a call.
void Lowerer::LowerCopyFreeVars(const Instr& in) {
  const int func = Load(V(frame_), offsetof(_PyInterpreterFrame, f_func), Type::kPtr);
  const int closure = Load(V(func), offsetof(PyFunctionObject, func_closure), Type::kPtr);
  const int64_t first = f_.code.nlocalsplus - in.imm;
  for (int64_t i = 0; i < in.imm; i++) {
    const int cell = Load(V(closure), offsetof(PyTupleObject, ob_item) + 8 * i, Type::kPtr);
    Incref(V(cell));
    Store(V(cell), V(frame_), LocalOffset(first + i), Type::kPtr);
  }
}

// One helper call, as the op's Call column in hir/ops.h says (call_rules.h).
void Lowerer::LowerByCallRule(const Instr& in, const CallRule& rule) {
  lir::Operands args;
  if (rule.lead == Lead::kThread) args.push_back(V(tstate_));
  if (rule.lead == Lead::kFrame || rule.lead == Lead::kFrameName) args.push_back(V(frame_));
  if (rule.lead == Lead::kFrameName) args.push_back(Imm(Name(in.imm)));
  for (int a : in.args) args.push_back(V(LirReg(a)));
  if (rule.tail == Tail::kName || rule.tail == Tail::kNameNull) {
    args.push_back(Imm(Name(in.imm)));
  }
  if (rule.tail == Tail::kImm) args.push_back(Operand::Imm(in.imm));
  if (rule.tail == Tail::kNameNull) args.push_back(Operand::Imm(0));
  if (rule.tail == Tail::kNullPad) {
    while (static_cast<int>(args.size()) < runtime::HelperArity(rule.helper)) {
      args.push_back(Operand::Imm(0));
    }
  }
  if (rule.outcome == Outcome::kObject) return CallChecked(in, rule.helper, std::move(args));
  if (rule.outcome == Outcome::kStatus) {
    CallInt(in, rule.helper, std::move(args), in.dst >= 0 ? LirReg(in.dst) : -1);
    return;
  }
  SetPrevInstr(in.bc);
  if (rule.outcome == Outcome::kValue) {
    Call(rule.helper, std::move(args), LirReg(in.dst));
    return;
  }
  CallVoid(rule.helper, std::move(args));
}

// DELETE_GLOBAL: a missing name resumes the interpreter, which raises NameError.
void Lowerer::LowerDeleteGlobal(const Instr& in) {
  const int r = CallInt(in, Helper::a64_delete_global, {V(frame_), Imm(Name(in.imm))});
  ResumeIfOne(in, V(r));
}

// MATCH_MAPPING, MATCH_SEQUENCE: a flag of the subject's type.
void Lowerer::LowerTypeFlags(const Instr& in) {
  const int type = Load(V(LirReg(in.args[0])), offsetof(PyObject, ob_type), Type::kPtr);
  const int flags = Load(V(type), offsetof(PyTypeObject, tp_flags), Type::kI64);
  const int bit = Binary(lir::Op::kAnd, V(flags), Operand::Imm(in.imm), Type::kI64);
  Compare(V(bit), Operand::Imm(0), Cond::kNe, LirReg(in.dst));
}

void Lowerer::LowerMatchClass(const Instr& in) {
  CallChecked(
      in, Helper::a64_match_class,
      {V(LirReg(in.args[0])), V(LirReg(in.args[1])), Operand::Imm(in.imm), V(LirReg(in.args[2]))});
}

// BEFORE_WITH (exit, enter) and SEND (value, 1 yielded / 0 returned): results through
// the scratch slot. SEND takes the send stub when there is one.
void Lowerer::LowerTwoResults(const Instr& in) {
  const int p = ScratchAddr();
  if (in.op == Op::kBeforeWith) {
    CallStatus(in, Helper::a64_before_with, {V(LirReg(in.args[0])), V(p), Operand::Imm(in.imm)});
    Load(V(p), 0, Type::kPtr, LirReg(in.dst));
    Load(V(p), 8, Type::kPtr, LirReg(in.dst2));
    return;
  }
  const lir::Operands args = {V(LirReg(in.args[0])), V(LirReg(in.args[1])), V(p)};
  if (rt_.send_stub != 0) {  // as CallInt, through the stub (send_stub.h)
    SetPrevInstr(in.bc);
    const int r = CallNamed(kSendStubName, {V(tstate_), args[0], args[1], args[2]}, Type::kI64);
    CheckInt(in, r, LirReg(in.dst2));
  } else {
    CallInt(in, Helper::a64_send, args, LirReg(in.dst2));
  }
  Load(V(p), 0, Type::kPtr, LirReg(in.dst));
}

// The locals past the parameters start NULL. Every caller has made them so but the guest
// call stub (call_stub.h), which leaves them to these stores: no loop there.
void Lowerer::ClearLocalsPastParameters() {
  for (int i = f_.code.nargs; i < f_.code.nlocalsplus; i++) {
    Store(Operand::Imm(0), V(frame_), kLocalsPlus + 8 * int64_t{i}, Type::kPtr);
  }
}

// A generator's entry: where it was suspended, and its stack taken over from the frame.
void Lowerer::LowerResume(const Instr& in) {
  if (in.op == Op::kResumedAt) {
    const int prev = Load(V(frame_), kPrevInstr, Type::kPtr);
    const int at = Binary(lir::Op::kAdd, V(first_instr_), Operand::Imm(2 * in.imm), Type::kPtr);
    Compare(V(prev), V(at), Cond::kEq, LirReg(in.dst));
    return;
  }
  if (in.op == Op::kLoadFrameStack) {
    Load(V(frame_), StackOffset(in.imm), Type::kPtr, LirReg(in.dst));
    return;
  }
  const int top = Mov(Operand::Imm(f_.code.nlocalsplus), Type::kI32);  // kResetStackTop
  Store(V(top), V(frame_), kStackTop, Type::kI32);
}

// YIELD_VALUE as ceval.c does it: the stack into the frame, prev_instr at the yield, the
// generator marked suspended; the caller (gen_send_ex2) gets the value.
void Lowerer::LowerYield(const Instr& in) {
  const FrameState& st = in.state;
  for (size_t i = 0; i < st.stack.size(); i++) {
    const int v = LirReg(st.stack[i]);
    if (i < st.borrowed.size() && st.borrowed[i]) Incref(V(v));
    Store(V(v), V(frame_), StackOffset(static_cast<int64_t>(i)), Type::kPtr);
  }
  const int top =
      Mov(Operand::Imm(f_.code.nlocalsplus + static_cast<int64_t>(st.stack.size())), Type::kI32);
  Store(V(top), V(frame_), kStackTop, Type::kI32);
  SetPrevInstr(st.bc);
  constexpr int64_t kFrameState = static_cast<int64_t>(offsetof(PyGenObject, gi_frame_state)) -
                                  static_cast<int64_t>(offsetof(PyGenObject, gi_iframe));
  const int suspended = Mov(Operand::Imm(FRAME_SUSPENDED), Type::kI8);
  Store(V(suspended), V(frame_), kFrameState, Type::kI8);
  Ret(V(LirReg(in.args[0])));
}

// RETURN_GENERATOR; when the helper declines (coroutine origin tracking), the
// interpreter redoes the instruction.
void Lowerer::LowerMakeGenerator(const Instr& in) {
  CallChecked(in, Helper::a64_make_generator, {V(tstate_), V(frame_)});
  ResumeIfOne(in, V(LirReg(in.dst)));
}

// Where the interpreter tests its eval breaker and, through the opcode it dispatches on,
// tracing: one word of each (interp->ceval.eval_breaker, tstate->cframe->use_tracing) on
// the fast path, in one guard (SlowIfEither); the helper only when either is set, in a cold
// block. At RESUME (imm 1) only the breaker: the way in tested tracing a moment ago.
void Lowerer::LowerCheckEvalBreaker(const Instr& in) {
  if (rt_.eval_breaker == 0) return;
  const int address = Mov(Imm(rt_.eval_breaker), Type::kPtr);
  const int breaker = Load(V(address), 0, Type::kI32);
  const int slow = ColdBlock();
  if (in.imm == 1) {
    SlowIf(Cond::kNe, Type::kI32, V(breaker), Operand::Imm(0), slow);
  } else {  // the i8 flag first: an either branch's second pair is 32 bits or more
    lir::Instr br = BrInstr(Cond::kNe, Type::kI8, V(LoadUseTracing()), Operand::Imm(0), slow, -1);
    EmitEither(std::move(br), Cond::kNe, Type::kI32, V(breaker), Operand::Imm(0), in.bc);
  }
  const int cont = cur_;
  cur_ = slow;
  SetPrevInstr(in.bc);  // a signal handler's frame argument shows this line
  const int r = Call(Helper::a64_eval_breaker, {V(tstate_)}, -1, Type::kI64);
  FrameState raise = in.state;  // a handler's exception raises at this instruction
  raise.kind = FrameState::Kind::kError;
  raise.bc = in.bc;
  DeoptIf(raise, Cond::kSlt, V(r), Operand::Imm(0));
  ResumeIfOne(in, V(r));
  Jmp(cont);
  cur_ = cont;
}

void Lowerer::LowerCheckTracing(const Instr& in) {
  if (rt_.eval_breaker == 0) return;  // no interpreter state (LIR-level tests)
  if (!pending_result_check_) {
    return DeoptIf(in, Cond::kNe, V(LoadUseTracing()), Operand::Imm(0), Type::kI8);
  }
  // The call's error exit is made here, while the CheckTracing is being lowered: its deopt
  // site comes out the same (the builder gives both instructions the CALL's code unit, and
  // an error exit's reason is kException for both).
  const ResultCheck call = *pending_result_check_;
  pending_result_check_.reset();
  const int either = ColdBlock();
  EmitEitherBranch(BrInstr(Cond::kNe, Type::kI8, V(LoadUseTracing()), Operand::Imm(0), either, -1),
                   Cond::kEq, Type::kPtr, V(call.value), Operand::Imm(0));
  const int cont = cur_;
  cur_ = either;
  if (const int64_t error = MergeableErrorExit(call.state, call.value, in.state); error >= 0) {
    // One exit for both: the result (NULL or not) goes to the frame with the rest, and the
    // runtime takes the call's error exit when it is NULL (DeoptSite::code_if_top_null).
    cold_[static_cast<size_t>(either)] = 1;
    EmitDeopt(in.state, error);
    cur_ = cont;
    return;
  }
  Emit(BrInstr(Cond::kEq, Type::kI64, V(call.value), Operand::Imm(0), -1, -1));
  // The exits after the test that picks one, so that it falls into one of them (LayOutBlocks
  // keeps a group's cold blocks in the order their code began).
  const int error = DeoptBlock(call.state), tracing = DeoptBlock(in.state);
  int* targets = out_.blocks[static_cast<size_t>(either)].instrs.back().targets;
  targets[0] = error;
  targets[1] = tracing;
  cur_ = cont;
}

// The call's error exit as a site only, when the tracing exit after it can stand for it:
// the error leaves the function for the interpreter (no compiled handler), and the tracing
// state's stack is the error state's, entry for entry and borrowed alike, with the call's
// result on top. Its deopt code, or -1.
int64_t Lowerer::MergeableErrorExit(const FrameState& error, int value, const FrameState& tracing) {
  if (error.kind != FrameState::Kind::kError || error.catch_block >= 0 ||
      tracing.kind != FrameState::Kind::kResume || tracing.stack.size() != error.stack.size() + 1 ||
      LirReg(tracing.stack.back()) != value ||
      (tracing.stack.size() <= tracing.borrowed.size() && tracing.borrowed.back()) ||
      !StackBeginsWith(tracing, error)) {
    return -1;
  }
  if (!Take(decisions_, Decision::kLowerMergedCallExit, error.bc)) return -1;
  return static_cast<int64_t>(AddDeoptSite(error, false));
}

// Whether `longer`'s stack begins with `shorter`'s, entry for entry and borrowed alike.
bool Lowerer::StackBeginsWith(const FrameState& longer, const FrameState& shorter) {
  if (longer.stack.size() < shorter.stack.size()) return false;
  for (size_t i = 0; i < shorter.stack.size(); i++) {
    if (longer.stack[i] != shorter.stack[i] || Borrowed(longer, i) != Borrowed(shorter, i)) {
      return false;
    }
  }
  return true;
}

// tstate->cframe->use_tracing: non-zero while sys.settrace or sys.setprofile is on.
int Lowerer::LoadUseTracing() {
  const int cframe = cframe_ >= 0 ? cframe_ : Load(V(tstate_), kThreadCFrame, Type::kPtr);
  return Load(V(cframe), kUseTracing, Type::kI8);
}

// tstate->cframe, loaded once at the entry (and at each resume of a generator, which
// enters there) when more than one tracing test would load it: it stays the same while
// this activation runs (whoever runs other code puts its own back before returning).
void Lowerer::HoistCFrame() {
  if (rt_.eval_breaker == 0) return;  // no tracing tests (LIR-level tests)
  const int tests = CountInstrs([](Op op) { return Unfused(op) == Op::kCheckTracing; });
  if (tests > 1) cframe_ = Load(V(tstate_), kThreadCFrame, Type::kPtr);
}

// The interpreter takes the frame exactly as it is.
void Lowerer::LowerEnterInterpreter() {
  DeoptSite site;
  site.keep_frame = true;
  site.bc = lowering_ != nullptr ? lowering_->bc : -1;
  site.reason = DeoptReason::kGenerator;
  const uint64_t code = (deopt_sites_->size() << 2) | kDeoptResume;
  deopt_sites_->push_back(std::move(site));
  Ret(Imm(code));
}

void Lowerer::LowerFrameValue(const Instr& in) {
  if (in.op == Op::kLoadLocal) {
    Load(V(frame_), kLocalsPlus + 8 * in.imm, Type::kPtr, LirReg(in.dst));
    if (in.checked) DeoptIf(in, Cond::kEq, V(LirReg(in.dst)), Operand::Imm(0));
  } else if (Unfused(in.op) == Op::kStoreLocal) {
    LowerStoreLocal(in);
  } else if (in.op == Op::kLoadConst) {
    Mov(Imm(Const(in.imm)), Type::kPtr, LirReg(in.dst));
  } else {
    Mov(Operand::Imm(0), Type::kPtr, LirReg(in.dst));
  }
}

// locals[imm] = the value, the old one released (not NULL where the local is bound).
void Lowerer::LowerStoreLocal(const Instr& in) {
  if (&in == store_done_) {  // the BINARY_OP stored (BoxFloatResult)
    store_done_ = nullptr;
    return;
  }
  const int old = Load(V(frame_), LocalOffset(in.imm), Type::kPtr);
  Store(V(LirReg(in.args[0])), V(frame_), LocalOffset(in.imm), Type::kPtr);
  // A float made in place (BoxFloatResult) leaves the old one alive: no free-list path.
  const bool float_like =
      float_like_locals_.count(in.imm) != 0 && in_place_floats_.count(in.args[0]) == 0;
  Decref(old, !in.bound, in.bc, float_like);
}

void Lowerer::LowerIdentity(const Instr& in) {
  if (in.op == Op::kIsSame)
    return (void)Compare(V(LirReg(in.args[0])), V(LirReg(in.args[1])), Cond::kEq, LirReg(in.dst));
  if (in.op == Op::kIsNone)
    return (void)Compare(V(LirReg(in.args[0])), Imm(rt_.py_none), Cond::kEq, LirReg(in.dst));
  if (in.op == Op::kIsNull)
    return (void)Compare(V(LirReg(in.args[0])), Operand::Imm(0), Cond::kEq, LirReg(in.dst));
  const int t = Mov(Imm(rt_.py_true), Type::kPtr);  // kBoolFromCInt
  const int f = Mov(Imm(rt_.py_false), Type::kPtr);
  Select(V(LirReg(in.args[0])), V(in.imm != 0 ? f : t), V(in.imm != 0 ? t : f), Type::kPtr,
         LirReg(in.dst));
}

void Lowerer::LowerReference(const Instr& in) {
  if (in.op == Op::kMov || in.op == Op::kDup) {
    Mov(V(LirReg(in.args[0])), Type::kPtr, LirReg(in.dst));
  } else if (in.op == Op::kIncref) {
    Incref(V(LirReg(in.args[0])));
  } else {
    const bool maybe_null = in.op == Op::kXDecref || IsUnboxed(in.args[0]);
    Decref(LirReg(in.args[0]), maybe_null, in.bc, IsFloatLike(in.args[0]));
  }
}

void Lowerer::LowerTerminator(const Instr& in) {
  if (in.op == Op::kJump) return Jmp(block_of_[static_cast<size_t>(in.targets[0])]);
  if (in.op == Op::kBranch) {
    return Br(Cond::kNe, V(LirReg(in.args[0])), Operand::Imm(0),
              block_of_[static_cast<size_t>(in.targets[0])],
              block_of_[static_cast<size_t>(in.targets[1])]);
  }
  if (in.op == Op::kDeopt || in.op == Op::kColdExit) return EmitDeopt(in.state);
  if (hir::IsGenerator(f_.code.flags)) {
    // A return after the first unit (RETURN_GENERATOR's is that unit) leaves prev_instr at its
    // RETURN_VALUE, as the interpreter does: a frame object that outlives the frame shows
    // that line (f_lineno). Whoever finishes the generator releases its frame.
    if (in.bc > 0) SetPrevInstr(in.bc);
    return Ret(V(LirReg(in.args[0])));
  }
  // Every return of a function frame goes through one block that clears the locals.
  if (return_block_ < 0) {
    return_block_ = NewBlock();
    return_value_ = out_.NewVReg(Type::kPtr);
    return_units_ = ReturnUnits();
    if (return_units_.size() > 1) return_unit_ = out_.NewVReg(Type::kI64);
  }
  if (return_unit_ >= 0) Mov(Operand::Imm(in.bc), Type::kI64, return_unit_);
  Mov(V(LirReg(in.args[0])), Type::kPtr, return_value_);
  Jmp(return_block_);
}

// The code units of the function's RETURN_VALUEs.
std::set<int> Lowerer::ReturnUnits() const {
  std::set<int> units;
  for (const hir::Block& b : f_.blocks) {
    if (!b.instrs.empty() && b.instrs.back().op == Op::kReturn) units.insert(b.instrs.back().bc);
  }
  return units;
}

// prev_instr at the RETURN_VALUE the function is leaving by, as the interpreter leaves it:
// a frame object that outlives the frame shows that line (f_lineno). Only the return
// block's frame-object path needs it; with several returns, each says which (return_unit_).
void Lowerer::SetReturnPrevInstr() {
  if (return_unit_ < 0) return SetPrevInstr(*return_units_.begin());
  const int offset = Binary(lir::Op::kShl, V(return_unit_), Operand::Imm(1), Type::kI64);
  Store(V(Binary(lir::Op::kAdd, V(first_instr_), V(offset), Type::kPtr)), V(frame_), kPrevInstr,
        Type::kPtr);
  NotePrevInstr(-1);  // a unit known only at run time
}

// The return of a function frame releases its locals here, as 3.11's _PyFrame_Clear would,
// and leaves stacktop 0, so that whoever pops the frame (a64_call_leave, the compiled
// caller's own leave path, CPython) finds nothing left to release. A frame that has a frame
// object keeps its locals: the frame object may take the frame over (and show them).
void Lowerer::LowerReturnBlock() {
  cur_ = return_block_;
  group_now_ = group_[static_cast<size_t>(return_block_)] = static_cast<int>(f_.blocks.size()) + 1;
  const int keep = NewBlock();
  const int frame_object = Load(V(frame_), kFrameObject, Type::kPtr);
  // A frame object (rare: a traceback, sys._getframe) is out of line.
  const int has_object = ColdBlock(), clear = NewBlock();
  Br(Cond::kNe, V(frame_object), Operand::Imm(0), has_object, clear);
  cur_ = has_object;
  SetReturnPrevInstr();
  Jmp(keep);  // its frame is cleared by whoever pops it
  cur_ = clear;
  // Off the thread's stack first, as 3.11 pops a frame before clearing it (gh-99729): a
  // finalizer the releases run must not find this half-cleared frame. Whoever pops the
  // frame afterwards makes its caller current again, to the same effect.
  MakeCallerCurrent(frame_);
  Store(Operand::Imm(0), V(frame_), kStackTop, Type::kI32);
  const int64_t n = f_.code.nlocalsplus;
  if (rt_.null_sink != 0 && n <= kUnrolledLocals) {
    // One branch per local (its dealloc), not two: under Unicorn each conditional branch
    // ends a translated block, the unit emulation pays for. A NULL local releases the sink;
    // a local bound at every return (an argument never deleted, say) needs no test at all.
    const bool known = !f_.bound_at_return.empty() && BoundAtSomeReturn() &&
                       Take(decisions_, Decision::kLowerReleaseBoundLocals);
    for (int64_t i = 0; i < n; i++) {
      const int local = Load(V(frame_), kLocalsPlus + 8 * i, Type::kPtr);
      if (known && f_.bound_at_return[static_cast<size_t>(i)]) {
        Decref(local, false, -1);
        continue;
      }
      Decref(Select(V(local), V(local), V(Mov(Imm(rt_.null_sink), Type::kPtr)), Type::kPtr), false,
             -1);
    }
  } else if (n > 0) {
    // A loop rather than n copies: code size matters more than its few branches.
    const int p = Binary(lir::Op::kAdd, V(frame_), Operand::Imm(kLocalsPlus), Type::kPtr);
    const int end = Binary(lir::Op::kAdd, V(p), Operand::Imm(8 * n), Type::kPtr);
    const int loop = NewBlock(), done = NewBlock();
    Jmp(loop);
    cur_ = loop;
    Decref(Load(V(p), 0, Type::kPtr), true, -1);
    Binary(lir::Op::kAdd, V(p), Operand::Imm(8), Type::kPtr, p);
    Br(Cond::kUlt, V(p), V(end), loop, done);
    cur_ = done;
  }
  Jmp(keep);
  cur_ = keep;
  Ret(V(return_value_));
}

// Whether some local is bound at every return (hir::Function::bound_at_return).
bool Lowerer::BoundAtSomeReturn() const {
  return std::find(f_.bound_at_return.begin(), f_.bound_at_return.end(), true) !=
         f_.bound_at_return.end();
}

}  // namespace a64jit::lower::internal
