// Register allocation finds liveness across blocks two ways (jit/lir/regalloc.cc): bit sets
// per block iterated to a fixed point (functions with at most 256 vregs that cross blocks)
// and a walk per vreg through predecessors (larger ones). Most compiled Python takes the
// first and a few long functions the second, so each must give the same live intervals on
// every shape: the fuzzer's programs (loops, bottom-tested loops, early returns, branches
// both ways) are compared range by range. Then the scan that places those intervals must
// never give two values live at once the same register or spill slot.
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

// Few registers, so that values share them in each other's holes and spill: the cases where
// the scan's test of a register's holders does more than look at the last one.
lir::RegisterFile FewRegisters() {
  lir::RegisterFile regs;
  regs.gp_caller_saved = {0, 1};
  regs.gp_callee_saved = {19};
  regs.fp_caller_saved = {0};
  regs.fp_callee_saved = {8};
  regs.gp_args = {0, 1};
  regs.fp_args = {0};
  regs.gp_result = 0;
  regs.fp_result = 0;
  return regs;
}

TEST(Liveness, NoTwoValuesLiveAtOnceShareARegisterOrASlot) {
  const lir::RegisterFile regs = FewRegisters();
  int shared = 0;   // pairs of values that share a place without overlapping
  int spilled = 0;  // functions with a value in a spill slot
  for (uint64_t seed = 1; seed <= 400; seed++) {
    const GeneratedProgram p = GenerateProgram(seed);
    for (const lir::Function& f : p.module.functions) {
      const auto intervals = lir::ComputeLiveIntervals(f);
      const lir::Allocation a = lir::AllocateRegisters(f, regs);
      spilled += a.spill_slots > 0;
      for (size_t i = 0; i < intervals.size(); i++) {
        const lir::LiveInterval& x = intervals[i];
        const lir::Location& at = a.where[static_cast<size_t>(x.vreg)];
        ASSERT_NE(at.kind, lir::Location::Kind::kNone) << "seed " << seed << " %" << x.vreg;
        for (size_t j = i + 1; j < intervals.size(); j++) {
          const lir::LiveInterval& y = intervals[j];
          const lir::Location& other = a.where[static_cast<size_t>(y.vreg)];
          const bool same_class = lir::IsFloat(f.TypeOf(x.vreg)) == lir::IsFloat(f.TypeOf(y.vreg));
          if (at.kind != other.kind || at.index != other.index) continue;
          if (at.is_reg() && !same_class) continue;
          ASSERT_FALSE(x.Overlaps(y))
              << "seed " << seed << " @" << f.name << ": " << Ranges(x) << " and " << Ranges(y)
              << " share " << (at.is_reg() ? "register " : "slot ") << at.index;
          shared++;
        }
      }
    }
  }
  EXPECT_GT(shared, 1000);  // the check above ran on values that do share
  EXPECT_GT(spilled, 100);
}

}  // namespace
}  // namespace a64jit::difftest
