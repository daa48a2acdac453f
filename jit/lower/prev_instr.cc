#include "jit/lower/prev_instr.h"

#include <utility>
#include <vector>

#include "jit/lir/cfg.h"

namespace a64jit::lower {

namespace {

using lir::Instr;
using lir::Op;
using lir::Operand;

constexpr int64_t kUnknown = -1;  // prev_instr is at a unit not known here
constexpr int64_t kNoPath = -2;   // no path reaches here (yet)

int64_t Meet(int64_t a, int64_t b) {
  if (a == kNoPath) return b;
  if (b == kNoPath) return a;
  return a == b ? a : kUnknown;
}

// The ops that say where prev_instr is: the two notes, and release_at.
bool TouchesPrevInstr(Op op) {
  return op == Op::kSetPrevInstr || op == Op::kPrevInstrIs || op == Op::kReleaseAt;
}

// The unit `in` leaves prev_instr at, given `state` before it.
int64_t After(const Instr& in, int64_t state) {
  switch (in.op) {
    case Op::kSetPrevInstr:
      return in.args[2].imm;
    case Op::kPrevInstrIs:
      return in.args[0].imm;
    case Op::kReleaseAt:
      return in.args[2].imm >= 0 ? in.args[2].imm : state;
    default:
      return state;
  }
}

// The unit prev_instr holds on entry to each block: a block passes on what it sets itself
// (`own`), else what it was given. A worklist of the blocks whose entry changed; an entry
// only goes down (no path, a unit, unknown), so each block is taken at most three times.
std::vector<int64_t> StatesOnEntry(const lir::Function& f, const std::vector<int64_t>& own) {
  const size_t n = f.blocks.size();
  std::vector<int64_t> in(n, kNoPath);
  std::vector<uint8_t> queued(n, 0);
  std::vector<int> work = {0};
  in[0] = kUnknown;
  queued[0] = 1;
  while (!work.empty()) {
    const auto b = static_cast<size_t>(work.back());
    work.pop_back();
    queued[b] = 0;
    const int64_t out = own[b] != kNoPath ? own[b] : in[b];
    const lir::Successors next(f.blocks[b].instrs.back());
    for (int k = 0; k < next.count; k++) {
      const auto s = static_cast<size_t>(next.targets[k]);
      const int64_t met = Meet(in[s], out);
      if (met == in[s]) continue;
      in[s] = met;
      if (!std::exchange(queued[s], 1)) work.push_back(static_cast<int>(s));
    }
  }
  return in;
}

// One block's notes resolved in place, from `state` on entry. A set_prev_instr kept becomes
// the store; one dropped takes the add that made its address (just before it) along.
void ResolveBlock(lir::Block& block, int64_t state, int64_t offset) {
  lir::InstrList& instrs = block.instrs;
  size_t out = 0;
  for (size_t i = 0; i < instrs.size(); i++) {
    Instr& in = instrs[i];
    const int64_t next = After(in, state);
    if (in.op == Op::kSetPrevInstr) {
      const int64_t unit = in.args[2].imm;
      if (unit == state) {
        if (unit > 0) out--;  // the add
        state = next;
        continue;
      }
      const Operand frame = in.args[0], address = in.args[1];
      in.op = Op::kStore;
      in.store_type = lir::Type::kPtr;
      in.base = frame;
      in.disp = offset;
      in.args = {address};
    } else if (in.op == Op::kPrevInstrIs) {
      state = next;
      continue;
    } else if (in.op == Op::kReleaseAt && in.args[2].imm == state) {
      in.args[2] = Operand::Imm(-1);
    }
    state = next;
    if (out != i) instrs[out] = std::move(in);
    out++;
  }
  instrs.resize(out);
}

}  // namespace

void ResolvePrevInstr(lir::Function& f, int64_t prev_instr_offset,
                      const std::vector<int>& noted_blocks) {
  std::vector<int64_t> own(f.blocks.size(), kNoPath);
  for (int b : noted_blocks) {
    int64_t& state = own[static_cast<size_t>(b)];
    for (const Instr& in : f.blocks[static_cast<size_t>(b)].instrs) state = After(in, state);
  }
  const std::vector<int64_t> entry = StatesOnEntry(f, own);
  for (int b : noted_blocks) {
    ResolveBlock(f.blocks[static_cast<size_t>(b)], entry[static_cast<size_t>(b)],
                 prev_instr_offset);
  }
}

void ResolvePrevInstr(lir::Function& f, int64_t prev_instr_offset) {
  std::vector<int> noted;
  for (size_t b = 0; b < f.blocks.size(); b++) {
    for (const Instr& in : f.blocks[b].instrs) {
      if (TouchesPrevInstr(in.op)) {
        noted.push_back(static_cast<int>(b));
        break;
      }
    }
  }
  ResolvePrevInstr(f, prev_instr_offset, noted);
}

}  // namespace a64jit::lower
