#include "jit/lir/small_vector.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace a64jit::lir {
namespace {

struct Pair {
  int a, b;
};
using Vec = SmallVector<Pair, 2>;

std::vector<int> Firsts(const Vec& v) {
  std::vector<int> out;
  for (const Pair& p : v) out.push_back(p.a);
  return out;
}

Vec Counting(int n) {
  Vec v;
  for (int i = 0; i < n; i++) v.push_back(Pair{i, -i});
  return v;
}

TEST(SmallVectorTest, GrowsPastItsInlineRoomKeepingOrder) {
  const Vec v = Counting(9);
  ASSERT_EQ(v.size(), 9u);
  EXPECT_EQ(Firsts(v), (std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(v.back().b, -8);
  EXPECT_EQ(v.front().a, 0);
}

TEST(SmallVectorTest, CopiesAreIndependentInlineAndOnTheHeap) {
  for (int n : {1, 2, 5}) {
    Vec original = Counting(n);
    Vec copy = original;
    copy[0].a = 100;
    copy.push_back(Pair{7, 7});
    EXPECT_EQ(original[0].a, 0) << n;
    EXPECT_EQ(original.size(), static_cast<size_t>(n));
    EXPECT_EQ(copy.size(), static_cast<size_t>(n) + 1);
    Vec assigned;
    assigned = original;
    EXPECT_EQ(Firsts(assigned), Firsts(original)) << n;
  }
}

TEST(SmallVectorTest, MovesTakeTheElementsAndLeaveTheSourceEmpty) {
  for (int n : {0, 2, 6}) {
    Vec from = Counting(n);
    Vec to(std::move(from));
    EXPECT_EQ(Firsts(to), Firsts(Counting(n))) << n;
    EXPECT_TRUE(from.empty());  // NOLINT(bugprone-use-after-move): the state moves promise
    from.push_back(Pair{3, 3});  // and it stays usable
    EXPECT_EQ(from.size(), 1u);
    Vec target = Counting(5);
    target = std::move(to);
    EXPECT_EQ(Firsts(target), Firsts(Counting(n))) << n;
  }
}

TEST(SmallVectorTest, AssignsFromListsAndRangesAndTruncates) {
  Vec v = Counting(4);
  v = {Pair{9, 9}};
  EXPECT_EQ(Firsts(v), (std::vector<int>{9}));
  const std::vector<Pair> source = {{1, 1}, {2, 2}, {3, 3}};
  v.assign(source.begin(), source.end());
  EXPECT_EQ(Firsts(v), (std::vector<int>{1, 2, 3}));
  v.truncate(1);
  v.pop_back();
  EXPECT_TRUE(v.empty());
  v.clear();
  EXPECT_EQ(v.size(), 0u);
}

}  // namespace
}  // namespace a64jit::lir
