// The LIR text format: exact round trips and errors that name line, column and expectation.
#include "jit/lir/text.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <set>
#include <string>

namespace a64jit::lir {
namespace {

constexpr const char* kEveryOp = R"(extern @helper = 0x7f0000001000

func @callee(%0:i64) -> i64 {
bb0:
  ret %0
}

func @all(%0:i64, %1:f64, %2:ptr, %3:i8) -> i64 {
  slot ss0 = 5376
  slot ss1 = 40000
bb0:
  %4:i64 = mov 4096
  %5:i64 = add %0, %4
  %6:i64 = sub %5, -1
  %7:i64 = mul %6, %0
  %8:i64 = sdiv %7, 3
  %9:i64 = udiv %7, %8
  %10:i64 = srem %9, %8
  %11:i64 = urem %10, 7
  %12:i64 = and %11, 255
  %13:i64 = or %12, %0
  %14:i64 = xor %13, -9223372036854775808
  %15:i64 = shl %14, 65
  %16:i64 = lshr %15, %0
  %17:i64 = ashr %16, 3
  %18:i64 = not %17
  %19:i64 = neg %18
  %20:i32 = trunc %19
  %21:i64 = sext %20
  %22:i64 = zext %3
  %23:f64 = fadd %1, 1.5
  %24:f64 = fsub %23, -0.0
  %25:f64 = fmul %24, 1e+300
  %26:f64 = fdiv %25, fbits(0x7ff8000000000000)
  %27:f64 = fneg %26
  %28:f64 = sitof %21
  %29:i32 = ftosi %28
  %30:i8 = cmp.i32 ult %29, -1
  %31:f64 = select %30, %27, 2.0
  %32:i16 = load [%2 + %0*2 + 16]
  store.i16 %32, [%2 - 8]
  store.f64 %31, [%2 + %22]
  store.i8 -1, [%2]
  %33:ptr = slotaddr ss1
  %34:ptr = frameptr
  %35:i64 = call @helper(%0, %1, %33)
  call @callee(%35)
  %36:i64 = call *%2(%35, %1)
  pad 3
  br.i64 sle %35, 10, bb1, bb2
bb1:
  br.i64 ne %35, 139637976731648 or ugt %0, %35, bb2, bb3
bb2:
  br %30, bb3, bb2
bb3:
  jmp bb4
bb4:
  ret %21
}
)";

TEST(LirText, EveryOpRoundTripsExactly) {
  Module m = Parse(kEveryOp);
  ASSERT_EQ(m.functions.size(), 2u);
  EXPECT_EQ(Print(m), kEveryOp);
  EXPECT_EQ(Print(Parse(Print(m))), kEveryOp);
  EXPECT_EQ(m.externs.at("helper"), 0x7f0000001000u);
}

TEST(LirText, SpecialDoublesRoundTrip) {
  const double kValues[] = {0.0,      -0.0,      0.1,         1e-310, -1.7976931348623157e308,
                            HUGE_VAL, -HUGE_VAL, std::nan("")};
  for (double d : kValues) {
    Function f;
    f.name = "f";
    f.ret = Type::kF64;
    f.blocks.emplace_back();
    Instr ret;
    ret.op = Op::kRet;
    ret.args.push_back(Operand::FImm(d));
    f.blocks[0].instrs.push_back(ret);
    Module m;
    m.functions.push_back(f);
    const std::string text = Print(m);
    Module back = Parse(text);
    EXPECT_EQ(Print(back), text);
    double got = back.functions[0].blocks[0].instrs[0].args[0].fimm;
    EXPECT_EQ(std::memcmp(&got, &d, sizeof d), 0) << text;
  }
}

// Parses `text` expecting a ParseError at (line, column) whose message contains `what`.
void ExpectParseError(const std::string& text, int line, int column, const std::string& what) {
  try {
    Parse(text);
    ADD_FAILURE() << "no error for:\n" << text;
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line(), line) << e.what();
    EXPECT_EQ(e.column(), column) << e.what();
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

TEST(LirText, ErrorsNameLineColumnAndExpectation) {
  ExpectParseError("func @f() {\nbb0:\n  frob %1\n}\n", 3, 3, "unknown instruction 'frob'");
  ExpectParseError("func @f() -> i64 {\nbb0:\n  %1:i64 = add %0,\n}\n", 3, 19,
                   "expected an operand");
  ExpectParseError("func @f() -> i64 {\nbb0:\n  ret %7\n}\n", 3, 7, "%7 is used but never defined");
  ExpectParseError("func @f(%0:i65) {\n", 1, 12, "expected a type");
  ExpectParseError("func @f() {\nbb0:\n  ret\n", 4, 1,
                   "expected an instruction, found 'end of input'");
  ExpectParseError("func @f() {\nbb0:\n  %1:i64 = cmp slt %0, 1\n", 3, 12, "expected 'cmp.TYPE'");
}

TEST(LirText, VerifierNamesFunctionBlockAndInstruction) {
  try {
    Parse("func @g(%0:i64) {\nbb0:\n  jmp bb5\n}\n");
    FAIL() << "no error";
  } catch (const VerifyError& e) {
    EXPECT_STREQ(e.what(), "@g bb0 'jmp' (line 3): branch to unknown block bb5");
  }
  EXPECT_THROW(Parse("func @g(%0:i64) {\nbb0:\n  %1:i64 = fadd %0, %0\n  ret\n}\n"), VerifyError);
  EXPECT_THROW(Parse("func @g(%0:i8) {\nbb0:\n  call @x(%0)\n  ret\n}\n"), VerifyError);
  EXPECT_THROW(Parse("func @g() {\nbb0:\n  ret\n  ret\n}\n"), VerifyError);
  try {
    Parse("func @g(%0:f64) {\nbb0:\n  call *%0()\n  ret\n}\n");
    FAIL() << "no error";
  } catch (const VerifyError& e) {
    EXPECT_STREQ(e.what(), "@g bb0 'call' (line 3): call target must be i64 or ptr");
  }
  ExpectParseError("func @g() {\nbb0:\n  call *@x()\n}\n", 3, 9,
                   "expected the target register after 'call *'");
  // The either form of br: integers, the second pair of at least 32 bits (`or.TYPE`).
  try {
    Parse("func @g(%0:i8) {\nbb0:\n  br.i8 eq %0, 1 or eq %0, 2, bb1, bb1\nbb1:\n  ret\n}\n");
    FAIL() << "no error";
  } catch (const VerifyError& e) {
    EXPECT_STREQ(e.what(),
                 "@g bb0 'br' (line 3): the second compare of an either branch takes i32, i64 "
                 "or ptr operands");
  }
  EXPECT_THROW(
      Parse("func @g(%0:f64) {\nbb0:\n  br.f64 eq %0, %0 or eq %0, %0, bb1, bb1\nbb1:\n  ret\n}\n"),
      VerifyError);
  EXPECT_NO_THROW(
      Parse("func @g(%0:i8, %1:i32) {\nbb0:\n  br.i8 ne %0, 0 or.i32 sgt %1, 2, bb1, bb1\nbb1:\n  "
            "ret\n}\n"));
  ExpectParseError("func @g(%0:i64) {\nbb0:\n  br.i64 eq %0, 1 or.f32 eq %0, 2, bb1, bb1\n}\n", 3,
                   19, "expected 'or' or 'or.TYPE'");
  ExpectParseError("func @g(%0:i64) {\nbb0:\n  br.i64 eq %0, 1 or %0, 2, bb1, bb1\n}\n", 3, 22,
                   "expected a condition (eq ne slt sle sgt sge ult ule ugt uge)");
}

TEST(LirText, TruncatedAndGarbageInputAreErrorsNotCrashes) {
  const std::string good = kEveryOp;
  for (size_t cut = 0; cut < good.size(); cut += 7) {
    try {
      Parse(good.substr(0, cut));
    } catch (const ParseError&) {
    } catch (const VerifyError&) {
    }
  }
  EXPECT_THROW(Parse("\x01\x02\xff garbage"), ParseError);
  EXPECT_THROW(Parse("func @f() {\nbb0:\n  %99999999:i64 = mov 1\n"), ParseError);
}

// ops.h's table: one name per op, and the printer's switch agrees with the syntax column the
// parser goes by (every kPlain op is printed as `name operand, ...`).
TEST(LirText, OpTableNamesAndPlainSyntax) {
  std::set<std::string> names;
  for (Op op : kAllOps) {
    EXPECT_TRUE(names.insert(OpName(op)).second) << OpName(op);
    if (OpSyntaxOf(op) != OpSyntax::kPlain) continue;
    Function f;
    Instr in;
    in.op = op;
    in.args = {Operand::Imm(1), Operand::Imm(2)};
    EXPECT_EQ(PrintInstr(f, in), std::string(OpName(op)) + " 1, 2");
  }
  EXPECT_EQ(names.size(), std::size(kAllOps));
}

}  // namespace
}  // namespace a64jit::lir
