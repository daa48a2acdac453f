#include "jit/hir/builder.h"

#include <algorithm>
#include <array>
#include <optional>

#include "jit/hir/builder_internal.h"

namespace a64jit::hir {

static_assert(kGeneratorFlags ==
                  (CO_GENERATOR | CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR),
              "hir.h's generator flags are CPython's");

int InlineCacheUnits(int opcode) {
  switch (opcode) {
    case LOAD_GLOBAL:
      return INLINE_CACHE_ENTRIES_LOAD_GLOBAL;
    case BINARY_OP:
      return INLINE_CACHE_ENTRIES_BINARY_OP;
    case UNPACK_SEQUENCE:
      return INLINE_CACHE_ENTRIES_UNPACK_SEQUENCE;
    case COMPARE_OP:
      return INLINE_CACHE_ENTRIES_COMPARE_OP;
    case BINARY_SUBSCR:
      return INLINE_CACHE_ENTRIES_BINARY_SUBSCR;
    case LOAD_ATTR:
      return INLINE_CACHE_ENTRIES_LOAD_ATTR;
    case STORE_ATTR:
      return INLINE_CACHE_ENTRIES_STORE_ATTR;
    case LOAD_METHOD:
      return INLINE_CACHE_ENTRIES_LOAD_METHOD;
    case PRECALL:
      return INLINE_CACHE_ENTRIES_PRECALL;
    case CALL:
      return INLINE_CACHE_ENTRIES_CALL;
    case STORE_SUBSCR:
      return INLINE_CACHE_ENTRIES_STORE_SUBSCR;
    default:
      return 0;
  }
}

namespace internal {

// `catching`: exception handlers are translated, and instructions in a protected range
// reach them in compiled code (FrameState::catch_block); else every exception leaves for
// the interpreter, which runs the handlers.
Builder::Builder(const CodeInfo& code, bool catching, Decisions* decisions)
    : code_(code), catching_(catching), decisions_(decisions) {
  f_.code = code;
  try {
    handlers_ = DecodeExceptionTable(code.exception_table);
  } catch (const BadExceptionTable& e) {
    throw Unsupported(-1, 0, e.what());
  }
}

Function Builder::Run() {
  const int kNotFunction = CO_OPTIMIZED | CO_NEWLOCALS;
  if ((code_.flags & kNotFunction) != kNotFunction) {
    throw Unsupported(-1, 0, "module or class body (not a function)");
  }
  FindBlocks();
  if (IsGenerator(code_.flags)) {
    BuildResumable();
  } else if (code_.loop_entries) {
    BuildWithLoopEntries();
  } else {
    BlockAt(0, 0);
    Drain();
  }
  return std::move(f_);
}

void Builder::Drain() {
  while (!work_.empty()) {
    int b = work_.front();
    work_.pop_front();
    Translate(b);
  }
}

// A generator's code object runs in two kinds of frames: the call's (from the start
// to RETURN_GENERATOR, which moves the frame into a new generator object and returns
// it), and the generator's, which every send/next brings back suspended right after
// RETURN_GENERATOR or a YIELD_VALUE, with the sent value pushed. Block 0 dispatches on
// prev_instr (the call's frame: the unit before the first); a frame suspended anywhere
// else (a yield in an exception handler, which only the interpreter runs) goes back to
// the interpreter as it is.
void Builder::BuildResumable() {
  Block dispatch;
  f_.blocks.push_back(dispatch);  // block 0, filled once every resume point is known
  const Insn made = FindReturnGenerator();
  AddResumePoint(-1, 0, 0);  // the call
  AddResumePoint(made.unit, made.next, 1);
  Drain();
  FillDispatch();
}

// A function compiled for a frame that runs one of its loops in the interpreter
// (jit/python/loop_entry.h). Block 0 dispatches on prev_instr, as a generator's does: a call
// (prev_instr before the first unit) starts at the top; a frame the interpreter stopped at a
// loop header (the target of a backward jump, prev_instr on it) goes on from there with its
// stack taken over. Headers behind an EXTENDED_ARG get no entry, nor cold ones (a ColdExit
// would hand the frame straight back).
void Builder::BuildWithLoopEntries() {
  Block dispatch;
  f_.blocks.push_back(dispatch);
  AddResumePoint(-1, 0, 0);
  Drain();
  for (int unit = 0; unit < static_cast<int>(code_.code.size());) {
    const Insn in = Decode(unit);
    const int header = FlowOf(in).jump;
    const bool backward = header >= 0 && header < in.start;
    if (backward && block_at_[static_cast<size_t>(header)] >= 0 &&
        !IsCold(block_at_[static_cast<size_t>(header)]) &&
        (code_.code[static_cast<size_t>(header)] & 0xff) != EXTENDED_ARG &&
        std::find(f_.loop_entries.begin(), f_.loop_entries.end(), header) ==
            f_.loop_entries.end()) {
      const Block& b = f_.blocks[static_cast<size_t>(block_at_[static_cast<size_t>(header)])];
      AddResumePoint(header, header, b.in_depth);
      f_.loop_entries.push_back(header);
      f_.loop_entry_depths.push_back(b.in_depth);
    }
    unit = in.next;
  }
  Drain();
  FillDispatch();
}

// Block 0 of a function with resume points: a branch to each on prev_instr, and the
// interpreter for a frame stopped anywhere else.
void Builder::FillDispatch() {
  cur_ = 0;
  stack_.clear();
  for (const ResumePoint& p : resume_points_) {
    const int at = Def(Op::kResumedAt, {}, p.prev_unit, ValueType::kCInt);
    const int next = NewMadeBlock(0);
    EndWithBranch(at, p.block, next);
    cur_ = next;
  }
  Instr leave;
  leave.op = Op::kEnterInterpreter;
  Terminate(leave);
}

// RETURN_GENERATOR: among the first instructions (after COPY_FREE_VARS and MAKE_CELLs).
Insn Builder::FindReturnGenerator() const {
  for (int unit = 0; unit < static_cast<int>(code_.code.size());) {
    const Insn in = Decode(unit);
    if (in.opcode == RETURN_GENERATOR) return in;
    unit = in.next;
  }
  throw Unsupported(-1, 0, "generator without RETURN_GENERATOR");
}

// A block the builder makes up, with `depth` stack values live in.
int Builder::NewMadeBlock(int depth) {
  Block b;
  b.in_depth = depth;
  f_.blocks.push_back(b);
  return static_cast<int>(f_.blocks.size()) - 1;
}

// A made block (NewMadeBlock) that becomes the current one, its stack the `depth` values
// live in (s_0 ..).
int Builder::EnterMadeBlock(int depth) {
  cur_ = NewMadeBlock(depth);
  stack_.clear();
  for (int k = 0; k < depth; k++) stack_.push_back(f_.StackReg(k));
  return cur_;
}

// The frame was suspended at `prev_unit` with `depth` values on its stack and resumes at
// `unit`: a block that takes the values over from the frame, then goes there.
void Builder::AddResumePoint(int prev_unit, int unit, int depth) {
  const int saved_cur = cur_;
  const std::vector<int> saved_stack = stack_;
  const Insn saved_insn = insn_;
  const int block = NewMadeBlock(0);
  cur_ = block;
  stack_.clear();
  for (int k = 0; k < depth; k++) Push(Def(Op::kLoadFrameStack, {}, k));
  if (prev_unit < 0) Effect(Op::kClearLocals, {});  // the call
  Effect(Op::kResetStackTop, {});
  const int target = BlockAt(unit, depth);
  cur_ = block;
  Terminate(Jump(target));
  resume_points_.push_back(ResumePoint{prev_unit, block});
  cur_ = saved_cur;
  stack_ = saved_stack;
  insn_ = saved_insn;
}

// The last emitted instruction carries what 3.11's interpreter saw at this one
// (feedback.h), read off its quickened opcode.
void Builder::TakeFeedback() {
  const size_t unit = static_cast<size_t>(insn_.unit);
  if (unit < code_.quickened.size()) Last().feedback = FeedbackOf(code_.quickened[unit]);
}

Insn Builder::Decode(int unit) const {
  Insn in;
  in.start = unit;
  int oparg = 0;
  for (;;) {
    if (unit < 0 || unit >= static_cast<int>(code_.code.size())) {
      throw Unsupported(-1, unit * 2, "control flow leaves the code");
    }
    const uint16_t word = code_.code[static_cast<size_t>(unit)];
    const int op = word & 0xff;  // little-endian code units: opcode, then oparg
    oparg = (oparg << 8) | (word >> 8);
    if (op != EXTENDED_ARG) {
      in.unit = unit;
      in.opcode = op;
      in.oparg = oparg;
      in.next = unit + 1 + InlineCacheUnits(op);
      return in;
    }
    unit++;
  }
}

void Builder::MarkStart(int unit) {
  // A unit outside the code is no start: Decode reports the jump there when it follows it.
  if (unit >= 0 && static_cast<size_t>(unit) < starts_.size()) {
    starts_[static_cast<size_t>(unit)] = true;
  }
}

bool Builder::StartsBlock(int unit) const {
  return unit >= 0 && static_cast<size_t>(unit) < starts_.size() &&
         starts_[static_cast<size_t>(unit)];
}

// Whether the instruction right after `from` is `opcode`, with no EXTENDED_ARG before it and
// no jump landing on it (*next: it, decoded), as a rule that translates the two as one needs.
bool Builder::FollowedBy(const Insn& from, int opcode, Insn* next) const {
  if (StartsBlock(from.next)) return false;
  *next = Decode(from.next);
  return next->opcode == opcode && next->start == from.next;
}

// Pass 1: the instructions reachable along normal control flow, and where blocks start.
void Builder::FindBlocks() {
  const size_t units = code_.code.size() + 1;
  starts_.assign(units, false);
  block_at_.assign(units, -1);
  std::vector<int> todo = {0};
  MarkStart(0);
  if (catching_) {
    for (const ExceptionHandler& h : handlers_) {
      MarkStart(h.target);
      todo.push_back(h.target);
    }
  }
  std::vector<bool> seen(units, false);
  const auto first_visit = [&](int unit) {
    // Out of the code: Decode throws for it.
    if (unit < 0 || static_cast<size_t>(unit) >= units) return true;
    if (seen[static_cast<size_t>(unit)]) return false;
    seen[static_cast<size_t>(unit)] = true;
    return true;
  };
  while (!todo.empty()) {
    int unit = todo.back();
    todo.pop_back();
    while (first_visit(unit)) {
      const Insn in = Decode(unit);
      if (RowFor(in.opcode) == nullptr) throw Unsupported(in.opcode, in.unit * 2, "opcode");
      const Flow flow = FlowOf(in);
      if (in.opcode == YIELD_VALUE || in.opcode == RETURN_GENERATOR) MarkStart(in.next);
      if (flow.jump >= 0) {
        MarkStart(flow.jump);
        todo.push_back(flow.jump);
        if (flow.falls_through) MarkStart(in.next);
      }
      if (!flow.falls_through) break;
      unit = in.next;
    }
  }
}

int Builder::BlockAt(int unit, int depth) {
  if (unit < 0 || static_cast<size_t>(unit) >= block_at_.size()) {
    throw Unsupported(-1, unit * 2, "control flow leaves the code");
  }
  const int known = block_at_[static_cast<size_t>(unit)];
  if (known >= 0) {
    const Block& b = f_.blocks[static_cast<size_t>(known)];
    if (b.in_depth != depth) {
      throw Unsupported(
          -1, unit * 2,
          "stack depth " + std::to_string(depth) + " and " + std::to_string(b.in_depth) + " meet");
    }
    return known;
  }
  Block b;
  b.in_depth = depth;
  b.bc_start = unit;
  f_.blocks.push_back(b);
  const int index = static_cast<int>(f_.blocks.size()) - 1;
  block_at_[static_cast<size_t>(unit)] = index;
  work_.push_back(index);
  return index;
}

// A block the builder makes up: from `depth` stack values, drops `count` starting at
// `index` (the top ones, or one under the top), then goes to `unit`.
int Builder::DropThenGoto(int depth, int index, int count, int unit) {
  return MadeBlockThenGoto(
      depth, unit, [&] { stack_.erase(stack_.begin() + index, stack_.begin() + index + count); });
}

// A block the builder makes up for the taken edge of a backward POP_JUMP_*: the eval breaker
// test 3.11 makes after its JUMPBY (CHECK_EVAL_BREAKER, on that edge only), then `unit`, the
// jump's target. When the interpreter takes over there, it goes on at the target with the
// condition already popped: the test, which may have run __bool__, is not made again. An
// error raised by the breaker's work is the jump's, as 3.11's prev_instr says.
int Builder::CheckThenGoto(int depth, int unit) {
  return MadeBlockThenGoto(depth, unit, [&] {
    CheckEvalBreaker();
    Last().state.resume_unit = unit;
  });
}

Instr& Builder::Emit(Instr&& in) {
  const int arity = InfoOf(in.op).arity;
  if (arity != kVariadic && arity != static_cast<int>(in.args.size())) {
    throw std::logic_error(std::string("builder: ") + OpName(in.op) + " takes " +
                           std::to_string(arity) + " operands");
  }
  auto& instrs = f_.blocks[static_cast<size_t>(cur_)].instrs;
  // Room for a typical block at once: growing by doubling from one moved each
  // instruction up to three times (benchmarks/compile_time).
  if (instrs.capacity() == 0) instrs.reserve(8);
  instrs.push_back(std::move(in));
  return instrs.back();
}

int Builder::Def(Op op, std::vector<int> args, int64_t imm, ValueType t) {
  Instr in;
  in.op = op;
  in.dst = f_.NewReg(t);
  in.args = std::move(args);
  in.imm = imm;
  in.bc = insn_.unit;
  return Emit(std::move(in)).dst;
}

// An instruction without a result.
void Builder::Effect(Op op, std::vector<int> args, int64_t imm) {
  Instr in;
  in.op = op;
  in.args = std::move(args);
  in.imm = imm;
  in.bc = insn_.unit;
  Emit(std::move(in));
}

void Builder::State(FrameState::Kind kind, const std::vector<int>& stack) {
  // First: making a landing block may move f_.blocks (and so Last()).
  const int catch_block =
      kind == FrameState::Kind::kRaised
          ? -1
          : CatchBlockFor(insn_.unit, stack.size(), kind == FrameState::Kind::kReraise);
  Instr& in = Last();
  if (!InfoOf(in.op).leaves) {
    throw std::logic_error(std::string("builder: ") + OpName(in.op) + " cannot leave");
  }
  in.has_state = true;
  in.state.kind = kind;
  in.state.bc = insn_.unit;
  in.state.resume_unit = insn_.start;
  in.state.catch_block = catch_block;
  in.state.protected_range = HandlerIndexAt(handlers_, insn_.unit) >= 0;
  in.state.stack = stack;
}

// The landing block of the exception handler covering code unit `unit` (made on first
// use), or -1. It does what the interpreter's exception_unwind does once the stack is cut
// to the handler's depth: push the raising offset (a `lasti` handler), push the exception,
// then go to the handler.
// A re-raise (`reraise`) gets a landing block of its own that adds no traceback entry.
int Builder::CatchBlockFor(int unit, size_t depth, bool reraise) {
  const int e = catching_ ? HandlerIndexAt(handlers_, unit) : -1;
  if (e < 0) return -1;
  const ExceptionHandler& h = handlers_[static_cast<size_t>(e)];
  if (static_cast<size_t>(h.depth) > depth) Fail("exception handler deeper than the stack");
  const int key = 2 * e + (reraise ? 1 : 0);
  auto it = landing_of_.find(key);
  if (it != landing_of_.end()) return it->second;
  const int saved_cur = cur_;
  const std::vector<int> saved_stack = stack_;
  const Insn saved_insn = insn_;
  const int block = NewMadeBlock(h.depth);
  landing_of_[key] = block;
  cur_ = block;
  stack_.clear();
  for (int k = 0; k < h.depth; k++) Push(f_.StackReg(k));
  insn_ = Decode(h.target);
  if (h.lasti) {
    const std::vector<int> pre = stack_;
    Push(Def(Op::kFrameLasti, {}));
    RaisedState(pre);
  }
  const std::vector<int> pre = stack_;
  Push(Def(Op::kCatchException, {}, reraise ? 1 : 0));
  RaisedState(pre);
  const int target = BlockAt(h.target, Depth());
  cur_ = block;
  Terminate(Jump(target));
  cur_ = saved_cur;
  stack_ = saved_stack;
  insn_ = saved_insn;
  return block;
}

Instr Builder::Jump(int target) {
  Instr in;
  in.op = Op::kJump;
  in.targets[0] = target;
  return in;
}

// Hands the stack to the successors (through s_k) and ends the block.
void Builder::Terminate(Instr term) {
  Block& block = f_.blocks[static_cast<size_t>(cur_)];
  block.out_depth = static_cast<int>(stack_.size());
  std::vector<std::pair<int, int>> moves;  // (depth, value)
  for (size_t k = 0; k < stack_.size(); k++) {
    if (stack_[k] != f_.StackReg(static_cast<int>(k))) {
      moves.emplace_back(static_cast<int>(k), stack_[k]);
    }
  }
  // Through temporaries: a value may already sit in another s_k (after SWAP).
  std::vector<int> temps;
  for (auto& [k, v] : moves) temps.push_back(Def(Op::kMov, {v}));
  for (size_t i = 0; i < moves.size(); i++) {
    Instr mov;
    mov.op = Op::kMov;
    mov.dst = f_.StackReg(moves[i].first);
    mov.args = {temps[i]};
    mov.bc = insn_.unit;
    Emit(std::move(mov));
  }
  term.bc = insn_.unit;
  Emit(std::move(term));
  cur_ = -1;
}

std::vector<int> Builder::Pop(int n) {
  if (static_cast<int>(stack_.size()) < n) {
    throw Unsupported(insn_.opcode, insn_.unit * 2, "stack underflow");
  }
  std::vector<int> v(stack_.end() - n, stack_.end());
  stack_.resize(stack_.size() - static_cast<size_t>(n));
  return v;
}

void Builder::Translate(int b) {
  cur_ = b;
  // Copied, not referenced: translating makes blocks (NewMadeBlock), and f_.blocks may
  // move (AddressSanitizer found the read of a freed block here).
  const int bc_start = f_.blocks[static_cast<size_t>(b)].bc_start;
  const int in_depth = f_.blocks[static_cast<size_t>(b)].in_depth;
  stack_.clear();
  for (int k = 0; k < in_depth; k++) stack_.push_back(f_.StackReg(k));
  if (LeaveIfCold(b, bc_start)) return;
  int unit = bc_start;
  kwnames_ = -1;
  for (;;) {
    if (unit != bc_start && StartsBlock(unit)) {
      const int target = BlockAt(unit, static_cast<int>(stack_.size()));
      cur_ = b;
      Terminate(Jump(target));
      return;
    }
    insn_ = Decode(unit);
    if (!TranslateOne()) return;
    unit = insn_.next;
  }
}

// Whether the block from `bc_start` had not run when the function was compiled: its first
// specialisable instruction (the first with an inline cache, before the block ends) is still
// adaptive with its counter at 0 (CodeInfo::unrun). A block without one says nothing.
bool Builder::Unrun(int bc_start) const {
  // Not in a generator: a frame the interpreter suspended inside a cold block would resume
  // there (EnterInterpreter) every time after, and its calls count generators made, not runs.
  if (code_.unrun.empty() || IsGenerator(code_.flags)) return false;
  for (int unit = bc_start;;) {
    if (unit != bc_start && StartsBlock(unit)) return false;
    const Insn in = Decode(unit);
    if (InlineCacheUnits(in.opcode) > 0) {
      return static_cast<size_t>(in.unit) < code_.unrun.size() &&
             code_.unrun[static_cast<size_t>(in.unit)] != 0;
    }
    const Flow flow = FlowOf(in);
    if (!flow.falls_through || flow.jump >= 0) return false;
    unit = in.next;
  }
}

// A block that had not run (Unrun) ends at once in a ColdExit: the interpreter runs it from
// its first instruction with the stack as it comes in, as a deopt there would. So it costs
// nothing to compile, and neither does what only it leads to; if it runs after all, that call
// goes on in the interpreter (get_deopt_stats: "cold path"). Not the function's first block,
// whatever quickening saw.
bool Builder::LeaveIfCold(int b, int bc_start) {
  if (bc_start <= 0 || !Unrun(bc_start) || !Take(decisions_, Decision::kHirColdPath, bc_start)) {
    return false;
  }
  insn_ = Decode(bc_start);
  Instr exit;
  exit.op = Op::kColdExit;
  EndWithState(std::move(exit), bc_start);
  if (cold_.size() <= static_cast<size_t>(b)) cold_.resize(static_cast<size_t>(b) + 1, false);
  cold_[static_cast<size_t>(b)] = true;
  return true;
}

// Translates insn_ by its rule; false when it ended the block.
bool Builder::TranslateOne() {
  const Row* row = RowFor(insn_.opcode);
  if (row == nullptr) throw Unsupported(insn_.opcode, insn_.unit * 2, "opcode");
  row_op_ = row->op;
  return (this->*row->rule)();
}

// Ends the block on `c`: to `jump_unit` when c == jump_if, else to `next_unit`. The side
// that falls through pops `pop_on_fallthrough` values first.
void Builder::Branch(int c, bool jump_if, int jump_unit, int next_unit, int pop_on_fallthrough) {
  const int depth = static_cast<int>(stack_.size());
  const int self = cur_;
  const int jump = BlockAt(jump_unit, depth);
  int fall = pop_on_fallthrough > 0 ? PopThenGoto(depth, pop_on_fallthrough, next_unit)
                                    : BlockAt(next_unit, depth);
  cur_ = self;
  EndWithBranch(c, jump_if ? jump : fall, jump_if ? fall : jump);
}

void Builder::EndWithBranch(int c, int if_set, int if_clear) {
  Instr br;
  br.op = Op::kBranch;
  br.args = {c};
  br.targets[0] = if_set;
  br.targets[1] = if_clear;
  Terminate(br);
}

// Every bytecode the builder translates: the Builder function that does it, and the HIR op
// that function makes (rules that make their own choice of ops say None). A bytecode of an
// existing shape is one row here: a unary object operation, for one, is ReplaceTop or
// PushFromTop with its op. Anything not listed keeps its function interpreted, and stats()
// names the opcode.
// clang-format off
#define A64JIT_BYTECODE_RULES(X)                                         \
  /* bytecode                      rule                HIR op */         \
  X(NOP,                           Nothing,            None)             \
  X(RESUME,                        Resume,             None)             \
  X(PRECALL,                       Nothing,            None)             \
  X(POP_TOP,                       PopTop,             None)             \
  X(PUSH_NULL,                     PushNull,           None)             \
  X(COPY,                          Copy,               None)             \
  X(SWAP,                          Swap,               None)             \
  X(LOAD_FAST,                     LoadFast,           None)             \
  X(STORE_FAST,                    StoreFast,          None)             \
  X(LOAD_CONST,                    LoadConst,          None)             \
  X(LOAD_GLOBAL,                   LoadGlobal,         None)             \
  X(LOAD_ATTR,                     LoadAttr,           None)             \
  X(STORE_ATTR,                    StoreAttr,          None)             \
  X(LOAD_METHOD,                   LoadMethod,         None)             \
  X(KW_NAMES,                      KwNames,            None)             \
  X(CALL,                          Call,               None)             \
  X(BINARY_OP,                     BinaryOperands,     BinaryOp)         \
  X(COMPARE_OP,                    BinaryOperands,     CompareOp)        \
  X(IS_OP,                         IsOp,               None)             \
  X(CONTAINS_OP,                   ContainsOp,         None)             \
  X(UNARY_NEGATIVE,                UnaryArithmetic,    None)             \
  X(UNARY_POSITIVE,                UnaryArithmetic,    None)             \
  X(UNARY_INVERT,                  UnaryArithmetic,    None)             \
  X(UNARY_NOT,                     UnaryNot,           None)             \
  X(BINARY_SUBSCR,                 BinarySubscr,       None)             \
  X(STORE_SUBSCR,                  StoreSubscr,        None)             \
  X(BUILD_LIST,                    BuildConsuming,     BuildList)        \
  X(BUILD_TUPLE,                   BuildConsuming,     BuildTuple)       \
  X(BUILD_MAP,                     BuildConsuming,     BuildMap)         \
  X(BUILD_STRING,                  BuildConsuming,     BuildString)      \
  X(BUILD_CONST_KEY_MAP,           BuildConstKeyMap,   None)             \
  X(BUILD_SLICE,                   BuildSlice,         None)             \
  X(FORMAT_VALUE,                  FormatValue,        None)             \
  X(LIST_APPEND,                   ListAppendOrExtend, ListAppend)       \
  X(LIST_EXTEND,                   ListAppendOrExtend, ListExtend)       \
  X(MAKE_FUNCTION,                 MakeFunction,       None)             \
  X(UNPACK_SEQUENCE,               UnpackSequence,     None)             \
  X(GET_ITER,                      GetIter,            None)             \
  X(FOR_ITER,                      ForIter,            None)             \
  X(JUMP_FORWARD,                  JumpUnconditional,  None)             \
  X(JUMP_BACKWARD,                 JumpUnconditional,  None)             \
  X(JUMP_BACKWARD_NO_INTERRUPT,    JumpUnconditional,  None)             \
  X(POP_JUMP_FORWARD_IF_TRUE,      PopJump,            None)             \
  X(POP_JUMP_FORWARD_IF_FALSE,     PopJump,            None)             \
  X(POP_JUMP_BACKWARD_IF_TRUE,     PopJump,            None)             \
  X(POP_JUMP_BACKWARD_IF_FALSE,    PopJump,            None)             \
  X(POP_JUMP_FORWARD_IF_NONE,      PopJump,            None)             \
  X(POP_JUMP_FORWARD_IF_NOT_NONE,  PopJump,            None)             \
  X(POP_JUMP_BACKWARD_IF_NONE,     PopJump,            None)             \
  X(POP_JUMP_BACKWARD_IF_NOT_NONE, PopJump,            None)             \
  X(JUMP_IF_TRUE_OR_POP,           JumpOrPop,          None)             \
  X(JUMP_IF_FALSE_OR_POP,          JumpOrPop,          None)             \
  X(RETURN_VALUE,                  ReturnValue,        None)             \
  X(RAISE_VARARGS,                 RaiseVarargs,       None)             \
  X(RERAISE,                       Reraise,            None)             \
  X(PUSH_EXC_INFO,                 PushExcInfo,        None)             \
  X(POP_EXCEPT,                    PopExcept,          None)             \
  X(CHECK_EXC_MATCH,               CheckExcMatch,      None)             \
  X(END_ASYNC_FOR,                 EndAsyncFor,        None)             \
  X(WITH_EXCEPT_START,             WithExceptStart,    None)             \
  X(LOAD_ASSERTION_ERROR,          LeaveToRaise,       None)             \
  X(MAKE_CELL,                     MakeCell,           None)             \
  X(COPY_FREE_VARS,                CopyFreeVars,       None)             \
  X(LOAD_CLOSURE,                  LoadFast,           None)             \
  X(LOAD_DEREF,                    LoadDeref,          None)             \
  X(STORE_DEREF,                   StoreDeref,         None)             \
  X(DELETE_DEREF,                  DeleteCellOrLocal,  None)             \
  X(DELETE_FAST,                   DeleteCellOrLocal,  None)             \
  X(BUILD_SET,                     BuildConsuming,     BuildSet)         \
  X(SET_ADD,                       CollectionUpdate,   SetAdd)           \
  X(SET_UPDATE,                    CollectionUpdate,   SetUpdate)        \
  X(MAP_ADD,                       CollectionUpdate,   MapAdd)           \
  X(DICT_UPDATE,                   CollectionUpdate,   DictUpdate)       \
  X(DICT_MERGE,                    CollectionUpdate,   DictMerge)        \
  X(LIST_TO_TUPLE,                 ReplaceTop,         ListToTuple)      \
  X(GET_LEN,                       PushFromTop,        GetLen)           \
  X(CALL_FUNCTION_EX,              CallFunctionEx,     None)             \
  X(UNPACK_EX,                     UnpackEx,           None)             \
  X(DELETE_ATTR,                   PopOperands,        DeleteAttr)       \
  X(DELETE_SUBSCR,                 PopOperands,        DeleteSubscr)     \
  X(STORE_GLOBAL,                  PopOperands,        StoreGlobal)      \
  X(DELETE_GLOBAL,                 DeleteGlobal,       None)             \
  X(IMPORT_NAME,                   ImportName,         None)             \
  X(IMPORT_FROM,                   ImportFrom,         None)             \
  X(MATCH_MAPPING,                 MatchTypeFlag,      None)             \
  X(MATCH_SEQUENCE,                MatchTypeFlag,      None)             \
  X(MATCH_KEYS,                    MatchKeys,          None)             \
  X(MATCH_CLASS,                   MatchClass,         None)             \
  X(LOAD_BUILD_CLASS,              LoadBuildClass,     None)             \
  X(BEFORE_WITH,                   BeforeWith,         None)             \
  X(BEFORE_ASYNC_WITH,             BeforeWith,         None)             \
  X(RETURN_GENERATOR,              ReturnGenerator,    None)             \
  X(YIELD_VALUE,                   YieldValue,         None)             \
  X(SEND,                          Send,               None)             \
  X(GET_AWAITABLE,                 ReplaceTop,         GetAwaitable)     \
  X(GET_AITER,                     ReplaceTop,         GetAiter)         \
  X(GET_ANEXT,                     PushFromTop,        GetAnext)         \
  X(GET_YIELD_FROM_ITER,           ReplaceTop,         GetYieldFromIter) \
  X(ASYNC_GEN_WRAP,                ReplaceTop,         AsyncGenWrap)
// clang-format on

// The op column's names: a HIR op, or None.
namespace op_column {
inline constexpr std::optional<Op> None = std::nullopt;
#define A64JIT_OP_COLUMN(name, ...) inline constexpr std::optional<Op> name = Op::k##name;
A64JIT_HIR_OPS(A64JIT_OP_COLUMN)
#undef A64JIT_OP_COLUMN
}  // namespace op_column

const Builder::Row* Builder::RowFor(int opcode) {
  static const std::array<Row, 256> kRows = [] {
    std::array<Row, 256> rows{};
#define A64JIT_BYTECODE_RULE(opcode, fn, op) rows[opcode] = Row{&Builder::fn, op_column::op};
    A64JIT_BYTECODE_RULES(A64JIT_BYTECODE_RULE)
#undef A64JIT_BYTECODE_RULE
    return rows;
  }();
  if (opcode < 0 || opcode >= 256 || kRows[static_cast<size_t>(opcode)].rule == nullptr) {
    return nullptr;
  }
  return &kRows[static_cast<size_t>(opcode)];
}

}  // namespace internal

Function Build(const CodeInfo& code, Decisions* decisions) {
  // A handler the builder cannot translate (an opcode only handlers use, like except*'s)
  // leaves the handlers to the interpreter, as before handlers were compiled.
  try {
    return internal::Builder(code, true, decisions).Run();
  } catch (const Unsupported& e) {
    Function f = internal::Builder(code, false, decisions).Run();
    f.handlers_left_by = e.opcode();
    return f;
  }
}

}  // namespace a64jit::hir
