// Markdown and HTML renderings of a comparison report (see compare.h).
#include <algorithm>
#include <functional>
#include <iterator>
#include <map>
#include <sstream>
#include <utility>
#include <vector>

#include "difftest/junit/compare.h"

namespace a64jit::junit {
using nlohmann::json;

namespace {

std::string Counts(const json& c) {
  std::ostringstream os;
  os << c["pass"].get<int64_t>() << "/" << c["fail"].get<int64_t>() << "/"
     << c["error"].get<int64_t>() << "/" << c["skip"].get<int64_t>() << "/"
     << c["xfail"].get<int64_t>();
  return os.str();
}

std::string Str(const json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

// Markdown table cells must not contain a bare '|' or a newline.
std::string Cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

std::string Html(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

const char* const kSections[][2] = {
    {"regressions", "Regressions (stock pass -> JIT fail / error / missing) outside lost modules"},
    {"crashes", "Crashed processes"},
    {"corrupt", "Corrupt reports"},
    {"missing_suites", "Suites present on one side only"},
    {"flaky", "Flaky"},
    {"fixed", "Fixed (stock fail -> JIT pass)"},
    {"newly_skipped", "Newly skipped with the JIT"},
    {"unskipped", "Skipped stock, run with the JIT"},
    {"not_run", "Not run on one side"},
};

// Whether any module has the JIT's failed-function count or entry share (runner.py writes
// them from the JIT's statistics); only then is the compilation table shown.
bool HasCompileStats(const json& r) {
  for (const json& m : r["modules"]) {
    if (m.contains("failed") && !m["failed"].is_null()) return true;
    if (m.contains("entry_share") && !m["entry_share"].is_null()) return true;
  }
  return false;
}

// A module row's share (`compiled_share`, `entry_share`) as "75.0%", or "?" when unknown
// (also for reports written before the key existed).
std::string Share(const json& m, const char* key) {
  if (!m.contains(key) || m[key].is_null()) return "?";
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(1);
  os << 100 * m[key].get<double>() << "%";
  return os.str();
}

// "OP n, OP n, ..." most frequent first (ties by name), at most `limit`, then "+N more".
std::string Causes(const json& m, size_t limit = 10) {
  if (!m.contains("failure_causes") || !m["failure_causes"].is_object()) return "";
  std::vector<std::pair<int64_t, std::string>> causes;
  for (const auto& [cause, n] : m["failure_causes"].items())
    causes.emplace_back(-n.get<int64_t>(), cause);
  std::sort(causes.begin(), causes.end());
  std::ostringstream os;
  for (size_t i = 0; i < causes.size() && i < limit; i++)
    os << (i ? ", " : "") << causes[i].second << " " << -causes[i].first;
  if (causes.size() > limit) os << ", +" << causes.size() - limit << " more";
  return os.str();
}

// Regressions that belong to a module lost as a whole (its process crashed or timed out,
// or its report is missing on the JIT side) are shown once, in that module's row.
bool LostWithModule(const json& regression) {
  const std::string kind = Str(regression["kind"]);
  return kind == "crash" || kind == "missing suite";
}

// Tests lost with each module, by module name.
std::map<std::string, std::vector<std::string>> LostTests(const json& r) {
  std::map<std::string, std::vector<std::string>> lost;
  for (const json& g : r["regressions"])
    if (LostWithModule(g)) lost[Str(g["module"])].push_back(Str(g["test"]));
  return lost;
}

// Crashed processes and suites missing on one side, as rows of one shape.
std::vector<json> LostModules(const json& r) {
  std::vector<json> rows;
  for (const json& c : r["crashes"]) rows.push_back(c);
  for (const json& m : r["missing_suites"])
    rows.push_back({{"module", m["module"]}, {"side", m["missing_on"]}, {"signal", "missing"}});
  return rows;
}

// A section's items as both reports list them: crashes and suites missing on one side make
// the lost-modules list instead, which also holds the regressions lost with them.
std::vector<const json*> SectionItems(const json& r, const std::string& id) {
  std::vector<const json*> items;
  if (id == "crashes" || id == "missing_suites") return items;
  for (const json& item : r[id])
    if (id != "regressions" || !LostWithModule(item)) items.push_back(&item);
  return items;
}

std::string Headline(const json& r) {
  switch (r["exit_status"].get<int>()) {
    case 0:
      return "no regression";
    case 1:
      return std::to_string(r["regressions"].size()) + " regression(s)";
    default:
      return "evidence cannot be trusted";
  }
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

}  // namespace

// "night N: commit C, host H, ..." from the report's `night` and `about` (junit_compare
// --night, --about KEY=VALUE), or "" without them.
std::string AboutLine(const json& r) {
  std::string line;
  if (r.contains("night")) line = "night " + Str(r["night"]);
  if (r.contains("about")) {
    for (const auto& [key, value] : r["about"].items()) {
      line += (line.empty() ? "" : ", ") + key + " " + Str(value);
    }
  }
  return line;
}

std::string RenderMarkdown(const json& r) {
  std::ostringstream os;
  os << "# Stock vs JIT: " << Headline(r) << "\n\n";
  if (const std::string about = AboutLine(r); !about.empty()) os << "Run: " << about << ".\n\n";
  os << "Stock: " << r["stock"]["tests"] << " tests from " << r["stock"]["files"]
     << " report(s); JIT: " << r["jit"]["tests"] << " tests from " << r["jit"]["files"]
     << " report(s)";
  if (r["jit"].contains("compiled_functions") && !r["jit"]["compiled_functions"].is_null()) {
    os << "; JIT compiled " << r["jit"]["compiled_functions"] << " function(s)";
  }
  os << ".\n\n";
  for (const json& u : r["untrusted"]) os << "- **Cannot be trusted:** " << Str(u) << "\n";
  for (const json& m : r["missing_evidence"]) os << "- Missing evidence: " << Str(m) << "\n";
  if (!r["untrusted"].empty() || !r["missing_evidence"].empty()) os << "\n";
  os << "| Module | Stock P/F/E/S/XF | JIT P/F/E/S/XF | Compiled | Regressions |\n";
  os << "|---|---|---|---|---|\n";
  for (const json& m : r["modules"]) {
    os << "| " << Cell(Str(m["module"])) << " | " << Counts(m["stock"]) << " | " << Counts(m["jit"])
       << " | " << (m["compiled"].is_null() ? "?" : m["compiled"].dump()) << " | "
       << m["regressions"] << " |\n";
  }
  if (HasCompileStats(r)) {
    os << "\n## JIT compilation per module\n\n";
    os << "| Module | Compiled | Failed | Compiled share | Compiled entries | Failure causes "
          "(functions) |\n";
    os << "|---|---|---|---|---|---|\n";
    for (const json& m : r["modules"]) {
      os << "| " << Cell(Str(m["module"])) << " | "
         << (m["compiled"].is_null() ? "?" : m["compiled"].dump()) << " | "
         << (m["failed"].is_null() ? "?" : m["failed"].dump()) << " | "
         << Share(m, "compiled_share") << " | " << Share(m, "entry_share") << " | "
         << Cell(Causes(m)) << " |\n";
    }
  }
  MarkdownLostModules(os, r);
  for (const auto& section : kSections) {
    const std::vector<const json*> items = SectionItems(r, section[0]);
    if (items.empty()) continue;
    os << "\n## " << section[1] << " (" << items.size() << ")\n\n";
    for (const json* item : items) {
      os << "-";
      for (const auto& [k, v] : item->items()) {
        if (v.is_null() || (v.is_string() && v.get<std::string>().empty())) continue;
        os << " " << k << ": `" << Cell(Str(v)) << "`";
      }
      os << "\n";
    }
  }
  return os.str();
}

namespace {

// ---- HTML ----------------------------------------------------------------------------

// Per night: JIT passes, JIT failures and errors, regressions, and the compiled share
// (compiled / (compiled + failed) over the modules that report both, or -1 when none do).
struct NightFigures {
  std::string night;
  int64_t pass = 0, fail = 0, regressions = 0;
  double share = -1;
};

NightFigures FiguresOf(const json& n, size_t index) {
  NightFigures f;
  f.night = n.value("night", std::to_string(index));
  int64_t compiled = 0, total = 0;
  for (const json& m : n["modules"]) {
    f.pass += m["jit"]["pass"].get<int64_t>();
    f.fail += m["jit"]["fail"].get<int64_t>() + m["jit"]["error"].get<int64_t>();
    if (m.contains("compiled") && m.contains("failed") && m["compiled"].is_number() &&
        m["failed"].is_number()) {
      compiled += m["compiled"].get<int64_t>();
      total += m["compiled"].get<int64_t>() + m["failed"].get<int64_t>();
    }
  }
  f.regressions = static_cast<int64_t>(n["regressions"].size());
  if (total > 0) f.share = static_cast<double>(compiled) / static_cast<double>(total);
  return f;
}

struct Series {
  const char* cls;
  const char* color;
  const char* label;
  std::function<double(const NightFigures&)> value;  // < 0: unknown that night, no point
  bool right_axis;                                   // a share, 0-100%
};

// One chart of the trend: a left axis of counts (0 to the largest), an optional right axis
// of shares (0-100%), one point per night, a legend and night labels thinned to about 8.
void HtmlTrendPanel(std::ostream& os, const char* id, const std::vector<NightFigures>& nights,
                    const std::vector<Series>& series) {
  double top = 1;
  bool right_axis = false;
  for (const Series& s : series) {
    right_axis |= s.right_axis;
    if (!s.right_axis)
      for (const NightFigures& n : nights) top = std::max(top, s.value(n));
  }
  const double left = 60, right = 660, plot_top = 20, bottom = 150;
  auto x = [&](size_t i) {
    return nights.size() == 1 ? (left + right) / 2
                              : left + (right - left) * static_cast<double>(i) /
                                           static_cast<double>(nights.size() - 1);
  };
  os << "<svg id=\"" << id << "\" width=\"760\" height=\"210\" "
     << "xmlns=\"http://www.w3.org/2000/svg\" font-size=\"11\">\n<line x1=\"" << left << "\" y1=\""
     << bottom << "\" x2=\"" << right << "\" y2=\"" << bottom << "\" stroke=\"#888\"/><line x1=\""
     << left << "\" y1=\"" << plot_top << "\" x2=\"" << left << "\" y2=\"" << bottom
     << "\" stroke=\"#888\"/>\n<text x=\"" << left - 6 << "\" y=\"" << plot_top + 4
     << "\" text-anchor=\"end\">" << static_cast<int64_t>(top) << "</text><text x=\"" << left - 6
     << "\" y=\"" << bottom << "\" text-anchor=\"end\">0</text>\n";
  if (right_axis) {
    os << "<text x=\"" << right + 6 << "\" y=\"" << plot_top + 4 << "\">100%</text><text x=\""
       << right + 6 << "\" y=\"" << bottom << "\">0%</text>\n";
  }
  for (size_t s = 0; s < series.size(); s++) {
    const Series& se = series[s];
    std::ostringstream pts;
    for (size_t i = 0; i < nights.size(); i++) {
      const double v = se.value(nights[i]);
      if (v < 0) continue;
      const double px = x(i), py = bottom - (bottom - plot_top) * (se.right_axis ? v : v / top);
      pts << px << "," << py << " ";
      os << "<circle cx=\"" << px << "\" cy=\"" << py << "\" r=\"3\" fill=\"" << se.color
         << "\"><title>" << Html(nights[i].night) << ": " << se.label << " "
         << (se.right_axis ? v * 100 : v) << (se.right_axis ? "%" : "") << "</title></circle>";
    }
    os << "<polyline class=\"" << se.cls << "\" fill=\"none\" stroke=\"" << se.color
       << "\" stroke-width=\"2\"" << (se.right_axis ? " stroke-dasharray=\"6 4\"" : "")
       << " points=\"" << pts.str() << "\"/>\n<rect x=\"" << left + 200 * s
       << "\" y=\"190\" width=\"10\" height=\"10\" fill=\"" << se.color << "\"/><text x=\""
       << left + 200 * s + 14 << "\" y=\"199\">" << se.label << "</text>\n";
  }
  const size_t step = std::max<size_t>(1, (nights.size() + 7) / 8);
  for (size_t i = 0; i < nights.size(); i += step) {
    os << "<text x=\"" << x(i) << "\" y=\"" << bottom + 16 << "\" text-anchor=\"middle\">"
       << Html(nights[i].night) << "</text>\n";
  }
  os << "</svg>\n";
}

// The trend across nights: JIT passes with the compiled share (dashed, right axis), then
// JIT failures and regressions on a scale of their own, so a handful of regressions is
// not flattened against thousands of passes.
void HtmlTrend(std::ostream& os, const std::vector<json>& history) {
  if (history.empty()) return;
  std::vector<NightFigures> nights;
  for (size_t i = 0; i < history.size(); i++) nights.push_back(FiguresOf(history[i], i));
  os << "<h2>Trend</h2>\n";
  HtmlTrendPanel(
      os, "trend", nights,
      {{"trend-pass", "#070", "JIT passed", [](const NightFigures& f) { return f.pass; }, false},
       {"trend-share", "#06c", "compiled share (right axis)",
        [](const NightFigures& f) { return f.share; }, true}});
  HtmlTrendPanel(
      os, "trend-failures", nights,
      {{"trend-fail", "#c80", "JIT failed", [](const NightFigures& f) { return f.fail; }, false},
       {"trend-regressions", "#b00", "regressions",
        [](const NightFigures& f) { return f.regressions; }, false}});
}

std::string Num(const json& v) { return v.is_null() ? "?" : v.dump(); }

// One row per module, real columns: tests, outcomes per side, regressions, and what the JIT
// did there (functions compiled, compiled share, share of entries that ran compiled code).
void HtmlModules(std::ostream& os, const json& r) {
  os << "<table id=\"modules\"><thead><tr><th>Module</th><th>Tests</th><th>Stock passed</th>"
        "<th>Stock failed</th><th>JIT passed</th><th>JIT failed</th><th>Skipped (stock/JIT)</th>"
        "<th>Regressions</th><th>Compiled</th><th>Compiled share</th><th>Compiled entries</th>"
        "</tr></thead><tbody>\n";
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
       << Num(m["compiled"]) << "</td><td>" << Share(m, "compiled_share") << "</td><td>"
       << Share(m, "entry_share") << "</td></tr>\n";
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

// A section's items as a table whose columns are the keys the items have, in first-seen
// order.
void HtmlSection(std::ostream& os, const char* id, const char* title,
                 const std::vector<const json*>& items) {
  if (items.empty()) return;
  std::vector<std::string> keys;
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

std::string RenderHtml(const json& r, const std::vector<json>& history) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Stock vs JIT: "
     << Html(Headline(r)) << "</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:1em 0}"
     << "td,th{border:1px solid #ccc;padding:2px 8px;font-size:13px;text-align:left;"
        "vertical-align:top}th{background:#eee}.bad{color:#b00}.hidden{display:none}"
        "summary{cursor:pointer}\n</style></head><body>\n";
  os << "<h1 id=\"verdict\">Stock vs JIT: " << Html(Headline(r)) << "</h1>\n";
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
  HtmlTrend(os, history);
  os << "<p>Filter: <input id=\"filter\" placeholder=\"test or module\" oninput=\"applyFilter()\"> "
     << "<label><input type=\"checkbox\" id=\"only-regressed\" onchange=\"applyFilter()\"> only "
        "rows with regressions</label></p>\n";
  HtmlModules(os, r);
  HtmlLostModules(os, r);
  for (const auto& section : kSections)
    HtmlSection(os, section[0], section[1], SectionItems(r, section[0]));
  if (HasCompileStats(r)) {
    json causes = json::array();
    for (const json& m : r["modules"])
      if (!Causes(m).empty())
        causes.push_back({{"module", m["module"]}, {"causes", Causes(m, 30)}});
    std::vector<const json*> items;
    for (const json& c : causes) items.push_back(&c);
    HtmlSection(os, "failure-causes", "Why functions were not compiled", items);
  }
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
