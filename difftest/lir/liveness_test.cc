// Register allocation finds liveness across blocks two ways (jit/lir/regalloc.cc): bit sets
// per block iterated to a fixed point (functions with at most 256 vregs that cross blocks)
// and a walk per vreg through predecessors (larger ones). Most compiled Python takes the
// first and a few long functions the second, so each must give the same live intervals on
// every shape: the fuzzer's programs (loops, bottom-tested loops, early returns, branches
// both ways) are compared range by range.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "difftest/lir/generator.h"
#include "jit/lir/regalloc.h"

namespace a64jit::difftest {
namespace {

std::string Ranges(const lir::LiveInterval& iv) {
  std::string s = "%" + std::to_string(iv.vreg) + ":";
  for (const lir::LiveRange& r : iv.ranges) {
    s += " [" + std::to_string(r.start) + ", " + std::to_string(r.end) + "]";
  }
  return s;
}

TEST(Liveness, BitSetsAndPerVregWalksGiveTheSameIntervals) {
  int functions = 0, multi_block = 0;
  for (uint64_t seed = 1; seed <= 400; seed++) {
    const GeneratedProgram p = GenerateProgram(seed);
    for (const lir::Function& f : p.module.functions) {
      functions++;
      multi_block += f.blocks.size() > 1;
      const auto dense = lir::ComputeLiveIntervals(f, lir::Liveness::kDense);
      const auto sparse = lir::ComputeLiveIntervals(f, lir::Liveness::kSparse);
      ASSERT_EQ(dense.size(), sparse.size()) << "seed " << seed << " @" << f.name;
      for (size_t i = 0; i < dense.size(); i++) {
        ASSERT_EQ(Ranges(dense[i]), Ranges(sparse[i])) << "seed " << seed << " @" << f.name;
      }
    }
  }
  // The comparison means something only if the programs have control flow.
  EXPECT_GT(multi_block, functions / 2) << multi_block << " of " << functions;
}

}  // namespace
}  // namespace a64jit::difftest
