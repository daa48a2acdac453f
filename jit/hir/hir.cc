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

bool WritesLocal(const Instr& in, int64_t local) {
  const bool writer =
      Unfused(in.op) == Op::kStoreLocal || in.op == Op::kMakeCell || in.op == Op::kDeleteLocal;
  return (writer && in.imm == local) || in.op == Op::kCopyFreeVars;
}

uint8_t GlobalKindOf(const CodeInfo& code, int64_t name) {
  const std::vector<uint8_t>& kinds = code.global_kinds;
  return name >= 0 && static_cast<size_t>(name) < kinds.size() ? kinds[static_cast<size_t>(name)]
                                                               : CodeInfo::kNotGlobal;
}

bool ExpectsModule(const Instr& attr, bool object_held_module) {
  if (attr.feedback != Feedback::kNone) return attr.feedback == Feedback::kModule;
  return object_held_module;
}

bool InGlobals(const CodeInfo& code, const Instr& load_global) {
  if (load_global.feedback != Feedback::kNone) {
    return load_global.feedback == Feedback::kGlobalModule;
  }
  return GlobalKindOf(code, load_global.imm) != CodeInfo::kNotGlobal;
}

namespace {

struct LocalIteratorText {
  CodeInfo::LocalIterator it;
  const char* name;
};
constexpr LocalIteratorText kLocalIteratorNames[] = {
    {CodeInfo::LocalIterator::kNone, ""},
    {CodeInfo::LocalIterator::kEnumerate, "enumerate"},
    {CodeInfo::LocalIterator::kDictItems, "dict_items"},
    {CodeInfo::LocalIterator::kDictKeys, "dict_keys"},
    {CodeInfo::LocalIterator::kDictValues, "dict_values"},
    {CodeInfo::LocalIterator::kZip, "zip"},
};

}  // namespace

const char* LocalIteratorName(CodeInfo::LocalIterator it) {
  for (const LocalIteratorText& t : kLocalIteratorNames) {
    if (t.it == it) return t.name;
  }
  return "";
}

bool LocalIteratorByName(const std::string& name, CodeInfo::LocalIterator* it) {
  for (const LocalIteratorText& t : kLocalIteratorNames) {
    if (!name.empty() && name == t.name) {
      *it = t.it;
      return true;
    }
  }
  return false;
}

}  // namespace a64jit::hir
