// The tiering policy's arithmetic: what compiling is expected to cost, the budget, and when a
// function has proven hot.
#include "jit/python/tiering.h"

#include <gtest/gtest.h>

namespace a64jit::python {
namespace {

constexpr int64_t kMs = 1'000'000;

TieringParams Params() {
  TieringParams p;
  p.min_calls = 1000;
  p.budget_share = 0.10;
  p.allowance_ns = 5 * kMs;
  p.seed_ns_per_unit = 2'000;
  return p;
}

TEST(CompileBudget, ExpectsTheSeedUntilItHasLearned) {
  CompileBudget b(Params());
  EXPECT_EQ(b.ExpectedCostNs(100), 200'000);
  EXPECT_EQ(b.ExpectedCostNs(0), 2'000);  // a function costs at least one unit
}

TEST(CompileBudget, LearnsFromCompilesAfterTheFirst) {
  CompileBudget b(Params());
  b.Record(100, 60 * kMs);  // the first: QEMU translating the compiler itself
  EXPECT_EQ(b.ExpectedCostNs(100), 200'000);
  b.Record(100, 1 * kMs);
  b.Record(300, 3 * kMs);
  EXPECT_EQ(b.ExpectedCostNs(50), 500'000);  // 4 ms over 400 units: 10 us a unit
  EXPECT_EQ(b.spent_ns(), 64 * kMs);         // the budget pays for all three
}

TEST(CompileBudget, AllowsItsShareOfTheTimeSinceItStarted) {
  CompileBudget b(Params());
  b.Start(1000 * kMs);
  // At 100 ms: 10 ms of share plus 5 ms of allowance.
  EXPECT_TRUE(b.Allows(1100 * kMs, 15 * kMs));
  EXPECT_FALSE(b.Allows(1100 * kMs, 16 * kMs));
  b.Record(10, 12 * kMs);
  EXPECT_TRUE(b.Allows(1100 * kMs, 3 * kMs));
  EXPECT_FALSE(b.Allows(1100 * kMs, 4 * kMs));
  EXPECT_TRUE(b.Allows(2000 * kMs, 90 * kMs));  // a long run earns more
  EXPECT_FALSE(b.Allows(900 * kMs, 6 * kMs));   // a clock before the start earns nothing
}

TEST(CompileBudget, NoShareMeansNoLimit) {
  TieringParams p = Params();
  p.budget_share = 0;
  CompileBudget b(p);
  b.Start(0);
  b.Record(10, 1000 * kMs);
  EXPECT_TRUE(b.Allows(0, 1000 * kMs));
}

TEST(ProvenHot, ByCalls) {
  EXPECT_FALSE(ProvenHot(Params(), 999, false, 0, kMs, kMs));
  EXPECT_TRUE(ProvenHot(Params(), 1000, false, 0, kMs, kMs));
}

TEST(ProvenHot, ByLoopTimeAgainstTheExpectedCost) {
  // A loop function proves hot once its interpreted time reaches what compiling it costs,
  // and never before the hot-loop floor.
  EXPECT_FALSE(ProvenHot(Params(), 3, true, 4 * kMs, 5 * kMs, kMs));
  EXPECT_TRUE(ProvenHot(Params(), 3, true, 5 * kMs, 5 * kMs, kMs));
  EXPECT_FALSE(ProvenHot(Params(), 3, true, kMs / 2, kMs / 4, kMs));
  // Time counts only for a function with a loop, and not with the floor at 0 (calls only).
  EXPECT_FALSE(ProvenHot(Params(), 3, false, 50 * kMs, 5 * kMs, kMs));
  EXPECT_FALSE(ProvenHot(Params(), 3, true, 50 * kMs, 5 * kMs, 0));
}

}  // namespace
}  // namespace a64jit::python
