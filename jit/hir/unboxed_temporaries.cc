#include "jit/hir/unboxed_temporaries.h"

#include <algorithm>

namespace a64jit::hir {

namespace {

int CountIn(const std::vector<int>& regs, int reg) {
  return static_cast<int>(std::count(regs.begin(), regs.end(), reg));
}

// A state between producer and consumer may hold `reg` as NULL: only an error exit whose
// stack above any compiled handler's depth is released.
bool StateMayHoldNull(const Function& f, const FrameState& st, int reg) {
  const auto at = std::find(st.stack.begin(), st.stack.end(), reg);
  if (at == st.stack.end()) return true;
  if (st.kind != FrameState::Kind::kError) return false;
  if (st.catch_block >= 0) {
    const int depth = f.blocks[static_cast<size_t>(st.catch_block)].in_depth;
    return at - st.stack.begin() >= depth;
  }
  return !st.protected_range;  // a handler left to the interpreter: its depth is not known
}

// Whether the temporary `in` defines (at index i of `instrs`) can stay unboxed.
bool Unboxable(const Function& f, const std::vector<Instr>& instrs, size_t i,
               const std::function<bool(const Instr&)>& has_form) {
  const int t = instrs[i].dst;
  size_t consumer = 0;
  for (size_t j = i + 1; j < instrs.size(); j++) {
    const Instr& x = instrs[j];
    const int uses = CountIn(x.args, t);
    if (consumer == 0) {
      if (uses == 0) {
        if (x.has_state && !StateMayHoldNull(f, x.state, t)) return false;
        continue;
      }
      if (uses != 1 || !has_form(x)) return false;
      if (x.has_state && !StateMayHoldNull(f, x.state, t)) return false;
      consumer = j;
      continue;
    }
    // After the consumer: only its release, and no state that still holds it.
    if (uses > 0 && !(x.op == Op::kDecref && uses == 1)) return false;
    if (x.has_state && CountIn(x.state.stack, t) > 0) return false;
  }
  return consumer != 0;
}

}  // namespace

std::set<int> UnboxedTemporaries(const Function& f,
                                 const std::function<bool(const Instr&)>& has_form) {
  const std::vector<int> defs = f.DefinitionCounts();
  std::set<int> out;
  for (const Block& b : f.blocks) {
    for (size_t i = 0; i < b.instrs.size(); i++) {
      const Instr& in = b.instrs[i];
      if (in.op != Op::kBinaryOp || in.dst < 0 || defs.at(static_cast<size_t>(in.dst)) != 1 ||
          f.IsStackReg(in.dst) || !has_form(in)) {
        continue;
      }
      if (Unboxable(f, b.instrs, i, has_form)) out.insert(in.dst);
    }
  }
  return out;
}

}  // namespace a64jit::hir
