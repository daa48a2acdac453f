// The JIT's configuration from the environment (the A64JIT_* variables, jit/README.md) and
// back: what a64jit-run and `import a64jit` read before enabling the JIT, and what a child
// process inherits from its parent.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/decisions.h"
#include "jit/python/jit.h"
#include "jit/python/jitlist_file.h"

namespace a64jit::python {

std::vector<std::string> SplitList(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

std::optional<int64_t> ParseCount(const std::string& s) {
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || *end != '\0' || v < 0) return std::nullopt;
  return v;
}

namespace {
// A64JIT_OPT_LIMIT, A64JIT_DUMP_DIR and the test-only plant (Config's bisection fields).
void ReadBisectionSettings(Config* config) {
  if (const char* l = std::getenv("A64JIT_OPT_LIMIT"); l != nullptr && *l != '\0') {
    const std::optional<int64_t> v = ParseCount(l);
    if (!v || *v > INT32_MAX) {
      throw std::invalid_argument(std::string("A64JIT_OPT_LIMIT: not a count: ") + l);
    }
    config->opt_limit = static_cast<int>(*v);
  }
  if (const char* d = std::getenv("A64JIT_DUMP_DIR"); d != nullptr) config->dump_dir = d;
  if (const char* p = std::getenv("A64JIT_TEST_PLANT"); p != nullptr && *p != '\0') {
    const std::string plant = p;
    const size_t colon = plant.find(':');
    if (colon == std::string::npos || colon + 1 == plant.size()) {
      throw std::invalid_argument("A64JIT_TEST_PLANT: expected KIND:PATTERN, got " + plant);
    }
    config->plant = ParsePlant(plant.substr(0, colon));
    config->plant_pattern = plant.substr(colon + 1);
  }
  if (const char* f = std::getenv("A64JIT_TEST_PLANT_FLAKY"); f != nullptr) {
    config->plant_flaky_counter = f;
  }
  const char* capture = std::getenv("A64JIT_CAPTURE");
  const char* capture_file = std::getenv("A64JIT_CAPTURE_FILE");
  if ((capture != nullptr && *capture != '\0') != (capture_file != nullptr && *capture_file)) {
    throw std::invalid_argument("A64JIT_CAPTURE and A64JIT_CAPTURE_FILE go together");
  }
  if (capture != nullptr && *capture != '\0') {
    config->capture_pattern = capture;
    config->capture_file = capture_file;
  }
}
}  // namespace

EnvConfig ConfigFromEnvironment() {
  EnvConfig env;
  if (const char* t = std::getenv("A64JIT_THRESHOLD"); t != nullptr && *t != '\0') {
    const std::optional<int64_t> v = ParseCount(t);
    if (!v) throw std::invalid_argument(std::string("A64JIT_THRESHOLD: not a count: ") + t);
    env.config.threshold = *v;
    env.any = true;
  }
  if (const char* h = std::getenv("A64JIT_HOT_LOOP_US"); h != nullptr && *h != '\0') {
    const std::optional<int64_t> v = ParseCount(h);
    if (!v) throw std::invalid_argument(std::string("A64JIT_HOT_LOOP_US: not a count: ") + h);
    env.config.hot_loop_us = *v;
  }
  if (const char* l = std::getenv("A64JIT_JITLIST"); l != nullptr && *l != '\0') {
    env.config.jitlist = SplitList(l);
    env.any = true;
  }
  if (const char* e = std::getenv("A64JIT_EXEC"); e != nullptr && *e != '\0') {
    const std::string mode = e;
    if (mode == "native") {
      env.config.exec_mode = runtime::ExecMode::kNative;
    } else if (mode == "unicorn") {
      env.config.exec_mode = runtime::ExecMode::kUnicorn;
    } else {
      throw std::invalid_argument("A64JIT_EXEC: expected native or unicorn, got " + mode);
    }
  }
  if (const char* g = std::getenv("A64JIT_LOG"); g != nullptr) env.config.log = g;
  if (const char* f = std::getenv("A64JIT_JITLIST_FILE"); f != nullptr && *f != '\0') {
    env.config.jitlist_file = f;
    LoadJitListFile(&env.config);
    env.any = true;
  }
  if (const char* m = std::getenv("A64JIT_MAX_CODE_SIZE"); m != nullptr && *m != '\0') {
    const std::optional<int64_t> v = ParseCount(m);
    if (!v)
      throw std::invalid_argument(std::string("A64JIT_MAX_CODE_SIZE: not a byte count: ") + m);
    env.config.max_code_size = static_cast<uint64_t>(*v);
  }
  if (const char* p = std::getenv("A64JIT_PERFMAP"); p != nullptr && *p != '\0') {
    if (std::strcmp(p, "0") != 0 && std::strcmp(p, "1") != 0) {
      throw std::invalid_argument(std::string("A64JIT_PERFMAP: expected 0 or 1, got ") + p);
    }
    env.config.perf_map = *p == '1';
  }
  if (const char* d = std::getenv("A64JIT_JITDUMP"); d != nullptr) env.config.jitdump_dir = d;
  ReadBisectionSettings(&env.config);
  if (const char* c = std::getenv("A64JIT_CHECKED");
      c != nullptr && *c != '\0' && std::string(c) != "0") {
    env.config.checked_native = true;
  }
  return env;
}

void ExportToEnvironment(const Config& config) {
  auto set_or_clear = [](const char* name, const std::string& value) {
    if (value.empty()) {
      unsetenv(name);
    } else {
      setenv(name, value.c_str(), 1);
    }
  };
  set_or_clear("A64JIT_THRESHOLD", std::to_string(config.threshold.value_or(0)));
  set_or_clear("A64JIT_HOT_LOOP_US", std::to_string(config.hot_loop_us));
  std::string list;
  for (const std::string& p : config.jitlist) list += (list.empty() ? "" : ",") + p;
  set_or_clear("A64JIT_JITLIST", list);
  set_or_clear("A64JIT_EXEC", config.exec_mode ? runtime::ExecModeName(*config.exec_mode) : "");
  set_or_clear("A64JIT_LOG", config.log);
  set_or_clear("A64JIT_CHECKED", config.checked_native ? "1" : "");
  set_or_clear("A64JIT_JITLIST_FILE", config.jitlist_file);
  set_or_clear("A64JIT_MAX_CODE_SIZE",
               config.max_code_size != 0 ? std::to_string(config.max_code_size) : "");
  set_or_clear("A64JIT_PERFMAP", config.perf_map ? "1" : "");
  set_or_clear("A64JIT_JITDUMP", config.jitdump_dir);
}

void LoadJitListFile(Config* config) {
  config->jitlist_file_patterns = ReadJitListFile(config->jitlist_file);
}

}  // namespace a64jit::python
