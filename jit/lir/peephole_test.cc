#include "jit/lir/peephole.h"

#include <gtest/gtest.h>

#include <cmath>

#include "jit/lir/interpreter.h"
#include "jit/lir/text.h"

namespace a64jit::lir {
namespace {

// The reference interpreter gives @f the same result in `before` and `after` for each argument
// list of `calls`.
void ExpectSameResults(const Module& before, const Module& after,
                       const std::vector<std::vector<Value>>& calls) {
  for (size_t i = 0; i < calls.size(); i++) {
    Interpreter a(before, nullptr), b(after, nullptr);
    EXPECT_EQ(a.Run("f", calls[i])->bits, b.Run("f", calls[i])->bits) << "call " << i;
  }
}

// Three ways a compare feeds a branch, and one compare that must stay (read twice).
constexpr char kSource[] = R"(func @f(%0:i64, %1:i64) -> i64 {
bb0:
  %2:i64 = cmp.i64 slt %0, %1
  br.i64 eq %2, 0, bb1, bb2
bb1:
  %3:i64 = cmp.i64 ult %0, 7
  br %3, bb3, bb4
bb2:
  %8:i32 = trunc %1
  %4:i64 = cmp.i32 ne %8, 3
  br.i64 ne %4, 0, bb5, bb4
bb3:
  ret 30
bb4:
  ret 40
bb5:
  %5:i64 = cmp.i64 eq %0, %1
  br %5, bb6, bb7
bb6:
  ret %5
bb7:
  ret 70
}
)";

TEST(LirPeephole, FusesSingleUseComparesIntoBranches) {
  Module m = Parse(kSource);
  Function& f = m.functions[0];
  const Module original = Parse(kSource);
  EXPECT_EQ(FuseCompareBranches(f), 3);
  Verify(f);
  EXPECT_EQ(f.blocks[0].instrs.size(), 1u);
  EXPECT_EQ(f.blocks[0].instrs[0].cond, Cond::kSge);  // eq 0: negated
  EXPECT_EQ(f.blocks[1].instrs[0].cond, Cond::kUlt);
  EXPECT_EQ(f.blocks[2].instrs[1].cmp_type, Type::kI32);
  EXPECT_EQ(f.blocks[5].instrs.size(), 2u);  // %5 is also returned
  // The reference interpreter agrees on both versions for a spread of inputs.
  const int64_t inputs[] = {-9, 0, 3, 5, 7, 8, int64_t{1} << 40, -(int64_t{1} << 40)};
  std::vector<std::vector<Value>> calls;
  for (int64_t a : inputs) {
    for (int64_t b : inputs) {
      calls.push_back({Value::Int(static_cast<uint64_t>(a)), Value::Int(static_cast<uint64_t>(b))});
    }
  }
  ExpectSameResults(original, m, calls);
}

TEST(LirPeephole, AnF64BranchOnFalseSwapsItsTargets) {
  // not (a < b) is not a >= b when an operand is NaN: the fused branch keeps slt and swaps.
  constexpr char kFloats[] = R"(func @f(%0:f64, %1:f64) -> i64 {
bb0:
  %2:i64 = cmp.f64 slt %0, %1
  br.i64 eq %2, 0, bb1, bb2
bb1:
  ret 10
bb2:
  ret 20
}
)";
  Module m = Parse(kFloats);
  const Module original = Parse(kFloats);
  EXPECT_EQ(FuseCompareBranches(m.functions[0]), 1);
  Verify(m.functions[0]);
  EXPECT_EQ(m.functions[0].blocks[0].instrs[0].cond, Cond::kSlt);
  std::vector<std::vector<Value>> calls;
  for (double a : {1.0, 2.0, double{NAN}}) {
    for (double b : {1.0, double{NAN}}) calls.push_back({Value::Double(a), Value::Double(b)});
  }
  ExpectSameResults(original, m, calls);
}

TEST(LirPeephole, MovesACompareDownPastWhatLeavesItsOperands) {
  // A for loop's shape: the compare, then a copy of the value it tested, then the branch.
  // bb1's compare must stay: its operand is redefined before the branch.
  constexpr char kApart[] = R"(func @f(%0:i64, %1:ptr) -> i64 {
bb0:
  %2:i64 = cmp.i64 eq %0, 0
  %3:i64 = mov %0
  %4:i64 = load [%1]
  br.i64 ne %2, 0, bb2, bb1
bb1:
  %5:i64 = cmp.i64 slt %3, 5
  %3:i64 = add %3, %4
  br %5, bb2, bb3
bb2:
  ret 20
bb3:
  ret %3
}
)";
  Module m = Parse(kApart);
  const Module original = Parse(kApart);
  Function& f = m.functions[0];
  EXPECT_EQ(FuseCompareBranches(f), 1);
  Verify(f);
  ASSERT_EQ(f.blocks[0].instrs.size(), 3u);
  EXPECT_EQ(f.blocks[0].instrs[0].op, Op::kMov);
  EXPECT_EQ(f.blocks[0].instrs[2].cond, Cond::kEq);
  EXPECT_EQ(f.blocks[1].instrs.size(), 3u);
  int64_t word = 3;
  std::vector<std::vector<Value>> calls;
  for (int64_t a : {0, 1, 4, 9}) {
    calls.push_back(
        {Value::Int(static_cast<uint64_t>(a)), Value::Int(reinterpret_cast<uint64_t>(&word))});
  }
  ExpectSameResults(original, m, calls);
}

TEST(LirPeephole, ACompareReadBeforeItsBranchStays) {
  // %1 is read between the compare and the branch: the compare cannot move to the branch.
  constexpr char kRead[] = R"(func @f(%0:i64) -> i64 {
bb0:
  %1:i64 = cmp.i64 slt %0, 5
  %2:i64 = add %1, 10
  br.i64 ne %1, 0, bb1, bb2
bb1:
  ret %2
bb2:
  ret 7
}
)";
  Module m = Parse(kRead);
  const Module original = Parse(kRead);
  EXPECT_EQ(FuseCompareBranches(m.functions[0]), 0);
  Verify(m.functions[0]);
  ExpectSameResults(original, m, {{Value::Int(3)}, {Value::Int(8)}});
}

TEST(LirPeephole, FusesEachFormOfOneCompareThatBranchesInItsOwnBlock) {
  // One Python compare in three forms (ints, floats, a helper), each setting %c and ending in
  // its own copy of the branch on it (jump threading): the two compares fuse, the call stays.
  // In @g, %c is also returned: it must stay a value everywhere.
  constexpr char kForms[] = R"(func @f(%0:i64, %1:f64, %2:ptr) -> i64 {
bb0:
  br.i64 eq %0, 0, bb1, bb2
bb1:
  %3:i64 = cmp.i64 slt %0, 9
  br.i64 ne %3, 0, bb5, bb6
bb2:
  br.i64 eq %0, 1, bb3, bb4
bb3:
  %3:i64 = cmp.f64 slt %1, %1
  br.i64 ne %3, 0, bb5, bb6
bb4:
  %3:i64 = call *%2(%0)
  br.i64 ne %3, 0, bb5, bb6
bb5:
  ret 40
bb6:
  ret 50
}
func @g(%0:i64) -> i64 {
bb0:
  br.i64 eq %0, 0, bb1, bb2
bb1:
  %3:i64 = cmp.i64 slt %0, 9
  br.i64 ne %3, 0, bb3, bb3
bb2:
  %3:i64 = cmp.i64 sgt %0, 9
  br.i64 ne %3, 0, bb3, bb3
bb3:
  ret %3
}
)";
  Module m = Parse(kForms);
  const Module original = Parse(kForms);
  EXPECT_EQ(FuseCompareBranches(m.functions[0]), 2);
  EXPECT_EQ(FuseCompareBranches(m.functions[1]), 0);
  Verify(m.functions[0]);
  EXPECT_EQ(m.functions[0].blocks[1].instrs.size(), 1u);
  EXPECT_EQ(m.functions[0].blocks[3].instrs.size(), 1u);
  EXPECT_EQ(m.functions[0].blocks[4].instrs.size(), 2u);
  ExpectSameResults(original, m,
                    {{Value::Int(0), Value::Double(NAN), Value::Int(0)},
                     {Value::Int(1), Value::Double(NAN), Value::Int(0)}});
}

TEST(LirPeephole, NegatesEveryCondition) {
  for (Cond c : {Cond::kEq, Cond::kNe, Cond::kSlt, Cond::kSle, Cond::kSgt, Cond::kSge, Cond::kUlt,
                 Cond::kUle, Cond::kUgt, Cond::kUge}) {
    for (uint64_t a : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) {
      for (uint64_t b : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}}) {
        EXPECT_NE(EvalCond(c, a, b, Type::kI64), EvalCond(Negate(c), a, b, Type::kI64));
      }
    }
  }
}

}  // namespace
}  // namespace a64jit::lir
