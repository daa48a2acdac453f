// Control-flow facts of an LIR function, for the passes that need them (register
// allocation's liveness, lowering's cold-block propagation): each block's predecessors,
// kept as flat lists (Groups) so that a function of thousands of blocks takes two
// allocations, not one a block.
#ifndef A64JIT_JIT_LIR_CFG_H_
#define A64JIT_JIT_LIR_CFG_H_

#include <cstddef>
#include <utility>
#include <vector>

#include "jit/lir/lir.h"

namespace a64jit::lir {

// Lists of ints keyed by a dense index, stored flat (one allocation for all keys): built
// from (key, value) pairs, each key's values in the order they were added.
class Groups {
 public:
  Groups(size_t keys, const std::vector<std::pair<int, int>>& pairs);
  const int* begin(size_t key) const { return values_.data() + begin_[key]; }
  const int* end(size_t key) const { return values_.data() + begin_[key + 1]; }

 private:
  std::vector<int> begin_;  // offsets into values_, keys + 1 of them
  std::vector<int> values_;
};

// The blocks a terminator may continue at (none for a return or a trap).
struct Successors {
  explicit Successors(const Instr& term) {
    if (term.op == Op::kJmp || term.op == Op::kBr) targets[count++] = term.targets[0];
    if (term.op == Op::kBr) targets[count++] = term.targets[1];
  }
  int count = 0;
  int targets[2] = {-1, -1};
};

// Each block's predecessors, in block order (a block that branches to one twice is listed
// twice). Every block must end in its terminator.
Groups Predecessors(const Function& f);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_CFG_H_
