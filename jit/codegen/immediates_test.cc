// Encodability predicates at their boundaries (the constants bug class 1 is made of).
#include "jit/codegen/immediates.h"

#include <gtest/gtest.h>

namespace a64jit::codegen {
namespace {

TEST(Immediates, AddSub) {
  EXPECT_TRUE(IsAddSubImm(0));
  EXPECT_TRUE(IsAddSubImm(4095));
  EXPECT_TRUE(IsAddSubImm(4096));  // #1, lsl #12
  EXPECT_FALSE(IsAddSubImm(4097));
  EXPECT_FALSE(IsAddSubImm(5376));  // the large-frame case: needs two instructions
  EXPECT_TRUE(IsAddSubImm(0xfff000));
  EXPECT_FALSE(IsAddSubImm(0xfff001));
  EXPECT_FALSE(IsAddSubImm(0x1000000));
}

TEST(Immediates, Logical) {
  EXPECT_TRUE(IsLogicalImm(0xff, 64));
  EXPECT_TRUE(IsLogicalImm(0x5555555555555555ull, 64));
  EXPECT_FALSE(IsLogicalImm(0x5555555555555554ull, 64));  // near miss
  EXPECT_TRUE(IsLogicalImm(0xff00ff00ff00ff00ull, 64));
  EXPECT_FALSE(IsLogicalImm(0xff00ff00ff00ff01ull, 64));
  EXPECT_FALSE(IsLogicalImm(0, 64));
  EXPECT_FALSE(IsLogicalImm(~0ull, 64));
  EXPECT_TRUE(IsLogicalImm(0xffff0000u, 32));
  EXPECT_FALSE(IsLogicalImm(0xffffffffu, 32));
}

TEST(Immediates, MovSequences) {
  EXPECT_EQ(MovSequenceLength(0, 64), 1);
  EXPECT_EQ(MovSequenceLength(0xffff0000ull, 64), 1);
  EXPECT_EQ(MovSequenceLength(~0ull, 64), 1);                  // movn #0
  EXPECT_EQ(MovSequenceLength(0xfffffffffffffffeull, 64), 1);  // movn #1
  EXPECT_EQ(MovSequenceLength(0x12345678ull, 64), 2);
  EXPECT_EQ(MovSequenceLength(0x123456789abcdef0ull, 64), 4);
  EXPECT_EQ(MovSequenceLength(0xffffffff12345678ull, 64), 2);  // movn + movk
  EXPECT_EQ(MovSequenceLength(0x12345678u, 32), 2);
}

TEST(Immediates, MemoryOffsets) {
  EXPECT_TRUE(IsScaledOffset(32760, 8));
  EXPECT_FALSE(IsScaledOffset(32768, 8));
  EXPECT_FALSE(IsScaledOffset(12, 8));
  EXPECT_TRUE(IsScaledOffset(4095, 1));
  EXPECT_FALSE(IsScaledOffset(4096, 1));
  EXPECT_TRUE(IsUnscaledOffset(-256));
  EXPECT_FALSE(IsUnscaledOffset(256));
}

}  // namespace
}  // namespace a64jit::codegen
