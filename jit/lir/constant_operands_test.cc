#include "jit/lir/constant_operands.h"

#include <gtest/gtest.h>

#include "jit/lir/interpreter.h"
#include "jit/lir/text.h"

namespace a64jit::lir {
namespace {

// %2 is read once, by a call on the cold path: it moves there. %3 is read twice, %4 is an
// address's base, %5 is tested by `br %5`, and %6 has two definitions: those stay.
constexpr char kSource[] = R"(extern @g = 0x1000
func @f(%0:i64, %1:i64) -> i64 {
bb0:
  %2:ptr = mov 4096
  %3:i64 = mov 7
  %4:ptr = mov 8192
  %5:i64 = mov 1
  %6:i64 = mov 2
  br.i64 slt %0, %1, bb1, bb2
bb1:
  %7:i64 = add %0, %3
  %8:i64 = add %7, %3
  br %5, bb3, bb4
bb2:
  %9:i64 = call @g(%2, %0)
  %6:i64 = mov %9
  jmp bb3
bb3:
  ret %6
bb4:
  %10:i64 = load [%4]
  ret %10
}
)";

TEST(ConstantOperands, MovesAConstantReadOnceIntoItsReader) {
  Module m = Parse(kSource);
  Function& f = m.functions[0];
  EXPECT_EQ(FoldConstantOperands(f), 1);
  Verify(f);
  EXPECT_EQ(f.blocks[0].instrs.size(), 5u);  // %2's move gone
  const Instr& call = f.blocks[2].instrs[0];
  ASSERT_TRUE(call.args[0].is_imm());
  EXPECT_EQ(call.args[0].imm, 4096);
  EXPECT_EQ(PrintInstr(f, call), "%9:i64 = call @g(4096, %0)");
  // The reference interpreter agrees on the path that does not call @g (%0 < %1).
  const Module original = Parse(kSource);
  for (uint64_t a : {0u, 1u, 2u}) {
    Interpreter x(original, nullptr), y(m, nullptr);
    EXPECT_EQ(x.Run("f", {Value::Int(a), Value::Int(3)})->bits,
              y.Run("f", {Value::Int(a), Value::Int(3)})->bits);
  }
}

TEST(ConstantOperands, EachFoldIsADecision) {
  Module m = Parse(kSource);
  Decisions none(0, Plant::kNone);
  EXPECT_EQ(FoldConstantOperands(m.functions[0], &none), 0);
  EXPECT_EQ(m.functions[0].blocks[0].instrs.size(), 6u);
}

// %2, a zero, is read by two stores (an stp once generated), an add and a call: every read
// becomes the immediate 0, as do those of %9, defined as a zero on two paths. %3, also a
// zero, is an address's base too, and %4 a zero with a definition that is not: those stay.
constexpr char kZeros[] = R"(extern @g = 0x1000
func @z(%0:ptr, %1:i64) -> i64 {
bb0:
  %2:ptr = mov 0
  %3:ptr = mov 0
  %4:i64 = mov 0
  store.ptr %2, [%0]
  store.ptr %2, [%0 + 8]
  %5:i64 = add %1, %2
  %9:i64 = mov 0
  br.i64 eq %1, 99, bb1, bb2
bb1:
  %6:i64 = call @g(%2, %3)
  %7:ptr = load [%3]
  %4:i64 = mov %6
  %9:i64 = mov 0
  jmp bb2
bb2:
  %8:i64 = add %5, %4
  %10:i64 = sub %8, %9
  ret %10
}
)";

TEST(ConstantOperands, MovesAZeroIntoEveryReaderThatTakesOne) {
  Module m = Parse(kZeros);
  Function& f = m.functions[0];
  EXPECT_EQ(FoldConstantOperands(f), 2);
  Verify(f);
  EXPECT_EQ(f.blocks[0].instrs.size(), 6u);  // the moves of %2 and %9 gone
  EXPECT_EQ(f.blocks[1].instrs.size(), 4u);
  EXPECT_EQ(PrintInstr(f, f.blocks[2].instrs[1]), "%10:i64 = sub %8, 0");
  EXPECT_EQ(PrintInstr(f, f.blocks[0].instrs[2]), "store.ptr 0, [%0]");
  EXPECT_EQ(PrintInstr(f, f.blocks[0].instrs[3]), "store.ptr 0, [%0 + 8]");
  EXPECT_EQ(PrintInstr(f, f.blocks[0].instrs[4]), "%5:i64 = add %1, 0");
  EXPECT_EQ(PrintInstr(f, f.blocks[1].instrs[0]), "%6:i64 = call @g(0, %3)");
  // The reference interpreter agrees on the path that calls nothing.
  const Module original = Parse(kZeros);
  for (uint64_t a : {0u, 7u}) {
    uint64_t before[2] = {5, 6}, after[2] = {5, 6};
    Interpreter x(original, nullptr), y(m, nullptr);
    const auto run = [&](Interpreter& in, uint64_t* words) {
      return in.Run("z", {Value::Int(reinterpret_cast<uintptr_t>(words)), Value::Int(a)})->bits;
    };
    EXPECT_EQ(run(x, before), run(y, after));
    EXPECT_EQ(after[0], 0u);
    EXPECT_EQ(after[1], 0u);
  }
}

}  // namespace
}  // namespace a64jit::lir
