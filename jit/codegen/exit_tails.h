// Exits that share the stores before them. An exit to the interpreter is a cold block that
// stores the stack's values into the frame and returns its deopt code, which code generation
// makes one `bl` to the function's exit block (the bl's offset names the exit,
// codegen.h ExitByCall). Many exits store the same registers into the same frame slots:
// every exit of `s += math.sqrt(x)` stores `s`'s register, and the exits of one statement
// store the same stack. Blocks whose stores are the same (same registers, same base, same
// displacements, after register allocation) share one tail: each is `bl tail`, and the
// tail is the stores and `b` to the exit block, so that the return address still names the
// exit.
//
// A block takes a tail when it is 64-bit stores of registers (or of zero) at a register base
// and then `ret` of a code the exit block can stand for, and only when the sharing saves
// instructions: n blocks of s stores took n * (s + 1), and take n + s + 1.
#ifndef A64JIT_JIT_CODEGEN_EXIT_TAILS_H_
#define A64JIT_JIT_CODEGEN_EXIT_TAILS_H_

#include <cstdint>
#include <vector>

#include "jit/lir/lir.h"
#include "jit/lir/regalloc.h"

namespace a64jit::codegen {

struct ExitTails {
  std::vector<int> tail_of_block;  // per block: the tail it calls, or -1
  std::vector<int> first_block;    // per tail: a block whose stores the tail emits
};

// `exit_code_limit` is CompileOptions::exit_code_limit (0: no exit is a bl, so no tails).
ExitTails FindExitTails(const lir::Function& f, const lir::Allocation& allocation,
                        uint64_t exit_code_limit);

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_EXIT_TAILS_H_
