#include "jit/lir/lir.h"

#include <cstring>
#include <iterator>
#include <sstream>

namespace a64jit::lir {

const char* TypeName(Type t) {
  switch (t) {
    case Type::kI8:
      return "i8";
    case Type::kI16:
      return "i16";
    case Type::kI32:
      return "i32";
    case Type::kI64:
      return "i64";
    case Type::kPtr:
      return "ptr";
    case Type::kF64:
      return "f64";
  }
  return "?";
}

std::optional<Type> TypeFromName(const std::string& name) {
  for (Type t : {Type::kI8, Type::kI16, Type::kI32, Type::kI64, Type::kPtr, Type::kF64}) {
    if (name == TypeName(t)) return t;
  }
  return std::nullopt;
}

uint64_t Truncate(uint64_t bits, Type t) {
  const int n = TypeBits(t);
  return n == 64 ? bits : bits & ((uint64_t{1} << n) - 1);
}

int64_t SignExtend(uint64_t bits, Type t) {
  const int n = TypeBits(t);
  if (n == 64) return static_cast<int64_t>(bits);
  const uint64_t sign = uint64_t{1} << (n - 1);
  const uint64_t v = Truncate(bits, t);
  return static_cast<int64_t>((v ^ sign) - sign);
}

namespace {

// One row of ops.h's table, indexed by Op (the family and terminator columns are lir.h's
// tables, read inline).
struct OpInfo {
  const char* name;
  OpSyntax syntax;
  const char* helper;
};

constexpr OpInfo kOpInfo[] = {
#define A64JIT_LIR_OP_INFO(name, text, syntax, family, terminator, helper) \
  {text, OpSyntax::syntax, helper},
    A64JIT_LIR_OPS(A64JIT_LIR_OP_INFO)
#undef A64JIT_LIR_OP_INFO
};
static_assert(std::size(kOpInfo) == std::size(kAllOps));
static_assert(std::size(kOpFamilies) == std::size(kAllOps));

const OpInfo& Info(Op op) { return kOpInfo[static_cast<size_t>(op)]; }

}  // namespace

const char* OpName(Op op) {
  return static_cast<size_t>(op) < std::size(kOpInfo) ? Info(op).name : "?";
}

OpSyntax OpSyntaxOf(Op op) { return Info(op).syntax; }

const char* OpHelper(Op op) { return Info(op).helper; }

const char* CondName(Cond c) {
  static const char* const kNames[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                       "sge", "ult", "ule", "ugt", "uge"};
  return kNames[static_cast<int>(c)];
}

std::optional<Cond> CondFromName(const std::string& name) {
  for (int i = 0; i <= static_cast<int>(Cond::kUge); i++) {
    if (name == CondName(static_cast<Cond>(i))) return static_cast<Cond>(i);
  }
  return std::nullopt;
}

Cond Negate(Cond c) {
  switch (c) {
    case Cond::kEq:
      return Cond::kNe;
    case Cond::kNe:
      return Cond::kEq;
    case Cond::kSlt:
      return Cond::kSge;
    case Cond::kSge:
      return Cond::kSlt;
    case Cond::kSle:
      return Cond::kSgt;
    case Cond::kSgt:
      return Cond::kSle;
    case Cond::kUlt:
      return Cond::kUge;
    case Cond::kUge:
      return Cond::kUlt;
    case Cond::kUle:
      return Cond::kUgt;
    case Cond::kUgt:
      return Cond::kUle;
  }
  return c;
}

bool IsUnsigned(Cond c) {
  return c == Cond::kUlt || c == Cond::kUle || c == Cond::kUgt || c == Cond::kUge;
}

// f64 operands as bits. Python's float comparisons: every one but != is false when an
// operand is NaN (unordered), which C++'s operators give too.
bool EvalFloatCond(Cond c, uint64_t a_bits, uint64_t b_bits) {
  double a, b;
  std::memcpy(&a, &a_bits, sizeof a);
  std::memcpy(&b, &b_bits, sizeof b);
  switch (c) {
    case Cond::kEq:
      return a == b;
    case Cond::kNe:
      return a != b;
    case Cond::kSlt:
      return a < b;
    case Cond::kSle:
      return a <= b;
    case Cond::kSgt:
      return a > b;
    case Cond::kSge:
      return a >= b;
    default:
      return false;  // the verifier rejects unsigned conditions on f64
  }
}

bool EvalCond(Cond c, uint64_t a, uint64_t b, Type t) {
  if (IsFloat(t)) return EvalFloatCond(c, a, b);
  const uint64_t ua = Truncate(a, t), ub = Truncate(b, t);
  const int64_t sa = SignExtend(a, t), sb = SignExtend(b, t);
  switch (c) {
    case Cond::kEq:
      return ua == ub;
    case Cond::kNe:
      return ua != ub;
    case Cond::kSlt:
      return sa < sb;
    case Cond::kSle:
      return sa <= sb;
    case Cond::kSgt:
      return sa > sb;
    case Cond::kSge:
      return sa >= sb;
    case Cond::kUlt:
      return ua < ub;
    case Cond::kUle:
      return ua <= ub;
    case Cond::kUgt:
      return ua > ub;
    case Cond::kUge:
      return ua >= ub;
  }
  return false;
}

size_t Function::InstrCount() const {
  size_t n = 0;
  for (const Block& b : blocks) n += b.instrs.size();
  return n;
}

const Function* Module::Find(const std::string& name) const {
  for (const Function& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

namespace {

class Verifier {
 public:
  explicit Verifier(const Function& f) : f_(f) {}

  void Run() {
    if (f_.blocks.empty()) Fail(-1, nullptr, "function has no blocks");
    for (int p : f_.params) CheckVReg(-1, nullptr, p);
    for (size_t b = 0; b < f_.blocks.size(); b++) {
      const Block& block = f_.blocks[b];
      if (block.instrs.empty() || !IsTerminator(block.instrs.back().op)) {
        Fail(static_cast<int>(b), nullptr, "block does not end with jmp, br or ret");
      }
      for (size_t i = 0; i < block.instrs.size(); i++) {
        const Instr& in = block.instrs[i];
        if (IsTerminator(in.op) && i + 1 != block.instrs.size()) {
          Fail(static_cast<int>(b), &in, "terminator in the middle of a block");
        }
        Check(static_cast<int>(b), in);
      }
    }
  }

 private:
  [[noreturn]] void Fail(int block, const Instr* in, const std::string& what) const {
    std::ostringstream os;
    os << "@" << f_.name;
    if (block >= 0) os << " bb" << block;
    if (in != nullptr) {
      os << " '" << OpName(in->op) << "'";
      if (in->line > 0) os << " (line " << in->line << ")";
    }
    os << ": " << what;
    throw VerifyError(os.str());
  }

  Type CheckVReg(int b, const Instr* in, int v) const {
    if (v < 0 || static_cast<size_t>(v) >= f_.vreg_types.size()) {
      Fail(b, in, "unknown virtual register %" + std::to_string(v));
    }
    return f_.TypeOf(v);
  }

  // An operand usable as a value of type `t`.
  void CheckValue(int b, const Instr& in, const Operand& o, Type t) const {
    if (o.is_vreg()) {
      Type vt = CheckVReg(b, &in, o.vreg);
      if (vt != t && !(IsInt(vt) && IsInt(t) && TypeBits(vt) == 64 && TypeBits(t) == 64)) {
        Fail(b, &in,
             std::string("operand %") + std::to_string(o.vreg) + " is " + TypeName(vt) +
                 ", expected " + TypeName(t));
      }
    } else if (o.is_imm()) {
      if (!IsInt(t))
        Fail(b, &in, std::string("integer immediate where ") + TypeName(t) + " expected");
    } else if (o.is_fimm()) {
      if (!IsFloat(t)) Fail(b, &in, "f64 immediate where an integer is expected");
    } else {
      Fail(b, &in, "missing operand");
    }
  }

  void CheckArgs(int b, const Instr& in, size_t n) const {
    if (in.args.size() != n) {
      Fail(b, &in,
           "expected " + std::to_string(n) + " operands, got " + std::to_string(in.args.size()));
    }
  }

  Type Dst(int b, const Instr& in) const {
    if (in.dst < 0) Fail(b, &in, "missing result");
    return CheckVReg(b, &in, in.dst);
  }

  void CheckAddress(int b, const Instr& in) const {
    if (!in.base.is_vreg()) Fail(b, &in, "address base must be a register");
    Type bt = CheckVReg(b, &in, in.base.vreg);
    if (TypeBits(bt) != 64 || IsFloat(bt)) Fail(b, &in, "address base must be ptr or i64");
    if (in.index.is_vreg()) {
      Type it = CheckVReg(b, &in, in.index.vreg);
      if (TypeBits(it) != 64 || IsFloat(it)) Fail(b, &in, "address index must be ptr or i64");
    } else if (!in.index.is_none()) {
      Fail(b, &in, "address index must be a register");
    }
    if (in.scale != 1 && in.scale != 2 && in.scale != 4 && in.scale != 8) {
      Fail(b, &in, "scale must be 1, 2, 4 or 8");
    }
  }

  void CheckTarget(int b, const Instr& in, int t) const {
    if (t < 0 || static_cast<size_t>(t) >= f_.blocks.size()) {
      Fail(b, &in, "branch to unknown block bb" + std::to_string(t));
    }
  }

  static bool IsCallType(Type t) { return t == Type::kI64 || t == Type::kPtr || t == Type::kF64; }

  // Every op listed: a new op fails to compile (-Werror=switch) until it is checked here.
  void Check(int b, const Instr& in) const {
    switch (in.op) {
      case Op::kMov:
        return CheckMove(b, in);
      case Op::kAdd:
      case Op::kSub:
      case Op::kMul:
      case Op::kSDiv:
      case Op::kUDiv:
      case Op::kSRem:
      case Op::kURem:
      case Op::kAnd:
      case Op::kOr:
      case Op::kXor:
      case Op::kShl:
      case Op::kLShr:
      case Op::kAShr:
      case Op::kFAdd:
      case Op::kFSub:
      case Op::kFMul:
      case Op::kFDiv:
        return CheckBinary(b, in);
      case Op::kNot:
      case Op::kNeg:
        return CheckIntUnary(b, in);
      case Op::kSExt:
      case Op::kZExt:
      case Op::kTrunc:
        return CheckIntConvert(b, in);
      case Op::kFNeg:
        return CheckFloatUnary(b, in);
      case Op::kSIToF:
        return CheckIntToFloat(b, in);
      case Op::kFToSI:
        return CheckFloatToInt(b, in);
      case Op::kCmp:
        return CheckCompare(b, in);
      case Op::kSelect:
        return CheckSelect(b, in);
      case Op::kLoad:
        return CheckLoad(b, in);
      case Op::kStore:
        return CheckStore(b, in);
      case Op::kSlotAddr:
        return CheckSlotAddr(b, in);
      case Op::kFramePtr:
        return CheckFramePtr(b, in);
      case Op::kCall:
        return CheckCall(b, in);
      case Op::kReleaseAt:
      case Op::kBinaryOpIntoLocal:
        return CheckProtocol(b, in);
      case Op::kTailCall:
        return CheckTailCall(b, in);
      case Op::kPad:
        return CheckPad(b, in);
      case Op::kSetPrevInstr:
      case Op::kPrevInstrIs:
        Fail(b, &in,
             "a lowering note (lower::ResolvePrevInstr resolves it before lowering returns)");
      case Op::kJmp:
        return CheckTarget(b, in, in.targets[0]);
      case Op::kBr:
        return CheckBranch(b, in);
      case Op::kRet:
        return CheckReturn(b, in);
    }
    Fail(b, &in, "internal: unknown op " + std::to_string(static_cast<int>(in.op)));
  }

  void CheckMove(int b, const Instr& in) const {
    CheckArgs(b, in, 1);
    CheckValue(b, in, in.args[0], Dst(b, in));
  }

  // Integer and f64 binary ops: two operands of the result's type.
  void CheckBinary(int b, const Instr& in) const {
    CheckArgs(b, in, 2);
    Type t = Dst(b, in);
    if (IsIntBinary(in.op) && !IsInt(t)) Fail(b, &in, "integer operation on f64");
    if (IsFloatBinary(in.op) && !IsFloat(t)) Fail(b, &in, "f64 operation on an integer");
    CheckValue(b, in, in.args[0], t);
    CheckValue(b, in, in.args[1], t);
  }

  void CheckIntUnary(int b, const Instr& in) const {
    CheckArgs(b, in, 1);
    Type t = Dst(b, in);
    if (!IsInt(t)) Fail(b, &in, "integer operation on f64");
    CheckValue(b, in, in.args[0], t);
  }

  // sext/zext widen (or keep) the width, trunc narrows (or keeps) it.
  void CheckIntConvert(int b, const Instr& in) const {
    CheckArgs(b, in, 1);
    Type t = Dst(b, in);
    if (!in.args[0].is_vreg()) Fail(b, &in, "operand must be a register");
    Type s = CheckVReg(b, &in, in.args[0].vreg);
    if (!IsInt(t) || !IsInt(s)) Fail(b, &in, "integer conversion on f64");
    if (in.op == Op::kTrunc ? TypeBits(t) > TypeBits(s) : TypeBits(t) < TypeBits(s)) {
      Fail(b, &in,
           std::string("cannot ") + OpName(in.op) + " " + TypeName(s) + " to " + TypeName(t));
    }
  }

  void CheckFloatUnary(int b, const Instr& in) const {
    CheckArgs(b, in, 1);
    if (Dst(b, in) != Type::kF64) Fail(b, &in, "result must be f64");
    CheckValue(b, in, in.args[0], Type::kF64);
  }

  void CheckIntToFloat(int b, const Instr& in) const {
    CheckArgs(b, in, 1);
    if (Dst(b, in) != Type::kF64) Fail(b, &in, "result must be f64");
    if (!in.args[0].is_vreg() || !IsInt(CheckVReg(b, &in, in.args[0].vreg))) {
      Fail(b, &in, "operand must be an integer register");
    }
  }

  void CheckFloatToInt(int b, const Instr& in) const {
    CheckArgs(b, in, 1);
    if (!IsInt(Dst(b, in))) Fail(b, &in, "result must be an integer");
    if (!in.args[0].is_vreg()) Fail(b, &in, "operand must be a register");
    CheckValue(b, in, in.args[0], Type::kF64);
  }

  // The two operands of cmp and of br's compare form.
  void CheckCompareOperands(int b, const Instr& in) const {
    if (IsFloat(in.cmp_type)) {
      if (IsUnsigned(in.cond)) Fail(b, &in, "f64 compares take eq, ne, slt, sle, sgt or sge");
    } else if (!IsInt(in.cmp_type)) {
      Fail(b, &in, "compare operands must be integers or f64");
    }
    CheckValue(b, in, in.args[0], in.cmp_type);
    CheckValue(b, in, in.args[1], in.cmp_type);
  }

  void CheckCompare(int b, const Instr& in) const {
    CheckArgs(b, in, 2);
    if (!IsInt(Dst(b, in))) Fail(b, &in, "result must be an integer");
    CheckCompareOperands(b, in);
  }

  void CheckSelect(int b, const Instr& in) const {
    CheckArgs(b, in, 3);
    Type t = Dst(b, in);
    if (!in.args[0].is_vreg() || !IsInt(CheckVReg(b, &in, in.args[0].vreg))) {
      Fail(b, &in, "condition must be an integer register");
    }
    CheckValue(b, in, in.args[1], t);
    CheckValue(b, in, in.args[2], t);
  }

  void CheckLoad(int b, const Instr& in) const {
    CheckArgs(b, in, 0);
    Dst(b, in);
    CheckAddress(b, in);
  }

  void CheckStore(int b, const Instr& in) const {
    CheckArgs(b, in, 1);
    if (in.dst >= 0) Fail(b, &in, "store has no result");
    CheckValue(b, in, in.args[0], in.store_type);
    CheckAddress(b, in);
  }

  void CheckSlotAddr(int b, const Instr& in) const {
    CheckArgs(b, in, 0);
    if (Dst(b, in) != Type::kPtr) Fail(b, &in, "result must be ptr");
    if (in.slot < 0 || static_cast<size_t>(in.slot) >= f_.slots.size()) {
      Fail(b, &in, "unknown stack slot ss" + std::to_string(in.slot));
    }
  }

  void CheckFramePtr(int b, const Instr& in) const {
    CheckArgs(b, in, 0);
    if (Dst(b, in) != Type::kPtr) Fail(b, &in, "result must be ptr");
  }

  void CheckCall(int b, const Instr& in) const {
    if (in.callee.empty()) {
      if (!in.base.is_vreg()) Fail(b, &in, "call without a callee");
      const Type t = CheckVReg(b, &in, in.base.vreg);
      if (t != Type::kPtr && t != Type::kI64) Fail(b, &in, "call target must be i64 or ptr");
    } else if (!in.base.is_none()) {
      Fail(b, &in, "call with both a callee and a target register");
    }
    for (const Operand& a : in.args) {
      if (a.is_imm()) continue;  // an i64 constant, placed straight into its argument register
      if (!a.is_vreg()) Fail(b, &in, "call arguments must be registers or immediates");
      if (!IsCallType(CheckVReg(b, &in, a.vreg))) {
        Fail(b, &in, "call arguments must be i64, ptr or f64");
      }
    }
    if (in.dst >= 0 && !IsCallType(CheckVReg(b, &in, in.dst))) {
      Fail(b, &in, "call results must be i64, ptr or f64");
    }
  }

  // A runtime protocol: a call of its own helper, by name (ops.h).
  void CheckProtocol(int b, const Instr& in) const {
    if (in.callee != OpHelper(in.op)) {
      Fail(b, &in, std::string(OpName(in.op)) + " calls @" + OpHelper(in.op));
    }
    CheckCall(b, in);
  }

  // A call and a return in one: the callee named (its address is a branch target), its
  // arguments all in registers (nothing on the stack survives the frame), no result of its
  // own, and an integer return if the function returns (a float's register is not moved).
  void CheckTailCall(int b, const Instr& in) const {
    if (in.callee.empty()) Fail(b, &in, "tailcall needs a named callee");
    CheckCall(b, in);
    if (in.dst >= 0) Fail(b, &in, "tailcall has no result of its own: the callee's is returned");
    if (in.args.size() > 8) Fail(b, &in, "tailcall takes at most 8 arguments");
    for (const Operand& a : in.args) {
      if (a.is_vreg() && IsFloat(f_.TypeOf(a.vreg)))
        Fail(b, &in, "tailcall arguments are integers");
    }
    if (f_.ret && IsFloat(*f_.ret)) Fail(b, &in, "tailcall in a function returning f64");
  }

  void CheckPad(int b, const Instr& in) const {
    CheckArgs(b, in, 0);
    if (in.count < 0 || in.count > (1 << 24)) Fail(b, &in, "pad count out of range");
  }

  void CheckBranch(int b, const Instr& in) const {
    CheckTarget(b, in, in.targets[0]);
    CheckTarget(b, in, in.targets[1]);
    if (in.br_on_value) {
      CheckArgs(b, in, 1);
      if (!in.args[0].is_vreg() || !IsInt(CheckVReg(b, &in, in.args[0].vreg))) {
        Fail(b, &in, "branch condition must be an integer register");
      }
    } else if (in.args.size() == 4) {
      if (!IsInt(in.cmp_type)) Fail(b, &in, "a branch on either of two compares takes integers");
      if (TypeBits(in.cmp_type2) < 32 || !IsInt(in.cmp_type2)) {
        Fail(b, &in, "the second compare of an either branch takes i32, i64 or ptr operands");
      }
      CheckCompareOperands(b, in);
      CheckValue(b, in, in.args[2], in.cmp_type2);
      CheckValue(b, in, in.args[3], in.cmp_type2);
    } else {
      CheckArgs(b, in, 2);
      CheckCompareOperands(b, in);
    }
  }

  void CheckReturn(int b, const Instr& in) const {
    if (f_.ret) {
      CheckArgs(b, in, 1);
      CheckValue(b, in, in.args[0], *f_.ret);
    } else {
      CheckArgs(b, in, 0);
    }
  }

  const Function& f_;
};

}  // namespace

void Verify(const Function& f) { Verifier(f).Run(); }

}  // namespace a64jit::lir
