#include "jit/hir/builder.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_code.h>
#include <opcode.h>

#include <deque>
#include <map>
#include <set>

namespace a64jit::hir {

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

bool IsHandled(int op) {
  switch (op) {
    case NOP:
    case RESUME:
    case PRECALL:
    case POP_TOP:
    case PUSH_NULL:
    case COPY:
    case SWAP:
    case LOAD_FAST:
    case STORE_FAST:
    case LOAD_CONST:
    case LOAD_GLOBAL:
    case LOAD_ATTR:
    case STORE_ATTR:
    case LOAD_METHOD:
    case KW_NAMES:
    case CALL:
    case BINARY_OP:
    case COMPARE_OP:
    case IS_OP:
    case CONTAINS_OP:
    case UNARY_NEGATIVE:
    case UNARY_POSITIVE:
    case UNARY_INVERT:
    case UNARY_NOT:
    case BINARY_SUBSCR:
    case STORE_SUBSCR:
    case BUILD_LIST:
    case BUILD_TUPLE:
    case GET_ITER:
    case FOR_ITER:
    case JUMP_FORWARD:
    case JUMP_BACKWARD:
    case JUMP_BACKWARD_NO_INTERRUPT:
    case POP_JUMP_FORWARD_IF_TRUE:
    case POP_JUMP_FORWARD_IF_FALSE:
    case POP_JUMP_BACKWARD_IF_TRUE:
    case POP_JUMP_BACKWARD_IF_FALSE:
    case POP_JUMP_FORWARD_IF_NONE:
    case POP_JUMP_FORWARD_IF_NOT_NONE:
    case POP_JUMP_BACKWARD_IF_NONE:
    case POP_JUMP_BACKWARD_IF_NOT_NONE:
    case JUMP_IF_TRUE_OR_POP:
    case JUMP_IF_FALSE_OR_POP:
    case RETURN_VALUE:
    case RAISE_VARARGS:
    case LOAD_ASSERTION_ERROR:
    case BUILD_MAP:
    case BUILD_CONST_KEY_MAP:
    case BUILD_STRING:
    case BUILD_SLICE:
    case FORMAT_VALUE:
    case LIST_APPEND:
    case LIST_EXTEND:
    case UNPACK_SEQUENCE:
    case MAKE_FUNCTION:
      return true;
    default:
      return false;
  }
}

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
      return {in.next + in.oparg, true};
    case POP_JUMP_BACKWARD_IF_TRUE:
    case POP_JUMP_BACKWARD_IF_FALSE:
    case POP_JUMP_BACKWARD_IF_NONE:
    case POP_JUMP_BACKWARD_IF_NOT_NONE:
      return {in.next - in.oparg, true};
    case RETURN_VALUE:
    case RAISE_VARARGS:
    case LOAD_ASSERTION_ERROR:
      return {-1, false};
    default:
      return {-1, true};
  }
}

class Builder {
 public:
  explicit Builder(const CodeInfo& code) : code_(code) { f_.code = code; }

  Function Run() {
    const int kNotFunction = CO_OPTIMIZED | CO_NEWLOCALS;
    if ((code_.flags & kNotFunction) != kNotFunction) {
      throw Unsupported(-1, 0, "module or class body (not a function)");
    }
    if (code_.flags & (CO_GENERATOR | CO_COROUTINE | CO_ASYNC_GENERATOR | CO_ITERABLE_COROUTINE)) {
      throw Unsupported(-1, 0, "generator or coroutine");
    }
    FindBlocks();
    BlockAt(0, 0);
    while (!work_.empty()) {
      int b = work_.front();
      work_.pop_front();
      Translate(b);
    }
    return std::move(f_);
  }

 private:
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
    std::set<int> seen;
    starts_.insert(0);
    while (!todo.empty()) {
      int unit = todo.front();
      todo.pop_front();
      while (seen.insert(unit).second) {
        const Insn in = Decode(unit);
        if (!IsHandled(in.opcode)) throw Unsupported(in.opcode, in.unit * 2, "opcode");
        const Flow flow = FlowOf(in);
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

  // A block the builder makes up: pops `pop` values off `depth`, then goes to `unit`.
  int PopThenGoto(int depth, int pop, int unit) {
    const int saved_cur = cur_;
    const std::vector<int> saved_stack = stack_;
    Block b;
    b.in_depth = depth;
    f_.blocks.push_back(b);
    const int index = static_cast<int>(f_.blocks.size()) - 1;
    cur_ = index;
    stack_.clear();
    for (int k = 0; k < depth; k++) stack_.push_back(f_.StackReg(k));
    for (int i = 0; i < pop; i++) stack_.pop_back();
    const int target = BlockAt(unit, depth - pop);
    cur_ = index;
    Terminate(Jump(target));
    cur_ = saved_cur;
    stack_ = saved_stack;
    return index;
  }

  Instr& Emit(Instr in) {
    auto& instrs = f_.blocks[static_cast<size_t>(cur_)].instrs;
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
  void State(FrameState::Kind kind, const std::vector<int>& stack) {
    Instr& in = f_.blocks[static_cast<size_t>(cur_)].instrs.back();
    in.has_state = true;
    in.state.kind = kind;
    in.state.bc = insn_.unit;
    in.state.resume_unit = insn_.start;
    in.state.stack = stack;
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
      Emit(mov);
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
    const Block& block = f_.blocks[static_cast<size_t>(b)];
    stack_.clear();
    for (int k = 0; k < block.in_depth; k++) stack_.push_back(f_.StackReg(k));
    int unit = block.bc_start;
    kwnames_ = -1;
    for (;;) {
      if (unit != block.bc_start && starts_.count(unit)) {
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

  // Translates insn_; false when it ended the block.
  bool TranslateOne() {
    const Insn& in = insn_;
    const std::vector<int> pre = stack_;
    const int oparg = in.oparg;
    switch (in.opcode) {
      case NOP:
      case RESUME:
      case PRECALL:  // CALL does PRECALL's work (unpacking bound methods)
        return true;
      case POP_TOP:
        Pop1();
        return true;
      case PUSH_NULL:
        stack_.push_back(Def(Op::kLoadNull, {}));
        return true;
      case COPY: {
        if (oparg < 1 || oparg > static_cast<int>(stack_.size())) {
          throw Unsupported(in.opcode, in.unit * 2, "COPY past the stack");
        }
        stack_.push_back(Def(Op::kDup, {stack_[stack_.size() - static_cast<size_t>(oparg)]}));
        return true;
      }
      case SWAP: {
        if (oparg < 2 || oparg > static_cast<int>(stack_.size())) {
          throw Unsupported(in.opcode, in.unit * 2, "SWAP past the stack");
        }
        std::swap(stack_.back(), stack_[stack_.size() - static_cast<size_t>(oparg)]);
        return true;
      }
      case LOAD_FAST: {
        const int r = Def(Op::kLoadLocal, {}, oparg);
        f_.blocks[static_cast<size_t>(cur_)].instrs.back().imm2 = 1;  // simplify may clear
        ResumeState(pre);
        stack_.push_back(r);
        return true;
      }
      case STORE_FAST: {
        Effect(Op::kStoreLocal, {Pop1()}, oparg);
        return true;
      }
      case LOAD_CONST:
        stack_.push_back(Def(Op::kLoadConst, {}, oparg));
        return true;
      case LOAD_GLOBAL: {
        if (oparg & 1) stack_.push_back(Def(Op::kLoadNull, {}));
        const int r = Def(Op::kLoadGlobal, {}, oparg >> 1);
        ResumeState(pre);
        stack_.push_back(r);
        return true;
      }
      case LOAD_ATTR: {
        const int r = Def(Op::kLoadAttr, {Pop1()}, oparg);
        ErrorState(pre);
        stack_.push_back(r);
        return true;
      }
      case STORE_ATTR: {
        const int owner = Pop1();
        const int value = Pop1();
        Effect(Op::kStoreAttr, {owner, value}, oparg);
        ErrorState(pre);
        return true;
      }
      case LOAD_METHOD: {
        const int r = Def(Op::kLoadMethod, {Pop1()}, oparg);
        Instr& lm = f_.blocks[static_cast<size_t>(cur_)].instrs.back();
        lm.dst2 = f_.NewReg(ValueType::kObject);
        const int self = lm.dst2;
        ErrorState(pre);
        stack_.push_back(r);
        stack_.push_back(self);
        return true;
      }
      case KW_NAMES:
        kwnames_ = oparg;
        return true;
      case CALL: {
        const int r = Def(Op::kCall, Pop(oparg + 2), oparg);
        Instr& call = f_.blocks[static_cast<size_t>(cur_)].instrs.back();
        call.imm2 = kwnames_;
        kwnames_ = -1;
        ErrorState(Without(pre, oparg + 2));  // the call consumed its operands
        stack_.push_back(r);
        return true;
      }
      case BINARY_OP:
      case COMPARE_OP: {
        const int rhs = Pop1();
        const int lhs = Pop1();
        const int r =
            Def(in.opcode == BINARY_OP ? Op::kBinaryOp : Op::kCompareOp, {lhs, rhs}, oparg);
        ErrorState(pre);
        stack_.push_back(r);
        return true;
      }
      case IS_OP: {
        const int rhs = Pop1();
        const int lhs = Pop1();
        const int c = Def(Op::kIsSame, {lhs, rhs}, 0, ValueType::kCInt);
        stack_.push_back(Def(Op::kBoolFromCInt, {c}, oparg ? 1 : 0));
        return true;
      }
      case CONTAINS_OP: {
        const int container = Pop1();
        const int item = Pop1();
        const int c = Def(Op::kContains, {item, container}, 0, ValueType::kCInt);
        ErrorState(pre);
        stack_.push_back(Def(Op::kBoolFromCInt, {c}, oparg ? 1 : 0));
        return true;
      }
      case UNARY_NEGATIVE:
      case UNARY_POSITIVE:
      case UNARY_INVERT: {
        const UnaryKind kind = in.opcode == UNARY_NEGATIVE   ? UnaryKind::kNegative
                               : in.opcode == UNARY_POSITIVE ? UnaryKind::kPositive
                                                             : UnaryKind::kInvert;
        const int r = Def(Op::kUnaryOp, {Pop1()}, static_cast<int64_t>(kind));
        ErrorState(pre);
        stack_.push_back(r);
        return true;
      }
      case UNARY_NOT: {
        const int c = Def(Op::kIsTrue, {Pop1()}, 0, ValueType::kCInt);
        ErrorState(pre);
        stack_.push_back(Def(Op::kBoolFromCInt, {c}, 1));
        return true;
      }
      case BINARY_SUBSCR: {
        const int sub = Pop1();
        const int container = Pop1();
        const int r = Def(Op::kGetItem, {container, sub});
        ErrorState(pre);
        stack_.push_back(r);
        return true;
      }
      case STORE_SUBSCR: {
        const int sub = Pop1();
        const int container = Pop1();
        const int value = Pop1();
        Effect(Op::kSetItem, {container, sub, value});
        ErrorState(pre);
        return true;
      }
      case BUILD_LIST:
      case BUILD_TUPLE: {
        const int r =
            Def(in.opcode == BUILD_LIST ? Op::kBuildList : Op::kBuildTuple, Pop(oparg), oparg);
        ErrorState(Without(pre, oparg));  // consumed
        stack_.push_back(r);
        return true;
      }
      case BUILD_MAP: {
        const int r = Def(Op::kBuildMap, Pop(2 * oparg), oparg);
        ErrorState(Without(pre, 2 * oparg));  // consumed
        stack_.push_back(r);
        return true;
      }
      case BUILD_CONST_KEY_MAP: {
        // The keys tuple is on top; it must be the constant the compiler always puts there.
        const int keys = Pop1();
        int keys_const = -1;
        for (const Block& blk : f_.blocks) {
          for (const Instr& x : blk.instrs) {
            if (x.dst == keys && x.op == Op::kLoadConst) keys_const = static_cast<int>(x.imm);
          }
        }
        if (keys_const < 0) throw Unsupported(in.opcode, in.unit * 2, "keys not a constant");
        const int r = Def(Op::kBuildConstKeyMap, Pop(oparg), oparg);
        f_.blocks[static_cast<size_t>(cur_)].instrs.back().imm2 = keys_const;
        ErrorState(Without(pre, oparg + 1));  // consumed (the keys constant is borrowed)
        stack_.push_back(r);
        return true;
      }
      case BUILD_STRING: {
        const int r = Def(Op::kBuildString, Pop(oparg), oparg);
        ErrorState(Without(pre, oparg));  // consumed
        stack_.push_back(r);
        return true;
      }
      case BUILD_SLICE: {
        if (oparg != 2 && oparg != 3) throw Unsupported(in.opcode, in.unit * 2, "oparg");
        const int r = Def(Op::kBuildSlice, Pop(oparg));
        ErrorState(pre);
        stack_.push_back(r);
        return true;
      }
      case FORMAT_VALUE: {
        std::vector<int> args;
        if ((oparg & 4) != 0) {
          const int spec = Pop1();
          args = {Pop1(), spec};
        } else {
          args = {Pop1()};
        }
        const int r = Def(Op::kFormatValue, args, oparg & 3);
        ErrorState(pre);
        stack_.push_back(r);
        return true;
      }
      case LIST_APPEND:
      case LIST_EXTEND: {
        // The list is oparg entries down, below the popped value.
        const int v = Pop1();
        if (oparg < 1 || oparg > static_cast<int>(stack_.size())) {
          throw Unsupported(in.opcode, in.unit * 2, "list operand past the stack");
        }
        Instr op;
        op.op = in.opcode == LIST_APPEND ? Op::kListAppend : Op::kListExtend;
        op.args = {stack_[stack_.size() - static_cast<size_t>(oparg)], v};
        op.bc = in.unit;
        Emit(op);
        ErrorState(pre);
        return true;
      }
      case MAKE_FUNCTION: {
        // Stack, bottom to top: [defaults] [kwdefaults] [annotations] [closure] code.
        int n = 1;
        for (int bit = 0; bit < 4; bit++) n += (oparg >> bit) & 1;
        const int r = Def(Op::kMakeFunction, Pop(n), oparg);
        ErrorState(Without(pre, n));  // consumed
        stack_.push_back(r);
        return true;
      }
      case UNPACK_SEQUENCE: {
        Effect(Op::kUnpackSequence, {Pop1()}, oparg);
        ErrorState(pre);
        for (int i = 0; i < oparg; i++) stack_.push_back(Def(Op::kScratchLoad, {}, i));
        return true;
      }
      case GET_ITER: {
        const int r = Def(Op::kGetIter, {Pop1()});
        ErrorState(pre);
        stack_.push_back(r);
        return true;
      }
      case FOR_ITER: {
        // The iterator stays; the next value (NULL when exhausted) is pushed for both
        // successors, and the exhausted one pops both.
        const int next = Def(Op::kForIter, {stack_.back()});
        ErrorState(pre);
        stack_.push_back(next);
        const int done = Def(Op::kIsNull, {next}, 0, ValueType::kCInt);
        const int depth = static_cast<int>(stack_.size());
        const int body = BlockAt(in.next, depth);
        const int self = cur_;
        const Flow flow = FlowOf(in);
        const int exhausted = PopThenGoto(depth, 2, flow.jump);
        cur_ = self;
        Instr br;
        br.op = Op::kBranch;
        br.args = {done};
        br.targets[0] = exhausted;
        br.targets[1] = body;
        Terminate(br);
        return false;
      }
      case JUMP_FORWARD:
      case JUMP_BACKWARD:
      case JUMP_BACKWARD_NO_INTERRUPT: {
        const int target = BlockAt(FlowOf(in).jump, static_cast<int>(stack_.size()));
        Terminate(Jump(target));
        return false;
      }
      case POP_JUMP_FORWARD_IF_TRUE:
      case POP_JUMP_FORWARD_IF_FALSE:
      case POP_JUMP_BACKWARD_IF_TRUE:
      case POP_JUMP_BACKWARD_IF_FALSE:
      case POP_JUMP_FORWARD_IF_NONE:
      case POP_JUMP_FORWARD_IF_NOT_NONE:
      case POP_JUMP_BACKWARD_IF_NONE:
      case POP_JUMP_BACKWARD_IF_NOT_NONE: {
        const bool on_none =
            in.opcode == POP_JUMP_FORWARD_IF_NONE || in.opcode == POP_JUMP_FORWARD_IF_NOT_NONE ||
            in.opcode == POP_JUMP_BACKWARD_IF_NONE || in.opcode == POP_JUMP_BACKWARD_IF_NOT_NONE;
        const bool jump_if_set =
            in.opcode == POP_JUMP_FORWARD_IF_TRUE || in.opcode == POP_JUMP_BACKWARD_IF_TRUE ||
            in.opcode == POP_JUMP_FORWARD_IF_NONE || in.opcode == POP_JUMP_BACKWARD_IF_NONE;
        const int v = Pop1();
        const int c = Def(on_none ? Op::kIsNone : Op::kIsTrue, {v}, 0, ValueType::kCInt);
        if (!on_none) ErrorState(pre);
        Branch(c, jump_if_set, FlowOf(in).jump, in.next, 0);
        return false;
      }
      case JUMP_IF_TRUE_OR_POP:
      case JUMP_IF_FALSE_OR_POP: {
        const int c = Def(Op::kIsTrue, {stack_.back()}, 0, ValueType::kCInt);
        ErrorState(pre);
        Branch(c, in.opcode == JUMP_IF_TRUE_OR_POP, FlowOf(in).jump, in.next, 1);
        return false;
      }
      case RETURN_VALUE: {
        const int v = Pop1();
        if (!stack_.empty()) throw Unsupported(in.opcode, in.unit * 2, "return with a stack");
        Instr ret;
        ret.op = Op::kReturn;
        ret.args = {v};
        Terminate(ret);
        return false;
      }
      case RAISE_VARARGS:
      case LOAD_ASSERTION_ERROR: {
        // Both only ever lead to raising: the interpreter does it, with its exact messages.
        Instr deopt;
        deopt.op = Op::kDeopt;
        deopt.bc = in.unit;
        deopt.has_state = true;
        deopt.state.kind = FrameState::Kind::kResume;
        deopt.state.bc = in.unit;
        deopt.state.resume_unit = in.start;
        deopt.state.stack = pre;
        // No edge moves: the state names the values where they are.
        f_.blocks[static_cast<size_t>(cur_)].out_depth = 0;
        Emit(deopt);
        cur_ = -1;
        return false;
      }
      default:
        throw Unsupported(in.opcode, in.unit * 2, "opcode");
    }
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
  Function f_;
  std::set<int> starts_;
  std::map<int, int> block_at_;
  std::deque<int> work_;
  int cur_ = -1;
  std::vector<int> stack_;
  Insn insn_;
  int kwnames_ = -1;
};

}  // namespace

Function Build(const CodeInfo& code) { return Builder(code).Run(); }

}  // namespace a64jit::hir
