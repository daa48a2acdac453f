#include "difftest/junit/compare.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <stdexcept>
#include <thread>

namespace a64jit::junit {
namespace fs = std::filesystem;
using nlohmann::json;

void TestTable::Reserve(size_t n) {
  entries_.reserve(n);
  size_t want = 16;
  while (want < 2 * n) want *= 2;
  if (want > slots_.size()) {
    slots_.assign(want, 0);
    for (size_t i = 0; i < entries_.size(); i++) {
      size_t at = entries_[i].hash & (slots_.size() - 1);
      while (slots_[at] != 0) at = (at + 1) & (slots_.size() - 1);
      slots_[at] = static_cast<uint32_t>(i + 1);
    }
  }
}

void TestTable::Grow() { Reserve(std::max<size_t>(16, entries_.size() * 2)); }

Verdict& TestTable::Insert(std::string_view key, uint64_t hash, bool* fresh) {
  if (2 * (entries_.size() + 1) > slots_.size()) Grow();
  const size_t mask = slots_.size() - 1;
  size_t at = hash & mask;
  for (; slots_[at] != 0; at = (at + 1) & mask) {
    Entry& e = entries_[slots_[at] - 1];
    if (e.hash == hash && e.key == key) {
      *fresh = false;
      return e.verdict;
    }
  }
  char* copy = static_cast<char*>(arena_->allocate(key.size(), 1));
  std::memcpy(copy, key.data(), key.size());
  entries_.push_back(Entry{std::string_view(copy, key.size()), hash, Verdict{}});
  slots_[at] = static_cast<uint32_t>(entries_.size());
  *fresh = true;
  return entries_.back().verdict;
}

int64_t TestTable::FindIndex(std::string_view key, uint64_t hash) const {
  if (slots_.empty()) return -1;
  const size_t mask = slots_.size() - 1;
  for (size_t at = hash & mask; slots_[at] != 0; at = (at + 1) & mask) {
    const Entry& e = entries_[slots_[at] - 1];
    if (e.hash == hash && e.key == key) return static_cast<int64_t>(slots_[at] - 1);
  }
  return -1;
}

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
      if (f.contains("reproduce") && f["reproduce"].is_string()) {
        r.reproduce = f["reproduce"].get<std::string>();
      }
      if (f.contains("compiled_functions") && f["compiled_functions"].is_number()) {
        r.compiled = f["compiled_functions"].get<int64_t>();
      }
      if (f.contains("failed_functions") && f["failed_functions"].is_number()) {
        r.failed = f["failed_functions"].get<int64_t>();
      }
      if (f.contains("compiled_entries") && f["compiled_entries"].is_number()) {
        r.compiled_entries = f["compiled_entries"].get<int64_t>();
      }
      if (f.contains("interpreted_entries") && f["interpreted_entries"].is_number()) {
        r.interpreted_entries = f["interpreted_entries"].get<int64_t>();
      }
      if (f.contains("failure_causes") && f["failure_causes"].is_object()) {
        for (const auto& [cause, n] : f["failure_causes"].items()) {
          if (n.is_number()) r.failure_causes[cause] = n.get<int64_t>();
        }
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

  // About one test per 120 bytes of XML: size the table once instead of rehashing as it grows.
  uint64_t bytes = 0;
  for (const fs::path& file : files) bytes += fs::file_size(file, ec);
  side.tests.Reserve(static_cast<size_t>(bytes / 120) + 16);
  std::unordered_map<std::string, uint32_t> module_ids;
  uint32_t last_module = 0;
  for (const fs::path& file : files) {
    ParsedFile pf = ParseReport(file.string(), ModuleHint(dir, file));
    side.paths.push_back(file.string());
    if (pf.corrupt) {
      side.corrupt.push_back(std::move(pf));
      continue;
    }
    if (!pf.problem.empty()) side.warnings.push_back(pf.path + ": " + pf.problem);
    // Group by test file when the layout says which one (runner.py: <dir>/<file>/*.xml), so
    // reports join their manifest entries; otherwise by the module the XML names.
    const bool nested = std::next(fs::relative(file, dir).begin()) != fs::relative(file, dir).end();
    const std::string file_module = nested ? ModuleHint(dir, file) : std::string();
    for (Row& row : pf.rows) {
      side.rows++;
      if (nested) row.module = file_module;
      // Rows of one report nearly always share a module: skip the lookup then.
      if (side.modules.empty() || row.module != side.modules[last_module]) {
        auto [mit, new_module] =
            module_ids.try_emplace(row.module, static_cast<uint32_t>(side.modules.size()));
        if (new_module) side.modules.push_back(row.module);
        last_module = mit->second;
      }
      bool fresh = false;
      Verdict& v = side.tests.Insert(row.key, TestTable::Hash(row.key), &fresh);
      const uint32_t file_index = static_cast<uint32_t>(side.paths.size());
      if (!fresh && v.file == file_index && (row.subtest || v.subtest)) {
        // Subtests of one test in one report are parts of a single attempt: worst wins.
        const Attempt& a = row.attempts.back();
        auto severity = [](Outcome o) {
          return o == Outcome::kError ? 3 : o == Outcome::kFail ? 2 : o == Outcome::kPass ? 1 : 0;
        };
        if (severity(a.outcome) > severity(v.outcome)) {
          v.outcome = a.outcome;
          v.message = a.message;
          v.detail = a.detail;
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
      v.detail = last.detail;
      v.skip = row.skip_reason;
      v.attempts += static_cast<uint32_t>(row.attempts.size());
      v.module = last_module;
      v.file = file_index;
      v.subtest = row.subtest;
    }
  }
  return side;
}

std::pair<Side, Side> LoadSides(const std::string& stock_dir, const std::string& stock_manifest,
                                const std::string& jit_dir, const std::string& jit_manifest) {
  std::optional<Side> jit;
  std::exception_ptr jit_error;
  std::thread jit_loader([&] {
    try {
      jit.emplace(LoadSide(jit_dir, jit_manifest));
    } catch (...) {
      jit_error = std::current_exception();
    }
  });
  std::optional<Side> stock;
  try {
    stock.emplace(LoadSide(stock_dir, stock_manifest));
  } catch (...) {
    jit_loader.join();
    throw;
  }
  jit_loader.join();
  if (jit_error) std::rethrow_exception(jit_error);
  return std::pair<Side, Side>(std::move(*stock), std::move(*jit));
}

namespace {

// A shell word for `s`: as it is when it holds only safe characters, else single-quoted.
std::string ShellWord(const std::string& s) {
  const bool safe = !s.empty() && s.find_first_not_of(
                                      "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                      "0123456789_-.,:/=+@%") == std::string::npos;
  if (safe) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// `templ` with {module} and {id} (the key after "module::", shell-quoted) filled in.
std::string FillReproducer(std::string templ, const std::string& module, const std::string& key) {
  const size_t sep = key.find("::");
  const std::string id = ShellWord(sep == std::string::npos ? key : key.substr(sep + 2));
  for (const auto& [field, value] : {std::pair<std::string, std::string>{"{module}", module},
                                     std::pair<std::string, std::string>{"{id}", id}}) {
    for (size_t at = 0; (at = templ.find(field, at)) != std::string::npos; at += value.size())
      templ.replace(at, field.size(), value);
  }
  return templ;
}

// The log of a module's process: runner.py writes <stem>.log beside <stem>.xml, so the log
// of the report a test came from, else the first log in the module's folder; null if none.
json LogOf(const Side& side, const std::string& module, const Verdict* v) {
  std::error_code ec;
  if (v != nullptr && v->file >= 1 && v->file <= side.paths.size()) {
    fs::path log = fs::path(side.paths[v->file - 1]).replace_extension(".log");
    if (fs::exists(log, ec)) return fs::absolute(log, ec).lexically_normal().string();
  }
  std::vector<fs::path> logs;
  for (fs::directory_iterator it(fs::path(side.dir) / module, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (it->path().extension() == ".log") logs.push_back(it->path());
  }
  if (logs.empty()) return nullptr;
  return fs::absolute(*std::min_element(logs.begin(), logs.end()), ec).lexically_normal().string();
}

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

// Is there proof the JIT ran? The JIT manifest's compiled-function count, per module. A
// JIT side that compiled nothing at all is `untrusted`; a module without a count (no
// manifest, or a run that did not report) goes to `unknown` (untrusted too, unless waived).
// A crashed module is already a regression and needs no count.
void JitEvidence(const Side& jit, const std::set<std::string>& jit_modules, json* untrusted,
                 json* unknown_activity, json* report) {
  if (!jit.has_manifest) {
    unknown_activity->push_back(
        "no JIT run manifest: crashes, exit statuses and JIT activity unknown");
    (*report)["jit"]["compiled_functions"] = nullptr;
    return;
  }
  if (jit_modules.empty()) {  // every target skipped, or nothing found: not a pass
    untrusted->push_back("no module ran on the JIT side");
    return;
  }
  int64_t compiled = 0;
  bool known = false;
  std::vector<std::string> unknown;
  for (const std::string& m : jit_modules) {
    auto r = jit.runs.find(m);
    if (r != jit.runs.end() && r->second.compiled) {
      known = true;
      compiled += *r->second.compiled;
    } else if (r == jit.runs.end() || !r->second.crashed()) {
      unknown.push_back(m);
    }
  }
  (*report)["jit"]["compiled_functions"] = known ? json(compiled) : json(nullptr);
  if (known && compiled == 0) untrusted->push_back("the JIT run compiled no function");
  if (!unknown.empty()) {
    std::string names;
    for (size_t i = 0; i < unknown.size() && i < 5; i++) names += (i ? ", " : "") + unknown[i];
    if (unknown.size() > 5) names += ", ...";
    unknown_activity->push_back("JIT activity unknown for " + std::to_string(unknown.size()) +
                                " module(s) (no compiled-function count): " + names);
  }
}

}  // namespace

json Compare(const Side& stock, const Side& jit, const CompareOptions& options) {
  const std::map<std::string, std::string>& labels = options.labels;
  json report;
  report["schema"] = "a64jit-junit-compare/1";
  auto summary = [](const Side& side) {
    return json{{"dir", side.dir},
                {"files", side.paths.size()},
                {"rows", side.rows},
                {"tests", side.tests.size()},
                {"duplicate_rows", side.duplicate_rows},
                {"manifest", side.has_manifest}};
  };
  report["stock"] = summary(stock);
  report["jit"] = summary(jit);

  // Modules seen on either side (XML or manifest).
  std::set<std::string> stock_modules(stock.modules.begin(), stock.modules.end());
  std::set<std::string> jit_modules(jit.modules.begin(), jit.modules.end());
  for (const auto& [m, r] : stock.runs) stock_modules.insert(m);
  for (const auto& [m, r] : jit.runs) jit_modules.insert(m);
  std::set<std::string> all_modules = stock_modules;
  all_modules.insert(jit_modules.begin(), jit_modules.end());

  // n / (n + other), or null when either count is unknown or both are 0.
  auto share = [](const std::optional<int64_t>& n, const std::optional<int64_t>& other) {
    return n && other && *n + *other > 0
               ? json(static_cast<double>(*n) / static_cast<double>(*n + *other))
               : json(nullptr);
  };
  std::map<std::string, json> modules;
  for (const std::string& m : all_modules) {
    json row{{"module", m}, {"stock", Counts()}, {"jit", Counts()}, {"regressions", 0}};
    auto jr = jit.runs.find(m);
    const FileRun* run = jr != jit.runs.end() ? &jr->second : nullptr;
    row["compiled"] = run && run->compiled ? json(*run->compiled) : json(nullptr);
    row["failed"] = run && run->failed ? json(*run->failed) : json(nullptr);
    // compiled / (compiled + failed): of the functions that reached the threshold, the
    // share the JIT compiled.
    row["compiled_share"] = run ? share(run->compiled, run->failed) : json(nullptr);
    // Of the function entries, the share that ran compiled code: what the JIT covered by
    // execution, where the compiled share counts a cold function as much as a hot one.
    row["entry_share"] =
        run ? share(run->compiled_entries, run->interpreted_entries) : json(nullptr);
    row["failure_causes"] = run ? json(run->failure_causes) : json::object();
    // Seconds each side's process took (from the manifests), for the time the JIT costs.
    auto sr = stock.runs.find(m);
    row["stock_s"] = sr != stock.runs.end() ? json(sr->second.duration_s) : json(nullptr);
    row["jit_s"] = run ? json(run->duration_s) : json(nullptr);
    modules[m] = row;
  }
  auto count = [&](const Side& side, const char* which) {
    std::vector<std::array<int64_t, 5>> n(side.modules.size(), std::array<int64_t, 5>{});
    for (const TestTable::Entry& e : side.tests.entries())
      n[e.verdict.module][static_cast<size_t>(e.verdict.outcome)]++;
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
  // Every test of either side once (hash order; the lists are sorted at the end).
  auto visit = [&](std::string_view key_view, const Verdict* sv, const Verdict* jv) {
    const std::string key(key_view);
    const std::string& module = sv ? stock.modules[sv->module] : jit.modules[jv->module];
    if (sv && sv->flaky())
      flaky.push_back({{"test", key}, {"side", "stock"}, {"attempts", sv->attempts}});
    if (jv && jv->flaky())
      flaky.push_back({{"test", key}, {"side", "jit"}, {"attempts", jv->attempts}});
    if (!sv) {
      not_run.push_back({{"test", key}, {"side", "stock"}, {"jit", OutcomeName(jv->outcome)}});
      return;
    }
    if (sv->outcome == Outcome::kPass && (!jv || Failed(jv->outcome))) {
      json r{{"test", key}, {"module", module}};
      if (jv) {
        r["kind"] = OutcomeName(jv->outcome);
        r["message"] = jv->message;
        if (!jv->detail.empty()) r["detail"] = jv->detail;
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
      r["log"] = LogOf(jit, module, jv);
      auto run = jit.runs.find(module);
      const std::string& templ = !options.reproducer.empty() ? options.reproducer
                                 : run != jit.runs.end()     ? run->second.reproduce
                                                             : options.reproducer;
      if (!templ.empty()) r["reproduce"] = FillReproducer(templ, module, key);
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
  };
  std::vector<bool> jit_matched(jit.tests.size(), false);
  for (const TestTable::Entry& e : stock.tests.entries()) {
    const int64_t j = jit.tests.FindIndex(e.key, e.hash);  // same hash on both sides
    if (j >= 0) jit_matched[static_cast<size_t>(j)] = true;
    visit(e.key, &e.verdict,
          j < 0 ? nullptr : &jit.tests.entries()[static_cast<size_t>(j)].verdict);
  }
  for (size_t i = 0; i < jit.tests.size(); i++) {
    if (!jit_matched[i])
      visit(jit.tests.entries()[i].key, nullptr, &jit.tests.entries()[i].verdict);
  }
  auto sort_by_test = [](json& list) {
    std::sort(list.begin(), list.end(), [](const json& a, const json& b) {
      const std::string& ta = a["test"].get_ref<const std::string&>();
      const std::string& tb = b["test"].get_ref<const std::string&>();
      return ta != tb ? ta < tb : a.value("side", "") < b.value("side", "");
    });
  };
  for (json* list : {&regressions, &fixed, &flaky, &skipped, &unskipped, &not_run})
    sort_by_test(*list);

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
  JitEvidence(jit, jit_modules, &untrusted,
              options.waive_jit_evidence ? &missing_evidence : &untrusted, &report);
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
  UpdateExitStatus(&report);
  return report;
}

void UpdateExitStatus(json* report) {
  json& r = *report;
  r["exit_status"] = !r["untrusted"].empty() ? 2 : !r["regressions"].empty() ? 1 : 0;
}

}  // namespace a64jit::junit
