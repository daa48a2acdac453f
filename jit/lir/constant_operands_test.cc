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

}  // namespace
}  // namespace a64jit::lir
