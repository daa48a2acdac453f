#include "jit/codegen/exit_tails.h"

#include <algorithm>
#include <utility>

#include "jit/codegen/codegen.h"

namespace a64jit::codegen {
namespace {

using lir::Op;
using lir::Operand;

// The register holding `o`, 31 for the immediate zero (xzr), or -1 when it is neither.
int RegisterOf(const Operand& o, const lir::Allocation& a) {
  if (o.is_imm()) return o.imm == 0 ? 31 : -1;
  const lir::Location& l = a.where[static_cast<size_t>(o.vreg)];
  return l.is_reg() ? l.index : -1;
}

// Whether `in` is a store an exit tail can make, and if so its (value register, base
// register, displacement) in `out`.
struct TailStore {
  int value = -1, base = -1;
  int64_t disp = 0;
  bool operator==(const TailStore& o) const {
    return value == o.value && base == o.base && disp == o.disp;
  }
};
bool TailStoreOf(const lir::Instr& in, const lir::Allocation& a, TailStore* out) {
  if (in.op != Op::kStore || lir::IsFloat(in.store_type) || lir::TypeBits(in.store_type) != 64 ||
      !in.base.is_vreg() || in.index.is_vreg()) {
    return false;
  }
  out->value = RegisterOf(in.args[0], a);
  out->base = RegisterOf(in.base, a);
  out->disp = in.disp;
  return out->value >= 0 && out->base >= 0 && out->base != 31;
}

// Whether block `b` is stores and an exit, and a hash of its stores in `hash`.
bool ExitBlock(const lir::Block& b, const lir::Allocation& a, uint64_t limit, uint64_t* hash) {
  const size_t n = b.instrs.size();
  if (n < 2) return false;
  const lir::Instr& last = b.instrs[n - 1];
  if (last.op != Op::kRet || !last.args[0].is_imm() ||
      !IsExitCode(static_cast<uint64_t>(last.args[0].imm), limit)) {
    return false;
  }
  uint64_t h = 1469598103934665603u;  // FNV-1a over the stores' fields
  const auto mix = [&h](uint64_t v) { h = (h ^ v) * 1099511628211u; };
  for (size_t i = 0; i + 1 < n; i++) {
    TailStore st;
    if (!TailStoreOf(b.instrs[i], a, &st)) return false;
    mix(static_cast<uint64_t>(st.value));
    mix(static_cast<uint64_t>(st.base));
    mix(static_cast<uint64_t>(st.disp));
  }
  *hash = h;
  return true;
}

// Whether two exit blocks (ExitBlock) make the same stores.
bool SameStores(const lir::Block& x, const lir::Block& y, const lir::Allocation& a) {
  if (x.instrs.size() != y.instrs.size()) return false;
  for (size_t i = 0; i + 1 < x.instrs.size(); i++) {
    TailStore sx, sy;
    TailStoreOf(x.instrs[i], a, &sx);
    TailStoreOf(y.instrs[i], a, &sy);
    if (!(sx == sy)) return false;
  }
  return true;
}

}  // namespace

ExitTails FindExitTails(const lir::Function& f, const lir::Allocation& allocation,
                        uint64_t exit_code_limit) {
  ExitTails out;
  out.tail_of_block.assign(f.blocks.size(), -1);
  if (exit_code_limit == 0 || !f.ret || lir::IsFloat(*f.ret)) return out;
  // Exit blocks by the hash of their stores; a run of equal hashes is a group of blocks equal
  // to its first (another block in the run, a hash collision, keeps its own stores).
  std::vector<std::pair<uint64_t, int>> exits;
  for (size_t b = 0; b < f.blocks.size(); b++) {
    uint64_t hash;
    if (ExitBlock(f.blocks[b], allocation, exit_code_limit, &hash)) {
      exits.emplace_back(hash, static_cast<int>(b));
    }
  }
  std::sort(exits.begin(), exits.end());
  std::vector<int> group;
  for (size_t i = 0; i < exits.size();) {
    size_t end = i;
    while (end < exits.size() && exits[end].first == exits[i].first) end++;
    const lir::Block& first = f.blocks[static_cast<size_t>(exits[i].second)];
    group.clear();
    for (size_t k = i; k < end; k++) {
      const int b = exits[k].second;
      if (k == i || SameStores(first, f.blocks[static_cast<size_t>(b)], allocation)) {
        group.push_back(b);
      }
    }
    i = end;
    const size_t stores = first.instrs.size() - 1;
    if ((group.size() - 1) * stores <= 1) continue;  // n * (s + 1) <= n + s + 1
    const int tail = static_cast<int>(out.first_block.size());
    out.first_block.push_back(group.front());
    for (int b : group) out.tail_of_block[static_cast<size_t>(b)] = tail;
  }
  return out;
}

}  // namespace a64jit::codegen
