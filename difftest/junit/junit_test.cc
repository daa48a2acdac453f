// The JUnit reader and the stock-vs-JIT comparison on hand-written reports in every format
// it must read, and on bad input.
#include "difftest/junit/junit.h"

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "difftest/junit/compare.h"
#include "difftest/junit/test_util.h"

namespace a64jit::junit {
namespace {
namespace fs = std::filesystem;
using nlohmann::json;

using testing::Suite;
using testing::TempDir;

ParsedFile Parse(const std::string& xml, const std::string& hint = "test_mod") {
  return ParseReportText(xml, "mem.xml", hint);
}

TEST(JUnitKeys, EveryFormatNamesTheSameTestTheSameWay) {
  const std::string want = "tests.test_mod::TestCls::test_x";
  std::string module;
  EXPECT_EQ(NormaliseKey("tests/test_mod.py", "tests.test_mod.TestCls", "test_x", "", &module),
            want);
  EXPECT_EQ(module, "tests.test_mod");
  EXPECT_EQ(NormaliseKey("", "tests.test_mod.TestCls", "test_x", "", nullptr), want);  // xunit2
  EXPECT_EQ(NormaliseKey("", "", "test_x (tests.test_mod.TestCls)", "", nullptr), want);
  EXPECT_EQ(NormaliseKey("", "", "test_x (tests.test_mod.TestCls.test_x)", "", nullptr), want);
  // __main__ takes the test file from the report's location.
  EXPECT_EQ(NormaliseKey("", "__main__.TestCls", "test_x", "test_nn", nullptr),
            "test_nn::TestCls::test_x");
  EXPECT_EQ(NormaliseKey("", "", "test_x (__main__.TestCls)", "test_nn", nullptr),
            "test_nn::TestCls::test_x");
  // PyTorch: file + classname + name.
  EXPECT_EQ(NormaliseKey("test_nn.py", "TestNN", "test_conv", "", nullptr),
            "test_nn::TestNN::test_conv");
  // Module-level pytest functions and parametrisation.
  EXPECT_EQ(NormaliseKey("", "tests.test_mod", "test_f[1-a]", "", nullptr),
            "tests.test_mod::test_f[1-a]");
  // Subtests name their test.
  bool subtest = false;
  EXPECT_EQ(NormaliseKey("", "__main__.T", "test_sub (i=1)", "m", nullptr, &subtest),
            "m::T::test_sub");
  EXPECT_TRUE(subtest);
  EXPECT_EQ(NormaliseKey("", "", "test_sub (m.T) [msg]", "", nullptr, &subtest), "m::T::test_sub");
  EXPECT_TRUE(subtest);
}

TEST(JUnitParse, OutcomesAndMessages) {
  ParsedFile f = Parse(Suite(
      "<testcase classname='m.C' name='p'/>"
      "<testcase classname='m.C' name='f'><failure message='boom'><![CDATA[trace "
      "<&>]]></failure></testcase>"
      "<testcase classname='m.C' name='e'><error message='setup broke'/></testcase>"
      "<testcase classname='m.C' name='s'><skipped message='requires CUDA'/></testcase>"
      "<testcase classname='m.C' name='x'><skipped type='pytest.xfail' message='known'/></testcase>"
      "<testcase classname='m.C' name='u'><error type='UnexpectedSuccess' message='Unexpected "
      "success'/></testcase>"
      "<testcase classname='m.C' name='xf'><skipped type='XFAIL' message='expected failure: "
      "...'/></testcase>"
      "<testcase classname='m.C' name='c'><failure><![CDATA[only text]]></failure></testcase>"));
  ASSERT_FALSE(f.corrupt) << f.problem;
  ASSERT_EQ(f.rows.size(), 8u);
  EXPECT_EQ(f.rows[0].attempts.back().outcome, Outcome::kPass);
  EXPECT_EQ(f.rows[1].attempts.back().outcome, Outcome::kFail);
  EXPECT_EQ(f.rows[1].attempts.back().message, "boom");
  EXPECT_EQ(f.rows[2].attempts.back().outcome, Outcome::kError);
  EXPECT_EQ(f.rows[3].attempts.back().outcome, Outcome::kSkip);
  EXPECT_EQ(f.rows[3].skip_reason, SkipReason::kDevice);
  EXPECT_EQ(f.rows[4].attempts.back().outcome, Outcome::kXFail);
  EXPECT_EQ(f.rows[5].attempts.back().outcome, Outcome::kError);  // UnexpectedSuccess
  EXPECT_EQ(f.rows[6].attempts.back().outcome, Outcome::kXFail);  // xmlrunner's XFAIL
  EXPECT_EQ(f.rows[7].attempts.back().message, "only text");
}

TEST(JUnitParse, RerunsAreEarlierAttempts) {
  ParsedFile f = Parse(Suite(
      // PyTorch run_test.py: <rerun> children, final pass -> flaky.
      "<testcase file='test_nn.py' classname='TestNN' name='a'><rerun message='x'/><rerun "
      "message='y'/></testcase>"
      // Surefire: flakyFailure on a passing test.
      "<testcase classname='p.T' name='b'><flakyFailure message='once'/></testcase>"
      // Surefire: failure then rerunFailure: failed every time.
      "<testcase classname='p.T' name='c'><failure message='1st'/><rerunFailure "
      "message='2nd'/></testcase>"));
  ASSERT_EQ(f.rows.size(), 3u);
  EXPECT_EQ(f.rows[0].attempts.size(), 3u);
  EXPECT_EQ(f.rows[0].attempts.back().outcome, Outcome::kPass);
  EXPECT_EQ(f.rows[0].key, "test_nn::TestNN::a");
  EXPECT_EQ(f.rows[1].attempts.front().outcome, Outcome::kFail);
  EXPECT_EQ(f.rows[1].attempts.back().outcome, Outcome::kPass);
  EXPECT_EQ(f.rows[2].attempts.size(), 2u);
  EXPECT_EQ(f.rows[2].attempts.front().message, "1st");
  EXPECT_EQ(f.rows[2].attempts.back().outcome, Outcome::kFail);
}

TEST(JUnitParse, GoogleTestBazelAndNestedSuites) {
  ParsedFile g = Parse(
      "<testsuites><testsuite name='Math'><testcase name='Add' status='run' result='completed' "
      "classname='Math'/>"
      "<testcase name='DISABLED_Big' status='notrun' result='suppressed' classname='Math'/>"
      "<testcase name='Skip' status='run' result='skipped' classname='Math'><skipped "
      "message='why'/></testcase>"
      "<testsuite name='inner'><testcase name='Deep' classname='Math'><failure "
      "message='f'/></testcase></testsuite>"
      "</testsuite></testsuites>",
      "math_test");
  ASSERT_EQ(g.rows.size(), 4u);
  EXPECT_EQ(g.rows[0].key, "math_test::Math::Add");
  EXPECT_EQ(g.rows[1].attempts.back().outcome, Outcome::kSkip);
  EXPECT_EQ(g.rows[1].skip_reason, SkipReason::kDisabled);
  EXPECT_EQ(g.rows[2].attempts.back().outcome, Outcome::kSkip);
  EXPECT_EQ(g.rows[3].attempts.back().outcome, Outcome::kFail);
  // Bazel's test.xml for a non-gtest target: one case named after the target.
  ParsedFile b = Parse(
      "<testsuites><testsuite name='//pkg:t' tests='1'><testcase name='//pkg:t' status='run'>"
      "<error message='exited with error code 139'/></testcase></testsuite></testsuites>",
      "pkg");
  ASSERT_EQ(b.rows.size(), 1u);
  EXPECT_EQ(b.rows[0].attempts.back().outcome, Outcome::kError);
  // A <testsuite> root (unittest-xml-reporting).
  ParsedFile u =
      Parse("<testsuite name='T-1'><testcase classname='T' name='test_ok'/></testsuite>", "test_u");
  ASSERT_EQ(u.rows.size(), 1u);
  EXPECT_EQ(u.rows[0].key, "test_u::T::test_ok");
}

TEST(JUnitParse, BadInputIsClassifiedNeverACrash) {
  EXPECT_EQ(Parse("").problem, "empty file");
  EXPECT_TRUE(Parse("  \n").corrupt);
  ParsedFile truncated = Parse("<testsuites><testsuite><testcase name='a'/><testca");
  EXPECT_TRUE(truncated.corrupt);
  EXPECT_NE(truncated.problem.find("not well-formed XML at byte"), std::string::npos)
      << truncated.problem;
  EXPECT_TRUE(Parse("this is not xml at all").corrupt);
  ParsedFile root = Parse("<html><body/></html>");
  EXPECT_TRUE(root.corrupt);
  EXPECT_EQ(root.problem, "root element <html> is not <testsuites> or <testsuite>");
  ParsedFile latin1 = Parse(
      Suite("<testcase classname='m.C' name='caf\xe9'><failure message='\xff\xfe'/></testcase>"));
  EXPECT_FALSE(latin1.corrupt);
  EXPECT_EQ(latin1.problem, "non-UTF-8 bytes replaced by U+FFFD");
  ASSERT_EQ(latin1.rows.size(), 1u);
  EXPECT_EQ(latin1.rows[0].key, "m::C::caf\xef\xbf\xbd");
  ParsedFile missing = ParseReport("/nonexistent/report.xml", "");
  EXPECT_TRUE(missing.corrupt);
}

TEST(JUnitParse, HugeSystemOutAndA200MegabyteFile) {
  std::string big(10u << 20, 'x');
  ParsedFile f = Parse(Suite("<testcase classname='m.C' name='a'><system-out><![CDATA[" + big +
                             "]]></system-out></testcase>"));
  ASSERT_FALSE(f.corrupt);
  EXPECT_EQ(f.rows.size(), 1u);
  TempDir dir;
  std::string huge;
  huge.reserve(210u << 20);
  huge = "<testsuites><testsuite name='s'>";
  const std::string out(1u << 20, 'y');
  for (int i = 0; i < 200; i++) {
    huge += "<testcase classname='m.C' name='t" + std::to_string(i) + "'><system-out>" + out +
            "</system-out></testcase>";
  }
  huge += "</testsuite></testsuites>";
  const std::string path = dir.Write("huge.xml", huge);
  huge.clear();
  huge.shrink_to_fit();
  ParsedFile h = ParseReport(path, "m");
  ASSERT_FALSE(h.corrupt) << h.problem;
  EXPECT_EQ(h.rows.size(), 200u);
}

// ---- the comparison ---------------------------------------------------------------------

struct Runs {
  TempDir stock, jit;
  // Most tests here are about the tests' verdicts, not the JIT's evidence: waived unless
  // a test asks for it.
  json Compare(const std::map<std::string, std::string>& labels = {}, bool waive = true) {
    return junit::Compare(LoadSide(stock.path(), ""), LoadSide(jit.path(), ""), {labels, waive});
  }
};

std::string Manifest(const std::string& file, const std::string& signal, const std::string& culprit,
                     int compiled) {
  json m{{"schema", "a64jit-run-manifest/1"}, {"files", json::array()}};
  json f{{"file", file}, {"exit_status", signal.empty() ? 0 : -11}, {"duration_s", 1.0}};
  f["signal"] = signal.empty() ? json(nullptr) : json(signal);
  f["culprit"] = culprit.empty() ? json(nullptr) : json(culprit);
  f["compiled_functions"] = compiled < 0 ? json(nullptr) : json(compiled);
  m["files"].push_back(f);
  return m.dump();
}

TEST(JUnitCompare, SameRunsNoRegressionButMissingEvidenceIsNamed) {
  Runs r;
  const std::string xml = Suite(
      "<testcase classname='m.C' name='a'/><testcase classname='m.C' name='b'><skipped "
      "message='slow test'/></testcase>");
  r.stock.Write("m/m.xml", xml);
  r.jit.Write("m/m.xml", xml);
  json rep = r.Compare();
  EXPECT_EQ(rep["exit_status"], 0);
  EXPECT_TRUE(rep["regressions"].empty());
  EXPECT_EQ(rep["missing_evidence"].size(), 2u);  // no manifest on either side
  EXPECT_EQ(rep["modules"][0]["stock"]["pass"], 1);
  EXPECT_EQ(rep["modules"][0]["stock"]["skip"], 1);
  const std::string md = RenderMarkdown(rep);
  EXPECT_NE(md.find("| Module | Stock P/F/E/S/XF | JIT P/F/E/S/XF | Stock s | JIT s | JIT/stock "
                    "| Compiled | Regressions |"),
            std::string::npos);
  EXPECT_NE(md.find("| m | 1/0/0/1/0 | 1/0/0/1/0 | ? | ? | ? | ? | 0 |"), std::string::npos) << md;
}

TEST(JUnitCompare, EveryCategory) {
  Runs r;
  r.stock.Write("m/m.xml",
                Suite("<testcase classname='m.C' name='reg'/>"
                      "<testcase classname='m.C' name='err'/>"
                      "<testcase classname='m.C' name='fix'><failure message='x'/></testcase>"
                      "<testcase classname='m.C' name='skipped'/>"
                      "<testcase classname='m.C' name='unskipped'><skipped message='disabled on "
                      "arm'/></testcase>"
                      "<testcase classname='m.C' name='gone'/>"
                      "<testcase classname='m.C' name='flaky'/>"));
  r.jit.Write(
      "m/m.xml",
      Suite("<testcase classname='m.C' name='reg'><failure message='wrong'/></testcase>"
            "<testcase classname='m.C' name='err'><error message='raised'/></testcase>"
            "<testcase classname='m.C' name='fix'/>"
            "<testcase classname='m.C' name='skipped'><skipped message='needs GPU'/></testcase>"
            "<testcase classname='m.C' name='unskipped'/>"
            "<testcase classname='m.C' name='flaky'><rerun message='once'/></testcase>"
            "<testcase classname='m.C' name='new'/>"));
  r.jit.Write("manifest.json", Manifest("m.py", "", "", 12));
  r.stock.Write("manifest.json", Manifest("m.py", "", "", -1));
  json rep = r.Compare({{"m::C::reg", "confirmed"}});
  EXPECT_EQ(rep["exit_status"], 1);
  ASSERT_EQ(rep["regressions"].size(), 3u);
  EXPECT_EQ(rep["regressions"][0]["test"], "m::C::err");
  EXPECT_EQ(rep["regressions"][0]["kind"], "error");
  EXPECT_EQ(rep["regressions"][1]["test"], "m::C::gone");
  EXPECT_EQ(rep["regressions"][1]["kind"], "missing");
  EXPECT_EQ(rep["regressions"][2]["kind"], "fail");
  EXPECT_EQ(rep["regressions"][2]["label"], "confirmed");
  EXPECT_EQ(rep["fixed"].size(), 1u);
  EXPECT_EQ(rep["newly_skipped"][0]["reason"], "device");
  EXPECT_EQ(rep["unskipped"][0]["reason"], "disabled");
  EXPECT_EQ(rep["flaky"][0]["test"], "m::C::flaky");
  EXPECT_EQ(rep["not_run"][0]["test"], "m::C::new");
  EXPECT_EQ(rep["jit"]["compiled_functions"], 12);
  EXPECT_EQ(rep["modules"][0]["regressions"], 3);
}

TEST(JUnitCompare, CompileStatisticsPerModule) {
  // runner.py's manifest with the JIT's failed functions and their causes and the function
  // entries: the module row gets failed, compiled_share, entry_share and the causes, and the
  // Markdown and HTML a table of them. Modules as regrtest's, keyed by the dotted test id
  // under the module's directory.
  Runs r;
  const std::string xml = Suite(
      "<testcase name='test.test_scope.ScopeTests.testSimpleNesting'/>"
      "<testcase name='test.test_scope.ScopeTests.testClassAndGlobal'/>");
  r.stock.Write("test_scope/test_scope.xml", xml);
  r.jit.Write("test_scope/test_scope.xml", xml);
  json m = json::parse(Manifest("test_scope", "", "", 30));
  m["files"][0]["failed_functions"] = 10;
  m["files"][0]["failure_causes"] = {{"MAKE_CELL", 7}, {"generator or coroutine", 3}};
  // Counts unlike the functions' (and unequal to each other) so that a share computed from
  // the wrong pair, or with the counts swapped, shows.
  m["files"][0]["compiled_entries"] = 900;
  m["files"][0]["interpreted_entries"] = 100;
  r.jit.Write("manifest.json", m.dump());
  json rep = r.Compare();
  EXPECT_EQ(rep["exit_status"], 0) << rep.dump(2);
  ASSERT_EQ(rep["modules"].size(), 1u);
  const json& row = rep["modules"][0];
  EXPECT_EQ(row["module"], "test_scope");
  EXPECT_EQ(row["stock"]["pass"], 2);
  EXPECT_EQ(row["compiled"], 30);
  EXPECT_EQ(row["failed"], 10);
  EXPECT_DOUBLE_EQ(row["compiled_share"].get<double>(), 0.75);
  ASSERT_TRUE(row["entry_share"].is_number()) << row.dump(2);
  EXPECT_DOUBLE_EQ(row["entry_share"].get<double>(), 0.9);
  EXPECT_EQ(row["failure_causes"]["MAKE_CELL"], 7);
  const std::string md = RenderMarkdown(rep);
  EXPECT_NE(md.find("| Module | Compiled | Failed | Compiled share | Compiled entries | Failure "
                    "causes (functions) |"),
            std::string::npos)
      << md;
  EXPECT_NE(
      md.find("| test_scope | 30 | 10 | 75.0% | 90.0% | MAKE_CELL 7, generator or coroutine 3 |"),
      std::string::npos)
      << md;
  const std::string html = RenderHtml(rep, {});
  // One module table with the JIT's columns; the failure causes in a table of their own.
  EXPECT_NE(html.find("<table id=\"modules\">"), std::string::npos);
  EXPECT_NE(html.find("<th>Compiled share</th><th>Compiled entries</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>30</td><td>75.0%</td><td>90.0%</td>"), std::string::npos) << html;
  EXPECT_NE(html.find("id=\"failure-causes\""), std::string::npos);
  EXPECT_NE(html.find("MAKE_CELL 7, generator or coroutine 3"), std::string::npos);

  // A manifest with the function counts but not the entry counts (runner.py before them):
  // it still loads, the entry share is null and shown as "?".
  Runs no_entries;
  no_entries.stock.Write("test_scope/test_scope.xml", xml);
  no_entries.jit.Write("test_scope/test_scope.xml", xml);
  m["files"][0].erase("compiled_entries");
  m["files"][0].erase("interpreted_entries");
  no_entries.jit.Write("manifest.json", m.dump());
  json rep1 = no_entries.Compare();
  EXPECT_EQ(rep1["exit_status"], 0) << rep1.dump(2);
  EXPECT_DOUBLE_EQ(rep1["modules"][0]["compiled_share"].get<double>(), 0.75);
  EXPECT_TRUE(rep1["modules"][0]["entry_share"].is_null()) << rep1["modules"][0].dump(2);
  EXPECT_NE(RenderMarkdown(rep1).find("| test_scope | 30 | 10 | 75.0% | ? | MAKE_CELL 7"),
            std::string::npos)
      << RenderMarkdown(rep1);
  EXPECT_NE(RenderHtml(rep1, {}).find("<td>75.0%</td><td>?</td>"), std::string::npos);

  // Without the counts (older manifests) there is no such table, and the shares are null.
  Runs old;
  old.stock.Write("m/m.xml", xml);
  old.jit.Write("m/m.xml", xml);
  old.jit.Write("manifest.json", Manifest("m.py", "", "", 5));
  json rep2 = old.Compare();
  EXPECT_TRUE(rep2["modules"][0]["compiled_share"].is_null());
  EXPECT_TRUE(rep2["modules"][0]["entry_share"].is_null());
  EXPECT_EQ(RenderMarkdown(rep2).find("JIT compilation per module"), std::string::npos);
}

TEST(JUnitCompare, RowsMergeInOrderAndSubtestsCombine) {
  Runs r;
  r.stock.Write(
      "m/a.xml",
      Suite("<testcase classname='m.C' name='t'/><testcase classname='m.T' name='test_sub'/>"));
  // JIT: t failed in the first report and passed in the rerun report -> flaky, not a
  // regression; two failing subtests of test_sub -> one failing test.
  r.jit.Write(
      "m/a.xml",
      Suite("<testcase classname='m.C' name='t'><failure message='1st'/></testcase>"
            "<testcase classname='m.T' name='test_sub (i=1)'><failure message='1'/></testcase>"
            "<testcase classname='m.T' name='test_sub (i=2)'><failure message='2'/></testcase>"));
  r.jit.Write("m/b.xml", Suite("<testcase classname='m.C' name='t'/>"));
  json rep = r.Compare();
  ASSERT_EQ(rep["regressions"].size(), 1u) << rep.dump(2);
  EXPECT_EQ(rep["regressions"][0]["test"], "m::T::test_sub");
  EXPECT_EQ(rep["flaky"].size(), 1u);
  EXPECT_EQ(rep["jit"]["duplicate_rows"], 1);
}

TEST(JUnitCompare, UntrustworthyEvidenceExitsTwo) {
  {  // corrupt report
    Runs r;
    r.stock.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
    r.jit.Write("m/m.xml", "<testsuites><testsuite>");
    json rep = r.Compare();
    EXPECT_EQ(rep["exit_status"], 2);
    EXPECT_EQ(rep["corrupt"].size(), 1u);
  }
  {  // the JIT compiled nothing
    Runs r;
    r.stock.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
    r.jit.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
    r.jit.Write("manifest.json", Manifest("m.py", "", "", 0));
    json rep = r.Compare();
    EXPECT_EQ(rep["exit_status"], 2);
    EXPECT_EQ(rep["untrusted"][0], "the JIT run compiled no function");
  }
  {  // nothing ran at all (every suite target skipped): untrusted, not a vacuous pass
    Runs r;
    r.jit.Write("manifest.json",
                json{{"schema", "a64jit-run-manifest/1"}, {"files", json::array()}}.dump());
    json rep = r.Compare({}, /*waive=*/false);
    EXPECT_EQ(rep["exit_status"], 2);
    EXPECT_EQ(rep["untrusted"][0], "no module ran on the JIT side");
  }
  {  // no JIT evidence: untrusted unless waived, and the reason names the modules
    Runs r;
    for (const char* m : {"m", "n"}) {
      r.stock.Write(std::string(m) + "/" + m + ".xml", Suite("<testcase classname='x' name='a'/>"));
      r.jit.Write(std::string(m) + "/" + m + ".xml", Suite("<testcase classname='x' name='a'/>"));
    }
    json rep = r.Compare({}, /*waive=*/false);
    EXPECT_EQ(rep["exit_status"], 2);
    EXPECT_EQ(rep["untrusted"][0],
              "no JIT run manifest: crashes, exit statuses and JIT activity unknown");
    EXPECT_EQ(r.Compare({}, /*waive=*/true)["exit_status"], 0);
    r.jit.Write("manifest.json", Manifest("m.py", "", "", 7));  // n has no count
    rep = r.Compare({}, /*waive=*/false);
    EXPECT_EQ(rep["exit_status"], 2);
    EXPECT_EQ(rep["untrusted"][0],
              "JIT activity unknown for 1 module(s) (no compiled-function count): n");
    rep = r.Compare({}, /*waive=*/true);
    EXPECT_EQ(rep["exit_status"], 0);
    EXPECT_TRUE(rep["untrusted"].empty());
    EXPECT_EQ(rep["missing_evidence"][0],
              "JIT activity unknown for 1 module(s) (no compiled-function count): n");
    json both = json::parse(Manifest("m.py", "", "", 7));
    both["files"].push_back(json::parse(Manifest("n.py", "", "", 3))["files"][0]);
    r.jit.Write("manifest.json", both.dump());
    rep = r.Compare({}, /*waive=*/false);
    EXPECT_EQ(rep["exit_status"], 0) << rep["untrusted"];
    EXPECT_EQ(rep["jit"]["compiled_functions"], 10);
  }
  {  // a crash nobody can attribute, and its tests are "crash" regressions
    Runs r;
    r.stock.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
    r.jit.Write("manifest.json", Manifest("m.py", "SIGSEGV", "", 3));
    json rep = r.Compare();
    EXPECT_EQ(rep["exit_status"], 2);
    EXPECT_EQ(rep["regressions"][0]["kind"], "crash");
    EXPECT_EQ(rep["regressions"][0]["signal"], "SIGSEGV");
  }
  {  // attributed crash: trusted, a regression
    Runs r;
    r.stock.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
    r.jit.Write("manifest.json", Manifest("m.py", "SIGABRT", "m.py::C::a", 3));
    json rep = r.Compare();
    EXPECT_EQ(rep["exit_status"], 1);
    EXPECT_EQ(rep["crashes"][0]["culprit"], "m.py::C::a");
  }
  {  // a suite on one side only
    Runs r;
    r.stock.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
    r.stock.Write("n/n.xml", Suite("<testcase classname='n.C' name='a'/>"));
    r.jit.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
    json rep = r.Compare();
    EXPECT_EQ(rep["exit_status"], 2);
    EXPECT_EQ(rep["missing_suites"][0]["module"], "n");
    EXPECT_EQ(rep["regressions"][0]["kind"], "missing suite");
  }
}

TEST(JUnitCompare, MalformedManifestIsAClearError) {
  TempDir d;
  d.Write("manifest.json", "{ not json");
  try {
    LoadSide(d.path(), "");
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("malformed manifest"), std::string::npos) << e.what();
  }
  EXPECT_THROW(LoadSide("/nonexistent/dir", ""), std::runtime_error);
}

TEST(JUnitReport, HtmlIsSelfContainedWithTablesAndTrend) {
  Runs r;
  r.stock.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/>"));
  r.jit.Write(
      "m/m.xml",
      Suite("<testcase classname='m.C' name='a'><failure message='&lt;/script&gt;'/></testcase>"));
  json rep = r.Compare();
  json old = rep;
  old["night"] = "2026-11-20";
  const std::string html = RenderHtml(rep, {old, rep});
  EXPECT_NE(html.find("<table id=\"modules\">"), std::string::npos);
  EXPECT_NE(html.find("<section id=\"regressions\">"), std::string::npos);
  EXPECT_NE(html.find("<svg id=\"trend\""), std::string::npos);
  EXPECT_EQ(html.find("src=\"http"), std::string::npos);  // nothing loaded from elsewhere
  // The embedded JSON cannot end its <script> early.
  EXPECT_EQ(html.find("</script>'"), std::string::npos);
}

}  // namespace
}  // namespace a64jit::junit
