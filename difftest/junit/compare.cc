#include "difftest/junit/compare.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <stdexcept>

namespace a64jit::junit {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string ModuleHint(const fs::path& root, const fs::path& file) {
  const fs::path rel = fs::relative(file, root);
  auto it = rel.begin();
  if (std::next(it) != rel.end()) return it->string();  // <root>/<test file>/...xml
  std::string stem = file.stem().string();
  if (stem.rfind("TEST-", 0) == 0) stem = stem.substr(5);  // unittest-xml-reporting
  return stem;
}

void ReadManifest(const std::string& path, Side* side) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read manifest " + path);
  json m;
  try {
    in >> m;
    for (const json& f : m.at("files")) {
      FileRun r;
      r.file = f.at("file").get<std::string>();
      r.command = f.value("command", "");
      r.exit_status = f.value("exit_status", 0);
      r.signal =
          f.contains("signal") && f["signal"].is_string() ? f["signal"].get<std::string>() : "";
      r.duration_s = f.value("duration_s", 0.0);
      r.culprit =
          f.contains("culprit") && f["culprit"].is_string() ? f["culprit"].get<std::string>() : "";
      if (f.contains("compiled_functions") && f["compiled_functions"].is_number()) {
        r.compiled = f["compiled_functions"].get<int64_t>();
      }
      std::string module = fs::path(r.file).stem().string();
      side->runs[module] = r;
    }
  } catch (const json::exception& e) {
    throw std::runtime_error("malformed manifest " + path + ": " + e.what());
  }
  side->has_manifest = true;
}

}  // namespace

Side LoadSide(const std::string& dir, const std::string& manifest_path) {
  Side side;
  side.dir = dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw std::runtime_error("not a directory: " + dir);
  std::string manifest = manifest_path;
  if (manifest.empty() && fs::exists(fs::path(dir) / "manifest.json")) {
    manifest = (fs::path(dir) / "manifest.json").string();
  }
  if (!manifest.empty()) ReadManifest(manifest, &side);

  std::vector<fs::path> files;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file() && it->path().extension() == ".xml") files.push_back(it->path());
  }
  if (ec) throw std::runtime_error("cannot list " + dir + ": " + ec.message());
  std::sort(files.begin(), files.end());  // rows merge in path order, then document order

  std::unordered_map<std::string, uint32_t> module_ids;
  for (const fs::path& file : files) {
    ParsedFile pf = ParseReport(file.string(), ModuleHint(dir, file));
    side.files++;
    if (pf.corrupt) {
      side.corrupt.push_back(std::move(pf));
      continue;
    }
    if (!pf.problem.empty()) side.warnings.push_back(pf.path + ": " + pf.problem);
    side.tests.reserve(side.tests.size() + pf.rows.size());
    // Group by test file when the layout says which one (runner.py: <dir>/<file>/*.xml), so
    // reports join their manifest entries; otherwise by the module the XML names.
    const bool nested = std::next(fs::relative(file, dir).begin()) != fs::relative(file, dir).end();
    const std::string file_module = nested ? ModuleHint(dir, file) : std::string();
    for (Row& row : pf.rows) {
      side.rows++;
      if (nested) row.module = file_module;
      auto [mit, new_module] =
          module_ids.try_emplace(row.module, static_cast<uint32_t>(side.modules.size()));
      if (new_module) side.modules.push_back(row.module);
      auto [it, fresh] = side.tests.try_emplace(std::move(row.key));
      Verdict& v = it->second;
      const uint32_t file_index = static_cast<uint32_t>(side.files);
      if (!fresh && v.file == file_index && (row.subtest || v.subtest)) {
        // Subtests of one test in one report are parts of a single attempt: worst wins.
        const Attempt& a = row.attempts.back();
        auto severity = [](Outcome o) {
          return o == Outcome::kError ? 3 : o == Outcome::kFail ? 2 : o == Outcome::kPass ? 1 : 0;
        };
        if (severity(a.outcome) > severity(v.outcome)) {
          v.outcome = a.outcome;
          v.message = a.message;
        }
        v.subtest = true;
        continue;
      }
      if (!fresh) {
        side.duplicate_rows++;
        // The previous last attempt becomes an earlier one.
        v.failed_before |= v.outcome == Outcome::kFail || v.outcome == Outcome::kError;
      }
      for (size_t i = 0; i + 1 < row.attempts.size(); i++) {
        v.failed_before |=
            row.attempts[i].outcome == Outcome::kFail || row.attempts[i].outcome == Outcome::kError;
      }
      const Attempt& last = row.attempts.back();
      v.outcome = last.outcome;
      v.message = last.outcome == Outcome::kPass ? std::string() : last.message;
      v.skip = row.skip_reason;
      v.attempts += static_cast<uint32_t>(row.attempts.size());
      v.module = mit->second;
      v.file = file_index;
      v.subtest = row.subtest;
    }
  }
  return side;
}

namespace {

bool Failed(Outcome o) { return o == Outcome::kFail || o == Outcome::kError; }
bool Skipped(Outcome o) { return o == Outcome::kSkip || o == Outcome::kXFail; }

json Counts() { return json{{"pass", 0}, {"fail", 0}, {"error", 0}, {"skip", 0}, {"xfail", 0}}; }

json RunJson(const FileRun& r) {
  json j{{"file", r.file}, {"exit_status", r.exit_status}, {"duration_s", r.duration_s}};
  j["signal"] = r.signal.empty() ? json(nullptr) : json(r.signal);
  j["culprit"] = r.culprit.empty() ? json(nullptr) : json(r.culprit);
  j["compiled_functions"] = r.compiled ? json(*r.compiled) : json(nullptr);
  return j;
}

}  // namespace

json Compare(const Side& stock, const Side& jit, const std::map<std::string, std::string>& labels) {
  json report;
  report["schema"] = "a64jit-junit-compare/1";
  report["stock"] = {{"dir", stock.dir},
                     {"files", stock.files},
                     {"rows", stock.rows},
                     {"tests", stock.tests.size()},
                     {"duplicate_rows", stock.duplicate_rows},
                     {"manifest", stock.has_manifest}};
  report["jit"] = {{"dir", jit.dir},
                   {"files", jit.files},
                   {"rows", jit.rows},
                   {"tests", jit.tests.size()},
                   {"duplicate_rows", jit.duplicate_rows},
                   {"manifest", jit.has_manifest}};

  // Modules seen on either side (XML or manifest).
  std::set<std::string> stock_modules(stock.modules.begin(), stock.modules.end());
  std::set<std::string> jit_modules(jit.modules.begin(), jit.modules.end());
  for (const auto& [m, r] : stock.runs) stock_modules.insert(m);
  for (const auto& [m, r] : jit.runs) jit_modules.insert(m);
  std::set<std::string> all_modules = stock_modules;
  all_modules.insert(jit_modules.begin(), jit_modules.end());

  std::map<std::string, json> modules;
  for (const std::string& m : all_modules) {
    json row{{"module", m}, {"stock", Counts()}, {"jit", Counts()}, {"regressions", 0}};
    auto jr = jit.runs.find(m);
    row["compiled"] =
        jr != jit.runs.end() && jr->second.compiled ? json(*jr->second.compiled) : json(nullptr);
    modules[m] = row;
  }
  auto count = [&](const Side& side, const char* which) {
    std::vector<std::array<int64_t, 5>> n(side.modules.size(), std::array<int64_t, 5>{});
    for (const auto& [key, v] : side.tests) n[v.module][static_cast<size_t>(v.outcome)]++;
    for (size_t m = 0; m < n.size(); m++) {
      json& c = modules[side.modules[m]][which];
      for (int o = 0; o < 5; o++)
        c[OutcomeName(static_cast<Outcome>(o))] = n[m][static_cast<size_t>(o)];
    }
  };
  count(stock, "stock");
  count(jit, "jit");

  json regressions = json::array(), fixed = json::array(), flaky = json::array(),
       skipped = json::array(), unskipped = json::array(), not_run = json::array();
  std::vector<std::string> keys;
  keys.reserve(stock.tests.size() + jit.tests.size());
  for (const auto& [k, v] : stock.tests) keys.push_back(k);
  for (const auto& [k, v] : jit.tests) {
    if (!stock.tests.count(k)) keys.push_back(k);
  }
  std::sort(keys.begin(), keys.end());
  for (const std::string& key : keys) {
    auto s = stock.tests.find(key);
    auto j = jit.tests.find(key);
    const Verdict* sv = s == stock.tests.end() ? nullptr : &s->second;
    const Verdict* jv = j == jit.tests.end() ? nullptr : &j->second;
    const std::string& module = sv ? stock.modules[sv->module] : jit.modules[jv->module];
    if (sv && sv->flaky())
      flaky.push_back({{"test", key}, {"side", "stock"}, {"attempts", sv->attempts}});
    if (jv && jv->flaky())
      flaky.push_back({{"test", key}, {"side", "jit"}, {"attempts", jv->attempts}});
    if (!sv) {
      not_run.push_back({{"test", key}, {"side", "stock"}, {"jit", OutcomeName(jv->outcome)}});
      continue;
    }
    if (sv->outcome == Outcome::kPass && (!jv || Failed(jv->outcome))) {
      json r{{"test", key}, {"module", module}};
      if (jv) {
        r["kind"] = OutcomeName(jv->outcome);
        r["message"] = jv->message;
      } else {
        auto run = jit.runs.find(module);
        if (run != jit.runs.end() && run->second.crashed()) {
          r["kind"] = "crash";
          r["signal"] = run->second.signal;
          r["culprit"] = run->second.culprit.empty() ? json(nullptr) : json(run->second.culprit);
        } else if (!jit_modules.count(module)) {
          r["kind"] = "missing suite";
        } else {
          r["kind"] = "missing";
        }
      }
      auto label = labels.find(key);
      if (label != labels.end()) r["label"] = label->second;
      regressions.push_back(r);
      modules[module]["regressions"] = modules[module]["regressions"].get<int64_t>() + 1;
    } else if (Failed(sv->outcome) && jv && jv->outcome == Outcome::kPass) {
      fixed.push_back({{"test", key}, {"stock", OutcomeName(sv->outcome)}});
    } else if (jv && !Skipped(sv->outcome) && Skipped(jv->outcome)) {
      skipped.push_back(
          {{"test", key}, {"reason", SkipReasonName(jv->skip)}, {"message", jv->message}});
    } else if (jv && Skipped(sv->outcome) && !Skipped(jv->outcome)) {
      unskipped.push_back(
          {{"test", key}, {"reason", SkipReasonName(sv->skip)}, {"jit", OutcomeName(jv->outcome)}});
    }
  }

  // Crashed processes, per side, and whether each is attributed to a test.
  json crashes = json::array();
  auto add_crashes = [&](const Side& side, const char* name) {
    for (const auto& [m, r] : side.runs) {
      if (!r.crashed()) continue;
      json c = RunJson(r);
      c["side"] = name;
      c["module"] = m;
      crashes.push_back(c);
    }
  };
  add_crashes(stock, "stock");
  add_crashes(jit, "jit");

  json corrupt = json::array();
  for (const auto* side : {&stock, &jit}) {
    for (const ParsedFile& pf : side->corrupt) {
      corrupt.push_back(
          {{"side", side == &stock ? "stock" : "jit"}, {"file", pf.path}, {"problem", pf.problem}});
    }
  }
  json missing_suites = json::array();
  for (const std::string& m : all_modules) {
    if (!stock_modules.count(m)) missing_suites.push_back({{"module", m}, {"missing_on", "stock"}});
    if (!jit_modules.count(m)) missing_suites.push_back({{"module", m}, {"missing_on", "jit"}});
  }

  // Can the answer be trusted? Each reason is named.
  json untrusted = json::array(), missing_evidence = json::array();
  if (!corrupt.empty()) untrusted.push_back(std::to_string(corrupt.size()) + " corrupt report(s)");
  if (!missing_suites.empty()) {
    untrusted.push_back(std::to_string(missing_suites.size()) +
                        " suite(s) present on one side only");
  }
  for (const json& c : crashes) {
    if (c["culprit"].is_null()) {
      untrusted.push_back("crash not attributed to a test: " + c["side"].get<std::string>() + " " +
                          c["module"].get<std::string>() + " (" + c["signal"].get<std::string>() +
                          ")");
    }
  }
  if (jit.has_manifest) {
    int64_t compiled = 0;
    bool known = false;
    for (const auto& [m, r] : jit.runs) {
      if (r.compiled) {
        known = true;
        compiled += *r.compiled;
      }
    }
    report["jit"]["compiled_functions"] = known ? json(compiled) : json(nullptr);
    if (known && compiled == 0) untrusted.push_back("the JIT run compiled no function");
    if (!known) missing_evidence.push_back("the JIT manifest has no compiled-function counts");
  } else {
    missing_evidence.push_back(
        "no JIT run manifest: crashes, exit statuses and JIT activity unknown");
  }
  if (!stock.has_manifest)
    missing_evidence.push_back("no stock run manifest: crashes and exit statuses unknown");
  for (const auto* side : {&stock, &jit}) {
    for (const std::string& w : side->warnings) missing_evidence.push_back("warning: " + w);
  }

  json module_list = json::array();
  for (auto& [m, row] : modules) module_list.push_back(row);
  report["modules"] = module_list;
  report["regressions"] = regressions;
  report["fixed"] = fixed;
  report["flaky"] = flaky;
  report["newly_skipped"] = skipped;
  report["unskipped"] = unskipped;
  report["crashes"] = crashes;
  report["not_run"] = not_run;
  report["corrupt"] = corrupt;
  report["missing_suites"] = missing_suites;
  report["untrusted"] = untrusted;
  report["missing_evidence"] = missing_evidence;
  report["exit_status"] = !untrusted.empty() ? 2 : !regressions.empty() ? 1 : 0;
  return report;
}

}  // namespace a64jit::junit
