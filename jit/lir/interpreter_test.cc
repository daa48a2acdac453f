// The reference interpreter implements lir.h's semantics; these pin down the corners the
// emitted code must match (wraparound, division by zero, shift amounts, NaNs, saturation).
#include "jit/lir/interpreter.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "jit/lir/text.h"

namespace a64jit::lir {
namespace {

// Runs a one-instruction function `%2:T = OP %0, %1` (or unary `OP %0`) on a, b.
uint64_t Binary(const std::string& type, const std::string& op, uint64_t a, uint64_t b) {
  Module m = Parse("func @f(%0:" + type + ", %1:" + type + ") -> " + type +
                   " {\nbb0:\n  %2:" + type + " = " + op + " %0, %1\n  ret %2\n}\n");
  return Interpreter(m, nullptr).Run("f", {Value{a}, Value{b}})->bits;
}

TEST(LirInterpreter, IntegerCorners) {
  EXPECT_EQ(Binary("i8", "add", 200, 100), 44u);
  EXPECT_EQ(Binary("i64", "sdiv", 7, 0), 0u);
  EXPECT_EQ(Binary("i64", "srem", 7, 0), 7u);
  EXPECT_EQ(Binary("i64", "udiv", 7, 0), 0u);
  EXPECT_EQ(Binary("i64", "urem", 7, 0), 7u);
  EXPECT_EQ(Binary("i64", "sdiv", 0x8000000000000000ull, ~0ull), 0x8000000000000000ull);
  EXPECT_EQ(Binary("i64", "srem", 0x8000000000000000ull, ~0ull), 0u);
  EXPECT_EQ(Binary("i8", "sdiv", 0x80, 0xff), 0x80u);  // -128 / -1 wraps
  EXPECT_EQ(Binary("i8", "sdiv", 0xf9, 2), 0xfdu);     // -7 / 2 == -3 (truncates)
  EXPECT_EQ(Binary("i8", "srem", 0xf9, 2), 0xffu);     // -7 % 2 == -1
  EXPECT_EQ(Binary("i16", "udiv", 0xfff9, 2), 0x7ffcu);
  EXPECT_EQ(Binary("i64", "shl", 1, 65), 2u);  // amount mod 64
  EXPECT_EQ(Binary("i32", "shl", 1, 33), 2u);  // amount mod 32
  EXPECT_EQ(Binary("i8", "shl", 1, 9), 0u);    // computed in 32 bits, truncated
  EXPECT_EQ(Binary("i8", "shl", 1, 33), 2u);
  EXPECT_EQ(Binary("i8", "ashr", 0x80, 3), 0xf0u);
  EXPECT_EQ(Binary("i8", "lshr", 0x80, 3), 0x10u);
  EXPECT_EQ(Binary("i8", "ashr", 0x80, 40), 0xffu);  // 40 mod 32 == 8: only sign bits
  EXPECT_EQ(Binary("i16", "mul", 0x1234, 0x5678), (0x1234u * 0x5678u) & 0xffff);
}

double FBinary(const std::string& op, double a, double b) {
  return Value{Binary("f64", op, Value::Double(a).bits, Value::Double(b).bits)}.AsDouble();
}

uint64_t BitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, sizeof b);
  return b;
}

TEST(LirInterpreter, FloatFollowsAarch64NaNRules) {
  EXPECT_EQ(FBinary("fadd", 0.1, 0.2), 0.1 + 0.2);
  EXPECT_EQ(BitsOf(FBinary("fdiv", 0.0, 0.0)), 0x7ff8000000000000ull);  // default NaN, positive
  EXPECT_EQ(BitsOf(FBinary("fsub", INFINITY, INFINITY)), 0x7ff8000000000000ull);
  double snan, qnan;
  uint64_t sbits = 0x7ff0000000000123ull, qbits = 0xfff8000000000456ull;
  std::memcpy(&snan, &sbits, 8);
  std::memcpy(&qnan, &qbits, 8);
  EXPECT_EQ(BitsOf(FBinary("fmul", qnan, snan)), 0x7ff8000000000123ull);  // signalling wins
  EXPECT_EQ(BitsOf(FBinary("fadd", 1.0, qnan)), qbits);                   // propagated
  EXPECT_EQ(ArmFToSI(1e30, 64), INT64_MAX);
  EXPECT_EQ(ArmFToSI(-1e30, 32), INT32_MIN);
  EXPECT_EQ(ArmFToSI(NAN, 64), 0);
  EXPECT_EQ(ArmFToSI(-2.9, 64), -2);
}

// cmp.f64 C a, b, and br.f64 C on the same operands (the branch's answer is 10 + its target).
uint64_t FloatCompare(const std::string& c, double a, double b) {
  Module m = Parse("func @f(%0:f64, %1:f64) -> i64 {\nbb0:\n  %2:i64 = cmp.f64 " + c +
                   " %0, %1\n  br.f64 " + c + " %0, %1, bb1, bb2\nbb1:\n  ret 11\nbb2:\n" +
                   "  ret %2\n}\n");
  return Interpreter(m, nullptr).Run("f", {Value::Double(a), Value::Double(b)})->bits;
}

TEST(LirInterpreter, FloatComparesAreOrderedAsPythons) {
  // Taken branches answer 11, so a compare and its branch must agree.
  EXPECT_EQ(FloatCompare("slt", 1.0, 2.0), 11u);
  EXPECT_EQ(FloatCompare("slt", 2.0, 1.0), 0u);
  EXPECT_EQ(FloatCompare("sle", -0.0, 0.0), 11u);
  EXPECT_EQ(FloatCompare("eq", -0.0, 0.0), 11u);
  EXPECT_EQ(FloatCompare("sge", -INFINITY, -1e308), 0u);
  for (const char* c : {"eq", "slt", "sle", "sgt", "sge"}) {
    EXPECT_EQ(FloatCompare(c, NAN, 1.0), 0u) << c;  // unordered: false
    EXPECT_EQ(FloatCompare(c, 1.0, NAN), 0u) << c;
    EXPECT_EQ(FloatCompare(c, NAN, NAN), 0u) << c;
  }
  EXPECT_EQ(FloatCompare("ne", NAN, NAN), 11u);
  EXPECT_THROW(Parse("func @f(%0:f64) -> i64 {\nbb0:\n  %1:i64 = cmp.f64 ult %0, %0\n"
                     "  ret %1\n}\n"),
               VerifyError);  // no unsigned order on f64
}

// The host helper the tests below call: @host_neg.
int64_t HostNeg(int64_t x) { return -x; }
std::optional<uint64_t> ResolveHostNeg(const std::string& name) {
  if (name == "host_neg") return reinterpret_cast<uintptr_t>(&HostNeg);
  return std::nullopt;
}

TEST(LirInterpreter, LoopsCallsSlotsAndHelpers) {
  Module m = Parse(R"(
func @sq(%0:i64) -> i64 {
bb0:
  %1:i64 = mul %0, %0
  ret %1
}
func @sum_squares(%0:i64) -> i64 {
  slot ss0 = 8
bb0:
  %1:i64 = mov 0
  %2:i64 = mov 1
  %5:ptr = slotaddr ss0
  jmp bb1
bb1:
  br.i64 sgt %2, %0, bb3, bb2
bb2:
  %3:i64 = call @sq(%2)
  %1:i64 = add %1, %3
  store.i64 %1, [%5]
  %2:i64 = add %2, 1
  jmp bb1
bb3:
  %4:i64 = load [%5]
  %6:i64 = call @host_neg(%4)
  ret %6
}
)");
  Interpreter interp(m, ResolveHostNeg);
  EXPECT_EQ(static_cast<int64_t>(interp.Run("sum_squares", {Value{10}})->bits), -385);
}

// A tail call returns its callee's result, a module function's or a host helper's.
TEST(LirInterpreter, TailCallsReturnTheCalleesResult) {
  Module m = Parse(R"(
func @twice(%0:i64) -> i64 {
bb0:
  %1:i64 = add %0, %0
  ret %1
}
func @f(%0:i64) -> i64 {
bb0:
  br.i64 slt %0, 0, bb2, bb1
bb1:
  tailcall @twice(%0)
bb2:
  tailcall @host_neg(%0)
}
)");
  Interpreter interp(m, ResolveHostNeg);
  EXPECT_EQ(static_cast<int64_t>(interp.Run("f", {Value{21}})->bits), 42);
  EXPECT_EQ(static_cast<int64_t>(interp.Run("f", {Value{static_cast<uint64_t>(-9)}})->bits), 9);
}

TEST(LirInterpreter, BudgetsAndBadAccessesAreErrors) {
  Module loop = Parse("func @f() {\nbb0:\n  jmp bb0\n}\n");
  InterpreterOptions o;
  o.step_budget = 1000;
  EXPECT_THROW(Interpreter(loop, nullptr, o).Run("f", {}), InterpError);
  Module load = Parse("func @f(%0:ptr) -> i64 {\nbb0:\n  %1:i64 = load [%0 + 8]\n  ret %1\n}\n");
  uint64_t word = 5;
  o.allowed_memory = {{reinterpret_cast<uintptr_t>(&word), reinterpret_cast<uintptr_t>(&word) + 8}};
  EXPECT_THROW(Interpreter(load, nullptr, o).Run("f", {Value{reinterpret_cast<uintptr_t>(&word)}}),
               InterpError);
  EXPECT_THROW(Interpreter(load, nullptr).Run("nope", {}), InterpError);
  // Machine code has no meaning here: a call through a register is an error naming its line.
  Module through = Parse("func @f(%0:ptr) -> i64 {\nbb0:\n  %1:i64 = call *%0()\n  ret %1\n}\n");
  try {
    Interpreter(through, nullptr).Run("f", {Value{0x1000}});
    ADD_FAILURE() << "no error";
  } catch (const InterpError& e) {
    EXPECT_STREQ(e.what(), "call through a register has no meaning in the interpreter (line 3)");
  }
}

}  // namespace
}  // namespace a64jit::lir
