#include "jit/hir/builder.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_code.h>
#include <opcode.h>

#include <array>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>

#include "jit/hir/exception_table.h"

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

namespace {

// One decoded instruction.
struct Insn {
  int start = 0;  // first code unit (an EXTENDED_ARG, if any)
  int unit = 0;   // the opcode's code unit
  int opcode = 0;
  int oparg = 0;
  int next = 0;  // code unit after the inline caches
};

// Where control goes after an instruction.
struct Flow {
  int jump = -1;  // jump target, or -1
  bool falls_through = true;
};

Flow FlowOf(const Insn& in) {
  switch (in.opcode) {
    case JUMP_FORWARD:
      return {in.next + in.oparg, false};
    case JUMP_BACKWARD:
    case JUMP_BACKWARD_NO_INTERRUPT:
      return {in.next - in.oparg, false};
    case POP_JUMP_FORWARD_IF_TRUE:
    case POP_JUMP_FORWARD_IF_FALSE:
    case POP_JUMP_FORWARD_IF_NONE:
    case POP_JUMP_FORWARD_IF_NOT_NONE:
    case JUMP_IF_TRUE_OR_POP:
    case JUMP_IF_FALSE_OR_POP:
    case FOR_ITER:
    case SEND:
      return {in.next + in.oparg, true};
    case POP_JUMP_BACKWARD_IF_TRUE:
    case POP_JUMP_BACKWARD_IF_FALSE:
    case POP_JUMP_BACKWARD_IF_NONE:
    case POP_JUMP_BACKWARD_IF_NOT_NONE:
      return {in.next - in.oparg, true};
    case RETURN_VALUE:
    case RAISE_VARARGS:
    case RERAISE:
    case LOAD_ASSERTION_ERROR:
      return {-1, false};
    default:
      return {-1, true};
  }
}

class Builder {
 public:
  // `catching`: exception handlers are translated, and instructions in a protected range
  // reach them in compiled code (FrameState::catch_block); else every exception leaves for
  // the interpreter, which runs the handlers.
  Builder(const CodeInfo& code, bool catching) : code_(code), catching_(catching) {
    f_.code = code;
    try {
      handlers_ = DecodeExceptionTable(code.exception_table);
    } catch (const BadExceptionTable& e) {
      throw Unsupported(-1, 0, e.what());
    }
  }

  Function Run() {
    const int kNotFunction = CO_OPTIMIZED | CO_NEWLOCALS;
    if ((code_.flags & kNotFunction) != kNotFunction) {
      throw Unsupported(-1, 0, "module or class body (not a function)");
    }
    FindBlocks();
    if (IsGenerator(code_.flags)) {
      BuildResumable();
    } else {
      BlockAt(0, 0);
      Drain();
    }
    return std::move(f_);
  }

 private:
  // The Builder function that translates one bytecode (see kBytecodeRules), or nullptr.
  using Rule = bool (Builder::*)();
  static Rule RuleFor(int opcode);

  void Drain() {
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
  void BuildResumable() {
    Block dispatch;
    f_.blocks.push_back(dispatch);  // block 0, filled once every resume point is known
    const Insn made = FindReturnGenerator();
    AddResumePoint(-1, 0, 0);  // the call
    AddResumePoint(made.unit, made.next, 1);
    Drain();
    cur_ = 0;
    stack_.clear();
    for (const ResumePoint& p : resume_points_) {
      const int at = Def(Op::kResumedAt, {}, p.prev_unit, ValueType::kCInt);
      const int next = NewMadeBlock(0);
      Instr br;
      br.op = Op::kBranch;
      br.args = {at};
      br.targets[0] = p.block;
      br.targets[1] = next;
      Terminate(br);
      cur_ = next;
    }
    Instr leave;
    leave.op = Op::kEnterInterpreter;
    Terminate(leave);
  }

  // RETURN_GENERATOR: among the first instructions (after COPY_FREE_VARS and MAKE_CELLs).
  Insn FindReturnGenerator() const {
    for (int unit = 0; unit < static_cast<int>(code_.code.size());) {
      const Insn in = Decode(unit);
      if (in.opcode == RETURN_GENERATOR) return in;
      unit = in.next;
    }
    throw Unsupported(-1, 0, "generator without RETURN_GENERATOR");
  }

  // A block the builder makes up, with `depth` stack values live in.
  int NewMadeBlock(int depth) {
    Block b;
    b.in_depth = depth;
    f_.blocks.push_back(b);
    return static_cast<int>(f_.blocks.size()) - 1;
  }

  // The frame was suspended at `prev_unit` with `depth` values on its stack and resumes at
  // `unit`: a block that takes the values over from the frame, then goes there.
  void AddResumePoint(int prev_unit, int unit, int depth) {
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

  void Push(int reg) { stack_.push_back(reg); }
  int Depth() const { return static_cast<int>(stack_.size()); }
  Instr& Last() { return f_.blocks[static_cast<size_t>(cur_)].instrs.back(); }
  // The last emitted instruction carries what 3.11's interpreter saw at this one
  // (feedback.h), read off its quickened opcode.
  void TakeFeedback() {
    const size_t unit = static_cast<size_t>(insn_.unit);
    if (unit < code_.quickened.size()) Last().feedback = FeedbackOf(code_.quickened[unit]);
  }
  [[noreturn]] void Fail(const std::string& what) const {
    throw Unsupported(insn_.opcode, insn_.unit * 2, what);
  }

  Insn Decode(int unit) const {
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

  // Pass 1: the instructions reachable along normal control flow, and where blocks start.
  void FindBlocks() {
    std::deque<int> todo = {0};
    starts_.insert(0);
    if (catching_) {
      for (const ExceptionHandler& h : handlers_) {
        starts_.insert(h.target);
        todo.push_back(h.target);
      }
    }
    std::set<int> seen;
    while (!todo.empty()) {
      int unit = todo.front();
      todo.pop_front();
      while (seen.insert(unit).second) {
        const Insn in = Decode(unit);
        if (RuleFor(in.opcode) == nullptr) throw Unsupported(in.opcode, in.unit * 2, "opcode");
        const Flow flow = FlowOf(in);
        if (in.opcode == YIELD_VALUE || in.opcode == RETURN_GENERATOR) starts_.insert(in.next);
        if (flow.jump >= 0) {
          starts_.insert(flow.jump);
          todo.push_back(flow.jump);
          if (flow.falls_through) starts_.insert(in.next);
        }
        if (!flow.falls_through) break;
        unit = in.next;
      }
    }
  }

  int BlockAt(int unit, int depth) {
    auto it = block_at_.find(unit);
    if (it != block_at_.end()) {
      const Block& b = f_.blocks[static_cast<size_t>(it->second)];
      if (b.in_depth != depth) {
        throw Unsupported(-1, unit * 2,
                          "stack depth " + std::to_string(depth) + " and " +
                              std::to_string(b.in_depth) + " meet");
      }
      return it->second;
    }
    Block b;
    b.in_depth = depth;
    b.bc_start = unit;
    f_.blocks.push_back(b);
    const int index = static_cast<int>(f_.blocks.size()) - 1;
    block_at_[unit] = index;
    work_.push_back(index);
    return index;
  }

  // A block the builder makes up: from `depth` stack values, drops `count` starting at
  // `index` (the top ones, or one under the top), then goes to `unit`.
  int DropThenGoto(int depth, int index, int count, int unit) {
    const int saved_cur = cur_;
    const std::vector<int> saved_stack = stack_;
    const int block = NewMadeBlock(depth);
    cur_ = block;
    stack_.clear();
    for (int k = 0; k < depth; k++) stack_.push_back(f_.StackReg(k));
    stack_.erase(stack_.begin() + index, stack_.begin() + index + count);
    const int target = BlockAt(unit, depth - count);
    cur_ = block;
    Terminate(Jump(target));
    cur_ = saved_cur;
    stack_ = saved_stack;
    return block;
  }
  int PopThenGoto(int depth, int pop, int unit) {
    return DropThenGoto(depth, depth - pop, pop, unit);
  }

  Instr& Emit(Instr&& in) {  // moved once, into its block
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
  int Def(Op op, std::vector<int> args, int64_t imm = 0, ValueType t = ValueType::kObject) {
    Instr in;
    in.op = op;
    in.dst = f_.NewReg(t);
    in.args = std::move(args);
    in.imm = imm;
    in.bc = insn_.unit;
    return Emit(std::move(in)).dst;
  }
  // An instruction without a result.
  void Effect(Op op, std::vector<int> args, int64_t imm = 0) {
    Instr in;
    in.op = op;
    in.args = std::move(args);
    in.imm = imm;
    in.bc = insn_.unit;
    Emit(std::move(in));
  }
  // The last emitted instruction may leave for the interpreter.
  void ErrorState(const std::vector<int>& stack) { State(FrameState::Kind::kError, stack); }
  void ResumeState(const std::vector<int>& stack) { State(FrameState::Kind::kResume, stack); }
  // The landing block's own instructions raise where the frame's prev_instr says.
  void RaisedState(const std::vector<int>& stack) { State(FrameState::Kind::kRaised, stack); }
  void State(FrameState::Kind kind, const std::vector<int>& stack) {
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
  int CatchBlockFor(int unit, size_t depth, bool reraise) {
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
  static Instr Jump(int target) {
    Instr in;
    in.op = Op::kJump;
    in.targets[0] = target;
    return in;
  }

  // Hands the stack to the successors (through s_k) and ends the block.
  void Terminate(Instr term) {
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

  std::vector<int> Pop(int n) {
    if (static_cast<int>(stack_.size()) < n) {
      throw Unsupported(insn_.opcode, insn_.unit * 2, "stack underflow");
    }
    std::vector<int> v(stack_.end() - n, stack_.end());
    stack_.resize(stack_.size() - static_cast<size_t>(n));
    return v;
  }
  int Pop1() { return Pop(1)[0]; }
  std::vector<int> Without(const std::vector<int>& stack, int n) const {
    return std::vector<int>(stack.begin(), stack.end() - n);
  }

  void Translate(int b) {
    cur_ = b;
    // Copied, not referenced: translating makes blocks (NewMadeBlock), and f_.blocks may
    // move (AddressSanitizer found the read of a freed block here).
    const int bc_start = f_.blocks[static_cast<size_t>(b)].bc_start;
    const int in_depth = f_.blocks[static_cast<size_t>(b)].in_depth;
    stack_.clear();
    for (int k = 0; k < in_depth; k++) stack_.push_back(f_.StackReg(k));
    int unit = bc_start;
    kwnames_ = -1;
    for (;;) {
      if (unit != bc_start && starts_.count(unit)) {
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

  // Translates insn_ by its rule; false when it ended the block.
  bool TranslateOne() {
    const Rule rule = RuleFor(insn_.opcode);
    if (rule == nullptr) throw Unsupported(insn_.opcode, insn_.unit * 2, "opcode");
    return (this->*rule)();
  }

  // ---- One function per bytecode family; each returns false when it ended the block ----

  bool Nothing() { return true; }  // NOP; PRECALL: CALL unpacks bound methods

  // Where the interpreter tests its eval breaker, compiled code does too: RESUME at a
  // function's start or after a plain yield (not after `yield from`/`await`, oparg >= 2),
  // and backward jumps. When set, the interpreter takes over at the instruction.
  void CheckEvalBreaker(bool at_entry = false) {
    Effect(Op::kCheckEvalBreaker, {}, at_entry ? 1 : 0);
    ResumeState(stack_);
  }

  // After a call, as the interpreter's dispatch does: tracing switched on by the callee (a
  // debugger's set_trace, sys.settrace) makes the interpreter take over before the next
  // instruction. Calls only: tracing switched on from code run implicitly (a property, an
  // operator method) takes effect at the next call, RESUME or backward jump.
  void CheckTracingAfterCall() {
    Effect(Op::kCheckTracing, {});
    ResumeState(stack_);
    Last().state.resume_unit = insn_.next;
  }

  bool Resume() {
    // A function's start and a plain yield's resume: compiled code gets here straight from
    // its entry, and every way in tests tracing first (the call stub, the eval-frame hook,
    // CallCompiled), so only the breaker is left to test. Unless a MAKE_CELL came first: its
    // allocation may run a finalizer, which may switch tracing on.
    if (insn_.oparg < 2) CheckEvalBreaker(/*at_entry=*/!MadeCellBefore());
    return true;
  }

  bool PopTop() {
    Pop1();
    return true;
  }

  bool PushNull() {
    Push(Def(Op::kLoadNull, {}));
    return true;
  }

  bool Copy() {
    const int n = insn_.oparg;
    if (n < 1 || n > Depth()) Fail("COPY past the stack");
    Push(Def(Op::kDup, {stack_[stack_.size() - static_cast<size_t>(n)]}));
    return true;
  }

  bool Swap() {
    const int n = insn_.oparg;
    if (n < 2 || n > Depth()) Fail("SWAP past the stack");
    std::swap(stack_.back(), stack_[stack_.size() - static_cast<size_t>(n)]);
    return true;
  }

  bool LoadFast() {
    const std::vector<int> pre = stack_;
    const int r = Def(Op::kLoadLocal, {}, insn_.oparg);
    Last().checked = true;  // the passes drop the check where the local is always bound
    ResumeState(pre);
    Push(r);
    return true;
  }

  bool StoreFast() {
    Effect(Op::kStoreLocal, {Pop1()}, insn_.oparg);
    return true;
  }

  bool LoadConst() {
    Push(Def(Op::kLoadConst, {}, insn_.oparg));
    return true;
  }

  bool LoadGlobal() {
    const std::vector<int> pre = stack_;
    if (insn_.oparg & 1) Push(Def(Op::kLoadNull, {}));
    const int r = Def(Op::kLoadGlobal, {}, insn_.oparg >> 1);
    TakeFeedback();
    ResumeState(pre);
    Push(r);
    return true;
  }

  bool LoadAttr() {
    const std::vector<int> pre = stack_;
    const int r = Def(Op::kLoadAttr, {Pop1()}, insn_.oparg);
    TakeFeedback();
    ErrorState(pre);
    Push(r);
    return true;
  }

  bool StoreAttr() {
    const std::vector<int> pre = stack_;
    const int owner = Pop1();
    const int value = Pop1();
    Effect(Op::kStoreAttr, {owner, value}, insn_.oparg);
    TakeFeedback();
    ErrorState(pre);
    return true;
  }

  bool LoadMethod() {
    const std::vector<int> pre = stack_;
    const int r = Def(Op::kLoadMethod, {Pop1()}, insn_.oparg);
    const int self = Last().dst2 = f_.NewReg(ValueType::kObject);
    TakeFeedback();
    ErrorState(pre);
    Push(r);
    Push(self);
    return true;
  }

  bool KwNames() {
    kwnames_ = insn_.oparg;
    return true;
  }

  bool Call() {
    const std::vector<int> pre = stack_;
    const int n = insn_.oparg + 2;
    const int r = Def(Op::kCall, Pop(n), insn_.oparg);
    Last().kwnames = kwnames_;
    kwnames_ = -1;
    ErrorState(Without(pre, n));  // the call consumed its operands
    Push(r);
    CheckTracingAfterCall();
    return true;
  }

  bool BinaryOrCompare() {
    const std::vector<int> pre = stack_;
    const int rhs = Pop1();
    const int lhs = Pop1();
    const Op op = insn_.opcode == BINARY_OP ? Op::kBinaryOp : Op::kCompareOp;
    const int r = Def(op, {lhs, rhs}, insn_.oparg);
    TakeFeedback();
    ErrorState(pre);
    Push(r);
    return true;
  }

  bool IsOp() {
    const int rhs = Pop1();
    const int lhs = Pop1();
    const int c = Def(Op::kIsSame, {lhs, rhs}, 0, ValueType::kCInt);
    Push(Def(Op::kBoolFromCInt, {c}, insn_.oparg ? 1 : 0));
    return true;
  }

  bool ContainsOp() {
    const std::vector<int> pre = stack_;
    const int container = Pop1();
    const int item = Pop1();
    const int c = Def(Op::kContains, {item, container}, 0, ValueType::kCInt);
    ErrorState(pre);
    Push(Def(Op::kBoolFromCInt, {c}, insn_.oparg ? 1 : 0));
    return true;
  }

  bool UnaryArithmetic() {
    const std::vector<int> pre = stack_;
    const UnaryKind kind = insn_.opcode == UNARY_NEGATIVE   ? UnaryKind::kNegative
                           : insn_.opcode == UNARY_POSITIVE ? UnaryKind::kPositive
                                                            : UnaryKind::kInvert;
    const int r = Def(Op::kUnaryOp, {Pop1()}, static_cast<int64_t>(kind));
    ErrorState(pre);
    Push(r);
    return true;
  }

  bool UnaryNot() {
    const std::vector<int> pre = stack_;
    const int c = Def(Op::kIsTrue, {Pop1()}, 0, ValueType::kCInt);
    ErrorState(pre);
    Push(Def(Op::kBoolFromCInt, {c}, 1));
    return true;
  }

  bool BinarySubscr() {
    const std::vector<int> pre = stack_;
    const int sub = Pop1();
    const int container = Pop1();
    const int r = Def(Op::kGetItem, {container, sub});
    TakeFeedback();
    ErrorState(pre);
    Push(r);
    return true;
  }

  bool StoreSubscr() {
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
  bool BuildConsuming() {
    const std::vector<int> pre = stack_;
    const int oparg = insn_.oparg;
    Op op;
    int n = oparg;
    switch (insn_.opcode) {
      case BUILD_LIST:
        op = Op::kBuildList;
        break;
      case BUILD_TUPLE:
        op = Op::kBuildTuple;
        break;
      case BUILD_MAP:
        op = Op::kBuildMap, n = 2 * oparg;
        break;
      case BUILD_SET:
        op = Op::kBuildSet;
        break;
      case BUILD_STRING:
        op = Op::kBuildString;
        break;
      default:
        Fail("BuildConsuming has no HIR op for this opcode");
    }
    const int r = Def(op, Pop(n), oparg);
    ErrorState(Without(pre, n));  // consumed
    Push(r);
    return true;
  }

  bool BuildConstKeyMap() {
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

  bool BuildSlice() {
    const std::vector<int> pre = stack_;
    if (insn_.oparg != 2 && insn_.oparg != 3) Fail("oparg");
    const int r = Def(Op::kBuildSlice, Pop(insn_.oparg));
    ErrorState(pre);
    Push(r);
    return true;
  }

  bool FormatValue() {
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
  bool ListAppendOrExtend() {
    const std::vector<int> pre = stack_;
    const int v = Pop1();
    if (insn_.oparg < 1 || insn_.oparg > Depth()) Fail("list operand past the stack");
    const int list = stack_[stack_.size() - static_cast<size_t>(insn_.oparg)];
    Effect(insn_.opcode == LIST_APPEND ? Op::kListAppend : Op::kListExtend, {list, v});
    ErrorState(pre);
    return true;
  }

  bool MakeFunction() {
    const std::vector<int> pre = stack_;
    // Stack, bottom to top: [defaults] [kwdefaults] [annotations] [closure] code.
    int n = 1;
    for (int bit = 0; bit < 4; bit++) n += (insn_.oparg >> bit) & 1;
    const int r = Def(Op::kMakeFunction, Pop(n), insn_.oparg);
    ErrorState(Without(pre, n));  // consumed
    Push(r);
    return true;
  }

  bool UnpackSequence() {
    const std::vector<int> pre = stack_;
    Effect(Op::kUnpackSequence, {Pop1()}, insn_.oparg);
    TakeFeedback();
    ErrorState(pre);
    for (int i = 0; i < insn_.oparg; i++) Push(Def(Op::kScratchLoad, {}, i));
    return true;
  }

  bool GetIter() {
    const std::vector<int> pre = stack_;
    const int r = Def(Op::kGetIter, {Pop1()});
    ErrorState(pre);
    Push(r);
    return true;
  }

  // The iterator stays; the next value (NULL when exhausted) is pushed for both successors,
  // and the exhausted one pops both.
  bool ForIter() {
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
    Instr br;
    br.op = Op::kBranch;
    br.args = {done};
    br.targets[0] = exhausted;
    br.targets[1] = body;
    Terminate(br);
    return false;
  }

  bool JumpUnconditional() {
    if (insn_.opcode == JUMP_BACKWARD) CheckEvalBreaker();
    const int target = BlockAt(FlowOf(insn_).jump, Depth());
    Terminate(Jump(target));
    return false;
  }

  // POP_JUMP_{FORWARD,BACKWARD}_IF_{TRUE,FALSE,NONE,NOT_NONE}
  bool PopJump() {
    const std::vector<int> pre = stack_;
    const int op = insn_.opcode;
    const bool on_none = op == POP_JUMP_FORWARD_IF_NONE || op == POP_JUMP_FORWARD_IF_NOT_NONE ||
                         op == POP_JUMP_BACKWARD_IF_NONE || op == POP_JUMP_BACKWARD_IF_NOT_NONE;
    const bool jump_if_set = op == POP_JUMP_FORWARD_IF_TRUE || op == POP_JUMP_BACKWARD_IF_TRUE ||
                             op == POP_JUMP_FORWARD_IF_NONE || op == POP_JUMP_BACKWARD_IF_NONE;
    if (FlowOf(insn_).jump < insn_.next) CheckEvalBreaker();  // before the test's side effects
    const int v = Pop1();
    const int c = Def(on_none ? Op::kIsNone : Op::kIsTrue, {v}, 0, ValueType::kCInt);
    if (!on_none) ErrorState(pre);
    Branch(c, jump_if_set, FlowOf(insn_).jump, insn_.next, 0);
    return false;
  }

  // JUMP_IF_TRUE_OR_POP, JUMP_IF_FALSE_OR_POP
  bool JumpOrPop() {
    const int c = Def(Op::kIsTrue, {stack_.back()}, 0, ValueType::kCInt);
    ErrorState(stack_);
    Branch(c, insn_.opcode == JUMP_IF_TRUE_OR_POP, FlowOf(insn_).jump, insn_.next, 1);
    return false;
  }

  bool ReturnValue() {
    EndWithReturn(Pop1());
    return false;
  }

  // RAISE_VARARGS 1 and 2 raise in compiled code (the exception may be caught there); a
  // bare `raise` (the handled exception again, or stock's RuntimeError when there is none)
  // is left to the interpreter.
  bool RaiseVarargs() {
    if (insn_.oparg == 0) return LeaveToRaise();
    EndWithRaise(Op::kRaise, Pop(insn_.oparg), FrameState::Kind::kError, 0);
    return false;
  }

  // Ends the block with Raise or Reraise (terminators that always leave with an exception
  // set): the state holds the stack under the operands, and names the handler that
  // catches the exception here, if any.
  void EndWithRaise(Op op, std::vector<int> operands, FrameState::Kind kind, int64_t imm) {
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

  // ---- Exception handlers ----

  // RERAISE n: the exception on top raised again, without a traceback entry, from the
  // offset the int n entries below it names. A generator's frame leaves it to the
  // interpreter (which also marks a generator it leaves completed).
  bool Reraise() {
    if (IsGenerator(code_.flags) || !catching_) return LeaveToRaise();
    if (insn_.oparg >= Depth()) Fail("RERAISE past the stack");
    EndWithRaise(Op::kReraise, {Pop1()}, FrameState::Kind::kReraise, insn_.oparg);
    return false;
  }

  bool PushExcInfo() {
    const int exc = Pop1();
    Push(Def(Op::kPushExcInfo, {exc}));
    Push(exc);
    return true;
  }

  bool PopExcept() {
    Effect(Op::kPopExcept, {Pop1()});
    return true;
  }

  bool CheckExcMatch() {
    const std::vector<int> pre = stack_;
    const int type = Pop1();
    const int c = Def(Op::kCheckExcMatch, {stack_.back(), type}, 0, ValueType::kCInt);
    ErrorState(pre);
    Push(Def(Op::kBoolFromCInt, {c}));
    return true;
  }

  // Under the exception: the previous exception, the raising offset, and __exit__.
  bool WithExceptStart() {
    if (Depth() < 4) Fail("WITH_EXCEPT_START past the stack");
    const std::vector<int> pre = stack_;
    Push(Def(Op::kWithExceptStart, {stack_[stack_.size() - 4], stack_.back()}));
    ErrorState(pre);
    return true;
  }

  // RAISE_VARARGS 0, LOAD_ASSERTION_ERROR, and a generator's RERAISE: all only ever lead to
  // raising, and the interpreter does it, with its exact messages and traceback.
  bool LeaveToRaise() {
    Instr deopt;
    deopt.op = Op::kDeopt;
    EndWithState(std::move(deopt), insn_.start);
    return false;
  }

  // Ends the block with a terminator that hands the stack to the frame (Deopt, Yield): no
  // edge moves, the state names the values where they are.
  void EndWithState(Instr term, int resume_unit) {
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

  void EndWithReturn(int value) {
    if (!stack_.empty()) Fail("return with a stack");
    Instr ret;
    ret.op = Op::kReturn;
    ret.args = {value};
    Terminate(ret);
  }

  // ---- Cells, closures and deletions: imm is the localsplus index ----

  bool MadeCellBefore() const {
    for (const Instr& in : f_.blocks[static_cast<size_t>(cur_)].instrs) {
      if (in.op == Op::kMakeCell) return true;
    }
    return false;
  }
  bool MakeCell() {
    Effect(Op::kMakeCell, {}, insn_.oparg);
    ErrorState(stack_);
    return true;
  }

  bool CopyFreeVars() {
    Effect(Op::kCopyFreeVars, {}, insn_.oparg);
    return true;
  }

  bool LoadDeref() {
    const std::vector<int> pre = stack_;
    const int r = Def(Op::kLoadDeref, {}, insn_.oparg);
    ResumeState(pre);
    Push(r);
    return true;
  }

  bool StoreDeref() {
    Effect(Op::kStoreDeref, {Pop1()}, insn_.oparg);
    return true;
  }

  // DELETE_DEREF, DELETE_FAST: an empty cell or unbound local resumes the interpreter,
  // which raises.
  bool DeleteCellOrLocal() {
    Effect(insn_.opcode == DELETE_DEREF ? Op::kDeleteDeref : Op::kDeleteLocal, {}, insn_.oparg);
    ResumeState(stack_);
    return true;
  }

  // ---- Containers, calls, names ----

  // SET_ADD, SET_UPDATE, MAP_ADD, DICT_UPDATE, DICT_MERGE: pop the operand(s); the
  // collection is oparg entries down. DICT_MERGE also names the callable, two below it.
  bool CollectionUpdate() {
    const std::vector<int> pre = stack_;
    const int n = insn_.opcode == MAP_ADD ? 2 : 1;
    std::vector<int> operands = Pop(n);
    if (insn_.oparg < 1 || insn_.oparg + (insn_.opcode == DICT_MERGE ? 2 : 0) > Depth()) {
      Fail("collection operand past the stack");
    }
    const int collection = stack_[stack_.size() - static_cast<size_t>(insn_.oparg)];
    operands.insert(operands.begin(), collection);
    Op op = Op::kSetAdd;
    if (insn_.opcode == SET_UPDATE) op = Op::kSetUpdate;
    if (insn_.opcode == MAP_ADD) op = Op::kMapAdd;
    if (insn_.opcode == DICT_UPDATE) op = Op::kDictUpdate;
    if (insn_.opcode == DICT_MERGE) {
      op = Op::kDictMerge;
      operands.insert(operands.begin(),
                      stack_[stack_.size() - 2 - static_cast<size_t>(insn_.oparg)]);
    }
    Effect(op, operands);
    ErrorState(pre);
    return true;
  }

  // Replaces the top of the stack by op(top): LIST_TO_TUPLE, GET_LEN (which pushes instead),
  // GET_AITER, GET_YIELD_FROM_ITER, GET_AWAITABLE, ASYNC_GEN_WRAP, GET_ANEXT (pushes).
  bool UnaryObjectOp() {
    const std::vector<int> pre = stack_;
    const int opcode = insn_.opcode;
    const bool pushes = opcode == GET_LEN || opcode == GET_ANEXT;
    Op op = Op::kListToTuple;
    if (opcode == GET_LEN) op = Op::kGetLen;
    if (opcode == GET_AITER) op = Op::kGetAiter;
    if (opcode == GET_ANEXT) op = Op::kGetAnext;
    if (opcode == GET_YIELD_FROM_ITER) op = Op::kGetYieldFromIter;
    if (opcode == GET_AWAITABLE) op = Op::kGetAwaitable;
    if (opcode == ASYNC_GEN_WRAP) op = Op::kAsyncGenWrap;
    if (Depth() < 1) Fail("stack underflow");
    const int operand = pushes ? stack_.back() : Pop1();
    const int r = Def(op, {operand}, insn_.oparg);
    ErrorState(pre);
    Push(r);
    return true;
  }

  // CALL_FUNCTION_EX: [NULL, func, callargs, kwargs if oparg & 1] -> result.
  bool CallFunctionEx() {
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

  bool UnpackEx() {
    const std::vector<int> pre = stack_;
    Effect(Op::kUnpackEx, {Pop1()}, insn_.oparg);
    ErrorState(pre);
    const int n = (insn_.oparg & 0xff) + 1 + (insn_.oparg >> 8);
    for (int i = 0; i < n; i++) Push(Def(Op::kScratchLoad, {}, i));
    return true;
  }

  // DELETE_ATTR, DELETE_SUBSCR, STORE_GLOBAL: pop their operands.
  bool DeleteOrStoreGlobal() {
    const std::vector<int> pre = stack_;
    if (insn_.opcode == DELETE_SUBSCR) {
      const int sub = Pop1();
      Effect(Op::kDeleteSubscr, {Pop1(), sub});
    } else {
      Effect(insn_.opcode == DELETE_ATTR ? Op::kDeleteAttr : Op::kStoreGlobal, {Pop1()},
             insn_.oparg);
    }
    ErrorState(pre);
    return true;
  }

  bool DeleteGlobal() {
    Effect(Op::kDeleteGlobal, {}, insn_.oparg);
    ErrorState(stack_);  // lowering also resumes the interpreter when the name is missing
    return true;
  }

  bool ImportName() {
    const std::vector<int> pre = stack_;
    const int fromlist = Pop1();
    const int level = Pop1();
    const int r = Def(Op::kImportName, {fromlist, level}, insn_.oparg);
    ErrorState(pre);
    Push(r);
    return true;
  }

  bool ImportFrom() {
    const std::vector<int> pre = stack_;
    if (Depth() < 1) Fail("stack underflow");
    const int r = Def(Op::kImportFrom, {stack_.back()}, insn_.oparg);
    ErrorState(pre);
    Push(r);
    return true;
  }

  // MATCH_MAPPING, MATCH_SEQUENCE: push whether the subject's type has the flag.
  bool MatchTypeFlag() {
    if (Depth() < 1) Fail("stack underflow");
    const int64_t flag = insn_.opcode == MATCH_MAPPING ? Py_TPFLAGS_MAPPING : Py_TPFLAGS_SEQUENCE;
    const int c = Def(Op::kTypeFlags, {stack_.back()}, flag, ValueType::kCInt);
    Push(Def(Op::kBoolFromCInt, {c}, 0));
    return true;
  }

  bool MatchKeys() {
    const std::vector<int> pre = stack_;
    if (Depth() < 2) Fail("stack underflow");
    const int r = Def(Op::kMatchKeys, {stack_[stack_.size() - 2], stack_.back()});
    ErrorState(pre);
    Push(r);
    return true;
  }

  // [subject, type, names] -> attributes or None.
  bool MatchClass() {
    const std::vector<int> pre = stack_;
    const std::vector<int> operands = Pop(3);
    const int r = Def(Op::kMatchClass, operands, insn_.oparg);
    ErrorState(pre);
    Push(r);
    return true;
  }

  bool LoadBuildClass() {
    const std::vector<int> pre = stack_;
    const int r = Def(Op::kLoadBuildClass, {});
    ErrorState(pre);
    Push(r);
    return true;
  }

  // BEFORE_WITH, BEFORE_ASYNC_WITH: [mgr] -> [__exit__, __enter__()]. The call of the bound
  // __enter__ is an ordinary CALL with no arguments; if it fails, __exit__ is on the stack,
  // as in the interpreter.
  bool BeforeWith() {
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

  bool YieldValue() {
    Instr y;
    y.op = Op::kYield;
    y.args = {Pop1()};
    EndWithState(std::move(y), insn_.next);
    AddResumePoint(insn_.unit, insn_.next, Depth() + 1);  // + the value sent in
    return false;
  }

  // [receiver, value] -> [receiver, yielded] falling through to YIELD_VALUE, or
  // [returned] at the jump target.
  bool Send() {
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
    Instr br;
    br.op = Op::kBranch;
    br.args = {yielded};
    br.targets[0] = next;
    br.targets[1] = returned;
    Terminate(br);
    return false;
  }

  // RETURN_GENERATOR: the frame moves into a new generator, which the call returns.
  bool ReturnGenerator() {
    const int gen = Def(Op::kMakeGenerator, {});
    ErrorState(stack_);
    EndWithReturn(gen);
    return false;
  }

  // Ends the block on `c`: to `jump_unit` when c == jump_if, else to `next_unit`. The side
  // that falls through pops `pop_on_fallthrough` values first.
  void Branch(int c, bool jump_if, int jump_unit, int next_unit, int pop_on_fallthrough) {
    const int depth = static_cast<int>(stack_.size());
    const int self = cur_;
    const int jump = BlockAt(jump_unit, depth);
    int fall = pop_on_fallthrough > 0 ? PopThenGoto(depth, pop_on_fallthrough, next_unit)
                                      : BlockAt(next_unit, depth);
    cur_ = self;
    Instr br;
    br.op = Op::kBranch;
    br.args = {c};
    br.targets[0] = jump_if ? jump : fall;
    br.targets[1] = jump_if ? fall : jump;
    Terminate(br);
  }

  const CodeInfo& code_;
  const bool catching_;
  std::vector<ExceptionHandler> handlers_;
  std::map<int, int> landing_of_;  // 2 * handlers_ index (+ 1: re-raise) -> landing block
  Function f_;
  std::set<int> starts_;
  std::map<int, int> block_at_;
  std::deque<int> work_;
  int cur_ = -1;
  std::vector<int> stack_;
  Insn insn_;
  int kwnames_ = -1;
  struct ResumePoint {
    int prev_unit;  // where prev_instr points while suspended
    int block;
  };
  std::vector<ResumePoint> resume_points_;
};

// Every bytecode the builder translates, with the Builder function that does it; anything
// else keeps its function interpreted, and stats() names the opcode.
// clang-format off
#define A64JIT_BYTECODE_RULES(X)                     \
  X(NOP, Nothing)                                    \
  X(RESUME, Resume)                                  \
  X(PRECALL, Nothing)                                \
  X(POP_TOP, PopTop)                                 \
  X(PUSH_NULL, PushNull)                             \
  X(COPY, Copy)                                    \
  X(SWAP, Swap)                                      \
  X(LOAD_FAST, LoadFast)                             \
  X(STORE_FAST, StoreFast)                           \
  X(LOAD_CONST, LoadConst)                           \
  X(LOAD_GLOBAL, LoadGlobal)                         \
  X(LOAD_ATTR, LoadAttr)                             \
  X(STORE_ATTR, StoreAttr)                         \
  X(LOAD_METHOD, LoadMethod)                         \
  X(KW_NAMES, KwNames)                               \
  X(CALL, Call)                                      \
  X(BINARY_OP, BinaryOrCompare)                      \
  X(COMPARE_OP, BinaryOrCompare)                     \
  X(IS_OP, IsOp)                                     \
  X(CONTAINS_OP, ContainsOp)                       \
  X(UNARY_NEGATIVE, UnaryArithmetic)                 \
  X(UNARY_POSITIVE, UnaryArithmetic)                 \
  X(UNARY_INVERT, UnaryArithmetic)                   \
  X(UNARY_NOT, UnaryNot)                           \
  X(BINARY_SUBSCR, BinarySubscr)                     \
  X(STORE_SUBSCR, StoreSubscr)                       \
  X(BUILD_LIST, BuildConsuming)                      \
  X(BUILD_TUPLE, BuildConsuming)                     \
  X(BUILD_MAP, BuildConsuming)                       \
  X(BUILD_STRING, BuildConsuming)                    \
  X(BUILD_CONST_KEY_MAP, BuildConstKeyMap)           \
  X(BUILD_SLICE, BuildSlice)                         \
  X(FORMAT_VALUE, FormatValue)                       \
  X(LIST_APPEND, ListAppendOrExtend)                 \
  X(LIST_EXTEND, ListAppendOrExtend)               \
  X(MAKE_FUNCTION, MakeFunction)                     \
  X(UNPACK_SEQUENCE, UnpackSequence)                 \
  X(GET_ITER, GetIter)                               \
  X(FOR_ITER, ForIter)                             \
  X(JUMP_FORWARD, JumpUnconditional)                 \
  X(JUMP_BACKWARD, JumpUnconditional)                \
  X(JUMP_BACKWARD_NO_INTERRUPT, JumpUnconditional) \
  X(POP_JUMP_FORWARD_IF_TRUE, PopJump)               \
  X(POP_JUMP_FORWARD_IF_FALSE, PopJump)            \
  X(POP_JUMP_BACKWARD_IF_TRUE, PopJump)              \
  X(POP_JUMP_BACKWARD_IF_FALSE, PopJump)           \
  X(POP_JUMP_FORWARD_IF_NONE, PopJump)               \
  X(POP_JUMP_FORWARD_IF_NOT_NONE, PopJump)         \
  X(POP_JUMP_BACKWARD_IF_NONE, PopJump)              \
  X(POP_JUMP_BACKWARD_IF_NOT_NONE, PopJump)        \
  X(JUMP_IF_TRUE_OR_POP, JumpOrPop)                  \
  X(JUMP_IF_FALSE_OR_POP, JumpOrPop)                 \
  X(RETURN_VALUE, ReturnValue)                       \
  X(RAISE_VARARGS, RaiseVarargs)                     \
  X(RERAISE, Reraise)                                \
  X(PUSH_EXC_INFO, PushExcInfo)                      \
  X(POP_EXCEPT, PopExcept)                           \
  X(CHECK_EXC_MATCH, CheckExcMatch)                  \
  X(WITH_EXCEPT_START, WithExceptStart)              \
  X(LOAD_ASSERTION_ERROR, LeaveToRaise)              \
  X(MAKE_CELL, MakeCell)                             \
  X(COPY_FREE_VARS, CopyFreeVars)                    \
  X(LOAD_CLOSURE, LoadFast)                          \
  X(LOAD_DEREF, LoadDeref)                           \
  X(STORE_DEREF, StoreDeref)                         \
  X(DELETE_DEREF, DeleteCellOrLocal)                 \
  X(DELETE_FAST, DeleteCellOrLocal)                  \
  X(BUILD_SET, BuildConsuming)                       \
  X(SET_ADD, CollectionUpdate)                       \
  X(SET_UPDATE, CollectionUpdate)                    \
  X(MAP_ADD, CollectionUpdate)                       \
  X(DICT_UPDATE, CollectionUpdate)                   \
  X(DICT_MERGE, CollectionUpdate)                    \
  X(LIST_TO_TUPLE, UnaryObjectOp)                    \
  X(GET_LEN, UnaryObjectOp)                          \
  X(CALL_FUNCTION_EX, CallFunctionEx)                \
  X(UNPACK_EX, UnpackEx)                             \
  X(DELETE_ATTR, DeleteOrStoreGlobal)                \
  X(DELETE_SUBSCR, DeleteOrStoreGlobal)              \
  X(STORE_GLOBAL, DeleteOrStoreGlobal)               \
  X(DELETE_GLOBAL, DeleteGlobal)                     \
  X(IMPORT_NAME, ImportName)                         \
  X(IMPORT_FROM, ImportFrom)                         \
  X(MATCH_MAPPING, MatchTypeFlag)                    \
  X(MATCH_SEQUENCE, MatchTypeFlag)                   \
  X(MATCH_KEYS, MatchKeys)                           \
  X(MATCH_CLASS, MatchClass)                         \
  X(LOAD_BUILD_CLASS, LoadBuildClass)                \
  X(BEFORE_WITH, BeforeWith)                         \
  X(BEFORE_ASYNC_WITH, BeforeWith)                   \
  X(RETURN_GENERATOR, ReturnGenerator)               \
  X(YIELD_VALUE, YieldValue)                         \
  X(SEND, Send)                                      \
  X(GET_AWAITABLE, UnaryObjectOp)                    \
  X(GET_AITER, UnaryObjectOp)                        \
  X(GET_ANEXT, UnaryObjectOp)                        \
  X(GET_YIELD_FROM_ITER, UnaryObjectOp)              \
  X(ASYNC_GEN_WRAP, UnaryObjectOp)
// clang-format on

Builder::Rule Builder::RuleFor(int opcode) {
  static const std::array<Rule, 256> kRules = [] {
    std::array<Rule, 256> rules{};
#define A64JIT_BYTECODE_RULE(opcode, fn) rules[opcode] = &Builder::fn;
    A64JIT_BYTECODE_RULES(A64JIT_BYTECODE_RULE)
#undef A64JIT_BYTECODE_RULE
    return rules;
  }();
  return opcode >= 0 && opcode < 256 ? kRules[static_cast<size_t>(opcode)] : nullptr;
}

}  // namespace

Function Build(const CodeInfo& code) {
  // A handler the builder cannot translate (an opcode only handlers use, like except*'s)
  // leaves the handlers to the interpreter, as before handlers were compiled.
  try {
    return Builder(code, true).Run();
  } catch (const Unsupported&) {
    return Builder(code, false).Run();
  }
}

}  // namespace a64jit::hir
