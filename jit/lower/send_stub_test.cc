// The send stub's text: every fact filled in, a function the verifier accepts, and its ways out
// to the helpers. What it does is tested by running it: difftest/python/corpus/send_stub_paths.py
// in both configs, whose stub_resumes must reach 3000.
#include "jit/lower/send_stub.h"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

namespace a64jit::lower {
namespace {

SendStubFacts SomeFacts() {
  SendStubFacts f;
  f.gen_type = 0x800;
  f.coro_type = 0x808;
  f.py_none = 0x810;
  f.state_cache = 0x2000;
  f.state_cache_mask = 1023;
  f.state_entry = 0;
  f.state_resumable = 24;
  f.direct_thread_slot = 0x3008;
  f.resume_counter = 0x3010;
  return f;
}

TEST(SendStub, EveryFactIsFilledIn) {
  const std::string text = SendStubText(SomeFacts());
  EXPECT_EQ(text.find('$'), std::string::npos) << text;
  EXPECT_NE(text.find("br.i64 eq %4, 2048, bb2, bb1"), std::string::npos) << text;
  EXPECT_NE(text.find("load [%12 + 24]"), std::string::npos) << text;
}

TEST(SendStub, VerifiesAndHandsOverToTheHelpers) {
  const lir::Function f = SendStub(SomeFacts());
  EXPECT_EQ(f.name, "a64_send_stub");
  ASSERT_EQ(f.params.size(), 4u);  // ts, receiver, value, out
  std::set<std::string> tail_callees;
  for (const lir::Block& b : f.blocks) {
    for (const lir::Instr& in : b.instrs) {
      if (in.op == lir::Op::kTailCall) tail_callees.insert(in.callee);
    }
  }
  EXPECT_EQ(tail_callees, (std::set<std::string>{"a64_send", "a64_send_end"}));
}

TEST(SendStub, MissingFactsAreAnError) {
  SendStubFacts f = SomeFacts();
  f.coro_type = 0;
  EXPECT_THROW(SendStubText(f), std::invalid_argument);
  f = SomeFacts();
  f.state_resumable = 0;
  EXPECT_THROW(SendStubText(f), std::invalid_argument);
}

}  // namespace
}  // namespace a64jit::lower
