// HIR text (jit/hir/text.h): every function in golden/hir/*.hir's expected output parses and
// prints back to the same text; hand-written HIR goes through a pass; malformed text gets an
// error that names its line and what is wrong.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "golden/filetest.h"
#include "jit/hir/passes.h"
#include "jit/hir/text.h"

namespace a64jit::hir {
namespace {

// The functions of one golden file's expected output, each as Print writes it.
std::vector<std::string> GoldenFunctions(const std::string& path) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  std::vector<std::string> functions;
  for (const std::string& line : golden::Lines(golden::SplitFileTest(buf.str()).expected)) {
    if (line.rfind("function ", 0) == 0) functions.emplace_back();
    if (!functions.empty()) functions.back() += line + "\n";
  }
  return functions;
}

std::vector<std::string> GoldenHirFiles() {
  std::vector<std::string> files;
  golden::ListFiles("golden/hir", ".hir", &files);
  return files;
}

TEST(HirText, GoldenFunctionsRoundTrip) {
  int functions = 0, instrs = 0;
  for (const std::string& file : GoldenHirFiles()) {
    for (const std::string& text : GoldenFunctions(file)) {
      Function f;
      try {
        f = Parse(text);
      } catch (const ParseError& e) {
        ADD_FAILURE() << file << ": " << e.what() << "\n" << text;
        continue;
      }
      EXPECT_EQ(Print(f), text) << file;
      functions++;
      instrs += static_cast<int>(f.InstrCount());
    }
  }
  // Every function the files hold took part (a reader that found none would pass above).
  int headers = 0;
  for (const std::string& file : GoldenHirFiles()) {
    std::ifstream in(file);
    std::string line;
    while (std::getline(in, line)) headers += line.rfind("; function ", 0) == 0 ? 1 : 0;
  }
  EXPECT_GT(functions, 0);
  EXPECT_EQ(functions, headers);
  std::printf("round trip: %d functions, %d instructions\n", functions, instrs);
}

TEST(HirText, RegistersAndConstantsComeBack) {
  const Function f = Parse(
      "function m:g (locals 2, args 1)\n"
      "bb0 (in 0, out 1, @0):\n"
      "  %0 = LoadLocal 0 (x)\n"
      "  %1 = LoadConst 3 ((1, 'a'))\n"
      "  %2:cint = IsSame %0, %1\n"
      "  s0 = BoolFromCInt %2\n"
      "  Jump bb1\n"
      "bb1 (in 1, out 0):\n"
      "  Return s0\n");
  ASSERT_EQ(f.blocks.size(), 2u);
  EXPECT_EQ(f.code.localsplus_names[0], "x");
  EXPECT_EQ(f.code.const_reprs[3], "(1, 'a')");
  EXPECT_EQ(f.reg_types[2], ValueType::kCInt);
  EXPECT_TRUE(f.IsStackReg(f.blocks[0].instrs[3].dst));
  EXPECT_EQ(f.blocks[0].instrs[4].targets[0], 1);
  EXPECT_EQ(f.blocks[1].in_depth, 1);
}

// A comprehension's hint about `.0` (CodeInfo::first_local_iterator) comes back.
TEST(HirText, LocalIteratorHintComesBack) {
  const std::string text =
      "function m:<dictcomp> (locals 3, args 1, local 0 dict_items)\n"
      "bb0 (in 0, out 0, @0):\n"
      "  %0 = LoadLocal 0 (.0)\n"
      "  Return %0\n";
  const Function f = Parse(text);
  EXPECT_EQ(f.code.first_local_iterator, CodeInfo::LocalIterator::kDictItems);
  EXPECT_EQ(Print(f), text);
}

// A pass run on hand-written HIR: the refcount pass releases a new reference after its last
// use and marks the borrowed values of a frame state.
TEST(HirText, RefcountPassOnHandWrittenHir) {
  Function f = Parse(
      "function m:h (locals 2, args 2)\n"
      "bb0 (in 0, out 0, @0):\n"
      "  %0 = LoadLocal 0 (a)\n"
      "  %1 = LoadLocal 1 (b)\n"
      "  %2 = BinaryOp %0, %1, nb=0  {error @4 [%0, %1]}\n"
      "  %3 = BinaryOp %2, %1, nb=0  {error @8 [%2, %1]}\n"
      "  Return %3\n");
  InsertRefcounts(f);
  EXPECT_EQ(Print(f),
            "function m:h (locals 2, args 2)\n"
            "bb0 (in 0, out 0, @0):\n"
            "  %0 = LoadLocal 0 (a)\n"
            "  %1 = LoadLocal 1 (b)\n"
            "  %2 = BinaryOp %0, %1, nb=0  {error @4 [%0 borrowed, %1 borrowed]}\n"
            "  %3 = BinaryOp %2, %1, nb=0  {error @8 [%2, %1 borrowed]}\n"
            "  Decref %2\n"
            "  Return %3\n");
}

std::string ErrorOf(const std::string& text) {
  try {
    Parse(text);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "(parsed)";
}

TEST(HirText, MalformedTextNamesLineAndProblem) {
  const std::string head = "function m:f (locals 1, args 1)\nbb0 (in 0, out 0):\n";
  EXPECT_EQ(ErrorOf(""), "line 1: no function");
  EXPECT_EQ(ErrorOf("fn m:f\n"),
            "line 1: expected 'function MODULE:QUALNAME (locals N, args M[, local 0 ITERATOR])'");
  EXPECT_EQ(ErrorOf("function m:<listcomp> (locals 1, args 1, local 0 range)\n"),
            "line 1: unknown iterator 'range' for local 0 (enumerate, dict_items, dict_keys, "
            "dict_values, zip)");
  EXPECT_EQ(ErrorOf(head + "  %0 = Frobnicate %1\n"), "line 3: unknown op 'Frobnicate'");
  EXPECT_EQ(ErrorOf(head + "  Return\n"), "line 3: Return takes 1 operands, not 0");
  EXPECT_EQ(ErrorOf(head + "  %0 = BinaryOp %1, %2, nb=x  {error @2 []}\n"),
            "line 3: expected a number, not 'x'");
  EXPECT_EQ(ErrorOf(head + "  %0 = CompareOp %1, %2, <>  {error @2 []}\n"),
            "line 3: CompareOp's immediate is one of < <= == != > >=, not '<>'");
  EXPECT_EQ(ErrorOf(head + "  Jump bb7\n"), "line 3: bb7 does not exist");
  EXPECT_EQ(ErrorOf(head + "bb2 (in 0, out 0):\n"),
            "line 3: blocks must come in order: expected bb1");
  EXPECT_EQ(ErrorOf(head + "  %0 = LoadLocal 0 (a)\n  %1 = LoadLocal 0 (b)\n"),
            "line 4: index 0 is 'a' elsewhere, not 'b'");
  EXPECT_EQ(ErrorOf(head + "  %0 = BinaryOp %1, %2  {oops @2 []}\n"),
            "line 3: a state is 'error @N', 'resume @N', 'raised' or 'reraise @N', not 'oops @2'");
  EXPECT_EQ(ErrorOf("function m:f (locals 1, args 1)\n  Return %0\n"),
            "line 2: an instruction before the first block");
  EXPECT_EQ(ErrorOf(head + "  %0 = BinaryOp %1, %2, nb=0 inline=double  {error @2 []}\n"),
            "line 3: inline= takes int, float or int+float, not 'double'");
  EXPECT_EQ(ErrorOf(head + "  StoreLocal %1, 0 (a) unboxed=int\n"),
            "line 3: unboxed= needs a result register");
  EXPECT_EQ(ErrorOf(head + "  %3 = Call %0, %1, %2, argc=1 borrowed=2,x  {error @2 []}\n"),
            "line 3: expected a number, not 'x'");
  EXPECT_EQ(ErrorOf(head + "  %3 = Call %0, %1, %2, argc=1 borrowed=32  {error @2 []}\n"),
            "line 3: borrowed= operand 32 is out of range");
  EXPECT_EQ(ErrorOf(head + "  %0 = BinaryOp %1, %2, nb=0 borrowed=1  {error @2 []}\n"),
            "line 3: BinaryOp takes no lent operands");
  EXPECT_EQ(ErrorOf(head + "  %0 = BinaryOp %1, %2, nb=0 lent-self  {error @2 []}\n"),
            "line 3: BinaryOp has no lent self");
  EXPECT_EQ(ErrorOf(head + "  %3 = Call %0, %1, %2, argc=1 given-self  {error @2 []}\n"),
            "line 3: Call has no given self");
}

// The number forms (number_forms.h) come back: an op's inline forms and a register's unboxed
// forms, which Print shows on the register's definition.
TEST(HirText, NumberFormsComeBack) {
  const std::string text =
      "function m:f (locals 2, args 2)\n"
      "bb0 (in 0, out 0):\n"
      "  %0 = LoadLocal 0 (a)\n"
      "  %1 = LoadLocal 1 (b)\n"
      "  %2 = BinaryOp %0, %1, nb=5 [float] inline=float unboxed=float  {error @6 []}\n"
      "  %3 = BinaryOp %2, %1, nb=0 inline=int+float  {error @8 []}\n"
      "  Return %3\n";
  const Function f = Parse(text);
  EXPECT_EQ(f.blocks[0].instrs[2].forms, kFloatForm);
  EXPECT_EQ(f.blocks[0].instrs[3].forms, kIntForm | kFloatForm);
  EXPECT_EQ(f.unboxed[2], kFloatForm);
  EXPECT_EQ(f.unboxed[3], 0);
  EXPECT_EQ(Print(f), text);
}

}  // namespace
}  // namespace a64jit::hir
