#include "jit/codegen/sp_addresses.h"

#include "jit/codegen/into_local_stub.h"
#include "jit/codegen/release_stubs.h"

namespace a64jit::codegen {

namespace {

// Whether `in` may read a slot address `v` in any of its operands without `v` in a register.
bool ReadsAsSpAddress(const lir::Instr& in, int v) {
  switch (in.op) {
    case lir::Op::kLoad:
      return !in.index.is_vreg();  // so `v` is the base
    case lir::Op::kStore:
      return !in.index.is_vreg() && !(in.args[0].is_vreg() && in.args[0].vreg == v);
    case lir::Op::kCall:
    case lir::Op::kTailCall:
      return !in.callee.empty() && in.callee != kDeallocAtName && in.callee != kIntoLocalName;
    default:
      return false;
  }
}

}  // namespace

std::vector<int> FindSpAddresses(const lir::Function& f) {
  const size_t n = f.vreg_types.size();
  std::vector<int> slot(n, -1);
  std::vector<int> defs(n, 0);
  std::vector<bool> other_use(n, false);
  for (int p : f.params) defs[static_cast<size_t>(p)] += 2;  // never a slot's address
  for (const lir::Block& b : f.blocks) {
    for (const lir::Instr& in : b.instrs) {
      ForEachUse(in, [&](int u) {
        if (!other_use[static_cast<size_t>(u)] && !ReadsAsSpAddress(in, u)) {
          other_use[static_cast<size_t>(u)] = true;
        }
      });
      if (in.dst < 0) continue;
      const auto d = static_cast<size_t>(in.dst);
      defs[d]++;
      if (in.op == lir::Op::kSlotAddr) slot[d] = in.slot;
    }
  }
  for (size_t v = 0; v < n; v++) {
    if (defs[v] != 1 || other_use[v]) slot[v] = -1;
  }
  return slot;
}

}  // namespace a64jit::codegen
