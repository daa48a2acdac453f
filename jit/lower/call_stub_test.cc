// The call stub's text: every fact filled in, and a function the verifier accepts. What it
// does is tested by running it (difftest/python/module_api_test.py: "the call stub enters
// them", in both configs).
#include "jit/lower/call_stub.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace a64jit::lower {
namespace {

CallStubFacts SomeFacts() {
  CallStubFacts f;
  f.function_type = 0x800;
  f.method_type = 0x810;
  f.cfunction_type = 0x808;
  f.jit_vectorcall = 0x1000;
  f.state_cache = 0x2000;
  f.state_cache_mask = 1023;
  f.state_entry = 0;
  f.state_plain_argcount = 8;
  f.state_frame_bytes = 16;
  f.direct_thread_slot = 0x3008;
  f.entry_counter = 0x3010;
  f.eval_breaker = 0x3018;
  f.instantiate_entry = 0x3020;
  return f;
}

TEST(CallStub, EveryFactIsFilledIn) {
  const std::string text = CallStubText(SomeFacts());
  EXPECT_EQ(text.find('$'), std::string::npos) << text;
  EXPECT_NE(text.find("br.i64 ne %13, 4096, bb12, bb18"), std::string::npos) << text;
}

TEST(CallStub, VerifiesAndFallsBackToTheHelpers) {
  const lir::Function f = CallStub(SomeFacts());
  EXPECT_EQ(f.name, "a64_call_stub");
  ASSERT_EQ(f.params.size(), 3u);  // ts, sp, the C-call cache (the oparg in its header)
  bool enters = false, leaves = false, inits = false;
  for (const lir::Block& b : f.blocks) {
    for (const lir::Instr& in : b.instrs) {
      enters |= in.callee == "a64_call_enter";
      leaves |= in.callee == "a64_call_leave";
      inits |= in.callee == "a64_init_enter";
    }
  }
  EXPECT_TRUE(enters);
  EXPECT_TRUE(leaves);
  EXPECT_TRUE(inits);
}

TEST(KeywordCallStub, EveryFactIsFilledIn) {
  const std::string text = KeywordCallStubText();
  EXPECT_EQ(text.find('$'), std::string::npos) << text;
}

TEST(KeywordCallStub, VerifiesAndCallsItsHelpers) {
  const lir::Function f = KeywordCallStub();
  EXPECT_EQ(f.name, "a64_kw_call_stub");
  ASSERT_EQ(f.params.size(), 4u);  // ts, sp, oparg, the keyword names
  bool enters = false, leaves = false, runs = false, pops = false;
  for (const lir::Block& b : f.blocks) {
    for (const lir::Instr& in : b.instrs) {
      enters |= in.callee == "a64_call_kw_enter";
      leaves |= in.callee == "a64_call_leave";
      runs |= in.op == lir::Op::kCall && in.callee.empty();  // the callee's entry
      pops |= in.callee == "_Py_Dealloc";                    // a plain return's, popped here
    }
  }
  EXPECT_TRUE(enters);
  EXPECT_TRUE(leaves);
  EXPECT_TRUE(runs);
  EXPECT_TRUE(pops);
}

TEST(CallStub, MissingFactsAreAnError) {
  CallStubFacts f = SomeFacts();
  f.state_cache = 0;
  EXPECT_THROW(CallStubText(f), std::invalid_argument);
  f = SomeFacts();
  f.instantiate_entry = 0;
  EXPECT_THROW(CallStubText(f), std::invalid_argument);
  f = SomeFacts();
  f.method_type = 0;
  EXPECT_THROW(CallStubText(f), std::invalid_argument);
}

}  // namespace
}  // namespace a64jit::lower
