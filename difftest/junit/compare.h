// Stock run vs JIT run of the same test suite, per test. Each side is a directory of JUnit
// XML (searched recursively) and optionally a run manifest (written by runner.py) with per
// test file: exit status, signal or timeout, the test running when it died, and how many
// functions the JIT compiled.
#ifndef A64JIT_DIFFTEST_JUNIT_COMPARE_H_
#define A64JIT_DIFFTEST_JUNIT_COMPARE_H_

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "difftest/junit/junit.h"

namespace a64jit::junit {

// A test's verdict on one side: all its rows merged in order, the last attempt decides.
struct Verdict {
  Outcome outcome = Outcome::kPass;
  SkipReason skip = SkipReason::kNone;
  bool failed_before = false;  // an earlier attempt failed or errored
  uint32_t attempts = 0;
  uint32_t module = 0;   // index into Side::modules
  uint32_t file = 0;     // the report its last row came from
  bool subtest = false;  // its last row was a subTest row
  std::string message;   // of the last attempt, when it did not pass
  bool flaky() const { return failed_before && outcome == Outcome::kPass; }
};

// One test file's process, from a run manifest.
struct FileRun {
  std::string file;
  std::string command;
  int exit_status = 0;
  std::string signal;  // "SIGSEGV", ..., "timeout", or ""
  double duration_s = 0;
  std::string culprit;              // the test running when the process died
  std::optional<int64_t> compiled;  // JIT activity proof: functions compiled
  bool crashed() const { return !signal.empty(); }
};

struct Side {
  std::string dir;
  bool has_manifest = false;
  std::map<std::string, FileRun> runs;  // by module
  std::vector<std::string> modules;     // module names; Verdict::module indexes them
  std::unordered_map<std::string, Verdict> tests;
  std::vector<ParsedFile> corrupt;  // rows dropped
  std::vector<std::string> warnings;
  uint64_t rows = 0, duplicate_rows = 0, files = 0;
};

// Reads every *.xml under `dir` (recursively) and, if given, a manifest. A report's module
// hint is the first directory under `dir` (runner.py writes <dir>/<test file>/*.xml), or
// for files directly in `dir` the file name. Throws std::runtime_error for an unreadable
// directory or a malformed manifest.
Side LoadSide(const std::string& dir, const std::string& manifest_path);

struct CompareOptions {
  std::string stock_manifest, jit_manifest;  // "" : <dir>/manifest.json if present
  std::string labels;                        // runner.py's re-run labels, optional
};

// The comparison as a JSON document (schema "a64jit-junit-compare/1", see README.md).
nlohmann::json Compare(const Side& stock, const Side& jit,
                       const std::map<std::string, std::string>& labels = {});

// Reports.
std::string RenderMarkdown(const nlohmann::json& report);
std::string RenderHtml(const nlohmann::json& report, const std::vector<nlohmann::json>& history);

}  // namespace a64jit::junit

#endif  // A64JIT_DIFFTEST_JUNIT_COMPARE_H_
