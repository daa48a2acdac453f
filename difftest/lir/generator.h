// Random valid LIR programs for differential fuzzing. Every program terminates, touches
// only its memory buffer and its own stack slots, and never lets an address flow into a
// result, so the interpreter and the emitted code must agree bit for bit.
//
// What they stress: all integer widths with garbage above narrow values; immediates at
// encoding boundaries (4095/4096, 0xfff000, valid and near-miss logical masks, +-2^k+-1);
// enough simultaneously live values to force spills; frames over 4 KiB and over 32 KiB;
// loads/stores with every addressing form and offsets beyond the immediate ranges; calls
// with 8+8 register arguments and with stack arguments (an LIR callee taking 12 integers
// and 10 doubles); loops, diamonds and values carried around them; and, rarely, more than
// 1 MiB of padding so conditional branches and literal loads need their long forms.
#ifndef A64JIT_DIFFTEST_LIR_GENERATOR_H_
#define A64JIT_DIFFTEST_LIR_GENERATOR_H_

#include <cstdint>

#include "difftest/lir/lir_diff.h"
#include "jit/lir/lir.h"

namespace a64jit::difftest {

struct GenOptions {
  int statements = 40;           // top-level statements (regions nest inside)
  double p_big_frame = 0.15;     // a stack slot over 4 KiB
  double p_huge_frame = 0.05;    // a stack slot over 32 KiB
  double p_long_branch = 0.003;  // > 1 MiB of padding inside a branch arm
  double p_early_return = 0.15;  // a branch arm that returns instead of rejoining
  double p_many_args = 0.3;      // define and call @many (stack arguments)
};

struct GeneratedProgram {
  lir::Module module;
  DiffInput input;
};

GeneratedProgram GenerateProgram(uint64_t seed, const GenOptions& options = {});

}  // namespace a64jit::difftest

#endif  // A64JIT_DIFFTEST_LIR_GENERATOR_H_
