#include "jit/codegen/sp_addresses.h"

#include <cstdint>

namespace a64jit::codegen {

// One walk: each vreg's definitions are counted and its reads that need a register noted,
// whatever defines it, since a read may come before the definition in block order.
std::vector<int> FindSpAddresses(const lir::Function& f) {
  const size_t n = f.vreg_types.size();
  std::vector<int> slot(n, -1);
  if (f.slots.empty()) return slot;
  std::vector<uint8_t> disqualified(n, 0);  // defined twice, or read from a register
  for (int p : f.params) disqualified[static_cast<size_t>(p)] = 1;
  bool any = false;
  for (const lir::Block& b : f.blocks) {
    for (const lir::Instr& in : b.instrs) {
      const bool args_ok = lir::OpFamilyOf(in.op) == lir::OpFamily::kCall && !in.callee.empty();
      if (!args_ok) {
        for (const lir::Operand& o : in.args) {
          if (o.is_vreg()) disqualified[static_cast<size_t>(o.vreg)] = 1;
        }
      }
      if (in.index.is_vreg()) disqualified[static_cast<size_t>(in.index.vreg)] = 1;
      if (in.base.is_vreg() &&
          (in.index.is_vreg() || (in.op != lir::Op::kLoad && in.op != lir::Op::kStore))) {
        disqualified[static_cast<size_t>(in.base.vreg)] = 1;
      }
      if (in.dst < 0) continue;
      const auto d = static_cast<size_t>(in.dst);
      if (in.op == lir::Op::kSlotAddr && slot[d] == -1) {
        slot[d] = in.slot;
        any = true;
      } else {
        disqualified[d] = 1;
      }
    }
  }
  if (!any) return slot;
  for (size_t v = 0; v < n; v++) {
    if (disqualified[v] != 0) slot[v] = -1;
  }
  return slot;
}

}  // namespace a64jit::codegen
