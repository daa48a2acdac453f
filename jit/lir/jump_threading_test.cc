#include "jit/lir/jump_threading.h"

#include <gtest/gtest.h>

#include "jit/lir/interpreter.h"
#include "jit/lir/text.h"

namespace a64jit::lir {
namespace {

// Two joins in a row, as nested fast and slow paths leave them (bb3 -> bb4 -> bb5), a branch
// whose targets both end at one block, and an empty loop that must stay a loop.
constexpr char kSource[] = R"(func @f(%0:i64) -> i64 {
bb0:
  br.i64 slt %0, 0, bb1, bb2
bb1:
  %1:i64 = mov 10
  jmp bb3
bb2:
  %1:i64 = mov 20
  br.i64 eq %0, 5, bb3, bb4
bb3:
  jmp bb4
bb4:
  jmp bb5
bb5:
  br.i64 eq %0, 99, bb6, bb7
bb6:
  jmp bb6
bb7:
  %2:i64 = add %1, %0
  ret %2
}
)";

constexpr char kThreaded[] = R"(func @f(%0:i64) -> i64 {
bb0:
  br.i64 slt %0, 0, bb1, bb2
bb1:
  %1:i64 = mov 10
  jmp bb3
bb2:
  %1:i64 = mov 20
  jmp bb3
bb3:
  br.i64 eq %0, 99, bb4, bb5
bb4:
  jmp bb4
bb5:
  %2:i64 = add %1, %0
  ret %2
}
)";

TEST(LirJumpThreading, BranchesGoPastJumpOnlyBlocksWhichAreThenRemoved) {
  Module m = Parse(kSource);
  Function& f = m.functions[0];
  const Module original = Parse(kSource);
  EXPECT_EQ(ThreadJumps(f), 2);
  Verify(f);
  EXPECT_EQ(Print(f), kThreaded);
  for (int64_t a : {-3, 0, 5, 7}) {
    const std::vector<Value> args = {Value::Int(static_cast<uint64_t>(a))};
    Interpreter before(original, nullptr), after(m, nullptr);
    EXPECT_EQ(before.Run("f", args)->bits, after.Run("f", args)->bits) << a;
  }
}

TEST(LirJumpThreading, AFunctionWithoutSuchBlocksIsUnchanged) {
  Module m = Parse(kThreaded);
  EXPECT_EQ(ThreadJumps(m.functions[0]), 0);
  EXPECT_EQ(Print(m.functions[0]), kThreaded);
}

// Two forms of one compare set %1 and jump to the branch on it (bb3); a third reaches it by a
// branch, and bb4 reads %1 after setting it, so the branch in bb3 must stay for both.
constexpr char kForms[] = R"(func @f(%0:i64) -> i64 {
bb0:
  br.i64 slt %0, 0, bb1, bb2
bb1:
  %1:i64 = cmp.i64 eq %0, -5
  jmp bb3
bb2:
  br.i64 eq %0, 0, bb4, bb5
bb3:
  br.i64 ne %1, 0, bb6, bb7
bb4:
  %1:i64 = mov 1
  %2:i64 = add %1, %0
  jmp bb3
bb5:
  %1:i64 = cmp.i64 sgt %0, 100
  br.i64 eq %0, 7, bb3, bb6
bb6:
  ret 60
bb7:
  ret 70
}
)";

constexpr char kFormsThreaded[] = R"(func @f(%0:i64) -> i64 {
bb0:
  br.i64 slt %0, 0, bb1, bb2
bb1:
  %1:i64 = cmp.i64 eq %0, -5
  br.i64 ne %1, 0, bb6, bb7
bb2:
  br.i64 eq %0, 0, bb4, bb5
bb3:
  br.i64 ne %1, 0, bb6, bb7
bb4:
  %1:i64 = mov 1
  %2:i64 = add %1, %0
  jmp bb3
bb5:
  %1:i64 = cmp.i64 sgt %0, 100
  br.i64 eq %0, 7, bb3, bb6
bb6:
  ret 60
bb7:
  ret 70
}
)";

TEST(LirJumpThreading, AJumpToABranchOnTheValueItSetTakesACopyOfTheBranch) {
  Module m = Parse(kForms);
  const Module original = Parse(kForms);
  EXPECT_EQ(ThreadJumps(m.functions[0]), 0);
  Verify(m.functions[0]);
  EXPECT_EQ(Print(m.functions[0]), kFormsThreaded);
  for (int64_t a : {-5, -3, 0, 7, 8}) {
    const std::vector<Value> args = {Value::Int(static_cast<uint64_t>(a))};
    Interpreter before(original, nullptr), after(m, nullptr);
    EXPECT_EQ(before.Run("f", args)->bits, after.Run("f", args)->bits) << a;
  }
}

}  // namespace
}  // namespace a64jit::lir
