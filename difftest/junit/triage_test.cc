// What a night's reader acts on: each regression's traceback, log and reproducer, the time
// per module, known failures and what changed since the last night, and the order of the
// report (regressions first).
#include "difftest/junit/triage.h"

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

constexpr const char* kTraceback =
    "Traceback (most recent call last):\n  File \"m.py\", line 3, in test_b\n    check()\n"
    "  File \"m.py\", line 9, in check\n    assert x == 2\nAssertionError: 1 != 2\n\n";

// Module m: a and b pass stock; with the JIT b fails with a traceback and c errors. The JIT
// side's manifest gives times and a reproducer, and runner.py's log sits beside the XML.
struct Night {
  TempDir stock, jit;
  Night() {
    stock.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/><testcase classname='m.C' "
                                 "name='b'/><testcase classname='m.C' name='c[x y]'/>"));
    jit.Write("m/m.xml", Suite("<testcase classname='m.C' name='a'/><testcase classname='m.C' "
                               "name='b'><failure message='AssertionError: 1 != 2'>" +
                               std::string(kTraceback) +
                               "</failure></testcase><testcase classname='m.C' name='c[x y]'>"
                               "<error message='boom'/></testcase>"));
    jit.Write("m/m.log", "log of m\n");
    stock.Write("manifest.json", Manifest(2.0, ""));
    jit.Write("manifest.json", Manifest(3.0, "cd /src && run m.py::{id}"));
  }
  static std::string Manifest(double seconds, const std::string& reproduce) {
    json f{
        {"file", "m.py"}, {"exit_status", 1}, {"duration_s", seconds}, {"compiled_functions", 5}};
    if (!reproduce.empty()) f["reproduce"] = reproduce;
    return json{{"files", json::array({f})}}.dump();
  }
  json Compare(const std::string& reproducer = "") {
    CompareOptions options;
    options.reproducer = reproducer;
    return junit::Compare(LoadSide(stock.path(), ""), LoadSide(jit.path(), ""), options);
  }
};

const json& RegressionOf(const json& report, const std::string& test) {
  for (const json& r : report["regressions"])
    if (r["test"] == test) return r;
  static const json none;
  ADD_FAILURE() << "no regression " << test;
  return none;
}

TEST(Triage, ARegressionCarriesItsTracebackLogAndReproducer) {
  Night n;
  const json rep = n.Compare();
  const json& b = RegressionOf(rep, "m::C::b");
  EXPECT_EQ(b["detail"], std::string(kTraceback).substr(0, std::string(kTraceback).size() - 2));
  EXPECT_EQ(b["log"], fs::canonical(fs::path(n.jit.path()) / "m/m.log").string());
  EXPECT_EQ(b["reproduce"], "cd /src && run m.py::C::b");
  // An id the shell would split is quoted.
  EXPECT_EQ(RegressionOf(rep, "m::C::c[x y]")["reproduce"], "cd /src && run m.py::'C::c[x y]'");
  // A reproducer given to the comparison wins over the manifest's.
  EXPECT_EQ(RegressionOf(n.Compare("bazel test --test_filter={id} //s:{module}_jit"),
                         "m::C::b")["reproduce"],
            "bazel test --test_filter=C::b //s:m_jit");
}

TEST(Triage, ExcerptKeepsTheLastLines) {
  EXPECT_EQ(Excerpt("a\nb\nc\nd\n\n", 2, 100), "...\nc\nd");
  EXPECT_EQ(Excerpt("a\nb", 5, 100), "a\nb");
  EXPECT_EQ(Excerpt("abcdef", 5, 3), "...\ndef");
  EXPECT_EQ(Excerpt(" \n\t", 5, 100), "");
}

TEST(Triage, ModulesGiveTheTimeOfEachSide) {
  Night n;
  const json rep = n.Compare();
  EXPECT_EQ(rep["modules"][0]["stock_s"], 2.0);
  EXPECT_EQ(rep["modules"][0]["jit_s"], 3.0);
  EXPECT_NE(RenderMarkdown(rep).find("| m | 3/0/0/0/0 | 1/1/1/0/0 | 2.0 | 3.0 | 1.50x | 5 | 2 |"),
            std::string::npos)
      << RenderMarkdown(rep);
}

TEST(Triage, KnownFailuresAreShownButDoNotFailTheNight) {
  Night n;
  json rep = n.Compare();
  ASSERT_EQ(rep["exit_status"], 1);
  ApplyKnownFailures({{"m::C::b", "issue 70: a bug in float compare", ""},
                      {"m::C::c*", "issue 71", "2026-12-31"},
                      {"m::C::gone", "fixed long ago", ""}},
                     "2026-12-02", &rep);
  EXPECT_EQ(rep["exit_status"], 0);
  EXPECT_TRUE(rep["regressions"].empty());
  ASSERT_EQ(rep["known_failures"].size(), 2u);
  EXPECT_EQ(rep["known_failures"][0]["known_failure"]["reason"],
            "issue 70: a bug in float compare");
  EXPECT_EQ(rep["modules"][0]["regressions"], 0);
  ASSERT_EQ(rep["known_unmatched"].size(), 1u);
  EXPECT_EQ(rep["known_unmatched"][0]["test"], "m::C::gone");
  const std::string md = RenderMarkdown(rep);
  EXPECT_NE(md.find("# Stock vs JIT: no regression; 2 known failure(s)"), std::string::npos) << md;
  EXPECT_NE(md.find("`m::C::c[x y]`: error; issue 71 (until 2026-12-31)"), std::string::npos) << md;
}

TEST(Triage, AnExpiredKnownFailureFailsTheNightAgain) {
  Night n;
  json rep = n.Compare();
  ApplyKnownFailures({{"m::C::*", "issue 70", "2026-12-01"}}, "2026-12-02", &rep);
  EXPECT_EQ(rep["exit_status"], 1);
  EXPECT_EQ(rep["regressions"].size(), 2u);
  EXPECT_EQ(rep["regressions"][0]["known_failure"]["expired"], true);
  EXPECT_NE(RenderMarkdown(rep).find("Known failure, expired 2026-12-01: issue 70"),
            std::string::npos);
}

TEST(Triage, AKnownFailuresFileThatIsWrongSaysWhereAndWhat) {
  TempDir d;
  auto error_of = [&](const std::string& text) {
    try {
      LoadKnownFailures(d.Write("known.json", text));
    } catch (const std::runtime_error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("{\"test\": \"a\"}").find("expected an array"), std::string::npos);
  EXPECT_NE(error_of("[{\"test\": \"a\", \"reason\": \"r\"}, {\"test\": \"b\"}]")
                .find("entry 2: no \"reason\""),
            std::string::npos);
  EXPECT_NE(error_of("[{\"test\": \"a\", \"reason\": \"r\", \"expires\": \"soon\"}]")
                .find("entry 1: \"expires\" is YYYY-MM-DD, not soon"),
            std::string::npos);
  EXPECT_NE(error_of("[{").find("not JSON"), std::string::npos);
  EXPECT_EQ(
      LoadKnownFailures(d.Write("ok.json", "[{\"test\": \"a\", \"reason\": \"r\"}]"))[0].reason,
      "r");
}

TEST(Triage, RegressionsNewSinceTheLastNightComeFirst) {
  Night n;
  json rep = n.Compare();
  const json last{
      {"night", "2026-12-01"},
      {"regressions", json::array({{{"test", "m::C::c[x y]"}}, {{"test", "m::C::z"}}})}};
  CompareWithLastNight(last, &rep);
  EXPECT_EQ(RegressionOf(rep, "m::C::b")["new"], true);
  EXPECT_EQ(RegressionOf(rep, "m::C::c[x y]")["new"], false);
  EXPECT_EQ(rep["since_last_night"]["gone"], json::array({{{"test", "m::C::z"}}}));
  const std::string md = RenderMarkdown(rep);
  EXPECT_NE(md.find("# Stock vs JIT: 2 regression(s), 1 new since 2026-12-01"), std::string::npos)
      << md;
  EXPECT_LT(md.find("### `m::C::b`: fail with the JIT (new)"), md.find("### `m::C::c[x y]`"));
}

TEST(Triage, TheHtmlOpensOnTheRegressions) {
  Night n;
  json rep = n.Compare();
  CompareWithLastNight({{"night", "2026-12-01"}, {"regressions", json::array()}}, &rep);
  const std::string html = RenderHtml(rep, {}, n.jit.path());
  const size_t regressions = html.find("<section id=\"regressions\">");
  ASSERT_NE(regressions, std::string::npos);
  EXPECT_LT(regressions, html.find("<table id=\"modules\">"));
  EXPECT_EQ(html.find("<h2"), html.find("<h2", regressions));  // the first section
  EXPECT_NE(html.find("<pre class=\"traceback\">Traceback"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"m/m.log\">log</a>"), std::string::npos) << html;
  EXPECT_NE(html.find("<code class=\"reproduce\">cd /src &amp;&amp; run m.py::C::b</code>"),
            std::string::npos);
  EXPECT_NE(html.find("<span class=\"new\">new</span>"), std::string::npos);
}

}  // namespace
}  // namespace a64jit::junit
