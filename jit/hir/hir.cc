#include "jit/hir/hir.h"

#include <algorithm>

namespace a64jit::hir {

const char* OpName(Op op) {
  switch (op) {
    case Op::kLoadLocal:
      return "LoadLocal";
    case Op::kStoreLocal:
      return "StoreLocal";
    case Op::kLoadConst:
      return "LoadConst";
    case Op::kLoadNull:
      return "LoadNull";
    case Op::kLoadGlobal:
      return "LoadGlobal";
    case Op::kLoadAttr:
      return "LoadAttr";
    case Op::kStoreAttr:
      return "StoreAttr";
    case Op::kLoadMethod:
      return "LoadMethod";
    case Op::kCall:
      return "Call";
    case Op::kBinaryOp:
      return "BinaryOp";
    case Op::kCompareOp:
      return "CompareOp";
    case Op::kUnaryOp:
      return "UnaryOp";
    case Op::kGetItem:
      return "GetItem";
    case Op::kSetItem:
      return "SetItem";
    case Op::kContains:
      return "Contains";
    case Op::kBuildList:
      return "BuildList";
    case Op::kBuildTuple:
      return "BuildTuple";
    case Op::kBuildMap:
      return "BuildMap";
    case Op::kBuildConstKeyMap:
      return "BuildConstKeyMap";
    case Op::kBuildString:
      return "BuildString";
    case Op::kBuildSlice:
      return "BuildSlice";
    case Op::kFormatValue:
      return "FormatValue";
    case Op::kListAppend:
      return "ListAppend";
    case Op::kMakeFunction:
      return "MakeFunction";
    case Op::kListExtend:
      return "ListExtend";
    case Op::kUnpackSequence:
      return "UnpackSequence";
    case Op::kScratchLoad:
      return "ScratchLoad";
    case Op::kGetIter:
      return "GetIter";
    case Op::kForIter:
      return "ForIter";
    case Op::kIsTrue:
      return "IsTrue";
    case Op::kCompareBool:
      return "CompareBool";
    case Op::kIsSame:
      return "IsSame";
    case Op::kIsNone:
      return "IsNone";
    case Op::kIsNull:
      return "IsNull";
    case Op::kBoolFromCInt:
      return "BoolFromCInt";
    case Op::kMov:
      return "Mov";
    case Op::kDup:
      return "Dup";
    case Op::kIncref:
      return "Incref";
    case Op::kDecref:
      return "Decref";
    case Op::kXDecref:
      return "XDecref";
    case Op::kJump:
      return "Jump";
    case Op::kBranch:
      return "Branch";
    case Op::kReturn:
      return "Return";
    case Op::kDeopt:
      return "Deopt";
  }
  return "?";
}

bool IsTerminator(Op op) {
  return op == Op::kJump || op == Op::kBranch || op == Op::kReturn || op == Op::kDeopt;
}

int Function::StackReg(int depth) {
  while (static_cast<int>(stack_regs.size()) <= depth) {
    stack_regs.push_back(NewReg(ValueType::kObject));
  }
  return stack_regs[static_cast<size_t>(depth)];
}

bool Function::IsStackReg(int reg) const {
  return std::find(stack_regs.begin(), stack_regs.end(), reg) != stack_regs.end();
}

size_t Function::InstrCount() const {
  size_t n = 0;
  for (const Block& b : blocks) n += b.instrs.size();
  return n;
}

namespace {

std::string RegName(const Function& f, int reg) {
  for (size_t k = 0; k < f.stack_regs.size(); k++) {
    if (f.stack_regs[k] == reg) return "s" + std::to_string(k);
  }
  return "%" + std::to_string(reg);
}

std::string Quote(const std::vector<std::string>& table, int64_t index) {
  if (index < 0 || index >= static_cast<int64_t>(table.size())) return "?";
  return table[static_cast<size_t>(index)];
}

const char* kCompareNames[] = {"<", "<=", "==", "!=", ">", ">="};
const char* kUnaryNames[] = {"-", "+", "~"};

std::string Immediate(const Function& f, const Instr& in) {
  const CodeInfo& c = f.code;
  switch (in.op) {
    case Op::kLoadLocal:
      return std::to_string(in.imm) + " (" + Quote(c.localsplus_names, in.imm) + ")" +
             (in.imm2 != 0 ? " checked" : "");
    case Op::kStoreLocal:
      return std::to_string(in.imm) + " (" + Quote(c.localsplus_names, in.imm) + ")";
    case Op::kLoadConst:
      return std::to_string(in.imm) + " (" + Quote(c.const_reprs, in.imm) + ")";
    case Op::kLoadGlobal:
    case Op::kLoadAttr:
    case Op::kStoreAttr:
    case Op::kLoadMethod:
      return "'" + Quote(c.names, in.imm) + "'";
    case Op::kCall:
      return "argc=" + std::to_string(in.imm) +
             (in.imm2 >= 0 ? " kwnames=" + Quote(c.const_reprs, in.imm2) : "");
    case Op::kBinaryOp:
      return "nb=" + std::to_string(in.imm);
    case Op::kCompareOp:
    case Op::kCompareBool:
      return in.imm >= 0 && in.imm < 6 ? kCompareNames[in.imm] : "?";
    case Op::kUnaryOp:
      return in.imm >= 0 && in.imm < 3 ? kUnaryNames[in.imm] : "?";
    case Op::kBoolFromCInt:
      return in.imm != 0 ? "inverted" : "";
    case Op::kBuildConstKeyMap:
      return "keys=" + Quote(c.const_reprs, in.imm2);
    case Op::kFormatValue:
    case Op::kUnpackSequence:
    case Op::kScratchLoad:
      return std::to_string(in.imm);
    default:
      return "";
  }
}

}  // namespace

std::string Print(const Function& f) {
  std::string s = "function " + f.code.module + ":" + f.code.qualname + " (locals " +
                  std::to_string(f.code.nlocalsplus) + ", args " + std::to_string(f.code.nargs) +
                  ")\n";
  for (size_t b = 0; b < f.blocks.size(); b++) {
    const Block& block = f.blocks[b];
    s += "bb" + std::to_string(b) + " (in " + std::to_string(block.in_depth) + ", out " +
         std::to_string(block.out_depth);
    if (block.bc_start >= 0) s += ", @" + std::to_string(block.bc_start * 2);
    s += "):\n";
    for (const Instr& in : block.instrs) {
      std::string line = "  ";
      if (in.dst >= 0) {
        line += RegName(f, in.dst);
        if (f.reg_types[static_cast<size_t>(in.dst)] == ValueType::kCInt) line += ":cint";
        if (in.dst2 >= 0) line += ", " + RegName(f, in.dst2);
        line += " = ";
      }
      line += OpName(in.op);
      std::string operands;
      for (int a : in.args) operands += (operands.empty() ? " " : ", ") + RegName(f, a);
      line += operands;
      std::string imm = Immediate(f, in);
      if (!imm.empty()) line += (operands.empty() ? " " : ", ") + imm;
      if (in.op == Op::kJump) line += " bb" + std::to_string(in.targets[0]);
      if (in.op == Op::kBranch) {
        line += " -> bb" + std::to_string(in.targets[0]) + ", bb" + std::to_string(in.targets[1]);
      }
      if (in.has_state) {
        const FrameState& st = in.state;
        line += "  {";
        line += st.kind == FrameState::Kind::kError ? "error @" : "resume @";
        line += std::to_string(st.bc * 2);
        line += " [";
        for (size_t i = 0; i < st.stack.size(); i++) {
          if (i > 0) line += ", ";
          line += RegName(f, st.stack[i]);
          if (i < st.borrowed.size() && st.borrowed[i]) line += " borrowed";
        }
        line += "]}";
      }
      s += line + "\n";
    }
  }
  return s;
}

}  // namespace a64jit::hir
