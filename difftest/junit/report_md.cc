// The Markdown rendering of a comparison report: what to act on first (regressions, each
// with its traceback's end, log and reproducer; modules lost whole; what changed since the
// last night; known failures), then the module table with time stock vs JIT, then the rest.
#include <sstream>
#include <vector>

#include "difftest/junit/compare.h"
#include "difftest/junit/report_parts.h"

namespace a64jit::junit {
using nlohmann::json;
using namespace report;  // NOLINT(build/namespaces): the renderers' shared vocabulary

namespace {

// One regression: its test, kind and news, the label (re-run verdict, culprit function),
// the message, the traceback's last lines, the log and the command that reproduces it.
void MarkdownRegression(std::ostream& os, const json& g, const std::string& link_dir) {
  os << "\n### `" << Str(g["test"]) << "`: " << Str(g["kind"]) << " with the JIT";
  if (g.value("new", false)) os << " (new)";
  os << "\n\n";
  if (g.contains("label")) os << "- Re-run: " << Str(g["label"]) << "\n";
  if (g.contains("known_failure")) {
    os << "- Known failure, expired " << Str(g["known_failure"].value("expires", json())) << ": "
       << Str(g["known_failure"]["reason"]) << "\n";
  }
  if (!Str(g.value("message", json())).empty()) os << "- Message: " << Str(g["message"]) << "\n";
  if (!Str(g.value("log", json())).empty())
    os << "- Log: " << LinkTo(Str(g["log"]), link_dir) << "\n";
  if (g.contains("reproduce")) os << "- Reproduce: `" << Str(g["reproduce"]) << "`\n";
  if (g.contains("detail")) os << "\n```\n" << Str(g["detail"]) << "\n```\n";
}

void MarkdownRegressions(std::ostream& os, const json& r, const std::string& link_dir) {
  const std::vector<const json*> items = ActionableRegressions(r);
  if (items.empty()) return;
  os << "\n## " << RegressionsTitle(r, items.size()) << "\n";
  for (const json* g : items) MarkdownRegression(os, *g, link_dir);
}

// A module lost as a whole is one line: side, signal, culprit, and its lost tests.
void MarkdownLostModules(std::ostream& os, const json& r) {
  auto lost = LostTests(r);
  const std::vector<json> rows = LostModules(r);
  if (rows.empty()) return;
  os << "\n## Modules lost as a whole (" << rows.size() << ")\n\n";
  for (const json& c : rows) {
    const std::string module = Str(c["module"]);
    const auto& tests = lost[module];
    os << "- `" << module << "` (" << Str(c["side"]) << "): **" << Str(c["signal"]) << "**";
    if (!Str(c.value("culprit", json())).empty())
      os << " while running `" << Str(c["culprit"]) << "`";
    os << "; " << tests.size() << " test(s) lost";
    for (size_t i = 0; i < tests.size() && i < 10; i++) os << (i ? ", " : ": ") << tests[i];
    if (tests.size() > 10) os << ", +" << tests.size() - 10 << " more";
    os << "\n";
  }
}

// What changed since the last night, and the known failures (shown, not failing).
void MarkdownTriage(std::ostream& os, const json& r) {
  if (r.contains("since_last_night")) {
    const json& s = r["since_last_night"];
    os << "\n## Since the last night (" << Str(s["night"]) << ")\n\n";
    os << "- New regressions: " << NewRegressions(r)
       << "\n- Regressions gone: " << s["gone"].size();
    for (size_t i = 0; i < s["gone"].size() && i < 10; i++)
      os << (i ? ", " : ": ") << "`" << Str(s["gone"][i]["test"]) << "`";
    if (s["gone"].size() > 10) os << ", +" << s["gone"].size() - 10 << " more";
    os << "\n";
  }
  const json known = r.value("known_failures", json::array());
  if (!known.empty()) {
    os << "\n## Known failures (" << known.size() << "; shown, not failing the night)\n\n";
    for (const json& k : known) {
      os << "- `" << Str(k["test"]) << "`: " << Str(k["kind"]) << "; "
         << Str(k["known_failure"]["reason"]);
      if (k["known_failure"].contains("expires"))
        os << " (until " << Str(k["known_failure"]["expires"]) << ")";
      os << "\n";
    }
  }
  const json unmatched = r.value("known_unmatched", json::array());
  if (!unmatched.empty()) {
    os << "\n## Known failures that did not fail (" << unmatched.size() << ")\n\n";
    for (const json& k : unmatched)
      os << "- `" << Str(k["test"]) << "`: " << Str(k["reason"]) << "\n";
  }
}

void MarkdownModules(std::ostream& os, const json& r) {
  os << "\n## Modules\n\n| Module | Stock P/F/E/S/XF | JIT P/F/E/S/XF | Stock s | JIT s | "
        "JIT/stock "
        "| Compiled | Regressions |\n|---|---|---|---|---|---|---|---|\n";
  for (const json& m : r["modules"]) {
    os << "| " << Cell(Str(m["module"])) << " | " << Counts(m["stock"]) << " | " << Counts(m["jit"])
       << " | " << Seconds(m, "stock_s") << " | " << Seconds(m, "jit_s") << " | " << TimeRatio(m)
       << " | " << Num(m["compiled"]) << " | " << m["regressions"] << " |\n";
  }
  if (!HasCompileStats(r)) return;
  os << "\n## JIT compilation per module\n\n";
  os << "| Module | Compiled | Failed | Compiled share | Compiled entries | Failure causes "
        "(functions) |\n|---|---|---|---|---|---|\n";
  for (const json& m : r["modules"]) {
    os << "| " << Cell(Str(m["module"])) << " | " << Num(m["compiled"]) << " | " << Num(m["failed"])
       << " | " << Share(m, "compiled_share") << " | " << Share(m, "entry_share") << " | "
       << Cell(Causes(m)) << " |\n";
  }
}

void MarkdownLaterSections(std::ostream& os, const json& r) {
  for (size_t s = 0; s < kLaterSectionCount; s++) {
    const std::vector<const json*> items = SectionItems(r, kLaterSections[s][0]);
    if (items.empty()) continue;
    os << "\n## " << kLaterSections[s][1] << " (" << items.size() << ")\n\n";
    for (const json* item : items) {
      // The test first, in the place a reader's eye starts; then the rest.
      os << "-" << (item->contains("test") ? " `" + Str((*item)["test"]) + "`" : "");
      for (const auto& [k, v] : item->items()) {
        if (k == "test" || v.is_null() || (v.is_string() && v.get<std::string>().empty())) continue;
        os << " " << k << ": `" << Cell(Str(v)) << "`";
      }
      os << "\n";
    }
  }
}

}  // namespace

std::string RenderMarkdown(const json& r, const std::string& link_dir) {
  std::ostringstream os;
  os << "# Stock vs JIT: " << Headline(r) << "\n\n";
  if (const std::string about = AboutLine(r); !about.empty()) os << "Run: " << about << ".\n\n";
  os << "Stock: " << r["stock"]["tests"] << " tests from " << r["stock"]["files"]
     << " report(s); JIT: " << r["jit"]["tests"] << " tests from " << r["jit"]["files"]
     << " report(s)";
  if (r["jit"].contains("compiled_functions") && !r["jit"]["compiled_functions"].is_null()) {
    os << "; JIT compiled " << r["jit"]["compiled_functions"] << " function(s)";
  }
  os << ".\n";
  if (!r["untrusted"].empty() || !r["missing_evidence"].empty()) os << "\n";
  for (const json& u : r["untrusted"]) os << "- **Cannot be trusted:** " << Str(u) << "\n";
  for (const json& m : r["missing_evidence"]) os << "- Missing evidence: " << Str(m) << "\n";
  MarkdownRegressions(os, r, link_dir);
  MarkdownLostModules(os, r);
  MarkdownTriage(os, r);
  MarkdownModules(os, r);
  MarkdownLaterSections(os, r);
  return os.str();
}

}  // namespace a64jit::junit
