// Linear-scan register allocation over LIR virtual registers.
//
// Each virtual register gets one live interval: the positions where it is live, as sorted
// ranges with holes between them (a value used only on a cold path placed at the end of the
// function is not live across the hot code in between). It then gets either a machine
// register or a spill slot for its whole life; two intervals share a register only when
// their ranges do not overlap, so another value may use the register in a hole. An interval
// live across a call gets only a callee-saved register (or is spilled), so calls never
// clobber a live value. The registers in RegisterFile are the only ones handed out: the
// code generator's scratch registers are simply not listed there.
#ifndef A64JIT_JIT_LIR_REGALLOC_H_
#define A64JIT_JIT_LIR_REGALLOC_H_

#include <cstdint>
#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::lir {

// Allocatable registers by class, in order of preference.
struct RegisterFile {
  std::vector<int> gp_caller_saved, gp_callee_saved;
  std::vector<int> fp_caller_saved, fp_callee_saved;
  // The calling convention's argument registers, in order, and the result registers: a value
  // whose life ends as a call argument, or starts as a call result, prefers that register
  // when it is free and caller-saved (no move before or after the call).
  std::vector<int> gp_args, fp_args;
  int gp_result = -1, fp_result = -1;
};

struct Location {
  enum class Kind : uint8_t { kNone, kReg, kSpill } kind = Kind::kNone;
  int index = -1;  // register number, or spill slot number
  bool is_reg() const { return kind == Kind::kReg; }
  bool is_spill() const { return kind == Kind::kSpill; }
};

struct Allocation {
  std::vector<Location> where;            // per virtual register
  int spill_slots = 0;                    // 8 bytes each
  std::vector<int> used_gp_callee_saved;  // to save in the prologue, ascending
  std::vector<int> used_fp_callee_saved;
  std::vector<bool> crosses_call;  // per virtual register (for tests and dumps)
};

Allocation AllocateRegisters(const Function& f, const RegisterFile& regs);

// Number of positions: instruction k (in block order) uses at 2k and defines at 2k+1.
struct LiveRange {
  int start, end;  // inclusive positions; start == -1 for parameters
};
struct LiveInterval {
  int vreg;
  int start, end;                    // the first and last live position
  SmallVector<LiveRange, 4> ranges;  // ascending, disjoint, not adjacent; within [start, end]
  bool Overlaps(const LiveInterval& other) const;
};
// How liveness across blocks is found (regalloc.cc): bit sets per block iterated to a fixed
// point, or one vreg at a time through predecessors. kAuto takes the bit sets for at most
// 256 vregs that cross blocks. Both give the same intervals; tests compare them.
enum class Liveness { kAuto, kDense, kSparse };
std::vector<LiveInterval> ComputeLiveIntervals(const Function& f, Liveness how = Liveness::kAuto);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_REGALLOC_H_
