// The HTML report's trend across nights: two small SVG charts, drawn here so the page
// loads nothing from elsewhere.
#include <algorithm>
#include <functional>
#include <sstream>
#include <vector>

#include "difftest/junit/report_parts.h"

namespace a64jit::junit::report {

namespace {

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
}  // namespace

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

}  // namespace a64jit::junit::report
