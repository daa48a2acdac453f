// Where a function loops: the code units each back edge spans, and whether it calls itself
// by name. Lowering puts the sites of code that runs repeatedly inline and leaves the others
// to shared stubs (site_stubs.h), so a loop's body is judged hot before anything has run.
#ifndef A64JIT_JIT_HIR_LOOPS_H_
#define A64JIT_JIT_HIR_LOOPS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "jit/hir/hir.h"

namespace a64jit::hir {

struct Loops {
  std::vector<std::pair<int64_t, int64_t>> spans;  // [first code unit, backward jump's unit]
  bool recursive = false;  // the function loads its own name as a global (`fib(n - 1)`)
  // Whether the instruction at code unit `bc` may run more than once a call.
  bool Contains(int bc) const;
};

Loops FindLoops(const Function& f);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_LOOPS_H_
