// What the Markdown and the HTML renderings of a comparison report (compare.h) share: how
// values, counts, shares and times print, the order of the report's sections, and which
// regressions belong to a module lost as a whole.
#ifndef A64JIT_DIFFTEST_JUNIT_REPORT_PARTS_H_
#define A64JIT_DIFFTEST_JUNIT_REPORT_PARTS_H_

#include <cstddef>
#include <map>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

namespace a64jit::junit::report {
using nlohmann::json;

// A value as text: "" for null, a string as it is, anything else as JSON.
std::string Str(const json& v);
// A number, or "?" when unknown.
std::string Num(const json& v);
// "P/F/E/S/XF" of a side's outcome counts.
std::string Counts(const json& c);
// Markdown table cells must not contain a bare '|' or a newline.
std::string Cell(std::string s);
// Text escaped for HTML.
std::string Html(const std::string& s);
// A module row's share (`compiled_share`, `entry_share`) as "75.0%", or "?".
std::string Share(const json& m, const char* key);
// A module's seconds on one side ("12.3"), or "?" when unknown.
std::string Seconds(const json& m, const char* key);
// The JIT side's time over stock's ("1.42x"), or "?" when either is unknown or stock's is 0.
std::string TimeRatio(const json& m);
// "OP n, OP n, ..." most frequent first, at most `limit`, then "+N more".
std::string Causes(const json& m, size_t limit = 10);
// Whether any module has the JIT's failed-function count or entry share.
bool HasCompileStats(const json& r);

// The headline: "no regression", "N regression(s), M new since NIGHT", or untrusted; with
// the known failures shown.
std::string Headline(const json& r);
// "night N, commit C, host H, ..." from the report's `night` and `about`, or "".
std::string AboutLine(const json& r);
// A log's path as a link from `link_dir` (relative), or as it is without one.
std::string LinkTo(const std::string& path, const std::string& link_dir);

// Sections listed after the module table, in order: {id, title}.
extern const char* const kLaterSections[][2];
extern const size_t kLaterSectionCount;

// Regressions that belong to a module lost as a whole (a crash, a missing suite) are shown
// once, in that module's row.
bool LostWithModule(const json& regression);
std::map<std::string, std::vector<std::string>> LostTests(const json& r);
// Crashed processes and suites missing on one side, as rows of one shape.
std::vector<json> LostModules(const json& r);
// How many regressions are new since the last night (`new`, triage.h).
int64_t NewRegressions(const json& r);
// The regressions shown one by one (not lost with their module): new ones first.
std::vector<const json*> ActionableRegressions(const json& r);
// "Regressions (N)", with how many more were lost with their modules.
std::string RegressionsTitle(const json& r, size_t shown);
// A later section's items.
std::vector<const json*> SectionItems(const json& r, const std::string& id);

// The HTML trend across nights (report_trend.cc): JIT passes and the compiled share, then
// JIT failures and regressions; nothing without a history.
void HtmlTrend(std::ostream& os, const std::vector<json>& history);

}  // namespace a64jit::junit::report

#endif  // A64JIT_DIFFTEST_JUNIT_REPORT_PARTS_H_
