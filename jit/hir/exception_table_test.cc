#include "jit/hir/exception_table.h"

#include <gtest/gtest.h>

namespace a64jit::hir {
namespace {

// co_exceptiontable of, under python3.11,
//   def f(x):
//       try:
//           return g(x)
//       except (KeyError, ValueError) as e:
//           return e
//       finally:
//           x = 0
// and the entries dis._parse_exception_table reads from it (in code units).
const std::vector<uint8_t> kTable = {130, 14, 19, 0, 147, 17, 50, 3, 164, 1, 45, 3, 165, 1, 50, 3,
                                     166, 4,  53, 0, 173, 5,  50, 3, 178, 3, 53, 0, 181, 4, 57, 3};

TEST(ExceptionTable, DecodesWhatDisReads) {
  const std::vector<ExceptionHandler> h = DecodeExceptionTable(kTable);
  ASSERT_EQ(h.size(), 8u);
  const int want[8][5] = {{2, 16, 19, 0, 0},  {19, 36, 50, 1, 1}, {36, 37, 45, 1, 1},
                          {37, 38, 50, 1, 1}, {38, 42, 53, 0, 0}, {45, 50, 50, 1, 1},
                          {50, 53, 53, 0, 0}, {53, 57, 57, 1, 1}};
  for (size_t i = 0; i < h.size(); i++) {
    SCOPED_TRACE(i);
    EXPECT_EQ(h[i].start, want[i][0]);
    EXPECT_EQ(h[i].end, want[i][1]);
    EXPECT_EQ(h[i].target, want[i][2]);
    EXPECT_EQ(h[i].depth, want[i][3]);
    EXPECT_EQ(h[i].lasti, want[i][4] != 0);
  }
}

TEST(ExceptionTable, FindsTheEntryCoveringAUnit) {
  const std::vector<ExceptionHandler> h = DecodeExceptionTable(kTable);
  EXPECT_EQ(HandlerIndexAt(h, 0), -1);   // RESUME: not protected
  EXPECT_EQ(HandlerIndexAt(h, 2), 0);    // first unit of the range
  EXPECT_EQ(HandlerIndexAt(h, 15), 0);   // last
  EXPECT_EQ(HandlerIndexAt(h, 16), -1);  // one past: the gap before the handler
  EXPECT_EQ(HandlerIndexAt(h, 36), 2);
  EXPECT_EQ(HandlerIndexAt(h, 57), -1);
}

// Numbers of more than one 6-bit group: 0x40 on every group but the last.
TEST(ExceptionTable, DecodesLongNumbers) {
  // start 100 = 1*64 + 36, length 5, target 4100 = 1*4096 + 0*64 + 4, depth 3 with lasti.
  const std::vector<uint8_t> table = {0x80 | 0x40 | 1, 36, 5, 0x40 | 1, 0x40 | 0, 4, 7};
  const std::vector<ExceptionHandler> h = DecodeExceptionTable(table);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_EQ(h[0].start, 100);
  EXPECT_EQ(h[0].end, 105);
  EXPECT_EQ(h[0].target, 4100);
  EXPECT_EQ(h[0].depth, 3);
  EXPECT_TRUE(h[0].lasti);
}

TEST(ExceptionTable, BadTablesAreErrorsThatSayWhere) {
  std::vector<uint8_t> truncated(kTable.begin(), kTable.begin() + 6);
  try {
    DecodeExceptionTable(truncated);
    FAIL() << "a truncated table decoded";
  } catch (const BadExceptionTable& e) {
    EXPECT_NE(std::string(e.what()).find("truncated at byte 6"), std::string::npos) << e.what();
  }
  const std::vector<uint8_t> no_start = {2, 14, 19, 0};
  EXPECT_THROW(DecodeExceptionTable(no_start), BadExceptionTable);
  const std::vector<uint8_t> endless = {0xc0, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f, 0x7f};
  EXPECT_THROW(DecodeExceptionTable(endless), BadExceptionTable);
}

}  // namespace
}  // namespace a64jit::hir
