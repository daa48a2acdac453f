#include "difftest/junit/triage.h"

#include <fnmatch.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "difftest/junit/compare.h"

namespace a64jit::junit {
using nlohmann::json;

namespace {

std::string Field(const json& entry, const char* name, bool required, const std::string& where) {
  if (!entry.contains(name)) {
    if (required) throw std::runtime_error(where + ": no \"" + name + "\"");
    return "";
  }
  if (!entry[name].is_string() || (required && entry[name].get<std::string>().empty())) {
    throw std::runtime_error(where + ": \"" + name + "\" must be a non-empty string");
  }
  return entry[name].get<std::string>();
}

const KnownFailure* Match(const std::vector<KnownFailure>& known, const std::string& test) {
  for (const KnownFailure& k : known) {
    if (k.test == test || fnmatch(k.test.c_str(), test.c_str(), 0) == 0) return &k;
  }
  return nullptr;
}

}  // namespace

std::vector<KnownFailure> LoadKnownFailures(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read known failures " + path);
  json doc;
  try {
    in >> doc;
  } catch (const json::exception& e) {
    throw std::runtime_error("known failures " + path + ": not JSON: " + e.what());
  }
  if (!doc.is_array()) {
    throw std::runtime_error("known failures " + path +
                             ": expected an array of {\"test\", \"reason\", \"expires\"}");
  }
  static const std::regex kDate(R"(\d{4}-\d{2}-\d{2})");
  std::vector<KnownFailure> known;
  for (size_t i = 0; i < doc.size(); i++) {
    const std::string where = "known failures " + path + ": entry " + std::to_string(i + 1);
    if (!doc[i].is_object()) throw std::runtime_error(where + ": not an object");
    KnownFailure k{Field(doc[i], "test", true, where), Field(doc[i], "reason", true, where),
                   Field(doc[i], "expires", false, where)};
    if (!k.expires.empty() && !std::regex_match(k.expires, kDate)) {
      throw std::runtime_error(where + ": \"expires\" is YYYY-MM-DD, not " + k.expires);
    }
    known.push_back(std::move(k));
  }
  return known;
}

void ApplyKnownFailures(const std::vector<KnownFailure>& known, const std::string& today,
                        json* report) {
  json regressions = json::array(), shown = json::array();
  std::set<const KnownFailure*> matched;
  std::map<std::string, int64_t> moved;  // module -> regressions that became known failures
  for (json& r : (*report)["regressions"]) {
    const KnownFailure* k = Match(known, r["test"].get<std::string>());
    if (k == nullptr) {
      regressions.push_back(std::move(r));
      continue;
    }
    matched.insert(k);
    json note{{"reason", k->reason}};
    if (!k->expires.empty()) note["expires"] = k->expires;
    if (!k->expires.empty() && k->expires < today) {
      note["expired"] = true;
      r["known_failure"] = note;
      regressions.push_back(std::move(r));
      continue;
    }
    r["known_failure"] = note;
    moved[r.value("module", "")]++;
    shown.push_back(std::move(r));
  }
  for (json& m : (*report)["modules"]) {
    const auto it = moved.find(m["module"].get<std::string>());
    if (it != moved.end()) m["regressions"] = m["regressions"].get<int64_t>() - it->second;
  }
  json unmatched = json::array();
  for (const KnownFailure& k : known) {
    if (!matched.count(&k)) unmatched.push_back({{"test", k.test}, {"reason", k.reason}});
  }
  (*report)["regressions"] = std::move(regressions);
  (*report)["known_failures"] = std::move(shown);
  (*report)["known_unmatched"] = std::move(unmatched);
  UpdateExitStatus(report);
}

void CompareWithLastNight(const json& previous, json* report) {
  std::set<std::string> before;
  for (const char* list : {"regressions", "known_failures"}) {
    for (const json& r : previous.value(list, json::array())) before.insert(r.value("test", ""));
  }
  std::set<std::string> now;
  for (json& r : (*report)["regressions"]) {
    now.insert(r["test"].get<std::string>());
    r["new"] = before.count(r["test"].get<std::string>()) == 0;
  }
  for (const json& r : (*report).value("known_failures", json::array())) {
    now.insert(r["test"].get<std::string>());
  }
  json gone = json::array();
  for (const json& r : previous.value("regressions", json::array())) {
    if (!now.count(r.value("test", ""))) gone.push_back({{"test", r.value("test", "")}});
  }
  (*report)["since_last_night"] = {{"night", previous.value("night", "")}, {"gone", gone}};
}

}  // namespace a64jit::junit
