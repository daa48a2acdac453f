// Hand-written LIR run by the interpreter and as emitted code on this host's executor,
// compared bit for bit. Every test checks the emitted code really ran.
#include "difftest/lir/lir_diff.h"

#include <gtest/gtest.h>

#include <cmath>

#include "difftest/lir/expect_match.h"
#include "jit/lir/text.h"

namespace a64jit::difftest {
namespace {

using lir::Value;

class LirDiffTest : public ::testing::Test {
 protected:
  void ExpectSame(const std::string& text, std::vector<Value> args, size_t memory = 0) {
    ExpectMatch(diff_, text, std::move(args), memory);
  }
  LirDiff diff_;
};

// `%2:T = OP %0, %1` over interesting operand pairs, register and immediate forms.
TEST_F(LirDiffTest, IntegerBinaryOpsAtEveryWidth) {
  const char* ops[] = {"add", "sub", "mul", "sdiv", "udiv", "srem", "urem",
                       "and", "or",  "xor", "shl",  "lshr", "ashr"};
  const uint64_t values[] = {0,
                             1,
                             2,
                             7,
                             0x7f,
                             0x80,
                             0xff,
                             0x7fff,
                             0x8000,
                             0xffff,
                             0x7fffffff,
                             0x80000000,
                             0xffffffff,
                             0x8000000000000000ull,
                             ~0ull,
                             4095,
                             4096,
                             0xfff000,
                             0x123456789abcdefull,
                             63,
                             64,
                             65,
                             33};
  for (const char* t : {"i8", "i16", "i32", "i64"}) {
    for (const char* op : ops) {
      const std::string reg = std::string("func @f(%0:") + t + ", %1:" + t + ") -> " + t +
                              " {\nbb0:\n  %2:" + t + " = " + op + " %0, %1\n  ret %2\n}\n";
      for (uint64_t a : {uint64_t{0x80}, uint64_t{0xfffffffffffff9ull}, uint64_t{12345}}) {
        for (uint64_t b : values) {
          ExpectSame(reg, {Value{a}, Value{b}});
          const std::string imm = std::string("func @f(%0:") + t + ") -> " + t +
                                  " {\nbb0:\n  %2:" + t + " = " + op + " %0, " +
                                  std::to_string(static_cast<int64_t>(b)) + "\n  ret %2\n}\n";
          ExpectSame(imm, {Value{a}});
        }
      }
    }
  }
}

TEST_F(LirDiffTest, ComparesAndBranchesWithNarrowGarbage) {
  // The i8 operands arrive as 64-bit values with garbage above bit 7.
  for (const char* c : {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"}) {
    for (const char* t : {"i8", "i16", "i32", "i64"}) {
      const std::string text = std::string("func @f(%0:") + t + ", %1:" + t +
                               ") -> i64 {\nbb0:\n  %2:i8 = cmp." + t + " " + c +
                               " %0, %1\n  %3:i64 = zext %2\n  br." + t + " " + c +
                               " %0, -2, bb1, bb2\nbb1:\n  %4:i64 = add %3, 10\n  ret %4\nbb2:\n"
                               "  ret %3\n}\n";
      for (uint64_t a : {0x1234567800000081ull, 0x00000000000000feull, 0x5555555555555555ull}) {
        for (uint64_t b : {0xffffffffffffff81ull, 0x7ull, 0x8000000000000000ull}) {
          ExpectSame(text, {Value{a}, Value{b}});
        }
      }
    }
  }
}

TEST_F(LirDiffTest, FloatComparesAndBranches) {
  // Each condition as a value and as a branch (register and immediate operands); NaN
  // operands make every one but ne false, and a branch inverted by codegen must stay so.
  for (const char* c : {"eq", "ne", "slt", "sle", "sgt", "sge"}) {
    const std::string text =
        std::string("func @f(%0:f64, %1:f64) -> i64 {\nbb0:\n") + "  %2:i64 = cmp.f64 " + c +
        " %0, %1\n  %3:i64 = cmp.f64 " + c +
        " %0, 1.5\n  %4:i64 = shl %3, 1\n  %5:i64 = or %2, %4\n" + "  br.f64 " + c +
        " %0, %1, bb1, bb2\nbb1:\n  ret %5\nbb2:\n" + "  %6:i64 = add %5, 10\n  br.f64 " + c +
        " %1, %0, bb3, bb4\nbb3:\n  ret %6\nbb4:\n  %7:i64 = add %6, 100" + "\n  ret %7\n}\n";
    for (double a : {1.5, -0.0, 0.0, 2.0, -1e300, HUGE_VAL, double{NAN}}) {
      for (double b : {1.5, 0.0, -2.0, double{NAN}, -HUGE_VAL}) {
        ExpectSame(text, {Value::Double(a), Value::Double(b)});
      }
    }
  }
}

TEST_F(LirDiffTest, ConversionsSelectAndFloat) {
  const std::string text = R"(func @f(%0:i64, %1:f64, %2:i8) -> f64 {
bb0:
  %3:i16 = trunc %0
  %4:i64 = sext %3
  %5:i32 = zext %2
  %6:i64 = sext %5
  %7:f64 = sitof %2
  %8:f64 = sitof %4
  %9:f64 = fadd %7, %8
  %10:f64 = fmul %9, %1
  %11:f64 = fdiv %10, 0.0
  %12:f64 = fsub %11, %11
  %13:f64 = select %2, %12, %10
  %14:i32 = ftosi %13
  %15:f64 = sitof %14
  %16:f64 = fneg %15
  %17:i8 = cmp.i64 sgt %6, 0
  %18:f64 = select %17, %16, 1.2345678901234567
  ret %18
}
)";
  for (uint64_t a : {0x12345678ffff8001ull, 0ull, 0x7fffull}) {
    for (double d : {1.5, -0.0, 1e300, -3.25}) {
      for (uint64_t b : {0x100ull, 0xffull, 0x7full}) {
        ExpectSame(text, {Value{a}, Value::Double(d), Value{b}});
      }
    }
  }
}

TEST_F(LirDiffTest, LoadsStoresAtEveryWidthAndOffset) {
  std::string text = "func @f(%0:ptr, %1:i64) -> i64 {\nbb0:\n  %2:i64 = and %1, 15\n";
  int v = 3;
  for (const char* t : {"i8", "i16", "i32", "i64", "f64"}) {
    for (const char* addr : {"[%0]", "[%0 + 1]", "[%0 + 255]", "[%0 + 4095]", "[%0 + 4096]",
                             "[%0 + 32760]", "[%0 + 32768]", "[%0 + 60001]", "[%0 + %2]",
                             "[%0 + %2*2]", "[%0 + %2*4 + 100]", "[%0 + %2*8 + 50000]"}) {
      const int load = v++;
      text += "  %" + std::to_string(load) + ":" + t + " = load " + addr + "\n";
      text += std::string("  store.") + t + " %" + std::to_string(load) + ", [%0 + %2*8 + " +
              std::to_string(1000 + 8 * v) + "]\n";
    }
  }
  text += "  ret %2\n}\n";
  ExpectSame(text, {Value{5}}, 65536);
  ExpectSame(text, {Value{12}}, 65536);
}

TEST_F(LirDiffTest, LoopsCallsHelpersAndStackArguments) {
  std::string many = "func @many(";
  for (int i = 0; i < 12; i++) many += "%" + std::to_string(i) + ":i64, ";
  for (int i = 12; i < 22; i++) many += "%" + std::to_string(i) + ":f64" + (i < 21 ? ", " : "");
  many += ") -> i64 {\nbb0:\n  %30:i64 = mov 0\n";
  for (int i = 0; i < 12; i++) {
    many += "  %30:i64 = mul %30, 31\n  %30:i64 = add %30, %" + std::to_string(i) + "\n";
  }
  for (int i = 12; i < 22; i++) {
    many += "  %" + std::to_string(40 + i) + ":i64 = ftosi %" + std::to_string(i) +
            "\n  %30:i64 = mul %30, 7\n  %30:i64 = add %30, %" + std::to_string(40 + i) + "\n";
  }
  many += "  ret %30\n}\n";
  std::string text = many + R"(
func @f(%0:ptr, %1:i64, %2:f64) -> i64 {
bb0:
  %3:i64 = mov 0
  %4:i64 = mov 0
  jmp bb1
bb1:
  %5:i64 = call @h_mix3(%3, %1, %4)
  %4:i64 = add %4, %5
  %6:f64 = sitof %3
  %7:f64 = call @h_fmix(%2, %6, %4)
  %8:i64 = ftosi %7
  %9:i64 = call @h_wide(%1, %3, %4, %5, %8, %1, %3, %4, %2, %6, %7, %2, %6, %7, %2, %6)
  call @h_void(%0)
  %10:i64 = call @many(%9, %1, %3, %4, %5, %8, %9, %1, %3, %4, %5, %8, %2, %6, %7, %2, %6, %7, %2, %6, %7, %2)
  %4:i64 = xor %4, %10
  %3:i64 = add %3, 1
  br.i64 slt %3, 5, bb1, bb2
bb2:
  ret %4
}
)";
  ExpectSame(text, {Value{77}, Value::Double(2.5)}, 64);
}

}  // namespace
}  // namespace a64jit::difftest
