// FunctionCompiler, private to //jit/codegen: one allocated LIR function to aarch64 code
// (codegen.h EmitAllocated). Its member functions live in one file per job, and a
// `// ---- file ----` line heads each file's declarations here: codegen.cc runs it,
// frame.cc lays out the frame, the prologue and epilogue and places blocks, operands.cc
// reads operands and materialises immediates, and the emit_*.cc files emit LIR instructions.
#ifndef A64JIT_JIT_CODEGEN_FUNCTION_COMPILER_H_
#define A64JIT_JIT_CODEGEN_FUNCTION_COMPILER_H_

#include <asmjit/arm/a64assembler.h>
#include <asmjit/arm/a64utils.h>
#include <asmjit/core.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>

#include "jit/codegen/codegen.h"
#include "jit/codegen/constant_registers.h"
#include "jit/codegen/direct_encoding.h"
#include "jit/codegen/disassembly.h"
#include "jit/codegen/exit_tails.h"
#include "jit/codegen/immediates.h"
#include "jit/codegen/into_local_stub.h"
#include "jit/codegen/release_stubs.h"
#include "jit/codegen/sp_addresses.h"
#include "jit/lir/cfg.h"
#include "jit/lir/text.h"

namespace a64jit::codegen::internal {

using asmjit::a64::Gp;
using asmjit::a64::Mem;
using asmjit::a64::Vec;
using asmjit::arm::CondCode;
using lir::Cond;
using lir::Instr;
using lir::Location;
using lir::Op;
using lir::Operand;
using lir::Type;
using runtime::EntryMove;

// Scratch registers: never allocated (see Aarch64Registers).
constexpr int kS0 = 16, kS1 = 17, kS2 = 15;       // x16, x17, x15
constexpr int kF0 = 31, kF1 = 30, kF2 = 29;       // d31, d30, d29
constexpr int64_t kMaxFrame = int64_t{1} << 31;   // sanity bound; past 16 MiB SP moves via x16/x17
constexpr uint64_t kBranchRange = 1u << 20;       // b.cond, cbz, ldr literal: +-1 MiB
constexpr int64_t kMaxSpillEnd = 8 * 4095;        // a spill slot's ldr/str reach from SP
constexpr uint64_t kTestBranchRange = 1u << 15;   // tbz, tbnz: +-32 KiB
constexpr int64_t kCallRange = int64_t{1} << 27;  // bl: +-128 MiB

inline Gp X(int n) { return asmjit::a64::x(static_cast<uint32_t>(n)); }
inline Gp W(int n) { return asmjit::a64::w(static_cast<uint32_t>(n)); }
inline Vec D(int n) { return asmjit::a64::d(static_cast<uint32_t>(n)); }

// The condition code after a compare of type `t`. After fcmp, an unordered result sets C and
// V: MI (less), LS (less or equal), GT and GE are false then, as Python's float < <= > >= are
// with a NaN; EQ is false and NE true.
inline CondCode ToCondCode(Cond c, Type t = Type::kI64) {
  if (lir::IsFloat(t)) {
    if (c == Cond::kSlt) return CondCode::kMI;
    if (c == Cond::kSle) return CondCode::kLS;
  }
  switch (c) {
    case Cond::kEq:
      return CondCode::kEQ;
    case Cond::kNe:
      return CondCode::kNE;
    case Cond::kSlt:
      return CondCode::kLT;
    case Cond::kSle:
      return CondCode::kLE;
    case Cond::kSgt:
      return CondCode::kGT;
    case Cond::kSge:
      return CondCode::kGE;
    case Cond::kUlt:
      return CondCode::kLO;
    case Cond::kUle:
      return CondCode::kLS;
    case Cond::kUgt:
      return CondCode::kHI;
    case Cond::kUge:
      return CondCode::kHS;
  }
  return CondCode::kAL;
}

// asmjit encodes opposite conditions as neighbours (EQ/NE, HS/LO, GE/LT, ...).
inline CondCode Negate(CondCode c) { return static_cast<CondCode>(static_cast<uint8_t>(c) ^ 1u); }

inline bool IsSigned(Cond c) {
  return c == Cond::kSlt || c == Cond::kSle || c == Cond::kSgt || c == Cond::kSge;
}

// Records the first asmjit error so the current LIR instruction can be named.
class ErrorRecorder : public asmjit::ErrorHandler {
 public:
  void handleError(asmjit::Error, const char* message, asmjit::BaseEmitter*) override {
    if (message_.empty()) message_ = message;
  }
  std::string message_;
};

struct Move {
  int dst, src;
};

// Where AAPCS64 puts each value of an argument list: the first 8 integer and the first 8 f64
// values in x0-x7 / d0-d7, the rest in 8-byte stack slots in argument order. Used for call
// arguments, incoming parameters and the size of the outgoing argument area alike.
struct AbiSlot {
  bool fp;
  int reg;    // register number, or -1
  int stack;  // stack slot (8 bytes each), or -1
};
// Calls rarely pass more than 8 values: these stay off the heap.
using TypeList = lir::SmallVector<Type, 8>;
using AbiSlots = lir::SmallVector<AbiSlot, 8>;

inline AbiSlots AssignAbi(const TypeList& types, int* stack_slots) {
  AbiSlots slots;
  int next_gp = 0, next_fp = 0, next_stack = 0;
  for (Type t : types) {
    const bool fp = lir::IsFloat(t);
    int& next = fp ? next_fp : next_gp;
    slots.push_back(next < 8 ? AbiSlot{fp, next++, -1} : AbiSlot{fp, -1, next_stack++});
  }
  if (stack_slots != nullptr) *stack_slots = next_stack;
  return slots;
}

class FunctionCompiler {
 public:
  // `f` is verified and `allocation` is its register allocation for Aarch64Registers().
  // `sign_tests`: branches on a value's sign are tbz/tbnz, which reach +-32 KiB only
  // (EmitAllocated takes them for functions that come out shorter than that).
  FunctionCompiler(const lir::Function& f, const lir::Allocation& allocation,
                   const CompileOptions& options, bool sign_tests = false)
      : f_(f), options_(options), alloc_(allocation), sign_tests_(sign_tests) {}
  CompiledFunction Run();

 private:
  // What a conditional branch tests: the flags (b.cond), or a register being zero or not
  // (cbz/cbnz, with no compare before it).
  struct BranchTest {
    CondCode cc = CondCode::kNE;
    int zero_reg = -1;  // >= 0: cbz/cbnz on this register, `bits` wide
    int bits = 64;
    int sign_bit = -1;    // >= 0: tbz/tbnz on this bit of zero_reg instead
    bool nonzero = true;  // cbnz, tbnz
    BranchTest Negated() const {
      BranchTest t = *this;
      t.cc = Negate(cc);
      t.nonzero = !nonzero;
      return t;
    }
  };
  struct StubEntryCall {
    uint64_t address;         // the word to call
    uint32_t placed_by_stub;  // the arguments its moves place, a bit each
  };

  // ---- codegen.cc ----
  [[noreturn]] void Fail(const std::string& what) const;
  void Check() {
    if (!errors_.message_.empty()) Fail("asmjit: " + errors_.message_);
  }

  // ---- frame.cc ----
  // Branches to blocks are encoded here (direct_encoding.h), not through asmjit's labels,
  // which cost about 350 host instructions a block (benchmarks/compile_time): a branch
  // backward gets its displacement at once, one forward is patched when its block is placed
  // (ResolveBlockBranches). A jmp to the next block emits nothing, and a br branches to each
  // target that does not follow (to the next block too when both targets are it):
  // EmitInstr's kJmp, EmitBranch.
  void PlaceBlock(int b) { block_offset_[static_cast<size_t>(b)] = a_->offset(); }
  void EmitBlockBranch(uint32_t word, int target);
  void ResolveBlockBranches();
  uint32_t Retarget(uint32_t word, size_t at, int target);
  void JumpToBlock(int target) { EmitBlockBranch(*EncodeB(0), target); }
  TypeList ArgTypes(const Instr& call) const;
  void LayOutFrame();
  int64_t SpillOffset(int slot) const { return spill_base_ + 8 * int64_t{slot}; }
  const Location& Loc(int vreg) const { return alloc_.where[static_cast<size_t>(vreg)]; }
  std::optional<int64_t> SpAddress(int vreg) const;
  std::optional<int64_t> SpAddress(const Operand& o) const {
    return o.is_vreg() ? SpAddress(o.vreg) : std::nullopt;
  }
  bool CanBeFrameless() const;
  AbiSlots ParamAbi(int* stack_slots = nullptr) const;
  void EmitPrologue();
  void ChooseSavedRegisters();
  std::optional<int> ConstantRegister(uint64_t v) const;
  void EmitFrameRecord();
  void EmitParameterMoves();
  void SaveCalleeSaved(bool save);
  void EmitEpilogue();
  void EmitFrameTeardown();
  void EmitPool();

  // ---- operands.cc ----
  asmjit::Label PoolLabel(uint64_t value);
  void MovImm(int dst, uint64_t v, int width);
  void SpPlus(int d, int64_t offset);
  void AddImm(const Gp& d, const Gp& s, uint64_t imm, int width, int scratch);
  void MovFpImm(int dst, uint64_t bits);
  bool Emitted(std::optional<uint32_t> word);
  asmjit::Error LoadStore(bool load, int size, const Gp& rt, const Mem& m);
  asmjit::Error Ldr(const Gp& rt, const Mem& m) {
    return LoadStore(true, rt.isGpX() ? 8 : 4, rt, m);
  }
  asmjit::Error Str(const Gp& rt, const Mem& m) {
    return LoadStore(false, rt.isGpX() ? 8 : 4, rt, m);
  }
  asmjit::Error Mov(const Gp& d, const Gp& s);
  asmjit::Error AddSub(bool sub, const Gp& d, const Gp& s, uint64_t imm);
  asmjit::Error Add(const Gp& d, const Gp& s, uint64_t imm) { return AddSub(false, d, s, imm); }
  asmjit::Error Sub(const Gp& d, const Gp& s, uint64_t imm) { return AddSub(true, d, s, imm); }
  asmjit::Error AddSub(bool sub, const Gp& d, const Gp& a, const Gp& b);
  asmjit::Error Add(const Gp& d, const Gp& a, const Gp& b) { return AddSub(false, d, a, b); }
  asmjit::Error Sub(const Gp& d, const Gp& a, const Gp& b) { return AddSub(true, d, a, b); }
  asmjit::Error Cmp(const Gp& a, uint64_t imm);
  asmjit::Error Cmp(const Gp& a, const Gp& b);
  int ReadGp(const Operand& o, int scratch, int width = 64);
  int ReadFp(const Operand& o, int scratch);
  int DstReg(int vreg, int scratch) const;
  void CommitGp(int vreg, int reg);
  void CommitFp(int vreg, int reg);
  void Extend32(int dst, int src, int bits, bool is_signed);

  // ---- emit_arithmetic.cc ----
  void EmitInstr(const Instr& in);
  void EmitMov(const Instr& in);
  void EmitSimpleBinary(const Instr& in);
  void EmitShift(const Instr& in);
  void EmitDivRem(const Instr& in);
  void EmitUnary(const Instr& in);
  void EmitConvert(const Instr& in);
  void EmitFloatBinary(const Instr& in);
  void EmitSIToF(const Instr& in);
  void EmitCompare(Cond cond, Type t, const Operand& a_op, const Operand& b_op);
  void EmitEitherCompare(const Instr& in);
  static bool FlagOrNullPointer(const Instr& in);
  static bool TestsSign(const Instr& in);
  static bool ComparesWithZero(const Instr& in);
  static uint32_t FlagsWhereHolds(CondCode cc);
  void EmitTestNonZero(int reg, Type t);
  void EmitSelect(const Instr& in);

  // ---- emit_memory.cc ----
  Mem Address(const Instr& in, int size);
  void EmitLoad(const Instr& in);
  void EmitStore(const Instr& in);
  bool EmitStorePair(const Instr& a, const Instr& b);
  bool EmitPreIndexedLoad(const Instr& step, const Instr& load);
  void BranchIf(const BranchTest& test, int target);
  uint32_t BranchTestWord(const BranchTest& test, int64_t delta);
  BranchTest EmitBranchCondition(const Instr& in);
  void EmitBranch(const Instr& in);
  void EmitRet(const Instr& in);
  void FindNarrowLoads();
  // CompileOptions::exit_code_limit: `code` returned by a `bl` to the shared exit block.
  bool EmitExitByCall(uint64_t code) {
    return IsExitCode(code, options_.exit_code_limit) && CallExit(code, exit_block_);
  }
  bool EmitExitByTail(int b);
  bool CallExit(uint64_t code, asmjit::Label& target);
  void EmitExitTails();
  void EmitInstrs(const lir::InstrList& instrs, size_t end);
  void EmitExitBlock();
  int EpilogueBlock() const;

  // ---- emit_calls.cc ----
  void ParallelMove(std::vector<Move>& moves, bool fp, int scratch);
  void EmitCall(const Instr& in);
  std::optional<uint64_t> CallTarget(const Instr& in) const;
  std::optional<StubEntryCall> StubEntryFor(const Instr& in, std::optional<uint64_t> target);
  void CommitCallResult(const Instr& in);
  void EmitTailCall(const Instr& in);
  void PlaceArguments(const Instr& in, uint32_t placed_by_callee = 0);
  void EmitCallTo(const std::string& callee) { EmitTransferToCallee(callee, true); }
  void EmitTransferToCallee(const std::string& callee, bool link);
  size_t EmitReleaseByStub(const lir::InstrList& instrs, size_t i);
  size_t EmitIntoLocalByStub(const lir::InstrList& instrs, size_t i);
  int64_t IntoLocalJoin(const lir::InstrList& instrs, size_t i);
  int UseCount(int vreg);
  void EmitCallToAddress(uint64_t target) { EmitTransferTo(target, true); }
  void EmitTransferTo(uint64_t target, bool link);

  const lir::Function& f_;
  const CompileOptions& options_;
  lir::Allocation alloc_;
  asmjit::CodeHolder code_;
  ErrorRecorder errors_;
  std::unique_ptr<asmjit::a64::Assembler> a_;
  std::vector<int64_t> block_offset_;  // per block: where its code starts; -1 until placed
  struct BlockFixup {
    size_t at;   // a branch's offset
    int target;  // the block it goes to
  };
  std::vector<BlockFixup> block_fixups_;  // branches forward, to patch
  asmjit::Label epilogue_, entry_;
  asmjit::Label exit_block_;                // EmitExitByCall's, once one exit needs it
  ExitTails exit_tails_;                    // FindExitTails
  std::vector<asmjit::Label> tail_labels_;  // per tail, once an exit calls it
  std::vector<ExitByCall> exits_;
  std::vector<uint32_t> data_words_;       // EmitReleaseByStub's and EmitIntoLocalByStub's
  std::vector<int> use_counts_;            // UseCount's, by vreg
  std::map<uint64_t, int> constant_regs_;  // ChooseSavedRegisters': value -> register
  std::vector<int> saved_gp_;              // and the general registers the prologue saves
  std::vector<bool> narrow_loads_;         // FindNarrowLoads
  int epilogue_block_ = -1;                // EpilogueBlock()
  bool frameless_ = false;                 // CodeStats::frameless
  std::map<uint64_t, asmjit::Label> pool_;
  bool long_ranges_ = false;
  bool pools_ = true;
  bool sign_tests_ = false;
  int64_t out_bytes_ = 0, spill_base_ = 0, frame_size_ = 0;
  std::vector<int64_t> slot_offsets_;
  std::vector<int> sp_slot_;         // per vreg: FindSpAddresses
  std::vector<Move> call_moves_[2];  // a call's argument moves, general and f64: reused
  const Instr* current_ = nullptr;
  int block_ = 0;
  CodeStats stats_;
};

}  // namespace a64jit::codegen::internal

#endif  // A64JIT_JIT_CODEGEN_FUNCTION_COMPILER_H_
