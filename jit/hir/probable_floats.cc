#include "jit/hir/probable_floats.h"

#include <map>
#include <vector>

namespace a64jit::hir {

namespace {

// The registers that are probably floats when the locals in `locals` are.
std::set<int> GuessRegisters(const Function& f, const std::vector<int>& defs,
                             const std::set<int64_t>& locals,
                             const std::function<bool(int64_t)>& is_float_const,
                             const std::function<bool(int64_t)>& has_float_form) {
  std::set<int> out;
  const auto probable = [&](int reg) { return out.count(reg) != 0; };
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (in.dst < 0 || defs.at(static_cast<size_t>(in.dst)) != 1) continue;
      const bool guess = (in.op == Op::kLoadConst && is_float_const(in.imm)) ||
                         (in.op == Op::kLoadLocal && locals.count(in.imm) != 0) ||
                         (in.op == Op::kBinaryOp && has_float_form(in.imm) &&
                          (probable(in.args[0]) || probable(in.args[1])));
      if (guess) out.insert(in.dst);
    }
  }
  return out;
}

}  // namespace

std::set<int> ProbableFloats(const Function& f, const std::function<bool(int64_t)>& is_float_const,
                             const std::function<bool(int64_t)>& has_float_form) {
  const std::vector<int> defs = f.DefinitionCounts();
  // What each local is assigned; arguments come bound from the caller, unknown.
  std::map<int64_t, std::vector<int>> stored;
  for (const Block& b : f.blocks) {
    for (const Instr& in : b.instrs) {
      if (Unfused(in.op) == Op::kStoreLocal && in.imm >= f.code.nargs)
        stored[in.imm].push_back(in.args[0]);
    }
  }
  // The largest set of locals consistent with the guess: start from all of them and drop a
  // local while one of its stored values is not probably a float (loops store back what
  // they computed from the local itself).
  std::set<int64_t> locals;
  for (const auto& [local, values] : stored) locals.insert(local);
  while (true) {
    const std::set<int> regs = GuessRegisters(f, defs, locals, is_float_const, has_float_form);
    bool changed = false;
    for (auto it = locals.begin(); it != locals.end();) {
      bool all = true;
      for (int v : stored[*it]) all = all && regs.count(v) != 0;
      if (all) {
        ++it;
      } else {
        it = locals.erase(it);
        changed = true;
      }
    }
    if (!changed) return regs;
  }
}

}  // namespace a64jit::hir
