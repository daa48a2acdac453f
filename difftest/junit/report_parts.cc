#include "difftest/junit/report_parts.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <utility>

namespace a64jit::junit::report {

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
std::string Causes(const json& m, size_t limit) {
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

std::string Num(const json& v) { return v.is_null() ? "?" : v.dump(); }

std::string Seconds(const json& m, const char* key) {
  if (!m.contains(key) || !m[key].is_number()) return "?";
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(1);
  os << m[key].get<double>();
  return os.str();
}

std::string TimeRatio(const json& m) {
  if (!m.contains("stock_s") || !m.contains("jit_s") || !m["stock_s"].is_number() ||
      !m["jit_s"].is_number() || m["stock_s"].get<double>() <= 0) {
    return "?";
  }
  std::ostringstream os;
  os.setf(std::ios::fixed);
  os.precision(2);
  os << m["jit_s"].get<double>() / m["stock_s"].get<double>() << "x";
  return os.str();
}

const char* const kLaterSections[][2] = {
    {"corrupt", "Corrupt reports"},
    {"flaky", "Flaky"},
    {"fixed", "Fixed (stock fail -> JIT pass)"},
    {"newly_skipped", "Newly skipped with the JIT"},
    {"unskipped", "Skipped stock, run with the JIT"},
    {"not_run", "Not run on one side"},
};
const size_t kLaterSectionCount = sizeof(kLaterSections) / sizeof(kLaterSections[0]);

int64_t NewRegressions(const json& r) {
  int64_t fresh = 0;
  for (const json& g : r["regressions"]) fresh += g.value("new", false) ? 1 : 0;
  return fresh;
}

std::vector<const json*> ActionableRegressions(const json& r) {
  std::vector<const json*> items;
  for (const json& g : r["regressions"])
    if (!LostWithModule(g)) items.push_back(&g);
  std::stable_sort(items.begin(), items.end(), [](const json* a, const json* b) {
    return a->value("new", false) > b->value("new", false);
  });
  return items;
}

std::string RegressionsTitle(const json& r, size_t shown) {
  std::string title = "Regressions (" + std::to_string(shown);
  if (shown < r["regressions"].size()) {
    title += "; " + std::to_string(r["regressions"].size() - shown) +
             " more lost with their modules, below";
  }
  return title + ")";
}

std::vector<const json*> SectionItems(const json& r, const std::string& id) {
  std::vector<const json*> items;
  if (!r.contains(id)) return items;
  for (const json& item : r[id]) items.push_back(&item);  // pointers into r, not a copy
  return items;
}

std::string Headline(const json& r) {
  std::string line;
  switch (r["exit_status"].get<int>()) {
    case 0:
      line = "no regression";
      break;
    case 1: {
      line = std::to_string(r["regressions"].size()) + " regression(s)";
      if (r.contains("since_last_night")) {
        line += ", " + std::to_string(NewRegressions(r)) + " new since " +
                Str(r["since_last_night"].value("night", json("the last night")));
      }
      break;
    }
    default:
      return "evidence cannot be trusted";
  }
  const size_t known = r.value("known_failures", json::array()).size();
  if (known > 0) line += "; " + std::to_string(known) + " known failure(s)";
  return line;
}

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

std::string LinkTo(const std::string& path, const std::string& link_dir) {
  if (link_dir.empty() || path.empty() || path[0] != '/') return path;
  const std::filesystem::path rel =
      std::filesystem::path(path).lexically_relative(std::filesystem::absolute(link_dir));
  return rel.empty() ? path : rel.string();
}

}  // namespace a64jit::junit::report
