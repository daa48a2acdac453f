#include "jit/hir/hir.h"

#include <algorithm>

namespace a64jit::hir {

int Function::StackReg(int depth) {
  while (static_cast<int>(stack_regs.size()) <= depth) {
    stack_regs.push_back(NewReg(ValueType::kObject));
  }
  return stack_regs[static_cast<size_t>(depth)];
}

bool Function::IsStackReg(int reg) const {
  return std::find(stack_regs.begin(), stack_regs.end(), reg) != stack_regs.end();
}

std::vector<int> Function::DefinitionCounts() const {
  std::vector<int> counts(reg_types.size(), 0);
  for (const Block& b : blocks) {
    for (const Instr& in : b.instrs) {
      for (int d : {in.dst, in.dst2}) {
        if (d >= 0) counts.at(static_cast<size_t>(d))++;
      }
    }
  }
  return counts;
}

std::vector<int> Function::UseCounts() const {
  std::vector<int> counts(reg_types.size(), 0);
  for (const Block& b : blocks) {
    for (const Instr& in : b.instrs) {
      in.ForEachRead([&](int r) {
        if (r >= 0) counts.at(static_cast<size_t>(r))++;
      });
    }
  }
  return counts;
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

// The op's immediate as its row in ops.h says to read it.
std::string Immediate(const Function& f, const Instr& in) {
  const CodeInfo& c = f.code;
  const std::string n = std::to_string(in.imm);
  const auto word = [&](bool set, const char* w) { return std::string(set ? w : ""); };
  switch (InfoOf(in.op).imm) {
    case ImmKind::kNone:
      return "";
    case ImmKind::kLocal:
      return n + " (" + Quote(c.localsplus_names, in.imm) + ")" +
             word(in.op == Op::kLoadLocal && in.checked, " checked") +
             word(in.op == Op::kStoreLocal && in.bound, " bound");
    case ImmKind::kName:
      return "'" + Quote(c.names, in.imm) + "'";
    case ImmKind::kNumber:
      return n;
    case ImmKind::kResumeUnit:
      return "@" + std::to_string(in.imm * 2);
    case ImmKind::kConst:
      return n + " (" + Quote(c.const_reprs, in.imm) + ")";
    case ImmKind::kArgc:
      return "argc=" + n + (in.kwnames >= 0 ? " kwnames=" + Quote(c.const_reprs, in.kwnames) : "");
    case ImmKind::kNb:
      return "nb=" + n;
    case ImmKind::kCompare:
      return in.imm >= 0 && in.imm < 6 ? kCompareNames[in.imm] : "?";
    case ImmKind::kUnary:
      return in.imm >= 0 && in.imm < 3 ? kUnaryNames[in.imm] : "?";
    case ImmKind::kKeys:
      return "keys=" + Quote(c.const_reprs, in.keys_const);
    case ImmKind::kAsync:
      return word(in.imm != 0, "async");
    case ImmKind::kEntry:
      return word(in.imm == 1, "entry");
    case ImmKind::kReraised:
      return word(in.imm != 0, "reraised");
    case ImmKind::kInverted:
      return word(in.imm != 0, "inverted");
  }
  return "";
}

}  // namespace

bool WritesLocal(const Instr& in, int64_t local) {
  const bool writer =
      in.op == Op::kStoreLocal || in.op == Op::kMakeCell || in.op == Op::kDeleteLocal;
  return (writer && in.imm == local) || in.op == Op::kCopyFreeVars;
}

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
      if (in.feedback != Feedback::kNone)
        line += std::string(" [") + FeedbackName(in.feedback) + "]";
      if (in.op == Op::kJump) line += " bb" + std::to_string(in.targets[0]);
      if (in.op == Op::kBranch) {
        line += " -> bb" + std::to_string(in.targets[0]) + ", bb" + std::to_string(in.targets[1]);
      }
      if (in.has_state) {
        const FrameState& st = in.state;
        line += "  {";
        // An error raises at its instruction; a resume names where the interpreter goes on.
        const bool error = st.kind == FrameState::Kind::kError;
        if (st.kind == FrameState::Kind::kRaised) {
          line += "raised";
        } else if (st.kind == FrameState::Kind::kReraise) {
          line += "reraise @" + std::to_string(st.bc * 2);
        } else {
          line += error ? "error @" : "resume @";
          line += std::to_string((error ? st.bc : st.resume_unit) * 2);
        }
        if (st.catch_block >= 0) line += " catch bb" + std::to_string(st.catch_block);
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
