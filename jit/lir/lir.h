// LIR: a low-level, architecture-neutral IR over typed virtual registers, in basic blocks.
// It is what the code generator consumes and what the reference interpreter executes; both
// follow the semantics written here, so emitted code can be compared with the interpreter
// bit for bit.
//
// Semantics that matter for that comparison:
// - Integer types i8/i16/i32/i64/ptr wrap modulo 2^N. A value's bits above its width are
//   not part of it: the interpreter keeps them zero, the machine may hold anything there.
// - Shift amounts are taken modulo 32 for i8/i16/i32 and modulo 64 for i64/ptr (what the
//   aarch64 W/X shift instructions do); i8/i16 shifts compute in 32 bits, then truncate.
// - x / 0 == 0, x % 0 == x, MIN / -1 == MIN, MIN % -1 == 0 (signed and unsigned alike).
// - f64 follows IEEE 754 with aarch64's NaN rules (default NaN 0x7ff8000000000000; an
//   input NaN is propagated, quietened, first operand first). fptosi saturates (to 32 bits
//   for i8/i16/i32, then truncates), NaN converts to 0.
// - A function returns an iN value zero-extended to 64 bits.
// - Call arguments and results are i64, ptr or f64.
#ifndef A64JIT_JIT_LIR_LIR_H_
#define A64JIT_JIT_LIR_LIR_H_

#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/lir/ops.h"
#include "jit/lir/small_vector.h"
#include "jit/lir/symbol.h"

namespace a64jit::lir {

enum class Type : uint8_t { kI8, kI16, kI32, kI64, kPtr, kF64 };
const char* TypeName(Type t);
std::optional<Type> TypeFromName(const std::string& name);
// 8, 16, 32, 64 (ptr and f64: 64). Inline, as the predicates over Op below: the passes ask
// them for every instruction, and a compile spent more on the calls than on the answers.
inline int TypeBits(Type t) {
  return t == Type::kI8 ? 8 : t == Type::kI16 ? 16 : t == Type::kI32 ? 32 : 64;
}
inline bool IsFloat(Type t) { return t == Type::kF64; }
inline bool IsInt(Type t) { return t != Type::kF64; }
// Keeps the low TypeBits(t) bits.
uint64_t Truncate(uint64_t bits, Type t);
int64_t SignExtend(uint64_t bits, Type t);

// The opcodes, in the order of the table in ops.h (which documents each one).
enum class Op : uint8_t {
#define A64JIT_LIR_OP_ENUMERATOR(name, text, syntax, family, terminator, helper) k##name,
  A64JIT_LIR_OPS(A64JIT_LIR_OP_ENUMERATOR)
#undef A64JIT_LIR_OP_ENUMERATOR
};
// Every op, in enum order (for tables built from ops.h's, like the text parser's).
inline constexpr Op kAllOps[] = {
#define A64JIT_LIR_OP_LIST_ENTRY(name, text, syntax, family, terminator, helper) Op::k##name,
    A64JIT_LIR_OPS(A64JIT_LIR_OP_LIST_ENTRY)
#undef A64JIT_LIR_OP_LIST_ENTRY
};
// The facts of ops.h's table, per op.
const char* OpName(Op op);
OpSyntax OpSyntaxOf(Op op);
inline constexpr OpFamily kOpFamilies[] = {
#define A64JIT_LIR_OP_FAMILY(name, text, syntax, family, terminator, helper) OpFamily::family,
    A64JIT_LIR_OPS(A64JIT_LIR_OP_FAMILY)
#undef A64JIT_LIR_OP_FAMILY
};
inline constexpr bool kOpTerminators[] = {
#define A64JIT_LIR_OP_TERMINATOR(name, text, syntax, family, terminator, helper) terminator,
    A64JIT_LIR_OPS(A64JIT_LIR_OP_TERMINATOR)
#undef A64JIT_LIR_OP_TERMINATOR
};
inline OpFamily OpFamilyOf(Op op) { return kOpFamilies[static_cast<size_t>(op)]; }
inline bool IsTerminator(Op op) { return kOpTerminators[static_cast<size_t>(op)]; }
inline bool IsIntBinary(Op op) { return OpFamilyOf(op) == OpFamily::kIntBinary; }
inline bool IsFloatBinary(Op op) { return OpFamilyOf(op) == OpFamily::kFloatBinary; }
// A call that returns to the next instruction: `call` or a runtime protocol (family kCall,
// not a terminator).
inline bool IsCall(Op op) { return OpFamilyOf(op) == OpFamily::kCall && !IsTerminator(op); }
// The helper a runtime protocol calls (ops.h's helper column), or nullptr.
const char* OpHelper(Op op);

enum class Cond : uint8_t { kEq, kNe, kSlt, kSle, kSgt, kSge, kUlt, kUle, kUgt, kUge };
const char* CondName(Cond c);
std::optional<Cond> CondFromName(const std::string& name);
// Whether `a c b` holds for operands of type `t` (as bits). On f64 the signed conditions are
// the ordered comparisons (false when an operand is NaN; kNe is true then), and the unsigned
// ones are not allowed.
bool EvalCond(Cond c, uint64_t a, uint64_t b, Type t);
bool IsUnsigned(Cond c);
// Holds exactly when c does not, on integers; on f64, where a NaN makes both a < b and
// a >= b false, a branch is inverted by swapping its targets instead.
Cond Negate(Cond c);

// An operand: a virtual register, an integer immediate, or an f64 immediate.
struct Operand {
  enum class Kind : uint8_t { kNone, kVReg, kImm, kFImm };
  Kind kind = Kind::kNone;
  int vreg = -1;
  union {  // by kind: 16 bytes an operand, not 24 (a compile copies many)
    int64_t imm = 0;
    double fimm;
  };

  Operand() = default;
  static Operand VReg(int v) { return Operand(Kind::kVReg, v, 0); }
  static Operand Imm(int64_t i) { return Operand(Kind::kImm, -1, i); }
  static Operand FImm(double f) {
    Operand o(Kind::kFImm, -1, 0);
    o.fimm = f;
    return o;
  }
  bool is_vreg() const { return kind == Kind::kVReg; }
  bool is_imm() const { return kind == Kind::kImm; }
  bool is_fimm() const { return kind == Kind::kFImm; }
  bool is_none() const { return kind == Kind::kNone; }

 private:
  Operand(Kind k, int v, int64_t i) : kind(k), vreg(v), imm(i) {}
};

// An instruction's value operands: most have at most three.
using Operands = SmallVector<Operand, 3>;

struct Instr {
  // Wide fields first and the byte-sized ones together, so that no padding sits between
  // them (a compile moves many instructions: benchmarks/compile_time).
  Operands args;  // value operands (see Op)
  // kLoad / kStore: address = base + index * scale + disp; base is args[0] (load) or
  // args[1] (store), index the next operand or none. kCall through a register (`callee`
  // empty): base holds the target address.
  Operand base, index;
  int64_t disp = 0;
  int64_t count = 0;  // kPad
  Symbol callee;      // kCall: the name called; empty for a call through `base`
  int dst = -1;       // defined vreg, or -1
  int scale = 1;
  int slot = -1;              // kSlotAddr
  int targets[2] = {-1, -1};  // kJmp, kBr: block indices
  int line = 0;               // source line when parsed (diagnostics)
  Op op = Op::kMov;
  // kCmp and the compare form of kBr: condition and operand type.
  Cond cond = Cond::kEq;
  Type cmp_type = Type::kI64;
  bool br_on_value = false;  // kBr: `br %c, ...` (c != 0) instead of a compare
  // kBr's either form (four operands): also taken when args[2] cond2 args[3] holds, compared
  // as cmp_type2 (IsEitherBranch). The first pair may be any integer type, the second i32,
  // i64 or ptr.
  Cond cond2 = Cond::kEq;
  Type cmp_type2 = Type::kI64;
  Type store_type = Type::kI64;
};

// A kBr of the either form: `br.T c a, b or c2 c, d, bbT, bbF`.
inline bool IsEitherBranch(const Instr& in) {
  return in.op == Op::kBr && !in.br_on_value && in.args.size() == 4;
}

// The vreg whose value a kBr tests against zero (`br %c`, `br.T ne|eq %c, 0`), or -1.
inline int BranchValue(const Instr& br) {
  if (br.op != Op::kBr || br.args.empty() || !br.args[0].is_vreg()) return -1;
  if (br.br_on_value) return br.args[0].vreg;
  const bool against_zero = br.args.size() == 2 && br.args[1].is_imm() && br.args[1].imm == 0;
  return against_zero && (br.cond == Cond::kEq || br.cond == Cond::kNe) ? br.args[0].vreg : -1;
}

// A block's instructions. Lowering puts all of a function's in one arena
// (Function::arena): no malloc and free for each block, which took a tenth of compile time
// (benchmarks/compile_time). Blocks made elsewhere (the parser, tests, copies) use the heap.
using InstrList = std::pmr::vector<Instr>;

struct Block {
  Block() = default;
  explicit Block(std::pmr::memory_resource* arena) : instrs(arena) {}
  InstrList instrs;  // the last one is a terminator
};

struct StackSlot {
  int64_t size = 0;  // bytes; slots are 16-byte aligned
};

struct Function {
  std::string name;
  std::vector<int> params;  // vregs
  std::optional<Type> ret;  // nullopt: void
  std::vector<Type> vreg_types;
  std::vector<StackSlot> slots;
  // What the blocks' instructions are allocated from, when not the heap; shared by copies
  // of the function (their blocks' instructions are on the heap, but may be moved from
  // these). Declared before `blocks`, so that it outlives them.
  std::shared_ptr<std::pmr::memory_resource> arena;
  std::vector<Block> blocks;  // blocks[0] is the entry

  int NewVReg(Type t) {
    vreg_types.push_back(t);
    return static_cast<int>(vreg_types.size()) - 1;
  }
  Type TypeOf(int vreg) const { return vreg_types.at(static_cast<size_t>(vreg)); }
  size_t InstrCount() const;
};

// Calls fn(vreg) for every virtual register `in` reads (operands, address base and index).
template <typename Fn>
void ForEachUse(const Instr& in, Fn fn) {
  for (const Operand& o : in.args) {
    if (o.is_vreg()) fn(o.vreg);
  }
  if (in.base.is_vreg()) fn(in.base.vreg);
  if (in.index.is_vreg()) fn(in.index.vreg);
}

// Whether `in` reads virtual register `v`.
inline bool ReadsVReg(const Instr& in, int v) {
  bool read = false;
  ForEachUse(in, [&](int u) { read = read || u == v; });
  return read;
}

// A parsed file: functions, and `extern @name = 0xADDR` declarations of call targets.
struct Module {
  std::vector<Function> functions;
  std::map<std::string, uint64_t> externs;
  const Function* Find(const std::string& name) const;
};

// A malformed function: names the function, block and instruction.
class VerifyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};
void Verify(const Function& f);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_LIR_H_
