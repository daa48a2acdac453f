// Every golden/lir/*.lir, golden/hir/*.hir and golden/lower/*.lower file's expected output must
// equal what the code generator / HIR builder produces now; a mismatch prints a unified diff and
// how to bless.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "golden/filetest.h"
#include "golden/hir_passes.h"
#include "golden/hir_render.h"

namespace a64jit::golden {
namespace {

std::vector<std::string> GoldenFiles(const std::string& kind) {
  std::vector<std::string> files;
  ListFiles("golden/" + kind, "." + kind, &files);
  return files;
}

void CheckAll(const std::vector<std::string>& files) {
  for (const std::string& path : files) {
    std::ifstream in(path);
    std::stringstream buf;
    buf << in.rdbuf();
    const FileTest t = SplitFileTest(buf.str());
    ASSERT_FALSE(t.expected.empty()) << path << " has no expectation: bazel run //golden:bless";
    const std::string actual = RenderFor(path, t.input);
    const std::string diff = UnifiedDiff(t.expected, actual, path);
    EXPECT_TRUE(diff.empty()) << diff << "If the new output is right: bazel run //golden:bless";
  }
}

TEST(Golden, LirCodegenMatchesExpectations) {
  const std::vector<std::string> files = GoldenFiles("lir");
  ASSERT_GE(files.size(), 10u) << "golden files missing from the runfiles";
  CheckAll(files);
}

TEST(Golden, HirBuilderAndPassesMatchExpectations) {
  const std::vector<std::string> files = GoldenFiles("hir");
  ASSERT_GE(files.size(), 5u) << "golden files missing from the runfiles";
  CheckAll(files);
}

TEST(Golden, LoweringMatchesExpectations) {
  const std::vector<std::string> files = GoldenFiles("lower");
  ASSERT_GE(files.size(), 3u) << "golden files missing from the runfiles";
  CheckAll(files);
}

// HIR in, the named passes run, HIR out: precise (blessed) output, or the file's check lines.
TEST(Golden, HirPassesMatchExpectations) {
  const std::vector<std::string> files = GoldenFiles("passes");
  ASSERT_GE(files.size(), 2u) << "golden files missing from the runfiles";
  for (const std::string& path : files) {
    std::ifstream in(path);
    std::stringstream buf;
    buf << in.rdbuf();
    const FileTest t = SplitFileTest(buf.str());
    const std::vector<Check> checks = CheckLines(t.input);
    if (checks.empty()) {
      CheckAll({path});
      continue;
    }
    const std::string failure = CheckFailure(RenderFor(path, t.input), checks);
    EXPECT_TRUE(failure.empty()) << path << ": " << failure;
  }
}

TEST(Golden, ChecksFollowTheOutputInOrder) {
  const auto has = [](const char* t) { return Check{false, t}; };
  EXPECT_EQ(CheckFailure("a x\nb y\nc z\n", {has("x"), has("z")}), "");
  EXPECT_NE(CheckFailure("a x\nb y\nc z\n", {has("z"), has("x")}), "");
  EXPECT_NE(CheckFailure("a x\n", {has("q")}), "");
  EXPECT_EQ(CheckFailure("a x\n", {Check{true, "q"}}), "");
  EXPECT_NE(CheckFailure("a x\n", {Check{true, "x"}}), "");
}

TEST(Golden, UnifiedDiffShowsTheChange) {
  EXPECT_EQ(UnifiedDiff("a\nb\nc\n", "a\nb\nc\n", "x"), "");
  EXPECT_EQ(UnifiedDiff("a\nb\nc\n", "a\nB\nc\n", "x"),
            "--- x (expected)\n+++ x (actual)\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
}

TEST(Golden, BlessRoundTrips) {
  const FileTest t{"func @f() {\nbb0:\n  ret\n}\n", ""};
  const std::string blessed = Blessed(t, RenderLir(t.input));
  const FileTest again = SplitFileTest(blessed);
  EXPECT_EQ(again.input, t.input);
  EXPECT_EQ(again.expected, RenderLir(t.input));
  EXPECT_EQ(Blessed(again, again.expected), blessed);
}

}  // namespace
}  // namespace a64jit::golden
