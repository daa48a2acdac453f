// Reading JUnit XML from the test runners a JIT's nightly meets: pytest (xunit1 and
// xunit2), PyTorch's run_test.py (several files per test file, <rerun> elements),
// unittest-xml-reporting, GoogleTest, Bazel's test.xml and Maven Surefire (flakyFailure,
// rerunFailure). Every <testcase> becomes a Row with a normalised key; a file that cannot
// be read as JUnit is "corrupt" with the reason, never "0 tests".
#ifndef A64JIT_DIFFTEST_JUNIT_JUNIT_H_
#define A64JIT_DIFFTEST_JUNIT_JUNIT_H_

#include <cstdint>
#include <string>
#include <vector>

namespace a64jit::junit {

enum class Outcome : uint8_t { kPass, kFail, kError, kSkip, kXFail };
const char* OutcomeName(Outcome o);

// Why a test was skipped, by its message.
enum class SkipReason : uint8_t { kNone, kDisabled, kSlow, kDevice, kXFail, kOther };
const char* SkipReasonName(SkipReason r);
SkipReason ClassifySkip(const std::string& type, const std::string& message);

// One attempt at running a test.
struct Attempt {
  Outcome outcome;
  std::string message;  // first line of the failure/error/skip message
  std::string detail;   // a failure's or error's traceback, its last lines (ExcerptOf)
};

// One <testcase>: its attempts in order (reruns first, its own result last).
struct Row {
  std::string key;     // "module::Class::name" ("module::name" without a class)
  std::string module;  // the test file, as a dotted module ("test_nn", "tests.core.test_a")
  std::vector<Attempt> attempts;
  SkipReason skip_reason = SkipReason::kNone;
  bool subtest = false;  // one failing subTest of the test `key` (unittest-xml-reporting)
};

struct ParsedFile {
  std::string path;
  bool corrupt = false;
  std::string problem;  // why it is corrupt, or a warning ("non-UTF-8 bytes replaced")
  std::vector<Row> rows;
};

// Normalises a test's identity so the same test has the same key in every format.
// `hint_module` is the test file the report belongs to (from its path), used when the XML
// only says "__main__" or nothing.
// A unittest subTest row ("test_x (i=1)") normalises to its test's key; `subtest_out`
// says so.
std::string NormaliseKey(const std::string& file_attr, const std::string& classname,
                         const std::string& name, const std::string& hint_module,
                         std::string* module_out, bool* subtest_out = nullptr);

// Parses one report. Never throws on bad input: problems are reported in ParsedFile.
ParsedFile ParseReport(const std::string& path, const std::string& hint_module);
ParsedFile ParseReportText(std::string text, const std::string& path,
                           const std::string& hint_module);

// The last `max_lines` lines of `text` (trailing blanks dropped), at most `max_chars` of
// them, after a "...\n" line when anything was cut.
std::string Excerpt(const std::string& text, size_t max_lines, size_t max_chars);

// Replaces invalid UTF-8 sequences by U+FFFD; returns true if anything was replaced.
bool SanitiseUtf8(std::string* s);

}  // namespace a64jit::junit

#endif  // A64JIT_DIFFTEST_JUNIT_JUNIT_H_
