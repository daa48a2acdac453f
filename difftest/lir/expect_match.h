// Test helper: parse LIR text, run it through LirDiff, and expect a bit-for-bit match with
// proof that the emitted code ran (guest instructions under Unicorn, code bytes always).
#ifndef A64JIT_DIFFTEST_LIR_EXPECT_MATCH_H_
#define A64JIT_DIFFTEST_LIR_EXPECT_MATCH_H_

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "difftest/lir/lir_diff.h"
#include "jit/lir/text.h"

namespace a64jit::difftest {

inline void ExpectMatch(LirDiff& diff, const std::string& text, std::vector<lir::Value> args,
                        size_t memory = 0) {
  lir::Module m = lir::Parse(text);
  DiffInput in;
  in.args = std::move(args);
  in.memory_size = memory;
  DiffOutcome o = diff.Check(m, in);
  EXPECT_EQ(o.kind, DiffOutcome::Kind::kMatch) << o.detail << "\n" << text;
#if !defined(__aarch64__)
  EXPECT_GT(o.guest_instructions, 0u) << "the emitted code did not run under Unicorn";
#endif
  EXPECT_GT(o.code_bytes, 0u);
}

}  // namespace a64jit::difftest

#endif  // A64JIT_DIFFTEST_LIR_EXPECT_MATCH_H_
