// The Builder's rules for the common bytecodes: the stack, locals, constants, globals,
// attributes, calls, operators, BUILD_*, unpacking, iteration, jumps and returns.
#include "jit/hir/builder_internal.h"

namespace a64jit::hir::internal {

// Where the interpreter tests its eval breaker, compiled code does too: RESUME at a
// function's start or after a plain yield (not after `yield from`/`await`, oparg >= 2),
// and backward jumps. When set, the interpreter takes over at the instruction.
void Builder::CheckEvalBreaker(bool at_entry) {
  Effect(Op::kCheckEvalBreaker, {}, at_entry ? 1 : 0);
  ResumeState(stack_);
}

// After a call, as the interpreter's dispatch does: tracing switched on by the callee (a
// debugger's set_trace, sys.settrace) makes the interpreter take over before the next
// instruction. Calls only: tracing switched on from code run implicitly (a property, an
// operator method) takes effect at the next call, RESUME or backward jump.
void Builder::CheckTracingAfterCall() {
  Effect(Op::kCheckTracing, {});
  ResumeState(stack_);
  Last().state.resume_unit = insn_.next;
}

bool Builder::Resume() {
  // A function's start and a plain yield's resume: compiled code gets here straight from
  // its entry, and every way in tests tracing first (the call stub, the eval-frame hook,
  // CallCompiled), so only the breaker is left to test. Unless a MAKE_CELL came first: its
  // allocation may run a finalizer, which may switch tracing on.
  if (insn_.oparg < 2) CheckEvalBreaker(/*at_entry=*/!MadeCellBefore());
  return true;
}

bool Builder::PopTop() {
  Pop1();
  return true;
}

bool Builder::PushNull() {
  Push(Def(Op::kLoadNull, {}));
  return true;
}

bool Builder::Copy() {
  const int n = insn_.oparg;
  if (n < 1 || n > Depth()) Fail("COPY past the stack");
  Push(Def(Op::kDup, {stack_[stack_.size() - static_cast<size_t>(n)]}));
  return true;
}

bool Builder::Swap() {
  const int n = insn_.oparg;
  if (n < 2 || n > Depth()) Fail("SWAP past the stack");
  std::swap(stack_.back(), stack_[stack_.size() - static_cast<size_t>(n)]);
  return true;
}

bool Builder::LoadFast() {
  const std::vector<int> pre = stack_;
  const int r = Def(Op::kLoadLocal, {}, insn_.oparg);
  Last().checked = true;  // the passes drop the check where the local is always bound
  ResumeState(pre);
  Push(r);
  return true;
}

bool Builder::StoreFast() {
  Effect(Op::kStoreLocal, {Pop1()}, insn_.oparg);
  return true;
}

bool Builder::LoadConst() {
  Push(Def(Op::kLoadConst, {}, insn_.oparg));
  return true;
}

bool Builder::LoadGlobal() {
  const std::vector<int> pre = stack_;
  if (insn_.oparg & 1) Push(Def(Op::kLoadNull, {}));
  const int r = Def(Op::kLoadGlobal, {}, insn_.oparg >> 1);
  TakeFeedback();
  ResumeState(pre);
  Push(r);
  return true;
}

bool Builder::LoadAttr() {
  const std::vector<int> pre = stack_;
  const int r = Def(Op::kLoadAttr, {Pop1()}, insn_.oparg);
  TakeFeedback();
  ErrorState(pre);
  Push(r);
  return true;
}

bool Builder::StoreAttr() {
  const std::vector<int> pre = stack_;
  const int owner = Pop1();
  const int value = Pop1();
  Effect(Op::kStoreAttr, {owner, value}, insn_.oparg);
  TakeFeedback();
  ErrorState(pre);
  return true;
}

bool Builder::LoadMethod() {
  const std::vector<int> pre = stack_;
  const int r = Def(Op::kLoadMethod, {Pop1()}, insn_.oparg);
  const int self = Last().dst2 = f_.NewReg(ValueType::kObject);
  TakeFeedback();
  ErrorState(pre);
  Push(r);
  Push(self);
  return true;
}

bool Builder::KwNames() {
  kwnames_ = insn_.oparg;
  return true;
}

bool Builder::Call() {
  if (FuseSuperMethod()) return true;
  const std::vector<int> pre = stack_;
  const int n = insn_.oparg + 2;
  const int r = Def(Op::kCall, Pop(n), insn_.oparg);
  Last().kwnames = kwnames_;
  kwnames_ = -1;
  // The pair's feedback is on its PRECALL, which ends with its cache right before the CALL
  // (an EXTENDED_ARG of the CALL's sits between them, and one of the PRECALL's before it).
  const size_t precall = static_cast<size_t>(insn_.start - 1 - InlineCacheUnits(PRECALL));
  if (precall < code_.quickened.size()) Last().feedback = FeedbackOf(code_.quickened[precall]);
  ErrorState(Without(pre, n));  // the call consumed its operands
  Push(r);
  CheckTracingAfterCall();
  return true;
}

// The LoadGlobal of `name` (with the NULL under it) that made the stack values under the top
// `argc` ones (a CALL's arguments), in this block, or nullptr.
const Instr* Builder::GlobalUnderArgs(int argc, const char* name) const {
  const std::vector<Instr>& instrs = f_.blocks[static_cast<size_t>(cur_)].instrs;
  const size_t depth = stack_.size();
  if (depth < static_cast<size_t>(argc) + 2) return nullptr;
  const int super_reg = stack_[depth - 1 - static_cast<size_t>(argc)];
  const int null_reg = stack_[depth - 2 - static_cast<size_t>(argc)];
  for (size_t i = instrs.size(); i-- > 1;) {
    const Instr& global = instrs[i];
    if (global.dst != super_reg) continue;
    const Instr& null = instrs[i - 1];
    if (global.op != Op::kLoadGlobal || null.op != Op::kLoadNull || null.dst != null_reg) break;
    const auto index = static_cast<size_t>(global.imm);
    return index < code_.names.size() && code_.names[index] == name ? &global : nullptr;
  }
  return nullptr;
}

// `super().name(...)` and `super(cls, obj).name(...)`: LOAD_GLOBAL super (with NULL), the
// arguments, PRECALL, CALL 0 or 2, then LOAD_METHOD. The CALL and the LOAD_METHOD become one
// op that makes no super object and no bound method: LoadMethodSuper of the global, the
// `__class__` cell and local 0 where the function's super() reads local 0
// (CodeInfo::super_class_slot); LoadMethodSuperOf of the global and the two arguments. Its
// frame state is the CALL's resume with the stack it found: where the runtime does not take
// the name itself (another `super`, a class that is not one, a name only the super object
// has, a descriptor whose __get__ runs code), the interpreter makes the call and the
// LOAD_METHOD as stock does.
bool Builder::FuseSuperMethod() {
  const int argc = insn_.oparg;
  if ((argc != 0 && argc != 2) || (argc == 0 && code_.super_class_slot < 0) || kwnames_ >= 0) {
    return false;
  }
  const Instr* global = GlobalUnderArgs(argc, "super");
  Insn load_method;
  if (global == nullptr || !FollowedBy(insn_, LOAD_METHOD, &load_method) ||
      !Take(decisions_, Decision::kHirSuperMethod, insn_.unit)) {
    return false;
  }
  const int super_global = global->dst;
  const std::vector<int> pre = stack_;
  std::vector<int> args;
  if (argc == 0) {
    for (int local : {code_.super_class_slot, 0}) {
      args.push_back(Def(Op::kLoadLocal, {}, local));
      Last().checked = true;
      ResumeState(pre);
    }
  } else {
    args = Pop(2);
  }
  Pop(2);  // NULL, super
  args.insert(args.begin(), super_global);
  const Op op = argc == 0 ? Op::kLoadMethodSuper : Op::kLoadMethodSuperOf;
  const int method = Def(op, std::move(args), load_method.oparg);
  const int self = Last().dst2 = f_.NewReg(ValueType::kObject);
  ResumeState(pre);
  Push(method);
  Push(self);
  insn_ = load_method;  // translated: the walk goes on after it
  return true;
}

bool Builder::BinaryOperands() {
  const std::vector<int> pre = stack_;
  const int rhs = Pop1();
  const int lhs = Pop1();
  const int r = Def(RowOp(), {lhs, rhs}, insn_.oparg);
  TakeFeedback();
  ErrorState(pre);
  Push(r);
  return true;
}

bool Builder::IsOp() {
  const int rhs = Pop1();
  const int lhs = Pop1();
  const int c = Def(Op::kIsSame, {lhs, rhs}, 0, ValueType::kCInt);
  Push(Def(Op::kBoolFromCInt, {c}, insn_.oparg ? 1 : 0));
  return true;
}

bool Builder::ContainsOp() {
  const std::vector<int> pre = stack_;
  const int container = Pop1();
  const int item = Pop1();
  const int c = Def(Op::kContains, {item, container}, 0, ValueType::kCInt);
  ErrorState(pre);
  Push(Def(Op::kBoolFromCInt, {c}, insn_.oparg ? 1 : 0));
  return true;
}

bool Builder::UnaryArithmetic() {
  const std::vector<int> pre = stack_;
  const UnaryKind kind = insn_.opcode == UNARY_NEGATIVE   ? UnaryKind::kNegative
                         : insn_.opcode == UNARY_POSITIVE ? UnaryKind::kPositive
                                                          : UnaryKind::kInvert;
  const int r = Def(Op::kUnaryOp, {Pop1()}, static_cast<int64_t>(kind));
  ErrorState(pre);
  Push(r);
  return true;
}

bool Builder::UnaryNot() {
  const std::vector<int> pre = stack_;
  const int c = Def(Op::kIsTrue, {Pop1()}, 0, ValueType::kCInt);
  ErrorState(pre);
  Push(Def(Op::kBoolFromCInt, {c}, 1));
  return true;
}

bool Builder::BinarySubscr() {
  const std::vector<int> pre = stack_;
  const int sub = Pop1();
  const int container = Pop1();
  const int r = Def(Op::kGetItem, {container, sub});
  TakeFeedback();
  ErrorState(pre);
  Push(r);
  return true;
}

bool Builder::StoreSubscr() {
  const std::vector<int> pre = stack_;
  const int sub = Pop1();
  const int container = Pop1();
  const int value = Pop1();
  Effect(Op::kSetItem, {container, sub, value});
  TakeFeedback();
  ErrorState(pre);
  return true;
}

// BUILD_LIST, BUILD_TUPLE, BUILD_MAP, BUILD_STRING, BUILD_SET: consume their operands.
bool Builder::BuildConsuming() {
  if (insn_.opcode == BUILD_TUPLE && (FuseTupleCompare() || FuseIsInstanceOfDisplay())) {
    return true;
  }
  const std::vector<int> pre = stack_;
  const int oparg = insn_.oparg;
  const int n = insn_.opcode == BUILD_MAP ? 2 * oparg : oparg;  // BUILD_MAP: key, value pairs
  const int r = Def(RowOp(), Pop(n), oparg);
  ErrorState(Without(pre, n));  // consumed
  Push(r);
  return true;
}

// BUILD_TUPLE n (n >= 1) and the COMPARE_OP right after it, which is no jump target:
// `(self.a, self.b) == (other.a, other.b)`, as a dataclass's __eq__ and order methods compare.
// One op compares the left operand with the n values and the right tuple is never made
// (a64_compare_tuple_items). Its state is COMPARE_OP's, with the n values where the
// interpreter's stack would hold the tuple: an unwind releases them just the same.
bool Builder::FuseTupleCompare() {
  const int n = insn_.oparg;
  Insn compare;
  if (n < 1 || !FollowedBy(insn_, COMPARE_OP, &compare) || compare.oparg < Py_LT ||
      compare.oparg > Py_GE || !Take(decisions_, Decision::kHirTupleCompare, insn_.unit)) {
    return false;
  }
  const std::vector<int> pre = stack_;
  std::vector<int> args = Pop(n);
  args.insert(args.begin(), Pop1());
  insn_ = compare;  // translated here: the walk goes on after it
  const int r = Def(Op::kCompareTupleItems, std::move(args), compare.oparg);
  ErrorState(pre);
  Push(r);
  return true;
}

// `isinstance(x, (A, B))`: LOAD_GLOBAL isinstance (with NULL), x, the n values, then
// BUILD_TUPLE n, PRECALL 2 and CALL 2, neither a jump target. One op takes the callable, x and
// the values, and the tuple is never made (a64_isinstance_items: for the builtin, what
// PyObject_IsInstance does with a tuple; another callable gets the tuple made). Its state is
// an error at the CALL with the stack the BUILD_TUPLE found (the values where the interpreter's
// would hold the tuple, and the operands a failed CALL would have consumed): an unwind
// releases them all the same.
bool Builder::FuseIsInstanceOfDisplay() {
  const int n = insn_.oparg;
  Insn precall, call;
  if (n < 1 || !FollowedBy(insn_, PRECALL, &precall) || precall.oparg != 2 ||
      !FollowedBy(precall, CALL, &call) || call.oparg != 2 ||
      GlobalUnderArgs(n + 1, "isinstance") == nullptr ||
      !Take(decisions_, Decision::kHirIsInstanceTuple, insn_.unit)) {
    return false;
  }
  const std::vector<int> pre = stack_;
  std::vector<int> args = Pop(n);
  const int x = Pop1();
  const int callable = Pop1();
  Pop1();  // NULL
  args.insert(args.begin(), {callable, x});
  insn_ = call;  // translated here: the walk goes on after it
  const int r = Def(Op::kIsInstanceOfItems, std::move(args));
  ErrorState(pre);  // an unwind releases them, as it would the CALL's own
  Push(r);
  CheckTracingAfterCall();
  return true;
}

bool Builder::BuildConstKeyMap() {
  const std::vector<int> pre = stack_;
  // The keys tuple is on top; it must be the constant the compiler always puts there.
  const int keys = Pop1();
  int keys_const = -1;
  for (const Block& blk : f_.blocks) {
    for (const Instr& x : blk.instrs) {
      if (x.dst == keys && x.op == Op::kLoadConst) keys_const = static_cast<int>(x.imm);
    }
  }
  if (keys_const < 0) Fail("keys not a constant");
  const int r = Def(Op::kBuildConstKeyMap, Pop(insn_.oparg), insn_.oparg);
  Last().keys_const = keys_const;
  ErrorState(Without(pre, insn_.oparg + 1));  // consumed (the keys constant is borrowed)
  Push(r);
  return true;
}

bool Builder::BuildSlice() {
  const std::vector<int> pre = stack_;
  if (insn_.oparg != 2 && insn_.oparg != 3) Fail("oparg");
  // `x[a:b]`: BUILD_SLICE 2 then BINARY_SUBSCR, no jump to the latter: one op, and an exact
  // str, list or tuple never makes the slice (a64_get_slice). Its state is at BINARY_SUBSCR,
  // whose position a traceback shows; the stack holds the two bounds where the interpreter's
  // holds the slice, which an unwind releases just the same (it cuts to the handler's depth).
  const Insn next = Decode(insn_.next);
  if (insn_.oparg == 2 && next.opcode == BINARY_SUBSCR && !StartsBlock(insn_.next)) {
    const std::vector<int> bounds = Pop(2);
    const int container = Pop1();
    insn_ = next;  // translated here: the caller goes on after it
    const int r = Def(Op::kGetSlice, {container, bounds[0], bounds[1]});
    ErrorState(pre);
    Push(r);
    return true;
  }
  const int r = Def(Op::kBuildSlice, Pop(insn_.oparg));
  ErrorState(pre);
  Push(r);
  return true;
}

bool Builder::FormatValue() {
  const std::vector<int> pre = stack_;
  std::vector<int> args;
  if ((insn_.oparg & 4) != 0) {
    const int spec = Pop1();
    args = {Pop1(), spec};
  } else {
    args = {Pop1()};
  }
  const int r = Def(Op::kFormatValue, args, insn_.oparg & 3);
  ErrorState(pre);
  Push(r);
  return true;
}

// LIST_APPEND, LIST_EXTEND: the list is oparg entries down, below the popped value.
bool Builder::ListAppendOrExtend() {
  const std::vector<int> pre = stack_;
  const int v = Pop1();
  if (insn_.oparg < 1 || insn_.oparg > Depth()) Fail("list operand past the stack");
  const int list = stack_[stack_.size() - static_cast<size_t>(insn_.oparg)];
  Effect(RowOp(), {list, v});
  ErrorState(pre);
  return true;
}

bool Builder::MakeFunction() {
  const std::vector<int> pre = stack_;
  // Stack, bottom to top: [defaults] [kwdefaults] [annotations] [closure] code.
  int n = 1;
  for (int bit = 0; bit < 4; bit++) n += (insn_.oparg >> bit) & 1;
  const int r = Def(Op::kMakeFunction, Pop(n), insn_.oparg);
  ErrorState(Without(pre, n));  // consumed
  Push(r);
  return true;
}

bool Builder::UnpackSequence() {
  const std::vector<int> pre = stack_;
  Effect(Op::kUnpackSequence, {Pop1()}, insn_.oparg);
  TakeFeedback();
  ErrorState(pre);
  for (int i = 0; i < insn_.oparg; i++) Push(Def(Op::kScratchLoad, {}, i));
  return true;
}

bool Builder::GetIter() {
  const std::vector<int> pre = stack_;
  const int r = Def(Op::kGetIter, {Pop1()});
  ErrorState(pre);
  Push(r);
  return true;
}

// The iterator stays; the next value (NULL when exhausted) is pushed for both successors,
// and the exhausted one pops both.
bool Builder::ForIter() {
  const std::vector<int> pre = stack_;
  const int next = Def(Op::kForIter, {stack_.back()});
  ErrorState(pre);
  Push(next);
  const int done = Def(Op::kIsNull, {next}, 0, ValueType::kCInt);
  const int depth = Depth();
  const int body = BlockAt(insn_.next, depth);
  const int self = cur_;
  const int exhausted = PopThenGoto(depth, 2, FlowOf(insn_).jump);
  cur_ = self;
  EndWithBranch(done, exhausted, body);
  return false;
}

bool Builder::JumpUnconditional() {
  if (insn_.opcode == JUMP_BACKWARD) CheckEvalBreaker();
  const int target = BlockAt(FlowOf(insn_).jump, Depth());
  Terminate(Jump(target));
  return false;
}

// POP_JUMP_{FORWARD,BACKWARD}_IF_{TRUE,FALSE,NONE,NOT_NONE}
bool Builder::PopJump() {
  const std::vector<int> pre = stack_;
  const int op = insn_.opcode;
  const bool on_none = op == POP_JUMP_FORWARD_IF_NONE || op == POP_JUMP_FORWARD_IF_NOT_NONE ||
                       op == POP_JUMP_BACKWARD_IF_NONE || op == POP_JUMP_BACKWARD_IF_NOT_NONE;
  const bool jump_if_set = op == POP_JUMP_FORWARD_IF_TRUE || op == POP_JUMP_BACKWARD_IF_TRUE ||
                           op == POP_JUMP_FORWARD_IF_NONE || op == POP_JUMP_BACKWARD_IF_NONE;
  const int v = Pop1();
  const int c = Def(on_none ? Op::kIsNone : Op::kIsTrue, {v}, 0, ValueType::kCInt);
  if (!on_none) ErrorState(pre);
  if (FlowOf(insn_).jump >= insn_.next) {
    Branch(c, jump_if_set, FlowOf(insn_).jump, insn_.next, 0);
    return false;
  }
  // Backward (the bottom of `while cond:`, a comprehension's filter): the breaker is tested on
  // the jump's edge, after the test, as 3.11 does; nothing then stands between a comparison and
  // its truth test, which fuse (FuseCompareTruth).
  const int jump = CheckThenGoto(Depth(), FlowOf(insn_).jump);
  const int fall = BlockAt(insn_.next, Depth());
  EndWithBranch(c, jump_if_set ? jump : fall, jump_if_set ? fall : jump);
  return false;
}

// JUMP_IF_TRUE_OR_POP, JUMP_IF_FALSE_OR_POP
bool Builder::JumpOrPop() {
  const int c = Def(Op::kIsTrue, {stack_.back()}, 0, ValueType::kCInt);
  ErrorState(stack_);
  Branch(c, insn_.opcode == JUMP_IF_TRUE_OR_POP, FlowOf(insn_).jump, insn_.next, 1);
  return false;
}

bool Builder::ReturnValue() {
  EndWithReturn(Pop1());
  return false;
}

// RAISE_VARARGS 1 and 2 raise in compiled code (the exception may be caught there); a
// bare `raise` (the handled exception again, or stock's RuntimeError when there is none)
// is left to the interpreter.
bool Builder::RaiseVarargs() {
  if (insn_.oparg == 0) return LeaveToRaise();
  EndWithRaise(Op::kRaise, Pop(insn_.oparg), FrameState::Kind::kError, 0);
  return false;
}

// Ends the block with Raise or Reraise (terminators that always leave with an exception
// set): the state holds the stack under the operands, and names the handler that
// catches the exception here, if any.
void Builder::EndWithRaise(Op op, std::vector<int> operands, FrameState::Kind kind, int64_t imm) {
  Instr raise;
  raise.op = op;
  raise.args = std::move(operands);
  raise.imm = imm;
  raise.bc = insn_.unit;
  Emit(std::move(raise));
  State(kind, stack_);
  f_.blocks[static_cast<size_t>(cur_)].out_depth = 0;
  cur_ = -1;
}

}  // namespace a64jit::hir::internal
