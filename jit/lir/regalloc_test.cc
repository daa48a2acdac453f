// Register allocation invariants: no two simultaneously live values share a register,
// nothing live across a call sits in a caller-saved register, and pressure spills.
#include "jit/lir/regalloc.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "jit/lir/text.h"

namespace a64jit::lir {
namespace {

RegisterFile SmallFile() {
  RegisterFile r;
  r.gp_caller_saved = {0, 1, 2};
  r.gp_callee_saved = {19, 20};
  r.fp_caller_saved = {0};
  r.fp_callee_saved = {8};
  return r;
}

void ExpectNoOverlap(const Function& f, const Allocation& a) {
  std::vector<LiveInterval> iv = ComputeLiveIntervals(f);
  for (size_t i = 0; i < iv.size(); i++) {
    for (size_t j = i + 1; j < iv.size(); j++) {
      const Location& x = a.where[static_cast<size_t>(iv[i].vreg)];
      const Location& y = a.where[static_cast<size_t>(iv[j].vreg)];
      if (!x.is_reg() || !y.is_reg() || x.index != y.index) continue;
      if (IsFloat(f.TypeOf(iv[i].vreg)) != IsFloat(f.TypeOf(iv[j].vreg))) continue;
      EXPECT_FALSE(iv[i].Overlaps(iv[j]))
          << "%" << iv[i].vreg << " and %" << iv[j].vreg << " share r" << x.index;
    }
  }
}

// The interval of vreg `v` among `iv` (the test fails if it has none).
LiveInterval IntervalOf(const std::vector<LiveInterval>& iv, int v) {
  auto it = std::find_if(iv.begin(), iv.end(), [&](const LiveInterval& x) { return x.vreg == v; });
  EXPECT_NE(it, iv.end()) << "no interval for %" << v;
  return it == iv.end() ? LiveInterval{} : *it;
}

TEST(RegAlloc, PressureSpillsAndNothingOverlaps) {
  // Eight values live at once with five GP registers: some must spill.
  std::string text = "func @f(%0:i64) -> i64 {\nbb0:\n";
  for (int i = 1; i <= 8; i++)
    text += "  %" + std::to_string(i) + ":i64 = add %0, " + std::to_string(i) + "\n";
  text += "  %9:i64 = add %1, %2\n";
  for (int i = 3; i <= 8; i++) text += "  %9:i64 = add %9, %" + std::to_string(i) + "\n";
  text += "  ret %9\n}\n";
  Module m = Parse(text);
  Allocation a = AllocateRegisters(m.functions[0], SmallFile());
  EXPECT_GT(a.spill_slots, 0);
  ExpectNoOverlap(m.functions[0], a);
}

TEST(RegAlloc, ValuesLiveAcrossCallsAvoidCallerSavedRegisters) {
  Module m = Parse(R"(func @f(%0:i64, %1:f64) -> i64 {
bb0:
  %2:i64 = add %0, 1
  %3:i64 = call @g(%0)
  %4:f64 = fadd %1, %1
  %5:i64 = call @g(%3)
  %6:i64 = add %2, %5
  %7:f64 = fadd %4, %1
  %8:i64 = ftosi %7
  %9:i64 = add %6, %8
  ret %9
}
)");
  const Function& f = m.functions[0];
  Allocation a = AllocateRegisters(f, SmallFile());
  for (int v : {1, 2, 4}) {
    EXPECT_TRUE(a.crosses_call[static_cast<size_t>(v)]) << "%" << v;
    const Location& l = a.where[static_cast<size_t>(v)];
    if (l.is_reg()) {
      EXPECT_TRUE(l.index == 19 || l.index == 20 || (IsFloat(f.TypeOf(v)) && l.index == 8))
          << "%" << v << " in caller-saved r" << l.index;
    }
  }
  EXPECT_FALSE(a.crosses_call[0]);  // last used as the first call's argument
  EXPECT_FALSE(a.crosses_call[3]);  // defined by one call, last used by the next
  ExpectNoOverlap(f, a);
}

TEST(RegAlloc, LoopCarriedValuesStayLiveAroundTheBackEdge) {
  Module m = Parse(R"(func @f(%0:i64) -> i64 {
bb0:
  %1:i64 = mov 0
  %2:i64 = mov 0
  jmp bb1
bb1:
  %3:i64 = add %2, 7
  %1:i64 = add %1, %3
  %2:i64 = add %2, 1
  br.i64 slt %2, %0, bb1, bb2
bb2:
  ret %1
}
)");
  const Function& f = m.functions[0];
  std::vector<LiveInterval> iv = ComputeLiveIntervals(f);
  auto find = [&](int v) { return IntervalOf(iv, v); };
  // %0 is read by the loop's branch (instruction 6) and live around the back edge, so it
  // lives to the end of bb1 (position 13); %1 is returned by instruction 7 (position 14).
  EXPECT_EQ(find(0).end, 13);
  EXPECT_EQ(find(1).end, 14);
  ExpectNoOverlap(f, AllocateRegisters(f, SmallFile()));
}

TEST(RegAlloc, AValueUsedOnlyOnAColdPathAtTheEndSkipsTheHotCodeBetween) {
  // %1 is live from its def to the branch and again in bb2, placed after bb1; it is not live
  // in bb1, so bb1's call does not make it a callee-saved value, and bb1's values may use its
  // register.
  Module m = Parse(R"(func @f(%0:i64) -> i64 {
bb0:
  %1:i64 = add %0, 1
  br.i64 eq %1, 0, bb2, bb1
bb1:
  %2:i64 = call @g(%0)
  %3:i64 = add %2, 1
  ret %3
bb2:
  %4:i64 = call @h(%1)
  ret %4
}
)");
  const Function& f = m.functions[0];
  std::vector<LiveInterval> iv = ComputeLiveIntervals(f);
  auto find = [&](int v) { return IntervalOf(iv, v); };
  // Positions: bb0 0-3, bb1 4-9, bb2 10-13.
  ASSERT_EQ(find(1).ranges.size(), 2u);
  EXPECT_EQ(find(1).ranges[0].end, 3);     // live out of bb0 (into bb2)
  EXPECT_EQ(find(1).ranges[1].start, 10);  // live into bb2
  Allocation a = AllocateRegisters(f, SmallFile());
  EXPECT_FALSE(a.crosses_call[1]);
  EXPECT_TRUE(a.where[1].is_reg());
  EXPECT_NE(a.where[1].index, 19);
  EXPECT_NE(a.where[1].index, 20);
  ExpectNoOverlap(f, a);
}

TEST(RegAlloc, AValueStaysLiveThroughBlocksThatNeitherReadNorWriteIt) {
  // %1 is defined in bb0 and read only in bb3; bb1 and bb2 pass it on untouched, so it is
  // live across both, and bb1's call makes it a value that crosses a call. %2 is written in
  // two blocks (LIR is not SSA) and read after they join: live out of both writers.
  Module m = Parse(R"(func @f(%0:i64) -> i64 {
bb0:
  %1:i64 = add %0, 1
  br.i64 eq %0, 0, bb1, bb2
bb1:
  %3:i64 = call @g(%0)
  %2:i64 = add %3, 1
  jmp bb3
bb2:
  %2:i64 = add %0, 2
  jmp bb3
bb3:
  %4:i64 = add %1, %2
  ret %4
}
)");
  const Function& f = m.functions[0];
  std::vector<LiveInterval> iv = ComputeLiveIntervals(f);
  auto find = [&](int v) { return IntervalOf(iv, v); };
  // Positions: bb0 0-3, bb1 4-9, bb2 10-13, bb3 14-17.
  ASSERT_EQ(find(1).ranges.size(), 1u);
  EXPECT_EQ(find(1).start, 1);
  EXPECT_EQ(find(1).end, 14);  // read by bb3's add, instruction 7
  ASSERT_EQ(find(2).ranges.size(), 2u);
  EXPECT_EQ(find(2).ranges[0].start, 7);  // written by bb1's add, live to bb1's end
  EXPECT_EQ(find(2).ranges[0].end, 9);
  EXPECT_EQ(find(2).ranges[1].start, 11);  // written by bb2's add, live on into bb3
  EXPECT_EQ(find(2).ranges[1].end, 14);
  Allocation a = AllocateRegisters(f, SmallFile());
  EXPECT_TRUE(a.crosses_call[1]);
  ExpectNoOverlap(f, a);
}

// A copy whose source ends at it takes the source's register (the move emits nothing): a
// call's result copied into a temporary, as a merge of a hot and a cold path leaves it, and
// a value that lived across a call (callee-saved) copied after it. A source still live after
// the copy keeps its register to itself.
TEST(RegAlloc, ACopyTakesTheRegisterOfASourceThatEndsThere) {
  Module m = Parse(R"(func @f(%0:i64) -> i64 {
bb0:
  %1:i64 = call @g(%0)
  %2:i64 = mov %1
  %3:i64 = add %2, 1
  %4:i64 = mov %3
  %5:i64 = call @g(%4)
  %6:i64 = mov %4
  %7:i64 = add %6, %5
  %8:i64 = mov %7
  %9:i64 = add %8, %7
  ret %9
}
)");
  const Function& f = m.functions[0];
  RegisterFile regs = SmallFile();
  regs.gp_args = {0, 1};
  regs.gp_result = 0;
  Allocation a = AllocateRegisters(f, regs);
  auto reg = [&](int v) {
    const Location& l = a.where[static_cast<size_t>(v)];
    EXPECT_TRUE(l.is_reg()) << "%" << v << " spilled";
    return l.index;
  };
  EXPECT_EQ(reg(1), 0);            // the call's result
  EXPECT_EQ(reg(2), reg(1));       // its copy, no call crossed
  EXPECT_TRUE(a.crosses_call[4]);  // so in callee-saved r19 or r20
  EXPECT_EQ(reg(6), reg(4));       // %4 ends at the copy
  EXPECT_NE(reg(8), reg(7));       // %7 is read after the copy
  ExpectNoOverlap(f, a);
}

}  // namespace
}  // namespace a64jit::lir
