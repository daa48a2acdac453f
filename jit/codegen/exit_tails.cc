#include "jit/codegen/exit_tails.h"

#include <map>

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

// Whether `code` is one the exit block can stand for (codegen.cc EmitExitByCall; that also
// needs the bl's offset below the limit, which is known only when it is emitted).
bool ExitCode(int64_t code, uint64_t limit) {
  const uint64_t c = static_cast<uint64_t>(code);
  const uint64_t kind = c & kExitByOffset;
  return c < limit && kind != 0 && kind != kExitByOffset;
}

// The block's stores as a key ((value register, base register, displacement) each), or
// empty when the block is not stores and an exit.
std::vector<int64_t> StoresOf(const lir::Block& b, const lir::Allocation& a, uint64_t limit) {
  const size_t n = b.instrs.size();
  if (n < 2) return {};
  const lir::Instr& last = b.instrs[n - 1];
  if (last.op != Op::kRet || !last.args[0].is_imm() || !ExitCode(last.args[0].imm, limit)) {
    return {};
  }
  std::vector<int64_t> key;
  for (size_t i = 0; i + 1 < n; i++) {
    const lir::Instr& in = b.instrs[i];
    if (in.op != Op::kStore || lir::IsFloat(in.store_type) || lir::TypeBits(in.store_type) != 64 ||
        !in.base.is_vreg() || in.index.is_vreg()) {
      return {};
    }
    const int value = RegisterOf(in.args[0], a);
    const int base = RegisterOf(in.base, a);
    if (value < 0 || base < 0 || base == 31) return {};
    key.push_back(value);
    key.push_back(base);
    key.push_back(in.disp);
  }
  return key;
}

}  // namespace

ExitTails FindExitTails(const lir::Function& f, const lir::Allocation& allocation,
                        uint64_t exit_code_limit) {
  ExitTails out;
  out.tail_of_block.assign(f.blocks.size(), -1);
  if (exit_code_limit == 0 || !f.ret || lir::IsFloat(*f.ret)) return out;
  struct Group {
    std::vector<int> blocks;
    size_t stores = 0;
  };
  std::map<std::vector<int64_t>, Group> groups;
  for (size_t b = 0; b < f.blocks.size(); b++) {
    std::vector<int64_t> key = StoresOf(f.blocks[b], allocation, exit_code_limit);
    if (key.empty()) continue;
    Group& g = groups[std::move(key)];
    g.blocks.push_back(static_cast<int>(b));
    g.stores = f.blocks[b].instrs.size() - 1;
  }
  for (const auto& [key, g] : groups) {
    if ((g.blocks.size() - 1) * g.stores <= 1) continue;  // n * (s + 1) <= n + s + 1
    const int tail = static_cast<int>(out.first_block.size());
    out.first_block.push_back(g.blocks.front());
    for (int b : g.blocks) out.tail_of_block[static_cast<size_t>(b)] = tail;
  }
  return out;
}

}  // namespace a64jit::codegen
