// Markdown and HTML renderings of a comparison report (see compare.h).
#include <algorithm>
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
    {"regressions", "Regressions (stock pass -> JIT fail / error / crash / missing)"},
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

}  // namespace

std::string RenderMarkdown(const json& r) {
  std::ostringstream os;
  os << "# Stock vs JIT: " << Headline(r) << "\n\n";
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
  for (const auto& section : kSections) {
    const json& list = r[section[0]];
    if (list.empty()) continue;
    os << "\n## " << section[1] << " (" << list.size() << ")\n\n";
    for (const json& item : list) {
      os << "-";
      for (const auto& [k, v] : item.items()) {
        if (v.is_null() || (v.is_string() && v.get<std::string>().empty())) continue;
        os << " " << k << ": `" << Cell(Str(v)) << "`";
      }
      os << "\n";
    }
  }
  return os.str();
}

std::string RenderHtml(const json& r, const std::vector<json>& history) {
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Stock vs JIT: "
     << Html(Headline(r)) << "</title>\n<style>\n"
     << "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:1em 0}"
     << "td,th{border:1px solid #ccc;padding:2px 8px;font-size:13px}th{background:#eee}"
     << ".bad{color:#b00}.hidden{display:none}code{font-size:12px}\n</style></head><body>\n";
  os << "<h1 id=\"verdict\">Stock vs JIT: " << Html(Headline(r)) << "</h1>\n";
  for (const json& u : r["untrusted"])
    os << "<p class=\"bad untrusted\">Cannot be trusted: " << Html(Str(u)) << "</p>\n";
  for (const json& m : r["missing_evidence"])
    os << "<p class=\"missing\">Missing evidence: " << Html(Str(m)) << "</p>\n";
  // Trend chart: regressions and JIT passes per night, as inline SVG.
  if (!history.empty()) {
    const int w = 600, h = 160;
    int64_t max_pass = 1, max_reg = 1;
    for (const json& n : history) {
      int64_t pass = 0;
      for (const json& m : n["modules"]) pass += m["jit"]["pass"].get<int64_t>();
      max_pass = std::max(max_pass, pass);
      max_reg = std::max<int64_t>(max_reg, static_cast<int64_t>(n["regressions"].size()));
    }
    os << "<h2>Trend</h2>\n<svg id=\"trend\" width=\"" << w << "\" height=\"" << h + 20
       << "\" xmlns=\"http://www.w3.org/2000/svg\">\n";
    std::string pass_pts, reg_pts;
    for (size_t i = 0; i < history.size(); i++) {
      int64_t pass = 0;
      for (const json& m : history[i]["modules"]) pass += m["jit"]["pass"].get<int64_t>();
      const double x = history.size() == 1 ? w / 2.0
                                           : 10 + (w - 20) * static_cast<double>(i) /
                                                      static_cast<double>(history.size() - 1);
      pass_pts +=
          std::to_string(x) + "," +
          std::to_string(h - (h - 10) * static_cast<double>(pass) / static_cast<double>(max_pass)) +
          " ";
      reg_pts +=
          std::to_string(x) + "," +
          std::to_string(h - (h - 10) * static_cast<double>(history[i]["regressions"].size()) /
                                 static_cast<double>(max_reg)) +
          " ";
      os << "<text x=\"" << x << "\" y=\"" << h + 15 << "\" font-size=\"9\" text-anchor=\"middle\">"
         << Html(history[i].value("night", std::to_string(i))) << "</text>\n";
    }
    os << "<polyline class=\"trend-pass\" fill=\"none\" stroke=\"#070\" points=\"" << pass_pts
       << "\"/>\n";
    os << "<polyline class=\"trend-regressions\" fill=\"none\" stroke=\"#b00\" points=\"" << reg_pts
       << "\"/>\n";
    os << "</svg>\n<p>green: JIT passes (max " << max_pass << "); red: regressions (max " << max_reg
       << ")</p>\n";
  }
  os << "<p>Filter: <input id=\"filter\" placeholder=\"test or module\" oninput=\"applyFilter()\"> "
     << "<label><input type=\"checkbox\" id=\"only-regressed\" onchange=\"applyFilter()\"> only "
        "modules with regressions</label></p>\n";
  os << "<table id=\"modules\"><thead><tr><th>Module</th><th>Stock P/F/E/S/XF</th><th>JIT "
        "P/F/E/S/XF</th>"
     << "<th>Compiled</th><th>Regressions</th></tr></thead><tbody>\n";
  for (const json& m : r["modules"]) {
    os << "<tr data-regressions=\"" << m["regressions"] << "\"><td>" << Html(Str(m["module"]))
       << "</td><td>" << Counts(m["stock"]) << "</td><td>" << Counts(m["jit"]) << "</td><td>"
       << (m["compiled"].is_null() ? "?" : m["compiled"].dump()) << "</td><td"
       << (m["regressions"].get<int64_t>() > 0 ? " class=\"bad\"" : "") << ">" << m["regressions"]
       << "</td></tr>\n";
  }
  os << "</tbody></table>\n";
  if (HasCompileStats(r)) {
    os << "<h2>JIT compilation per module</h2>\n<table id=\"compilation\"><thead><tr>"
       << "<th>Module</th><th>Compiled</th><th>Failed</th><th>Compiled share</th>"
       << "<th>Compiled entries</th><th>Failure causes (functions)</th></tr></thead><tbody>\n";
    for (const json& m : r["modules"]) {
      os << "<tr><td>" << Html(Str(m["module"])) << "</td><td>"
         << (m["compiled"].is_null() ? "?" : m["compiled"].dump()) << "</td><td>"
         << (m["failed"].is_null() ? "?" : m["failed"].dump()) << "</td><td>"
         << Share(m, "compiled_share") << "</td><td>" << Share(m, "entry_share") << "</td><td>"
         << Html(Causes(m, 30)) << "</td></tr>\n";
    }
    os << "</tbody></table>\n";
  }
  for (const auto& section : kSections) {
    const json& list = r[section[0]];
    if (list.empty()) continue;
    os << "<h2>" << Html(section[1]) << " (" << list.size() << ")</h2>\n<table class=\"list\" id=\""
       << section[0] << "\"><tbody>\n";
    for (const json& item : list) {
      os << "<tr>";
      for (const auto& [k, v] : item.items())
        os << "<td><b>" << Html(k) << "</b> " << Html(Str(v)) << "</td>";
      os << "</tr>\n";
    }
    os << "</tbody></table>\n";
  }
  os << "<script>\nfunction applyFilter(){\n"
     << "  const q=document.getElementById('filter').value.toLowerCase();\n"
     << "  const only=document.getElementById('only-regressed').checked;\n"
     << "  for(const tr of document.querySelectorAll('tbody tr')){\n"
     << "    const text=tr.textContent.toLowerCase();\n"
     << "    const reg=tr.dataset.regressions===undefined||tr.dataset.regressions!=='0';\n"
     << "    tr.classList.toggle('hidden',(q&&!text.includes(q))||(only&&!reg));\n"
     << "  }\n}\ndocument.body.dataset.ready='1';\n</script>\n";
  // The report itself, for tools: JSON inside <script> needs only "</" escaped.
  std::string data = r.dump(-1, ' ', false, json::error_handler_t::replace);
  for (size_t at = 0; (at = data.find("</", at)) != std::string::npos; at += 3)
    data.replace(at, 2, "<\\/");
  os << "<script type=\"application/json\" id=\"report\">" << data << "</script>\n";
  os << "</body></html>\n";
  return os.str();
}

}  // namespace a64jit::junit
