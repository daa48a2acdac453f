// The HTML rendering of a comparison report, as a night's reader opens it: the verdict, the
// regressions one by one (traceback's end, log link, reproducer), modules lost whole, what
// changed since the last night and the known failures; then the trend, the module table
// with time stock vs JIT, and the rest. One file, nothing loaded from elsewhere.
#include <algorithm>
#include <sstream>
#include <vector>

#include "difftest/junit/compare.h"
#include "difftest/junit/report_parts.h"

namespace a64jit::junit {
using nlohmann::json;
using namespace report;  // NOLINT(build/namespaces): the renderers' shared vocabulary

namespace {

void HtmlSection(std::ostream& os, const char* id, const char* title,
                 const std::vector<const json*>& items);

// Regressions shown as cards; past this many, the rest are rows of a table.
constexpr size_t kRegressionCards = 100;

// One regression as a card: test, kind, "new", the re-run label (with the culprit function),
// the message, the traceback's last lines, a link to the log and the reproducer.
void HtmlRegressionCard(std::ostream& os, const json& g, const std::string& link_dir) {
  const bool fresh = g.value("new", false);
  os << "<div class=\"regression\" data-new=\"" << (fresh ? 1 : 0) << "\"><h3><code>"
     << Html(Str(g["test"])) << "</code> <span class=\"kind bad\">" << Html(Str(g["kind"]))
     << "</span>" << (fresh ? " <span class=\"new\">new</span>" : "") << "</h3>\n";
  if (g.contains("label")) os << "<p class=\"label\">Re-run: " << Html(Str(g["label"])) << "</p>\n";
  if (g.contains("known_failure")) {
    os << "<p class=\"label\">Known failure, expired "
       << Html(Str(g["known_failure"].value("expires", json()))) << ": "
       << Html(Str(g["known_failure"]["reason"])) << "</p>\n";
  }
  if (!Str(g.value("message", json())).empty())
    os << "<p class=\"message\">" << Html(Str(g["message"])) << "</p>\n";
  if (g.contains("detail"))
    os << "<pre class=\"traceback\">" << Html(Str(g["detail"])) << "</pre>\n";
  os << "<p class=\"links\">";
  if (!Str(g.value("log", json())).empty()) {
    os << "<a href=\"" << Html(LinkTo(Str(g["log"]), link_dir)) << "\">log</a>";
  }
  if (g.contains("reproduce")) {
    os << " Reproduce: <code class=\"reproduce\">" << Html(Str(g["reproduce"])) << "</code>";
  }
  os << "</p></div>\n";
}

void HtmlRegressions(std::ostream& os, const json& r, const std::string& link_dir) {
  const std::vector<const json*> items = ActionableRegressions(r);
  if (items.empty()) return;
  os << "<section id=\"regressions\"><h2>" << RegressionsTitle(r, items.size()) << "</h2>\n";
  for (size_t i = 0; i < items.size() && i < kRegressionCards; i++)
    HtmlRegressionCard(os, *items[i], link_dir);
  if (items.size() > kRegressionCards) {
    os << "<table class=\"list\" id=\"more-regressions\"><thead><tr><th>Test</th><th>Kind</th>"
          "<th>Message</th></tr></thead><tbody>\n";
    for (size_t i = kRegressionCards; i < items.size(); i++) {
      os << "<tr><td>" << Html(Str((*items[i])["test"])) << "</td><td>"
         << Html(Str((*items[i])["kind"])) << "</td><td>"
         << Html(Str(items[i]->value("message", json()))) << "</td></tr>\n";
    }
    os << "</tbody></table>\n";
  }
  os << "</section>\n";
}

// What changed since the last night, the known failures (shown, not failing the night) and
// the known failures that did not fail.
void HtmlTriage(std::ostream& os, const json& r) {
  if (r.contains("since_last_night")) {
    const json& s = r["since_last_night"];
    os << "<h2 id=\"since-last-night\">Since the last night (" << Html(Str(s["night"]))
       << ")</h2>\n<p>" << NewRegressions(r) << " new regression(s); " << s["gone"].size()
       << " regression(s) gone";
    if (!s["gone"].empty()) {
      os << ":</p><ul>";
      for (const json& g : s["gone"]) os << "<li><code>" << Html(Str(g["test"])) << "</code></li>";
      os << "</ul>\n";
    } else {
      os << ".</p>\n";
    }
  }
  const json known = r.value("known_failures", json::array());
  if (!known.empty()) {
    os << "<h2>Known failures (" << known.size() << "; shown, not failing the night)</h2>\n"
       << "<table class=\"list\" id=\"known-failures\"><thead><tr><th>Test</th><th>Kind</th>"
          "<th>Reason</th><th>Until</th></tr></thead><tbody>\n";
    for (const json& k : known) {
      os << "<tr><td>" << Html(Str(k["test"])) << "</td><td>" << Html(Str(k["kind"])) << "</td><td>"
         << Html(Str(k["known_failure"]["reason"])) << "</td><td>"
         << Html(Str(k["known_failure"].value("expires", json()))) << "</td></tr>\n";
    }
    os << "</tbody></table>\n";
  }
  std::vector<const json*> unmatched = SectionItems(r, "known_unmatched");
  if (!unmatched.empty())
    HtmlSection(os, "known-unmatched", "Known failures that did not fail", unmatched);
}

// One row per module, real columns: tests, outcomes per side, regressions, and what the JIT
// did there (functions compiled, compiled share, share of entries that ran compiled code).
void HtmlModules(std::ostream& os, const json& r) {
  os << "<table id=\"modules\"><thead><tr><th>Module</th><th>Tests</th><th>Stock passed</th>"
        "<th>Stock failed</th><th>JIT passed</th><th>JIT failed</th><th>Skipped (stock/JIT)</th>"
        "<th>Regressions</th><th>Stock s</th><th>JIT s</th><th>JIT/stock</th><th>Compiled</th>"
        "<th>Compiled share</th><th>Compiled entries</th></tr></thead><tbody>\n";
  for (const json& m : r["modules"]) {
    const json &st = m["stock"], &jt = m["jit"];
    int64_t tests = 0;
    for (const char* k : {"pass", "fail", "error", "skip", "xfail"})
      tests += std::max(st[k].get<int64_t>(), jt[k].get<int64_t>());
    const int64_t regressions = m["regressions"].get<int64_t>();
    os << "<tr data-regressions=\"" << regressions << "\"><td>" << Html(Str(m["module"]))
       << "</td><td>" << tests << "</td><td>" << st["pass"] << "</td><td>"
       << st["fail"].get<int64_t>() + st["error"].get<int64_t>() << "</td><td>" << jt["pass"]
       << "</td><td>" << jt["fail"].get<int64_t>() + jt["error"].get<int64_t>() << "</td><td>"
       << st["skip"].get<int64_t>() + st["xfail"].get<int64_t>() << "/"
       << jt["skip"].get<int64_t>() + jt["xfail"].get<int64_t>() << "</td><td"
       << (regressions > 0 ? " class=\"bad\"" : "") << ">" << regressions << "</td><td>"
       << Seconds(m, "stock_s") << "</td><td>" << Seconds(m, "jit_s") << "</td><td>" << TimeRatio(m)
       << "</td><td>" << Num(m["compiled"]) << "</td><td>" << Share(m, "compiled_share")
       << "</td><td>" << Share(m, "entry_share") << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
}

// A module lost as a whole is one row: side, signal (or "missing"), the test that was
// running, and its lost tests behind a click.
void HtmlLostModules(std::ostream& os, const json& r) {
  auto lost = LostTests(r);
  const std::vector<json> rows = LostModules(r);
  if (rows.empty()) return;
  os << "<h2>Modules lost as a whole (" << rows.size() << ")</h2>\n<table id=\"crashes\">"
     << "<thead><tr><th>Module</th><th>Side</th><th>Signal</th><th>Running test (culprit)"
        "</th><th>Lost tests</th><th>Duration</th></tr></thead><tbody>\n";
  for (const json& c : rows) {
    const std::string module = Str(c["module"]);
    const auto& tests = lost[module];
    os << "<tr data-regressions=\"" << tests.size() << "\"><td>" << Html(module) << "</td><td>"
       << Html(Str(c["side"])) << "</td><td class=\"bad\">" << Html(Str(c["signal"])) << "</td><td>"
       << Html(Str(c.value("culprit", json()))) << "</td><td>";
    if (tests.empty()) {
      os << "0";
    } else {
      os << "<details><summary>" << tests.size() << " test(s)</summary><ul>";
      for (const std::string& t : tests) os << "<li>" << Html(t) << "</li>";
      os << "</ul></details>";
    }
    os << "</td><td>" << (c.contains("duration_s") ? Str(c["duration_s"]) + " s" : "")
       << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
}

// A section's items as a table whose columns are the keys the items have: what names the
// row (test, module, side) first, then the rest in first-seen order.
void HtmlSection(std::ostream& os, const char* id, const char* title,
                 const std::vector<const json*>& items) {
  if (items.empty()) return;
  std::vector<std::string> keys;
  for (const char* k : {"test", "module", "side"})
    for (const json* item : items)
      if (item->contains(k) && std::find(keys.begin(), keys.end(), k) == keys.end())
        keys.push_back(k);
  for (const json* item : items)
    for (const auto& [k, v] : item->items())
      if (std::find(keys.begin(), keys.end(), k) == keys.end()) keys.push_back(k);
  os << "<h2>" << Html(title) << " (" << items.size() << ")</h2>\n<table class=\"list\" id=\"" << id
     << "\"><thead><tr>";
  for (const std::string& k : keys) os << "<th>" << Html(k) << "</th>";
  os << "</tr></thead><tbody>\n";
  for (const json* item : items) {
    os << "<tr>";
    for (const std::string& k : keys)
      os << "<td>" << (item->contains(k) ? Html(Str((*item)[k])) : "") << "</td>";
    os << "</tr>\n";
  }
  os << "</tbody></table>\n";
}

// The sections after the module table, and why functions were not compiled.
void HtmlLaterSections(std::ostream& os, const json& r) {
  for (size_t s = 0; s < kLaterSectionCount; s++) {
    HtmlSection(os, kLaterSections[s][0], kLaterSections[s][1],
                SectionItems(r, kLaterSections[s][0]));
  }
  if (!HasCompileStats(r)) return;
  json causes = json::array();
  for (const json& m : r["modules"])
    if (!Causes(m).empty()) causes.push_back({{"module", m["module"]}, {"causes", Causes(m, 30)}});
  std::vector<const json*> items;
  for (const json& c : causes) items.push_back(&c);
  HtmlSection(os, "failure-causes", "Why functions were not compiled", items);
}

constexpr const char* kHtmlStyle =
    "body{font-family:sans-serif;margin:1.5em;max-width:1400px}"
    "table{border-collapse:collapse;margin:1em 0}"
    "td,th{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:left;"
    "vertical-align:top}th{background:#eee}.bad{color:#b00}.good{color:#070}"
    ".hidden{display:none}summary{cursor:pointer}"
    ".regression{border-left:4px solid #b00;padding:0 0 0 1em;margin:1em 0}"
    ".regression h3{margin:0.3em 0;font-size:15px}.new{background:#b00;color:#fff;"
    "padding:0 6px;border-radius:3px;font-size:12px}.kind{font-weight:normal}"
    "pre.traceback{background:#f6f6f6;padding:6px;font-size:12px;overflow-x:auto;"
    "white-space:pre-wrap}code.reproduce{background:#f6f6f6;padding:1px 4px}"
    ".message{font-family:monospace;font-size:13px}\n";

constexpr const char* kHtmlScript =
    "<script>\nfunction applyFilter(){\n"
    "  const q=document.getElementById('filter').value.toLowerCase();\n"
    "  const only=document.getElementById('only-regressed').checked;\n"
    "  for(const tr of document.querySelectorAll('tbody tr')){\n"
    "    const text=tr.textContent.toLowerCase();\n"
    "    const reg=tr.dataset.regressions===undefined||tr.dataset.regressions!=='0';\n"
    "    tr.classList.toggle('hidden',(q&&!text.includes(q))||(only&&!reg));\n"
    "  }\n}\ndocument.body.dataset.ready='1';\n</script>\n";

}  // namespace

std::string RenderHtml(const json& r, const std::vector<json>& history,
                       const std::string& link_dir) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Stock vs JIT: "
     << Html(Headline(r)) << "</title>\n<style>\n"
     << kHtmlStyle << "</style></head><body>\n";
  os << "<h1 id=\"verdict\" class=\"" << (r["exit_status"].get<int>() == 0 ? "good" : "bad")
     << "\">Stock vs JIT: " << Html(Headline(r)) << "</h1>\n";
  if (const std::string about = AboutLine(r); !about.empty()) {
    os << "<p id=\"about\">Run: " << Html(about) << ".</p>\n";
  }
  os << "<p>Stock: " << r["stock"]["tests"] << " tests; JIT: " << r["jit"]["tests"] << " tests; "
     << r["modules"].size() << " module(s); JIT compiled "
     << Num(r["jit"].value("compiled_functions", json())) << " function(s).</p>\n";
  for (const json& u : r["untrusted"])
    os << "<p class=\"bad untrusted\">Cannot be trusted: " << Html(Str(u)) << "</p>\n";
  for (const json& m : r["missing_evidence"])
    os << "<p class=\"missing\">Missing evidence: " << Html(Str(m)) << "</p>\n";
  HtmlRegressions(os, r, link_dir);
  HtmlLostModules(os, r);
  HtmlTriage(os, r);
  HtmlTrend(os, history);
  os << "<h2>Modules (" << r["modules"].size()
     << ")</h2>\n<p>Filter: <input id=\"filter\" "
        "placeholder=\"test or module\" oninput=\"applyFilter()\"> <label><input "
        "type=\"checkbox\" id=\"only-regressed\" onchange=\"applyFilter()\"> only rows with "
        "regressions</label></p>\n";
  HtmlModules(os, r);
  HtmlLaterSections(os, r);
  os << kHtmlScript;
  // The report itself, for tools: JSON inside <script> needs only "</" escaped.
  std::string data = r.dump(-1, ' ', false, json::error_handler_t::replace);
  for (size_t at = 0; (at = data.find("</", at)) != std::string::npos; at += 3)
    data.replace(at, 2, "<\\/");
  os << "<script type=\"application/json\" id=\"report\">" << data << "</script>\n";
  os << "</body></html>\n";
  return os.str();
}

}  // namespace a64jit::junit
