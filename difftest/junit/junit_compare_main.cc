// junit_compare: which tests pass stock but fail, error, crash or vanish with the JIT, and
// can the answer be trusted? Compares two directories of JUnit XML (and the run manifests
// runner.py writes) and prints a Markdown report.
//
//   junit_compare STOCK_DIR JIT_DIR [--json=OUT] [--html=OUT] [--junit-out=OUT]
//       [--history=DIR] [--stock-manifest=F] [--jit-manifest=F] [--labels=F]
//       [--known-failures=F] [--reproducer=CMD] [--format=md|json] [--night=N]
//       [--about=KEY=VALUE]... [--waive-jit-evidence]
//
// A value follows '=' or comes as the next argument. Under `bazel run` a relative path is
// the caller's (BUILD_WORKING_DIRECTORY), not the runfiles tree's.
// Exit status: 0 no regression, 1 regressions, 2 the evidence cannot be trusted (an input
// unreadable included), 64 a usage error. No proof that the JIT ran (a JIT manifest with a
// compiled-function count for every module) is untrusted unless --waive-jit-evidence says the
// JIT side is not a64jit.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <pugixml.hpp>
#include <sstream>
#include <string>
#include <utility>

#include "difftest/junit/compare.h"
#include "difftest/junit/triage.h"

namespace {

using nlohmann::json;

constexpr const char* kUsage =
    "usage: junit_compare STOCK_DIR JIT_DIR [--json=OUT] [--html=OUT] [--junit-out=OUT]\n"
    "       [--history=DIR] [--stock-manifest=F] [--jit-manifest=F] [--labels=F]\n"
    "       [--known-failures=F] [--reproducer=CMD] [--format=md|json] [--night=N]\n"
    "       [--about=KEY=VALUE]... [--waive-jit-evidence]\n"
    "Compares the JUnit XML of a stock and a JIT run of a test suite; prints the report\n"
    "(Markdown, or JSON with --format=json). --json, --html and --junit-out also write it\n"
    "as JSON, as an HTML page (with the nights in --history) and as JUnit XML for a CI\n"
    "dashboard (a test case per module, failed by its regressions, and one for the\n"
    "evidence). --history also gives the last night, against which regressions are new.\n"
    "--known-failures: a JSON array of {\"test\", \"reason\", \"expires\": \"YYYY-MM-DD\"};\n"
    "a known failure is shown but does not fail the night until it expires.\n"
    "--reproducer: the command that runs one test alone, with {module} and {id} to fill.\n"
    "A value follows '=' or comes as the next argument; '--' ends the options. --version\n"
    "prints the version and the report's schema.\n"
    "Exit status: 0 no regression, 1 regressions, 2 the evidence cannot be trusted, 64 a\n"
    "usage error.\n";

constexpr int kUsageError = 64;  // EX_USAGE: not to be read as a verdict

int UsageError(const std::string& what) {
  std::fprintf(stderr, "junit_compare: %s\n%s", what.c_str(), kUsage);
  return kUsageError;
}

// A path as the caller meant it: under `bazel run`, relative to where bazel was run.
std::string CallersPath(const std::string& path) {
  const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || cwd == nullptr || *cwd == '\0') return path;
  return std::string(cwd) + "/" + path;
}

// The verdict as JUnit XML: per module a test case that fails with its regressions, and a
// test case "evidence" that fails when the comparison cannot be trusted.
std::string VerdictXml(const json& report) {
  pugi::xml_document doc;
  pugi::xml_node suites = doc.append_child("testsuites");
  pugi::xml_node suite = suites.append_child("testsuite");
  suite.append_attribute("name") = "junit_compare";
  int cases = 0, failures = 0;
  const auto add = [&](const std::string& name, const std::string& failure) {
    pugi::xml_node c = suite.append_child("testcase");
    c.append_attribute("classname") = "stock_vs_jit";
    c.append_attribute("name") = name.c_str();
    cases++;
    if (failure.empty()) return;
    failures++;
    pugi::xml_node f = c.append_child("failure");
    f.append_attribute("message") = failure.substr(0, failure.find('\n')).c_str();
    f.text() = failure.c_str();
  };
  std::string untrusted;
  for (const auto& why : report.value("untrusted", json::array())) {
    untrusted += why.get<std::string>() + "\n";
  }
  add("evidence", untrusted.empty() ? "" : "evidence cannot be trusted: " + untrusted);
  std::map<std::string, std::string> regressed;  // module -> its regressions, a line each
  for (const auto& r : report.value("regressions", json::array())) {
    regressed[r.value("module", "")] +=
        r.value("test", "") + ": " + r.value("kind", "") + " with the JIT\n";
  }
  for (const auto& m : report.value("modules", json::array())) {
    const auto it = regressed.find(m.value("module", ""));
    add(m.value("module", ""), it == regressed.end() ? "" : "regressions:\n" + it->second);
  }
  suite.append_attribute("tests") = cases;
  suite.append_attribute("failures") = failures;
  std::ostringstream out;
  doc.save(out, "  ");
  return out.str();
}

std::string Dump(const json& j) { return j.dump(2, ' ', false, json::error_handler_t::replace); }

// Every night in `dir` (*.json), by night name: "2026-11-22" before "2026-11-22-r2", which a
// sort of whole file names reverses ('-' sorts before '.'). A directory that does not exist
// yet (the first night) is an empty history; a malformed night is skipped, with a warning.
std::vector<json> LoadHistory(const std::string& dir) {
  std::vector<json> history;
  if (dir.empty() || !std::filesystem::is_directory(dir)) return history;
  std::vector<std::filesystem::path> nights;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".json") nights.push_back(e.path());
  }
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
  return history;
}

// The night before `night` in the history (the last one, without a name), or null.
const json* LastNight(const std::vector<json>& history, const std::string& night) {
  const json* last = nullptr;
  for (const json& n : history) {
    const std::string name = n.value("night", "");
    if (night.empty() || name < night) last = &n;
  }
  return last;
}

// Today as YYYY-MM-DD (UTC), for the known failures' expiry.
std::string Today() {
  const std::time_t now = std::time(nullptr);
  char day[16];
  std::strftime(day, sizeof day, "%Y-%m-%d", std::gmtime(&now));
  return day;
}

struct Args {
  std::vector<std::string> dirs;
  std::string json_out, html_out, junit_out, history_dir, stock_manifest, jit_manifest;
  std::string labels_path, known_path, format = "md", night, today;
  std::vector<std::pair<std::string, std::string>> about;  // --about KEY=VALUE
  a64jit::junit::CompareOptions options;
};

// Parses the command line into `args`; returns an exit status to stop with, or -1 to go on.
int ParseArgs(int argc, char** argv, Args* args) {
  std::string about_value;  // the last --about, as given
  const std::pair<const char*, std::string*> value_options[] = {
      {"--json", &args->json_out},
      {"--html", &args->html_out},
      {"--junit-out", &args->junit_out},
      {"--history", &args->history_dir},
      {"--stock-manifest", &args->stock_manifest},
      {"--jit-manifest", &args->jit_manifest},
      {"--labels", &args->labels_path},
      {"--known-failures", &args->known_path},
      {"--reproducer", &args->options.reproducer},
      {"--format", &args->format},
      {"--night", &args->night},
      {"--today", &args->today},  // for tests: the day known failures expire against
      {"--about", &about_value}};
  for (int i = 1; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "-h" || a == "--help") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--version") {
      std::puts("junit_compare (a64jit), report schema a64jit-junit-compare/1");
      return 0;
    }
    if (a == "--") {  // the rest are directories, even if they start with '-'
      for (i++; i < argc; i++) args->dirs.push_back(CallersPath(argv[i]));
      break;
    }
    if (a == "--waive-jit-evidence") {
      args->options.waive_jit_evidence = true;
      continue;
    }
    if (a.empty() || a[0] != '-') {
      args->dirs.push_back(CallersPath(a));
      continue;
    }
    const size_t eq = a.find('=');
    const std::string name = a.substr(0, eq);
    std::string* target = nullptr;
    for (const auto& [option, value] : value_options) {
      if (name == option) target = value;
    }
    if (target == nullptr) return UsageError("unknown option " + name);
    if (eq != std::string::npos) {
      *target = a.substr(eq + 1);
    } else if (i + 1 < argc) {
      *target = argv[++i];
    } else {
      return UsageError(name + " needs a value");
    }
    if (target == &about_value) {  // repeatable: KEY=VALUE
      const size_t split = about_value.find('=');
      if (split == std::string::npos || split == 0) {
        return UsageError("--about: expected KEY=VALUE, not " + about_value);
      }
      args->about.emplace_back(about_value.substr(0, split), about_value.substr(split + 1));
    }
  }
  if (args->format != "md" && args->format != "json") {
    return UsageError("--format: md or json, not " + args->format);
  }
  if (args->dirs.size() != 2) return UsageError("expected STOCK_DIR and JIT_DIR");
  for (std::string* path :
       {&args->json_out, &args->html_out, &args->junit_out, &args->history_dir,
        &args->stock_manifest, &args->jit_manifest, &args->labels_path, &args->known_path}) {
    *path = CallersPath(*path);
  }
  if (args->today.empty()) args->today = Today();
  return -1;
}

// The comparison, with the labels, the known failures and the last night applied.
json BuildReport(Args& args, const std::vector<json>& history) {
  const auto [stock, jit] =
      a64jit::junit::LoadSides(args.dirs[0], args.stock_manifest, args.dirs[1], args.jit_manifest);
  if (!args.labels_path.empty()) {
    std::ifstream in(args.labels_path);
    if (!in) throw std::runtime_error("cannot read labels " + args.labels_path);
    json l;
    in >> l;
    for (const auto& [k, v] : l.items()) args.options.labels[k] = v.get<std::string>();
  }
  json report = a64jit::junit::Compare(stock, jit, args.options);
  if (!args.night.empty()) report["night"] = args.night;
  for (const auto& [key, value] : args.about) report["about"][key] = value;
  if (!args.known_path.empty()) {
    a64jit::junit::ApplyKnownFailures(a64jit::junit::LoadKnownFailures(args.known_path), args.today,
                                      &report);
  }
  if (const json* last = LastNight(history, args.night)) {
    a64jit::junit::CompareWithLastNight(*last, &report);
  }
  return report;
}

// The directory a report file is written to, for the links in it.
std::string DirOf(const std::string& file) {
  const std::filesystem::path dir = std::filesystem::path(file).parent_path();
  return dir.empty() ? std::filesystem::current_path().string() : dir.string();
}

}  // namespace

int main(int argc, char** argv) {
  Args args;
  if (const int status = ParseArgs(argc, argv, &args); status >= 0) return status;
  try {
    const std::vector<json> history = LoadHistory(args.history_dir);
    const json report = BuildReport(args, history);
    if (!args.json_out.empty()) std::ofstream(args.json_out) << Dump(report) << "\n";
    if (!args.junit_out.empty()) std::ofstream(args.junit_out) << VerdictXml(report);
    if (!args.html_out.empty()) {
      std::ofstream(args.html_out)
          << a64jit::junit::RenderHtml(report, history, DirOf(args.html_out));
    }
    if (args.format == "json") {
      std::cout << Dump(report) << "\n";
    } else {
      // Markdown goes to stdout, which ci/nightly.sh keeps beside the HTML.
      std::cout << a64jit::junit::RenderMarkdown(
          report, args.html_out.empty() ? std::string() : DirOf(args.html_out));
    }
    return report["exit_status"].get<int>();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "junit_compare: %s\n", e.what());
    return 2;
  }
}
