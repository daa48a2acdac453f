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

#include "jit/python/jit.h"
#include "jit/python/jitlist_file.h"
#include "jit/python/options.h"

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

EnvConfig ConfigFromEnvironment() {
  RunSettings settings;
  ApplyEnvironment(&settings);  // the variables of options.h's table
  EnvConfig env;
  env.config = std::move(settings.jit);
  for (const char* chooses : {"A64JIT_THRESHOLD", "A64JIT_JITLIST", "A64JIT_JITLIST_FILE"}) {
    const char* v = std::getenv(chooses);
    env.any |= v != nullptr && *v != '\0';
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
  set_or_clear("A64JIT_THRESHOLD",
               config.auto_tiering() ? "auto" : std::to_string(config.threshold.value_or(0)));
  set_or_clear("A64JIT_COMPILE_BUDGET", std::to_string(config.compile_budget_pct));
  set_or_clear("A64JIT_HOT_LOOP_US", std::to_string(config.hot_loop_us));
  set_or_clear("A64JIT_COLD_PATH_CALLS", std::to_string(config.cold_path_calls));
  set_or_clear("A64JIT_START_DELAY", config.start_delay_ms == Config::kAutoStartDelay
                                         ? "auto"
                                         : std::to_string(config.start_delay_ms));
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
  set_or_clear(
      "A64JIT_TEST_FAIL",
      config.fail_point.empty() ? "" : config.fail_point + ":" + std::to_string(config.fail_every));
  set_or_clear("A64JIT_STACK_MIB",
               config.stack_mib != Config().stack_mib ? std::to_string(config.stack_mib) : "");
}

void LoadJitListFile(Config* config) {
  config->jitlist_file_patterns = ReadJitListFile(config->jitlist_file);
}

}  // namespace a64jit::python
