#include "jit/codegen/constant_registers.h"

#include <algorithm>
#include <utility>

#include "jit/codegen/immediates.h"

namespace a64jit::codegen {

namespace {

// Whether reading `v` as an operand takes a literal load (or a movz/movk sequence).
bool IsWide(int64_t v) {
  const auto u = static_cast<uint64_t>(v);
  // A value whose high half is all zeros or all ones is at most two movz/movn chunks: most
  // operands, rejected without the encoders.
  const uint64_t high = u >> 32;
  if (high == 0 || high == 0xffffffffu) return false;
  return MovSequenceLength(u, 64) > 2 && !IsLogicalImm(u, 64);
}

// The operands of `in` that code generation reads through a register when immediate.
template <typename Fn>
void ForEachRegisterImmediate(const lir::Instr& in, Fn fn) {
  switch (in.op) {
    case lir::Op::kCmp:
    case lir::Op::kBr:
      for (size_t k = 1; k < in.args.size(); k += 2) {
        if (in.args[k].is_imm()) fn(in.args[k].imm);
      }
      return;
    case lir::Op::kStore:
      if (!in.args.empty() && in.args[0].is_imm()) fn(in.args[0].imm);
      return;
    default:
      return;
  }
}

}  // namespace

std::map<uint64_t, int> ChooseConstantRegisters(const lir::Function& f,
                                                const std::vector<int>& used_callee_saved) {
  std::map<uint64_t, int> chosen;
  const auto has_call = [](const lir::Block& b) {
    return std::any_of(b.instrs.begin(), b.instrs.end(),
                       [](const lir::Instr& in) { return lir::IsCall(in.op); });
  };
  if (!std::any_of(f.blocks.begin(), f.blocks.end(), has_call)) return chosen;
  std::map<uint64_t, int> uses;
  for (const lir::Block& b : f.blocks) {
    for (const lir::Instr& in : b.instrs) {
      ForEachRegisterImmediate(in, [&](int64_t v) {
        if (IsWide(v)) uses[static_cast<uint64_t>(v)]++;
      });
    }
  }
  std::vector<std::pair<int, uint64_t>> by_uses;  // (uses, value), most used first
  for (const auto& [v, n] : uses) {
    if (n >= kConstantRegisterMinUses) by_uses.emplace_back(n, v);
  }
  std::sort(by_uses.begin(), by_uses.end(), [](const auto& x, const auto& y) {
    return x.first != y.first ? x.first > y.first : x.second < y.second;
  });
  int reg = 28;
  for (const auto& [n, v] : by_uses) {
    while (reg >= 19 && std::count(used_callee_saved.begin(), used_callee_saved.end(), reg) > 0) {
      reg--;
    }
    if (reg < 19 || static_cast<int>(chosen.size()) == kMaxConstantRegisters) break;
    chosen[v] = reg--;
  }
  return chosen;
}

}  // namespace a64jit::codegen
