// The Builder's rules for exception handlers, cells and closures, container updates, imports,
// pattern matching, `with`, and generators and coroutines.
#include "jit/hir/builder_internal.h"

namespace a64jit::hir::internal {

// ---- Exception handlers ----
// RERAISE n: the exception on top raised again, without a traceback entry, from the
// offset the int n entries below it names. A generator's frame leaves it to the
// interpreter (which also marks a generator it leaves completed).
bool Builder::Reraise() {
  if (IsGenerator(code_.flags) || !catching_) return LeaveToRaise();
  if (insn_.oparg >= Depth()) Fail("RERAISE past the stack");
  EndWithRaise(Op::kReraise, {Pop1()}, FrameState::Kind::kReraise, insn_.oparg);
  return false;
}

bool Builder::PushExcInfo() {
  const int exc = Pop1();
  Push(Def(Op::kPushExcInfo, {exc}));
  Push(exc);
  return true;
}

bool Builder::PopExcept() {
  Effect(Op::kPopExcept, {Pop1()});
  return true;
}

bool Builder::CheckExcMatch() {
  const std::vector<int> pre = stack_;
  const int type = Pop1();
  const int c = Def(Op::kCheckExcMatch, {stack_.back(), type}, 0, ValueType::kCInt);
  ErrorState(pre);
  Push(Def(Op::kBoolFromCInt, {c}));
  return true;
}

// END_ASYNC_FOR, the handler of an `async for` loop, under [async iterator, exception]: a
// StopAsyncIteration ends the loop, both released, and the code after it runs. Any other
// exception leaves for the interpreter, which runs END_ASYNC_FOR again and raises it (its frame
// is always a coroutine's or an async generator's, whose RERAISE leaves the same way).
bool Builder::EndAsyncFor() {
  if (Depth() < 2) Fail("END_ASYNC_FOR past the stack");
  const std::vector<int> pre = stack_;
  const int ends = Def(Op::kIsStopAsyncIteration, {stack_.back()}, 0, ValueType::kCInt);
  ErrorState(pre);
  const int depth = Depth();
  const int self = cur_;
  const int done = PopThenGoto(depth, 2, insn_.next);
  const int other = EnterMadeBlock(depth);
  LeaveToRaise();
  cur_ = self;
  stack_ = pre;
  EndWithBranch(ends, done, other);
  return false;
}

// Under the exception: the previous exception, the raising offset, and __exit__.
bool Builder::WithExceptStart() {
  if (Depth() < 4) Fail("WITH_EXCEPT_START past the stack");
  const std::vector<int> pre = stack_;
  Push(Def(Op::kWithExceptStart, {stack_[stack_.size() - 4], stack_.back()}));
  ErrorState(pre);
  return true;
}

// RAISE_VARARGS 0, LOAD_ASSERTION_ERROR, and a generator's RERAISE: all only ever lead to
// raising, and the interpreter does it, with its exact messages and traceback.
bool Builder::LeaveToRaise() {
  Instr deopt;
  deopt.op = Op::kDeopt;
  EndWithState(std::move(deopt), insn_.start);
  return false;
}

// Ends the block with a terminator that hands the stack to the frame (Deopt, Yield): no
// edge moves, the state names the values where they are.
void Builder::EndWithState(Instr term, int resume_unit) {
  term.bc = insn_.unit;
  term.has_state = true;
  term.state.kind = FrameState::Kind::kResume;
  term.state.bc = insn_.unit;
  term.state.resume_unit = resume_unit;
  term.state.stack = stack_;
  f_.blocks[static_cast<size_t>(cur_)].out_depth = 0;
  Emit(std::move(term));
  cur_ = -1;
}

void Builder::EndWithReturn(int value) {
  if (!stack_.empty()) Fail("return with a stack");
  Instr ret;
  ret.op = Op::kReturn;
  ret.args = {value};
  Terminate(ret);
}

// ---- Cells, closures and deletions: imm is the localsplus index ----
bool Builder::MadeCellBefore() const {
  for (const Instr& in : f_.blocks[static_cast<size_t>(cur_)].instrs) {
    if (in.op == Op::kMakeCell) return true;
  }
  return false;
}

bool Builder::MakeCell() {
  Effect(Op::kMakeCell, {}, insn_.oparg);
  ErrorState(stack_);
  return true;
}

bool Builder::CopyFreeVars() {
  Effect(Op::kCopyFreeVars, {}, insn_.oparg);
  return true;
}

bool Builder::LoadDeref() {
  const std::vector<int> pre = stack_;
  const int r = Def(Op::kLoadDeref, {}, insn_.oparg);
  ResumeState(pre);
  Push(r);
  return true;
}

bool Builder::StoreDeref() {
  Effect(Op::kStoreDeref, {Pop1()}, insn_.oparg);
  return true;
}

// DELETE_DEREF, DELETE_FAST: an empty cell or unbound local resumes the interpreter,
// which raises.
bool Builder::DeleteCellOrLocal() {
  Effect(insn_.opcode == DELETE_DEREF ? Op::kDeleteDeref : Op::kDeleteLocal, {}, insn_.oparg);
  ResumeState(stack_);
  return true;
}

// ---- Containers, calls, names ----
// SET_ADD, SET_UPDATE, MAP_ADD, DICT_UPDATE, DICT_MERGE: pop the operand(s); the
// collection is oparg entries down. DICT_MERGE also names the callable, two below it.
bool Builder::CollectionUpdate() {
  const std::vector<int> pre = stack_;
  const int n = insn_.opcode == MAP_ADD ? 2 : 1;
  std::vector<int> operands = Pop(n);
  if (insn_.oparg < 1 || insn_.oparg + (insn_.opcode == DICT_MERGE ? 2 : 0) > Depth()) {
    Fail("collection operand past the stack");
  }
  const int collection = stack_[stack_.size() - static_cast<size_t>(insn_.oparg)];
  operands.insert(operands.begin(), collection);
  if (insn_.opcode == DICT_MERGE) {  // and the function being called, for its error message
    operands.insert(operands.begin(), stack_[stack_.size() - 2 - static_cast<size_t>(insn_.oparg)]);
  }
  Effect(RowOp(), operands);
  ErrorState(pre);
  return true;
}

// Replaces the top of the stack by op(top), the row's op (LIST_TO_TUPLE, GET_AITER,
// GET_YIELD_FROM_ITER, GET_AWAITABLE, ASYNC_GEN_WRAP). The op's immediate is the oparg.
bool Builder::ReplaceTop() {
  const std::vector<int> pre = stack_;
  const int r = Def(RowOp(), {Pop1()}, insn_.oparg);
  ErrorState(pre);
  Push(r);
  return true;
}

// Pushes op(top), the row's op, keeping the top (GET_LEN, GET_ANEXT).
bool Builder::PushFromTop() {
  const std::vector<int> pre = stack_;
  if (Depth() < 1) Fail("stack underflow");
  const int r = Def(RowOp(), {stack_.back()}, insn_.oparg);
  ErrorState(pre);
  Push(r);
  return true;
}

// CALL_FUNCTION_EX: [NULL, func, callargs, kwargs if oparg & 1] -> result.
bool Builder::CallFunctionEx() {
  const std::vector<int> pre = stack_;
  const bool has_kwargs = (insn_.oparg & 1) != 0;
  std::vector<int> operands = Pop(has_kwargs ? 4 : 3);
  operands.erase(operands.begin());  // the NULL under the callable
  const int r = Def(Op::kCallEx, operands);
  ErrorState(pre);
  Push(r);
  CheckTracingAfterCall();
  return true;
}

bool Builder::UnpackEx() {
  const std::vector<int> pre = stack_;
  Effect(Op::kUnpackEx, {Pop1()}, insn_.oparg);
  ErrorState(pre);
  const int n = (insn_.oparg & 0xff) + 1 + (insn_.oparg >> 8);
  for (int i = 0; i < n; i++) Push(Def(Op::kScratchLoad, {}, i));
  return true;
}

// Pops the row's op's operands (its arity) and applies it, the oparg its immediate:
// DELETE_ATTR, DELETE_SUBSCR, STORE_GLOBAL.
bool Builder::PopOperands() {
  const std::vector<int> pre = stack_;
  const Op op = RowOp();
  Effect(op, Pop(InfoOf(op).arity), insn_.oparg);
  ErrorState(pre);
  return true;
}

bool Builder::DeleteGlobal() {
  Effect(Op::kDeleteGlobal, {}, insn_.oparg);
  ErrorState(stack_);  // lowering also resumes the interpreter when the name is missing
  return true;
}

bool Builder::ImportName() {
  const std::vector<int> pre = stack_;
  const int fromlist = Pop1();
  const int level = Pop1();
  const int r = Def(Op::kImportName, {fromlist, level}, insn_.oparg);
  ErrorState(pre);
  Push(r);
  return true;
}

bool Builder::ImportFrom() {
  const std::vector<int> pre = stack_;
  if (Depth() < 1) Fail("stack underflow");
  const int r = Def(Op::kImportFrom, {stack_.back()}, insn_.oparg);
  ErrorState(pre);
  Push(r);
  return true;
}

// MATCH_MAPPING, MATCH_SEQUENCE: push whether the subject's type has the flag.
bool Builder::MatchTypeFlag() {
  if (Depth() < 1) Fail("stack underflow");
  const int64_t flag = insn_.opcode == MATCH_MAPPING ? Py_TPFLAGS_MAPPING : Py_TPFLAGS_SEQUENCE;
  const int c = Def(Op::kTypeFlags, {stack_.back()}, flag, ValueType::kCInt);
  Push(Def(Op::kBoolFromCInt, {c}, 0));
  return true;
}

bool Builder::MatchKeys() {
  const std::vector<int> pre = stack_;
  if (Depth() < 2) Fail("stack underflow");
  const int r = Def(Op::kMatchKeys, {stack_[stack_.size() - 2], stack_.back()});
  ErrorState(pre);
  Push(r);
  return true;
}

// [subject, type, names] -> attributes or None.
bool Builder::MatchClass() {
  const std::vector<int> pre = stack_;
  const std::vector<int> operands = Pop(3);
  const int r = Def(Op::kMatchClass, operands, insn_.oparg);
  ErrorState(pre);
  Push(r);
  return true;
}

bool Builder::LoadBuildClass() {
  const std::vector<int> pre = stack_;
  const int r = Def(Op::kLoadBuildClass, {});
  ErrorState(pre);
  Push(r);
  return true;
}

// BEFORE_WITH, BEFORE_ASYNC_WITH: [mgr] -> [__exit__, __enter__()]. The call of the bound
// __enter__ is an ordinary CALL with no arguments; if it fails, __exit__ is on the stack,
// as in the interpreter.
bool Builder::BeforeWith() {
  const std::vector<int> pre = stack_;
  const int mgr = Pop1();
  const int exit = Def(Op::kBeforeWith, {mgr}, insn_.opcode == BEFORE_ASYNC_WITH ? 1 : 0);
  const int enter = Last().dst2 = f_.NewReg(ValueType::kObject);
  ErrorState(pre);
  Push(exit);
  const int no_self = Def(Op::kLoadNull, {});
  const int r = Def(Op::kCall, {no_self, enter}, 0);
  ErrorState(stack_);
  Push(r);
  return true;
}

// ---- Generators and coroutines ----
bool Builder::YieldValue() {
  Instr y;
  y.op = Op::kYield;
  y.args = {Pop1()};
  EndWithState(std::move(y), insn_.next);
  AddResumePoint(insn_.unit, insn_.next, Depth() + 1);  // + the value sent in
  return false;
}

// [receiver, value] -> [receiver, yielded] falling through to YIELD_VALUE, or
// [returned] at the jump target.
bool Builder::Send() {
  const std::vector<int> pre = stack_;
  const int value = Pop1();
  if (Depth() < 1) Fail("stack underflow");
  const int r = Def(Op::kSend, {stack_.back(), value});
  const int yielded = Last().dst2 = f_.NewReg(ValueType::kCInt);
  ErrorState(pre);
  Push(r);
  const int depth = Depth();
  const int self = cur_;
  const int next = BlockAt(insn_.next, depth);
  const int returned = DropThenGoto(depth, depth - 2, 1, FlowOf(insn_).jump);
  cur_ = self;
  EndWithBranch(yielded, next, returned);
  return false;
}

// RETURN_GENERATOR: the frame moves into a new generator, which the call returns.
bool Builder::ReturnGenerator() {
  const int gen = Def(Op::kMakeGenerator, {});
  ErrorState(stack_);
  EndWithReturn(gen);
  return false;
}

}  // namespace a64jit::hir::internal
