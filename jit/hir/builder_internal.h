// The Builder, private to //jit/hir: one code object's bytecode to HIR (builder.h Build), by
// abstract interpretation of the value stack. Its member functions live in three files, and a
// `// ---- file ----` line heads each file's declarations here: builder.cc finds blocks,
// walks them and holds the table of one rule per bytecode; rules_values.cc and
// rules_control.cc are the rules.
#ifndef A64JIT_JIT_HIR_BUILDER_INTERNAL_H_
#define A64JIT_JIT_HIR_BUILDER_INTERNAL_H_

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_code.h>
#include <opcode.h>

#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/hir/builder.h"
#include "jit/hir/exception_table.h"

namespace a64jit::hir::internal {

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

inline Flow FlowOf(const Insn& in) {
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
  Builder(const CodeInfo& code, bool catching, Decisions* decisions);
  Function Run();

 private:
  // The Builder function that translates one bytecode (builder.cc's A64JIT_BYTECODE_RULES), or
  // nullptr.
  using Rule = bool (Builder::*)();
  struct ResumePoint {
    int prev_unit;  // where prev_instr points while suspended
    int block;
  };

  // ---- builder.cc ----
  // A row of builder.cc's bytecode table: the rule, and the HIR op it makes (RowOp()).
  struct Row {
    Rule rule = nullptr;
    std::optional<Op> op;
  };
  static const Row* RowFor(int opcode);
  // The op the current bytecode's row names; a rule that takes it from there calls this.
  Op RowOp() const {
    if (!row_op_) Fail("the bytecode table names no HIR op for this rule");
    return *row_op_;
  }
  void Drain();
  void BuildResumable();
  void BuildWithLoopEntries();
  void FillDispatch();
  Insn FindReturnGenerator() const;
  int NewMadeBlock(int depth);
  int EnterMadeBlock(int depth);
  void AddResumePoint(int prev_unit, int unit, int depth);
  void Push(int reg) { stack_.push_back(reg); }
  int Depth() const { return static_cast<int>(stack_.size()); }
  Instr& Last() { return f_.blocks[static_cast<size_t>(cur_)].instrs.back(); }
  void TakeFeedback();
  [[noreturn]] void Fail(const std::string& what) const {
    throw Unsupported(insn_.opcode, insn_.unit * 2, what);
  }
  Insn Decode(int unit) const;
  void MarkStart(int unit);  // FindBlocks: a block starts at `unit`
  bool StartsBlock(int unit) const;
  bool FollowedBy(const Insn& from, int opcode, Insn* next) const;
  void FindBlocks();
  int BlockAt(int unit, int depth);
  // A block the builder makes up from `depth` stack values: `body` (which emits into it and may
  // change its stack), then a jump to `unit`. The builder's own block and stack are kept.
  template <typename Body>
  int MadeBlockThenGoto(int depth, int unit, Body body) {
    const int saved_cur = cur_;
    const std::vector<int> saved_stack = stack_;
    const int block = EnterMadeBlock(depth);
    body();
    Terminate(Jump(BlockAt(unit, Depth())));
    cur_ = saved_cur;
    stack_ = saved_stack;
    return block;
  }
  int DropThenGoto(int depth, int index, int count, int unit);
  int PopThenGoto(int depth, int pop, int unit) {
    return DropThenGoto(depth, depth - pop, pop, unit);
  }
  int CheckThenGoto(int depth, int unit);
  Instr& Emit(Instr&& in);  // moved once, into its block
  int Def(Op op, std::vector<int> args, int64_t imm = 0, ValueType t = ValueType::kObject);
  void Effect(Op op, std::vector<int> args, int64_t imm = 0);
  // The last emitted instruction may leave for the interpreter.
  void ErrorState(const std::vector<int>& stack) { State(FrameState::Kind::kError, stack); }
  void ResumeState(const std::vector<int>& stack) { State(FrameState::Kind::kResume, stack); }
  // The landing block's own instructions raise where the frame's prev_instr says.
  void RaisedState(const std::vector<int>& stack) { State(FrameState::Kind::kRaised, stack); }
  void State(FrameState::Kind kind, const std::vector<int>& stack);
  int CatchBlockFor(int unit, size_t depth, bool reraise);
  static Instr Jump(int target);
  void Terminate(Instr term);
  std::vector<int> Pop(int n);
  int Pop1() { return Pop(1)[0]; }
  std::vector<int> Without(const std::vector<int>& stack, int n) const {
    return std::vector<int>(stack.begin(), stack.end() - n);
  }
  void Translate(int b);
  bool TranslateOne();
  bool Unrun(int bc_start) const;
  bool LeaveIfCold(int b, int bc_start);
  bool IsCold(int b) const {
    return static_cast<size_t>(b) < cold_.size() && cold_[static_cast<size_t>(b)];
  }
  void Branch(int c, bool jump_if, int jump_unit, int next_unit, int pop_on_fallthrough);
  // Ends the current block with `Branch c`: to block `if_set` when c != 0, else `if_clear`.
  void EndWithBranch(int c, int if_set, int if_clear);

  // ---- rules_values.cc ----
  bool Nothing() { return true; }  // NOP; PRECALL: CALL unpacks bound methods
  void CheckEvalBreaker(bool at_entry = false);
  void CheckTracingAfterCall();
  bool Resume();
  bool PopTop();
  bool PushNull();
  bool Copy();
  bool Swap();
  bool LoadFast();
  bool StoreFast();
  bool LoadConst();
  bool LoadGlobal();
  bool LoadAttr();
  bool StoreAttr();
  bool LoadMethod();
  bool KwNames();
  bool Call();
  bool FuseSuperMethod();
  bool FuseTupleCompare();
  bool FuseIsInstanceOfDisplay();
  const Instr* GlobalUnderArgs(int argc, const char* name) const;
  bool BinaryOperands();
  bool IsOp();
  bool ContainsOp();
  bool UnaryArithmetic();
  bool UnaryNot();
  bool BinarySubscr();
  bool StoreSubscr();
  bool BuildConsuming();
  bool BuildConstKeyMap();
  bool BuildSlice();
  bool FormatValue();
  bool ListAppendOrExtend();
  bool MakeFunction();
  bool UnpackSequence();
  bool GetIter();
  bool ForIter();
  bool JumpUnconditional();
  bool PopJump();
  bool JumpOrPop();
  bool ReturnValue();
  bool RaiseVarargs();
  void EndWithRaise(Op op, std::vector<int> operands, FrameState::Kind kind, int64_t imm);

  // ---- rules_control.cc ----
  bool Reraise();
  bool PushExcInfo();
  bool PopExcept();
  bool CheckExcMatch();
  bool EndAsyncFor();
  bool WithExceptStart();
  bool LeaveToRaise();
  void EndWithState(Instr term, int resume_unit);
  void EndWithReturn(int value);
  bool MadeCellBefore() const;
  bool MakeCell();
  bool CopyFreeVars();
  bool LoadDeref();
  bool StoreDeref();
  bool DeleteCellOrLocal();
  bool CollectionUpdate();
  bool ReplaceTop();
  bool PushFromTop();
  bool CallFunctionEx();
  bool UnpackEx();
  bool PopOperands();
  bool DeleteGlobal();
  bool ImportName();
  bool ImportFrom();
  bool MatchTypeFlag();
  bool MatchKeys();
  bool MatchClass();
  bool LoadBuildClass();
  bool BeforeWith();
  bool YieldValue();
  bool Send();
  bool ReturnGenerator();

  const CodeInfo& code_;
  const bool catching_;
  Decisions* const decisions_;
  std::vector<bool> cold_;  // by block: a ColdExit (LeaveIfCold)
  std::vector<ExceptionHandler> handlers_;
  std::map<int, int> landing_of_;  // 2 * handlers_ index (+ 1: re-raise) -> landing block
  Function f_;
  // By code unit (one past the last too): where a block starts, and the block made there
  // (-1: none yet). Vectors, not a set and a map: the builder asks at every instruction.
  std::vector<bool> starts_;
  std::vector<int> block_at_;
  std::deque<int> work_;
  int cur_ = -1;
  std::vector<int> stack_;
  Insn insn_;
  int kwnames_ = -1;
  std::optional<Op> row_op_;  // TranslateOne: the row's op column
  std::vector<ResumePoint> resume_points_;
};

}  // namespace a64jit::hir::internal

#endif  // A64JIT_JIT_HIR_BUILDER_INTERNAL_H_
