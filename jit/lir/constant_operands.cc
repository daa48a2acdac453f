#include "jit/lir/constant_operands.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace a64jit::lir {
namespace {

// Per vreg: how many instructions define and read it, the last definition, and where the
// last read is when it is a value operand (`args`); a read as an address's base or index
// counts twice, so that such a vreg is never folded.
struct VRegUse {
  Instr* def = nullptr;
  Instr* user = nullptr;
  uint32_t arg = 0;
  uint32_t def_block = 0;
  uint16_t defs = 0, reads = 0;
  bool zero_everywhere = true;  // every read could be a zero: an immediate or a store's value
  bool zero_defs = true;        // every definition is `mov 0`
  uint32_t first_block = UINT32_MAX, last_block = 0;  // where it is defined or read
  void Seen(uint32_t b) {
    first_block = std::min(first_block, b);
    last_block = std::max(last_block, b);
  }
};

// Whether args[0] of `in` must be a register. The verifier's rules (lir.cc, which checks the
// result in builds with assertions): conversions, a select's condition and a branch on a value
// (`br %c`) read a register; every other value operand takes an immediate.
bool FirstNeedsRegister(const Instr& in) {
  switch (in.op) {
    case Op::kSExt:
    case Op::kZExt:
    case Op::kTrunc:
    case Op::kSIToF:
    case Op::kFToSI:
    case Op::kSelect:
      return true;
    case Op::kBr:
      return in.br_on_value;
    default:
      return false;
  }
}

// Whether args[arg] of `in` may be an immediate instead of a register. A store's value is not
// folded: it is stored from a register anyway, and a store paired with its neighbour as an
// stp needs it there (codegen/emit_memory.cc EmitStorePair). A zero is the exception
// (ZeroEverywhere).
bool TakesImmediate(const Instr& in, size_t arg) {
  if (arg >= in.args.size() || in.op == Op::kStore) return false;
  return arg != 0 || !FirstNeedsRegister(in);
}

std::vector<VRegUse> FindUses(Function& f) {
  std::vector<VRegUse> uses(f.vreg_types.size());
  for (uint32_t b = 0; b < f.blocks.size(); b++) {
    for (Instr& in : f.blocks[b].instrs) {
      for (uint32_t a = 0; a < in.args.size(); a++) {
        if (!in.args[a].is_vreg()) continue;
        VRegUse& u = uses[static_cast<size_t>(in.args[a].vreg)];
        u.reads++;
        u.user = &in;
        u.arg = a;
        // A zero can be any value operand but a register-first one (a store's value is
        // xzr). Followed only while the vreg may still be one (its definitions seen so far
        // are `mov 0`): a walk over every operand.
        if (u.zero_everywhere && u.zero_defs) {
          u.zero_everywhere = a != 0 || !FirstNeedsRegister(in);
          u.Seen(b);
        }
      }
      if (in.base.is_vreg()) {
        uses[static_cast<size_t>(in.base.vreg)].reads += 2;
        uses[static_cast<size_t>(in.base.vreg)].zero_everywhere = false;
      }
      if (in.index.is_vreg()) {
        uses[static_cast<size_t>(in.index.vreg)].reads += 2;
        uses[static_cast<size_t>(in.index.vreg)].zero_everywhere = false;
      }
      if (in.dst < 0) continue;
      VRegUse& u = uses[static_cast<size_t>(in.dst)];
      u.defs++;
      u.def = &in;
      u.def_block = b;
      if (u.zero_defs) {
        u.zero_defs = in.op == Op::kMov && in.args[0].is_imm() && in.args[0].imm == 0;
        u.Seen(b);
      }
    }
  }
  for (int p : f.params) {  // defined on entry
    uses[static_cast<size_t>(p)].defs++;
    uses[static_cast<size_t>(p)].zero_defs = false;
  }
  return uses;
}

// A zero (every definition `mov 0`, however many) read only where a zero can be an operand
// (an immediate, or a store's value, which code generation stores from xzr, in an stp too)
// costs nothing at any of its readers: every read is folded, however many there are. The
// NULL that LOAD_GLOBAL or LOAD_METHOD pushes under a function it calls is one, read by the
// call's argument vector and by the exits' frame stores.
bool ZeroEverywhere(const VRegUse& u) { return u.zero_defs && u.zero_everywhere && u.reads > 0; }

// Replaces every read of a vreg marked in `zeros` with the immediate 0, and marks its
// definitions (dst -1) for removal, and their blocks in `lost_a_move`: one walk over the
// blocks from `first` to `last`, where the zeros are mentioned.
void FoldZeros(Function& f, const std::vector<uint8_t>& zeros, uint32_t first, uint32_t last,
               std::vector<uint8_t>& lost_a_move) {
  for (size_t b = first; b <= last; b++) {
    for (Instr& in : f.blocks[b].instrs) {
      for (Operand& arg : in.args) {
        if (arg.is_vreg() && zeros[static_cast<size_t>(arg.vreg)]) arg = Operand::Imm(0);
      }
      if (in.dst >= 0 && zeros[static_cast<size_t>(in.dst)]) {
        in.dst = -1;
        lost_a_move[b] = 1;
      }
    }
  }
}

}  // namespace

int FoldConstantOperands(Function& f, Decisions* d) {
  const std::vector<VRegUse> uses = FindUses(f);
  // Folded moves are marked (their dst set to -1) and removed after, so that the pointers
  // found above stay valid while folding.
  int folded = 0;
  std::vector<uint8_t> lost_a_move(f.blocks.size(), 0);
  std::vector<uint8_t> zeros;
  uint32_t first = UINT32_MAX, last = 0;  // the blocks that mention a zero folded
  for (size_t v = 0; v < uses.size(); v++) {
    const VRegUse& u = uses[v];
    if (u.def == nullptr || !IsInt(f.TypeOf(static_cast<int>(v)))) continue;  // no def
    if (ZeroEverywhere(u)) {
      if (!Take(d, Decision::kLirConstantOperand)) continue;
      zeros.resize(uses.size(), 0);
      zeros[v] = 1;  // its reads and definitions, in one walk below
      first = std::min(first, u.first_block);
      last = std::max(last, u.last_block);
      folded++;
      continue;
    }
    Instr& def = *u.def;
    if (u.defs != 1 || def.op != Op::kMov || !def.args[0].is_imm()) continue;
    if (u.reads != 1 || !TakesImmediate(*u.user, u.arg)) continue;
    if (!Take(d, Decision::kLirConstantOperand)) continue;
    u.user->args[u.arg] = Operand::Imm(
        static_cast<int64_t>(Truncate(static_cast<uint64_t>(def.args[0].imm), f.TypeOf(def.dst))));
    def.dst = -1;
    lost_a_move[u.def_block] = 1;
    folded++;
  }
  if (folded == 0) return 0;
  if (!zeros.empty()) FoldZeros(f, zeros, first, last, lost_a_move);
  // The folded moves out; a block without one is left as it is (an instruction is 176
  // bytes to move).
  const auto dead = [](const Instr& in) { return in.op == Op::kMov && in.dst < 0; };
  for (size_t b = 0; b < f.blocks.size(); b++) {
    if (!lost_a_move[b]) continue;
    InstrList& instrs = f.blocks[b].instrs;
    instrs.erase(std::remove_if(instrs.begin(), instrs.end(), dead), instrs.end());
  }
  return folded;
}

}  // namespace a64jit::lir
