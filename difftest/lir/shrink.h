// Shrinks a failing LIR module to a small reproducer: repeatedly replaces instructions by
// `mov %d, 0`, deletes instructions whose results are unused, and turns conditional
// branches into jumps, keeping each change only if the module still verifies and still
// fails.
#ifndef A64JIT_DIFFTEST_LIR_SHRINK_H_
#define A64JIT_DIFFTEST_LIR_SHRINK_H_

#include <functional>

#include "jit/lir/lir.h"

namespace a64jit::difftest {

lir::Module Shrink(lir::Module module, const std::string& function,
                   const std::function<bool(const lir::Module&)>& still_fails,
                   int max_attempts = 5000);

}  // namespace a64jit::difftest

#endif  // A64JIT_DIFFTEST_LIR_SHRINK_H_
