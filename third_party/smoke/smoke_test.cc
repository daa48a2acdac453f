// Foundation smoke tests. One source, every configuration: the host config runs the aarch64
// snippet under Unicorn, --config=aarch64 runs it natively under qemu-aarch64.
#include <Python.h>
#include <benchmark/benchmark.h>
#include <gtest/gtest.h>

#include <pugixml.hpp>
#include <string>

#include "third_party/smoke/add_snippet.h"

namespace a64jit::smoke {
namespace {

#if defined(__aarch64__)
constexpr const char* kExpectedMode = "native";
constexpr const char* kExpectedMachine = "aarch64";
#else
constexpr const char* kExpectedMode = "unicorn";
constexpr const char* kExpectedMachine = "x86_64";
#endif

TEST(Asmjit, EncodesAddRet) {
  const std::vector<uint8_t> code = AssembleAddRet();
  // add x0, x0, x1 = 0x8b010000; ret = 0xd65f03c0 (little-endian words).
  const std::vector<uint8_t> expected = {0x00, 0x00, 0x01, 0x8b, 0xc0, 0x03, 0x5f, 0xd6};
  EXPECT_EQ(code, expected);
}

TEST(Capstone, DisassemblesAddRet) {
  EXPECT_EQ(Disassemble(AssembleAddRet()), "add x0, x0, x1\nret\n");
}

TEST(Executor, RunsAddOnThisHost) {
  RunResult r = RunOnThisHost(AssembleAddRet(), 40, 2);
  EXPECT_EQ(r.value, 42u);
  EXPECT_STREQ(r.mode, kExpectedMode);
  if (std::string(r.mode) == "unicorn") {
    // Proof that the emulator executed the guest code rather than something else answering.
    EXPECT_EQ(r.guest_instructions, 2u);
  }
}

TEST(Executor, UnicornCountsGuestInstructions) {
#ifndef A64JIT_HAVE_UNICORN
  GTEST_SKIP() << "Unicorn is host-only (x86-64); on aarch64 the snippet runs natively";
#else
  RunResult r = RunOnThisHost(AssembleAddRet(), 0xffffffffffffffffull, 1);
  EXPECT_EQ(r.value, 0u);  // 64-bit wraparound
  EXPECT_GT(r.guest_instructions, 0u);
#endif
}

TEST(Executor, NativeRunsOnAarch64) {
#ifndef __aarch64__
  GTEST_SKIP() << "native execution needs an aarch64 host (run with --config=aarch64 / QEMU)";
#else
  RunResult r = RunOnThisHost(AssembleAddRet(), 1ull << 40, 5);
  EXPECT_EQ(r.value, (1ull << 40) + 5);
  EXPECT_STREQ(r.mode, "native");
#endif
}

// Evaluates `expr` in an embedded CPython and returns it as a string.
std::string PyEvalString(const char* expr) {
  PyObject* main = PyImport_AddModule("__main__");
  PyObject* globals = PyModule_GetDict(main);
  PyObject* v = PyRun_String(expr, Py_eval_input, globals, globals);
  if (v == nullptr) {
    PyErr_Print();
    return "<error>";
  }
  std::string s = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : "<not a str>";
  Py_DECREF(v);
  return s;
}

TEST(Python, EmbeddedDebianPython311ReportsThisMachine) {
  Py_InitializeEx(0);
  ASSERT_TRUE(Py_IsInitialized());
  ASSERT_EQ(PyRun_SimpleString("import platform, sys, sysconfig"), 0);
  EXPECT_EQ(PyEvalString("platform.machine()"), kExpectedMachine);
  EXPECT_EQ(PyEvalString("'%d.%d' % sys.version_info[:2]"), "3.11");
  // Debian's multiarch build of libpython, not another Python on PATH.
  EXPECT_EQ(PyEvalString("sysconfig.get_config_var('MULTIARCH')"),
            std::string(kExpectedMachine) + "-linux-gnu");
  EXPECT_EQ(PyEvalString("str(2**100 // 7)"), "181092942889747057356671886482");
}

// Counts the benchmark runs Google Benchmark reports.
class CountingReporter : public benchmark::BenchmarkReporter {
 public:
  bool ReportContext(const Context&) override { return true; }
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& run : runs) {
      if (run.error_occurred) errors++;
      if (run.iterations > 0) ran++;
    }
  }
  int ran = 0;
  int errors = 0;
};

TEST(Benchmark, SmokeBenchmarksRun) {
  int argc = 2;
  char arg0[] = "smoke_test";
  char arg1[] = "--benchmark_min_time=0.001";
  char* argv[] = {arg0, arg1, nullptr};
  benchmark::Initialize(&argc, argv);
  CountingReporter reporter;
  size_t n = benchmark::RunSpecifiedBenchmarks(&reporter);
  EXPECT_EQ(n, 2u);
  EXPECT_EQ(reporter.ran, 2);
  EXPECT_EQ(reporter.errors, 0);
}

TEST(Pugixml, ParsesJUnit) {
  const char* xml = R"(<?xml version="1.0"?>
<testsuites><testsuite name="s" tests="3">
  <testcase classname="m.C" name="ok" time="0.1"/>
  <testcase classname="m.C" name="bad"><failure message="boom"><![CDATA[trace <x>]]></failure></testcase>
  <testcase classname="m.C" name="skip"><skipped message="why"/></testcase>
</testsuite></testsuites>)";
  pugi::xml_document doc;
  pugi::xml_parse_result parsed = doc.load_string(xml);
  ASSERT_TRUE(parsed) << parsed.description();
  int cases = 0, failures = 0, skipped = 0;
  for (pugi::xml_node tc : doc.child("testsuites").child("testsuite").children("testcase")) {
    cases++;
    if (tc.child("failure")) failures++;
    if (tc.child("skipped")) skipped++;
  }
  EXPECT_EQ(cases, 3);
  EXPECT_EQ(failures, 1);
  EXPECT_EQ(skipped, 1);
  EXPECT_STREQ(doc.select_node("//failure").node().child_value(), "trace <x>");
  // Truncated XML is an error, not an empty document.
  pugi::xml_document bad;
  EXPECT_FALSE(bad.load_string("<testsuites><testsuite><testcase name=\"x\""));
}

}  // namespace
}  // namespace a64jit::smoke
