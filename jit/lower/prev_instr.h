// ResolvePrevInstr: the frame's prev_instr, kept as a pass over lowering's output.
//
// prev_instr names the instruction a frame is at; tracebacks, frame objects (f_lineno) and
// the interpreter read it. Stock writes it before every instruction. Compiled code writes it
// only before something can read it (a call, a release that may run __del__, an exit), and
// not when it already holds that instruction on every path there.
//
// Lowering marks, and does not track:
//   `set_prev_instr %frame, %address, unit`: prev_instr must name the instruction at `unit`
//     here; %address is first_instr for unit 0, else made by the add just before the note;
//   `prev_instr_is unit`: a helper left it at `unit` (-1: at an instruction not known here);
//   `release_at ..., unit`: a release that sets it to `unit` (-1: leaves it).
// The pass finds, forward over the control-flow graph, the unit prev_instr holds at each
// point (the same on every path into a block, or unknown; unknown on entry), then, in place:
//   - a set_prev_instr of the unit it already holds goes, with its add; each other becomes
//     the store;
//   - a release_at at the unit it already holds gets -1 (nothing to store);
//   - the notes go.
// The registers of the adds that went stay unused.
#ifndef A64JIT_JIT_LOWER_PREV_INSTR_H_
#define A64JIT_JIT_LOWER_PREV_INSTR_H_

#include <cstdint>
#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::lower {

// `prev_instr_offset`: offsetof(_PyInterpreterFrame, prev_instr).
void ResolvePrevInstr(lir::Function& f, int64_t prev_instr_offset);
// The same, told which blocks hold notes or release_ats (each once), so that it reads only
// those (lowering knows them as it emits).
void ResolvePrevInstr(lir::Function& f, int64_t prev_instr_offset,
                      const std::vector<int>& noted_blocks);

}  // namespace a64jit::lower

#endif  // A64JIT_JIT_LOWER_PREV_INSTR_H_
