// ResolvePrevInstr (prev_instr.h) on LIR written as lowering leaves it: each case is the
// input and the function after the pass. prev_instr is at offset 56 here, as in 3.11.
#include "jit/lower/prev_instr.h"

#include <gtest/gtest.h>

#include <string>

#include "jit/lir/text.h"

namespace a64jit::lower {
namespace {

std::string Resolved(const std::string& text) {
  lir::Module m = lir::ParseUnverified(text);
  ResolvePrevInstr(m.functions.at(0), 56);
  lir::Verify(m.functions[0]);  // no note is left
  return lir::Print(m.functions[0]);
}

// In one block: a store for a unit it does not hold yet, none (and no add) for the unit it
// holds, and none after a helper that left it there (prev_instr_is).
TEST(PrevInstr, StoresOnlyWhatItDoesNotHoldYet) {
  const std::string in = R"(func @f(%0:ptr, %1:ptr) -> ptr {
bb0:
  %2:ptr = mov 4096
  %3:ptr = add %2, 10
  set_prev_instr %1, %3, 5
  %4:ptr = add %2, 10
  set_prev_instr %1, %4, 5
  call @g(%0)
  prev_instr_is 7
  %5:ptr = add %2, 14
  set_prev_instr %1, %5, 7
  %6:ptr = add %2, 16
  set_prev_instr %1, %6, 8
  %7:ptr = mov %6
  ret %7
}
)";
  const std::string out = R"(func @f(%0:ptr, %1:ptr) -> ptr {
bb0:
  %2:ptr = mov 4096
  %3:ptr = add %2, 10
  store.ptr %3, [%1 + 56]
  call @g(%0)
  %6:ptr = add %2, 16
  store.ptr %6, [%1 + 56]
  %7:ptr = mov %6
  ret %7
}
)";
  EXPECT_EQ(Resolved(in), out);
}

// At a join, prev_instr is known only when every path into it agrees; a unit of 0 is
// first_instr itself; unknown on entry.
TEST(PrevInstr, AJoinKnowsOnlyWhatEveryPathAgreesOn) {
  const std::string in = R"(func @f(%0:ptr, %1:ptr, %2:i64) {
bb0:
  br.i64 eq %2, 0, bb1, bb2
bb1:
  set_prev_instr %1, %0, 0
  jmp bb3
bb2:
  set_prev_instr %1, %0, 0
  jmp bb3
bb3:
  set_prev_instr %1, %0, 0
  br.i64 eq %2, 1, bb4, bb5
bb4:
  %3:ptr = add %0, 18
  set_prev_instr %1, %3, 9
  jmp bb5
bb5:
  %4:ptr = add %0, 18
  set_prev_instr %1, %4, 9
  ret
}
)";
  const std::string out = R"(func @f(%0:ptr, %1:ptr, %2:i64) {
bb0:
  br.i64 eq %2, 0, bb1, bb2
bb1:
  store.ptr %0, [%1 + 56]
  jmp bb3
bb2:
  store.ptr %0, [%1 + 56]
  jmp bb3
bb3:
  br.i64 eq %2, 1, bb4, bb5
bb4:
  %3:ptr = add %0, 18
  store.ptr %3, [%1 + 56]
  jmp bb5
bb5:
  %4:ptr = add %0, 18
  store.ptr %4, [%1 + 56]
  ret
}
)";
  EXPECT_EQ(Resolved(in), out);
}

// A loop: the header is reached from the entry (unknown) and from the back edge; a release
// that finds prev_instr at its unit stores nothing (-1), one that does not sets it.
TEST(PrevInstr, LoopsAndReleases) {
  const std::string in = R"(func @f(%0:ptr, %1:ptr, %2:ptr) {
bb0:
  jmp bb1
bb1:
  %3:ptr = add %0, 6
  set_prev_instr %1, %3, 3
  release_at @a64_dealloc_at(%2, %1, 3)
  release_at @a64_dealloc_at(%2, %1, 4)
  %4:ptr = add %0, 8
  set_prev_instr %1, %4, 4
  br.i64 eq %2, 0, bb1, bb2
bb2:
  ret
}
)";
  const std::string out = R"(func @f(%0:ptr, %1:ptr, %2:ptr) {
bb0:
  jmp bb1
bb1:
  %3:ptr = add %0, 6
  store.ptr %3, [%1 + 56]
  release_at @a64_dealloc_at(%2, %1, -1)
  release_at @a64_dealloc_at(%2, %1, 4)
  br.i64 eq %2, 0, bb1, bb2
bb2:
  ret
}
)";
  EXPECT_EQ(Resolved(in), out);
}

TEST(PrevInstr, NotesAreRefusedOutsideLowering) {
  const std::string in = R"(func @f(%0:ptr, %1:ptr) {
bb0:
  prev_instr_is 3
  ret
}
)";
  EXPECT_THROW(lir::Parse(in), lir::VerifyError);
}

}  // namespace
}  // namespace a64jit::lower
