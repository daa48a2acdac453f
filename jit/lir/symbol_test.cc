#include "jit/lir/symbol.h"

#include <gtest/gtest.h>

#include <string>

#include "jit/lir/lir.h"
#include "jit/lir/text.h"

namespace a64jit::lir {
namespace {

TEST(SymbolTest, EqualNamesAreOneSymbolWhereverTheyCameFrom) {
  const std::string built = std::string("a64_") + "dealloc";
  const Symbol from_literal("a64_dealloc");
  const Symbol from_string(built);
  EXPECT_EQ(from_literal, from_string);
  EXPECT_EQ(&from_literal.str(), &from_string.str());  // the same interned string
  EXPECT_NE(from_literal, Symbol("a64_dealloc_at"));
  EXPECT_EQ(from_literal.str(), "a64_dealloc");
}

TEST(SymbolTest, AnEmptyNameIsTheEmptySymbol) {
  EXPECT_TRUE(Symbol().empty());
  EXPECT_TRUE(Symbol("").empty());
  EXPECT_TRUE(Symbol(static_cast<const char*>(nullptr)).empty());
  EXPECT_EQ(Symbol(""), Symbol());
  EXPECT_EQ(Symbol().str(), "");
  EXPECT_FALSE(Symbol("x").empty());
}

TEST(SymbolTest, ReadsAsTheNameInMessages) {
  const Symbol s("helper");
  EXPECT_EQ("@" + s, "@helper");
  EXPECT_EQ(std::string("call @") + s + "(", "call @helper(");
}

// A call parsed from text and one built in code name the same callee, and print it back.
TEST(SymbolTest, ParsedAndBuiltCallsNameTheSameCallee) {
  const Module m = Parse(
      "extern @some_helper = 0x1000\n"
      "func @f(%0:ptr) -> ptr {\n"
      "bb0:\n"
      "  %1:ptr = call @some_helper(%0)\n"
      "  ret %1\n"
      "}\n");
  const Function& f = m.functions[0];
  const Instr& call = f.blocks[0].instrs[0];
  Instr built;
  built.callee = "some_helper";
  EXPECT_EQ(call.callee, built.callee);
  EXPECT_NE(Print(f).find("call @some_helper(%0)"), std::string::npos);
}

}  // namespace
}  // namespace a64jit::lir
