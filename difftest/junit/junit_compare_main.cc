// junit_compare: which tests pass stock but fail, error, crash or vanish with the JIT, and
// can the answer be trusted? Compares two directories of JUnit XML (and the run manifests
// runner.py writes) and prints a Markdown report.
//
//   junit_compare STOCK_DIR JIT_DIR [--json=OUT] [--html=OUT] [--history=DIR]
//       [--stock-manifest=F] [--jit-manifest=F] [--labels=F] [--format=md|json] [--night=N]
//       [--waive-jit-evidence]
//
// Exit status: 0 no regression, 1 regressions, 2 the evidence cannot be trusted (or bad
// arguments). No proof that the JIT ran (a JIT manifest with a compiled-function count for
// every module) is untrusted unless --waive-jit-evidence says the JIT side is not a64jit.
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "difftest/junit/compare.h"

namespace {

using nlohmann::json;

constexpr const char* kUsage =
    "usage: junit_compare STOCK_DIR JIT_DIR [--json=OUT] [--html=OUT] [--history=DIR]\n"
    "       [--stock-manifest=F] [--jit-manifest=F] [--labels=F] [--format=md|json] [--night=N]\n"
    "       [--waive-jit-evidence]\n";

bool Flag(const char* arg, const char* name, std::string* value) {
  const size_t n = std::strlen(name);
  if (std::strncmp(arg, name, n) != 0 || arg[n] != '=') return false;
  *value = arg + n + 1;
  return true;
}

std::string Dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> dirs;
  std::string json_out, html_out, history_dir, stock_manifest, jit_manifest, labels_path;
  std::string format = "md", night;
  a64jit::junit::CompareOptions options;
  for (int i = 1; i < argc; i++) {
    std::string v;
    if (Flag(argv[i], "--json", &v)) {
      json_out = v;
    } else if (Flag(argv[i], "--html", &v)) {
      html_out = v;
    } else if (Flag(argv[i], "--history", &v)) {
      history_dir = v;
    } else if (Flag(argv[i], "--stock-manifest", &v)) {
      stock_manifest = v;
    } else if (Flag(argv[i], "--jit-manifest", &v)) {
      jit_manifest = v;
    } else if (Flag(argv[i], "--labels", &v)) {
      labels_path = v;
    } else if (Flag(argv[i], "--format", &v) && (v == "md" || v == "json")) {
      format = v;
    } else if (Flag(argv[i], "--night", &v)) {
      night = v;
    } else if (std::strcmp(argv[i], "--waive-jit-evidence") == 0) {
      options.waive_jit_evidence = true;
    } else if (argv[i][0] == '-') {
      std::fprintf(stderr, "junit_compare: unknown option %s\n%s", argv[i], kUsage);
      return 2;
    } else {
      dirs.push_back(argv[i]);
    }
  }
  if (dirs.size() != 2) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  try {
    const auto [stock, jit] =
        a64jit::junit::LoadSides(dirs[0], stock_manifest, dirs[1], jit_manifest);
    if (!labels_path.empty()) {
      std::ifstream in(labels_path);
      if (!in) throw std::runtime_error("cannot read labels " + labels_path);
      json l;
      in >> l;
      for (const auto& [k, v] : l.items()) options.labels[k] = v.get<std::string>();
    }
    json report = a64jit::junit::Compare(stock, jit, options);
    if (!night.empty()) report["night"] = night;
    if (!json_out.empty()) std::ofstream(json_out) << Dump(report) << "\n";
    if (!html_out.empty()) {
      std::vector<json> history;
      // A history directory that does not exist yet (the first night) is an empty history.
      if (!history_dir.empty() && std::filesystem::is_directory(history_dir)) {
        std::vector<std::filesystem::path> nights;
        for (const auto& e : std::filesystem::directory_iterator(history_dir)) {
          if (e.path().extension() == ".json") nights.push_back(e.path());
        }
        // By night name (the file's stem): "2026-11-22" before "2026-11-22-r2", which a
        // sort of whole file names reverses ('-' sorts before '.').
        std::sort(nights.begin(), nights.end(),
                  [](const auto& a, const auto& b) { return a.stem() < b.stem(); });
        for (const auto& p : nights) {
          std::ifstream in(p);
          json n;
          try {
            in >> n;
          } catch (const json::exception& e) {
            std::fprintf(stderr, "junit_compare: skipping malformed history %s: %s\n", p.c_str(),
                         e.what());
            continue;
          }
          if (!n.contains("night")) n["night"] = p.stem().string();
          history.push_back(std::move(n));
        }
      }
      std::ofstream(html_out) << a64jit::junit::RenderHtml(report, history);
    }
    if (format == "json") {
      std::cout << Dump(report) << "\n";
    } else {
      std::cout << a64jit::junit::RenderMarkdown(report);
    }
    return report["exit_status"].get<int>();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "junit_compare: %s\n", e.what());
    return 2;
  }
}
