// Stock run vs JIT run of the same test suite, per test. Each side is a directory of JUnit
// XML (searched recursively) and optionally a run manifest (written by runner.py) with per
// test file: exit status, signal or timeout, the test running when it died, and how many
// functions the JIT compiled and failed to compile (and why).
#ifndef A64JIT_DIFFTEST_JUNIT_COMPARE_H_
#define A64JIT_DIFFTEST_JUNIT_COMPARE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <memory_resource>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
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
  std::string detail;    // of the last attempt, when it failed: its traceback's last lines
  bool flaky() const { return failed_before && outcome == Outcome::kPass; }
};

// One test file's process, from a run manifest. `failed` and `failure_causes` are the JIT's
// functions that reached the threshold but did not compile, and why (cause -> functions;
// runner.py counts "unsupported opcode X" as X). `compiled_entries` and `interpreted_entries`
// count function entries instead of functions, so a hot function left interpreted weighs
// by how often it ran; manifests before them lack both.
struct FileRun {
  std::string file;
  std::string command;
  int exit_status = 0;
  std::string signal;  // "SIGSEGV", ..., "timeout", or ""
  double duration_s = 0;
  std::string culprit;              // the test running when the process died
  std::string reproduce;            // a shell command running one test ({id}: the key after "::")
  std::optional<int64_t> compiled;  // JIT activity proof: functions compiled
  std::optional<int64_t> failed;    // functions the JIT could not compile
  std::optional<int64_t> compiled_entries;     // function entries that ran compiled code
  std::optional<int64_t> interpreted_entries;  // function frames the interpreter ran
  std::map<std::string, int64_t> failure_causes;
  bool crashed() const { return !signal.empty(); }
};

// Tests by key: a flat open-addressing table over a vector of entries in arrival order,
// keys in an arena. At a million tests per side std::unordered_map spends most of the
// comparison chasing node and key pointers; here a lookup is one probe sequence in a
// dense array plus one entry.
class TestTable {
 public:
  struct Entry {
    std::string_view key;
    uint64_t hash;
    Verdict verdict;
  };
  TestTable() : arena_(std::make_unique<std::pmr::monotonic_buffer_resource>(1u << 20)) {}
  static uint64_t Hash(std::string_view key) { return std::hash<std::string_view>()(key); }
  void Reserve(size_t n);
  // The verdict for `key`, created if new (`fresh`).
  Verdict& Insert(std::string_view key, uint64_t hash, bool* fresh);
  // The entry index of `key`, or -1.
  int64_t FindIndex(std::string_view key, uint64_t hash) const;
  const Verdict* Find(std::string_view key, uint64_t hash) const {
    const int64_t i = FindIndex(key, hash);
    return i < 0 ? nullptr : &entries_[static_cast<size_t>(i)].verdict;
  }
  const Verdict* Find(std::string_view key) const { return Find(key, Hash(key)); }
  const std::vector<Entry>& entries() const { return entries_; }
  size_t size() const { return entries_.size(); }

 private:
  void Grow();
  std::unique_ptr<std::pmr::monotonic_buffer_resource> arena_;
  std::vector<Entry> entries_;
  std::vector<uint32_t> slots_;  // entry index + 1; 0 is empty
};

struct Side {
  TestTable tests;
  std::string dir;
  bool has_manifest = false;
  std::map<std::string, FileRun> runs;  // by module
  std::vector<std::string> modules;     // module names; Verdict::module indexes them
  std::vector<ParsedFile> corrupt;      // rows dropped
  std::vector<std::string> warnings;
  uint64_t rows = 0, duplicate_rows = 0;
  std::vector<std::string> paths;  // the reports read; Verdict::file - 1 indexes them
};

// Reads every *.xml under `dir` (recursively) and, if given, a manifest. A report's module
// hint is the first directory under `dir` (runner.py writes <dir>/<test file>/*.xml), or
// for files directly in `dir` the file name. Throws std::runtime_error for an unreadable
// directory or a malformed manifest.
Side LoadSide(const std::string& dir, const std::string& manifest_path);
// Both sides, read concurrently (they are independent). Rethrows the first error.
std::pair<Side, Side> LoadSides(const std::string& stock_dir, const std::string& stock_manifest,
                                const std::string& jit_dir, const std::string& jit_manifest);

// How to compare. `labels` (test -> label) come from runner.py's re-runs. Without JIT
// evidence (a JIT manifest, and a compiled-function count for every module the JIT side
// ran) the verdict is untrusted (exit 2): a suite that "passes" with the JIT switched off
// proves nothing. `waive_jit_evidence` downgrades that to a note, for comparing two runs
// that are not stock vs a64jit (two stock builds, another JIT).
// `reproducer`, when given, is the command that runs one test alone, with {module} and {id}
// (the test's key after its module's "::") to fill in; else a manifest's `reproduce`.
struct CompareOptions {
  std::map<std::string, std::string> labels;
  bool waive_jit_evidence = false;
  std::string reproducer;
};

// The comparison as a JSON document (schema "a64jit-junit-compare/1", see README.md).
nlohmann::json Compare(const Side& stock, const Side& jit, const CompareOptions& options = {});

// A report's exit_status from its lists: 2 untrusted, 1 regressions, else 0 (again after
// triage.h moves regressions to known failures).
void UpdateExitStatus(nlohmann::json* report);

// Reports (report_md.cc, report_html.cc). Links to logs are relative to `link_dir` (where
// the report is written) when it is given.
std::string RenderMarkdown(const nlohmann::json& report, const std::string& link_dir = "");
std::string RenderHtml(const nlohmann::json& report, const std::vector<nlohmann::json>& history,
                       const std::string& link_dir = "");

}  // namespace a64jit::junit

#endif  // A64JIT_DIFFTEST_JUNIT_COMPARE_H_
