#include "jit/python/options.h"

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>

#include "jit/decisions.h"

namespace a64jit::python {

namespace {

// ---- How values are taken -------------------------------------------------------------

std::string Count(const std::string& v, int64_t* out) {
  const std::optional<int64_t> n = ParseCount(v);
  if (!n) return "not a count: " + v;
  *out = *n;
  return "";
}

// A flag's value: "1" on, "0" off.
std::string Flag(const std::string& v, bool* out) {
  if (v != "0" && v != "1") return "expected 0 or 1, got " + v;
  *out = v == "1";
  return "";
}

// A setting that takes its text as it is (a path, a pattern, a destination).
template <std::string Config::*field>
std::string JitText(const std::string& v, RunSettings* s) {
  s->jit.*field = v;
  return "";
}

// A flag of the JIT's configuration.
template <bool Config::*field>
std::string JitFlag(const std::string& v, RunSettings* s) {
  return Flag(v, &(s->jit.*field));
}

std::string Threshold(const std::string& v, RunSettings* s) {
  if (v == "auto") {
    s->jit.threshold = Config::kAutoThreshold;
    return "";
  }
  int64_t n = 0;
  std::string error = Count(v, &n);
  if (error.empty()) s->jit.threshold = n;
  return error;
}

std::string CompileBudget(const std::string& v, RunSettings* s) {
  int64_t n = 0;
  std::string error = Count(v, &n);
  if (error.empty() && n > 100) error = "a percentage from 0 to 100, got " + v;
  if (error.empty()) s->jit.compile_budget_pct = n;
  return error;
}

std::string HotLoop(const std::string& v, RunSettings* s) { return Count(v, &s->jit.hot_loop_us); }

std::string ColdPathCalls(const std::string& v, RunSettings* s) {
  return Count(v, &s->jit.cold_path_calls);
}

std::string StartDelay(const std::string& v, RunSettings* s) {
  if (v == "auto") {
    s->jit.start_delay_ms = Config::kAutoStartDelay;
    return "";
  }
  return Count(v, &s->jit.start_delay_ms);
}

std::string JitList(const std::string& v, RunSettings* s) {
  s->jit.jitlist = SplitList(v);
  return "";
}

std::string JitListFile(const std::string& v, RunSettings* s) {
  s->jit.jitlist_file = v;
  try {
    LoadJitListFile(&s->jit);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

std::string Exec(const std::string& v, RunSettings* s) {
  if (v == "native") {
    s->jit.exec_mode = runtime::ExecMode::kNative;
  } else if (v == "unicorn") {
    s->jit.exec_mode = runtime::ExecMode::kUnicorn;
  } else {
    return "expected native or unicorn, got " + v;
  }
  return "";
}

std::string NoJit(const std::string& v, RunSettings* s) { return Flag(v, &s->no_jit); }
std::string PrintStats(const std::string& v, RunSettings* s) { return Flag(v, &s->stats); }

std::string StatsFile(const std::string& v, RunSettings* s) {
  s->stats_file = v;
  return "";
}

// --dump's kinds: hir, lir, asm, or several of them (comma-separated) or all: all three.
std::string Dump(const std::string& v, RunSettings* s) {
  std::vector<std::string> kinds = SplitList(v);
  for (const std::string& k : kinds) {
    if (k != "hir" && k != "lir" && k != "asm" && k != "all") kinds.clear();
  }
  if (kinds.empty()) return "hir, lir, asm, several of them or all";
  s->jit.keep_text = kinds.size() == 1 ? kinds[0] : "all";  // printed at exit
  return "";
}

std::string MaxCodeSize(const std::string& v, RunSettings* s) {
  int64_t n = 0;
  const std::string error = Count(v, &n);
  if (!error.empty()) return "not a byte count: " + v;
  s->jit.max_code_size = static_cast<uint64_t>(n);
  return "";
}

std::string StackMib(const std::string& v, RunSettings* s) {
  int64_t n = 0;
  const std::string error = Count(v, &n);
  if (!error.empty() || n < 64 || n > (int64_t{1} << 20)) return "a size in MiB from 64, got " + v;
  s->jit.stack_mib = n;
  return "";
}

std::string JitDump(const std::string& v, RunSettings* s) {
  if (v.empty()) return "expected a directory";
  s->jit.jitdump_dir = v;
  return "";
}

std::string NativeBacktrace(const std::string& v, RunSettings* s) {
  return Flag(v, &s->native_backtrace);
}

std::string OptLimit(const std::string& v, RunSettings* s) {
  int64_t n = 0;
  const std::string error = Count(v, &n);
  if (!error.empty() || n > INT32_MAX) return "not a count: " + v;
  s->jit.opt_limit = static_cast<int>(n);
  return "";
}

std::string TestPlant(const std::string& v, RunSettings* s) {
  const size_t colon = v.find(':');
  if (colon == std::string::npos || colon + 1 == v.size()) {
    return "expected KIND:PATTERN, got " + v;
  }
  try {
    s->jit.plant = ParsePlant(v.substr(0, colon));
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  s->jit.plant_pattern = v.substr(colon + 1);
  return "";
}

std::string TestFail(const std::string& v, RunSettings* s) {
  const size_t colon = v.find(':');
  const std::string point = v.substr(0, colon);
  if (point != "hir" && point != "lower" && point != "emit" && point != "code-memory") {
    return "expected POINT:N with POINT hir, lower, emit or code-memory, got " + v;
  }
  int64_t every = 1;
  if (colon != std::string::npos && (!Count(v.substr(colon + 1), &every).empty() || every < 1)) {
    return "expected POINT:N with N a count from 1, got " + v;
  }
  s->jit.fail_point = point;
  s->jit.fail_every = every;
  return "";
}

// ---- Formatting -----------------------------------------------------------------------

std::string WithoutBackquotes(const std::string& s) {
  std::string out;
  for (char c : s)
    if (c != '`') out += c;
  return out;
}

// "--threshold=N", "--no-jit", or "" for a variable only.
std::string OptionText(const OptionSpec& o) {
  if (o.option == nullptr) return "";
  return std::string(o.option) + (o.value != nullptr ? std::string("=") + o.value : "");
}

// "A64JIT_THRESHOLD", "A64JIT_NO_JIT=1" (a flag), "A64JIT_OPT_LIMIT=N" (a variable only).
std::string EnvText(const OptionSpec& o) {
  if (o.env == nullptr) return "";
  if (o.value == nullptr) return std::string(o.env) + "=1";
  return o.option == nullptr ? std::string(o.env) + "=" + o.value : o.env;
}

// `text` wrapped to `width` columns, starting at column `indent`, as continuation lines are.
std::string Wrap(const std::string& text, size_t indent, size_t width) {
  std::string out, word;
  size_t column = indent;
  std::istringstream words(text);
  while (words >> word) {
    if (column > indent && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
    } else if (column > indent) {
      out += ' ';
      column++;
    }
    out += word;
    column += word.size();
  }
  return out;
}

// Every option and variable, in the order --help and the README list them.
const std::vector<OptionSpec> kOptionTable = {
    {"--threshold", "N|auto", "A64JIT_THRESHOLD",
     "`auto` (the default): compile a function once it has proven hot, within the compile "
     "budget; N: compile a function on its (N+1)-th call (0: every function that runs, for "
     "testing)",
     Threshold},
    {"--compile-budget", "PCT", "A64JIT_COMPILE_BUDGET",
     "with `auto`, compiling may take PCT percent of the time since the JIT was enabled "
     "(default 10; 0: no budget)",
     CompileBudget},
    {"--start-delay", "MS|auto", "A64JIT_START_DELAY",
     "with `auto` and a budget, the eval-frame hook goes in MS milliseconds after the JIT is "
     "enabled; `auto` (the default): three times the CPU time the process took to start, "
     "and the process must have used that much CPU time since, too; a process that ends "
     "first runs as stock (`a64jit.enable()`: 0)",
     StartDelay},
    {"--hot-loop-us", "N", "A64JIT_HOT_LOOP_US",
     "with a threshold above 0 or `auto`, also compile a function with a loop once its "
     "interpreted runs took N microseconds in all (default 1000; 0: calls only); `auto` waits "
     "at least as long as compiling the function is expected to take",
     HotLoop},
    {"--cold-path-calls", "N", "A64JIT_COLD_PATH_CALLS",
     "a function compiled after N interpreted calls or more leaves the blocks that had not "
     "run by then to the interpreter, and they are not compiled (default 1000; 0: always; "
     "`get_deopt_stats()` counts their runs as `cold path`)",
     ColdPathCalls},
    {"--jitlist", "P,P...", "A64JIT_JITLIST",
     "only functions matching a `module:qualname` pattern (`*` wildcard)", JitList},
    {"--jitlist-file", "PATH", "A64JIT_JITLIST_FILE",
     "patterns from a file, one a line, `#` comments; a malformed line is an error naming "
     "file and line",
     JitListFile},
    {"--exec", "MODE", "A64JIT_EXEC", "`native` or `unicorn` (default: this host's)", Exec},
    {"--no-jit", nullptr, "A64JIT_NO_JIT",
     "the stock interpreter (the `a64jit` module stays importable)", NoJit},
    {"--stats", nullptr, nullptr, "statistics and the top deopt sites on stderr at exit",
     PrintStats},
    {"--stats-file", "PATH", "A64JIT_STATS_FILE", "the statistics as JSON", StatsFile},
    {"--dump", "WHAT", nullptr,
     "`hir`, `lir` or `asm` of every compiled function on stderr at exit (several, "
     "comma-separated, or `all`)",
     Dump},
    {"--log", "DEST", "A64JIT_LOG",
     "log each compile (and why a function was not compiled) to `stderr` or a file",
     JitText<&Config::log>},
    {"--max-code-size", "N", "A64JIT_MAX_CODE_SIZE",
     "stop compiling once N bytes of code memory are in use", MaxCodeSize},
    {"--perf-map", nullptr, "A64JIT_PERFMAP", "write `/tmp/perf-PID.map`",
     JitFlag<&Config::perf_map>},
    {"--jitdump", "DIR", "A64JIT_JITDUMP", "write `DIR/jit-PID.dump` for `perf inject --jit`",
     JitDump},
    {"--native-backtrace", nullptr, "A64JIT_NATIVE_BACKTRACE",
     "on a crash, the native stack on stderr (not inherited)", NativeBacktrace},
    {nullptr, "N", "A64JIT_STACK_MIB",
     "the stack each thread's Python frames and compiled code run on, in MiB of address "
     "space (default 4096, committed as it is touched): a recursion as deep as "
     "`sys.setrecursionlimit()` allows runs as in stock Python",
     StackMib},
    {nullptr, nullptr, "A64JIT_CHECKED",
     "natively, call compiled code through the executor (faults become `SystemError`)",
     JitFlag<&Config::checked_native>},
    {nullptr, "PATH", "A64JIT_EXECUTABLE",
     "`sys.executable` (a wrapper that starts the runner under QEMU)", nullptr},
    {nullptr, nullptr, "A64JIT_NO_CALL_STUB",
     "compiled CALLs go through the host helper (for measuring)", nullptr},
    {nullptr, nullptr, "A64JIT_NO_SEND_STUB",
     "compiled SENDs (`yield from`, `await`) go through the host helper (for measuring)", nullptr},
    {nullptr, nullptr, "A64JIT_NO_SITE_STUBS",
     "every LOAD_GLOBAL and `module.attr` site checks its guards inline, and an instance "
     "attribute's miss calls its helper, not the dict-hint stub: none calls a site stub (for "
     "measuring)",
     nullptr},
    {nullptr, nullptr, "A64JIT_NO_RELEASE_STUBS",
     "every deallocation in compiled code, and each fused float store's generic path, is "
     "called inline, none through a release or into-local stub (for measuring)",
     nullptr},
    {nullptr, nullptr, "A64JIT_UNICORN_UNCOUNTED",
     "Unicorn: do not count guest instructions (faster)", nullptr},
    {nullptr, nullptr, "A64JIT_TRACE", "Unicorn: print every executed instruction", nullptr},
    {nullptr, "N", "A64JIT_OPT_LIMIT",
     "take only the first N optional decisions of each compiled function (bisection, "
     "`jit/decisions.h`)",
     OptLimit},
    {nullptr, "DIR", "A64JIT_DUMP_DIR",
     "write each compiled function's decisions, HIR, LIR and disassembly to a file in DIR, "
     "made by its compile; each shared stub's LIR and disassembly too",
     JitText<&Config::dump_dir>},
    {nullptr, "KIND:PATTERN", "A64JIT_TEST_PLANT",
     "test only: miscompile the functions matching PATTERN (`flip-branch`, `drop-decref`, "
     "`cache-index`; `difftest/bisect`)",
     TestPlant},
    {nullptr, "FILE", "A64JIT_TEST_PLANT_FLAKY",
     "test only: apply the plant in one process in three (FILE counts the processes)",
     JitText<&Config::plant_flaky_counter>},
    {nullptr, "POINT:N", "A64JIT_TEST_FAIL",
     "test only: every Nth compile fails at POINT (`hir`, `lower`, `emit`: an allocation "
     "fails; `code-memory`: no code memory), and its function stays interpreted",
     TestFail},
    {nullptr, "PATTERN", "A64JIT_CAPTURE",
     "append the arguments and result of interpreted calls of matching functions to "
     "A64JIT_CAPTURE_FILE, one JSON object a line, when every argument is a plain literal "
     "value (the bisector's reproducers)",
     JitText<&Config::capture_pattern>},
    {nullptr, "PATH", "A64JIT_CAPTURE_FILE", "where A64JIT_CAPTURE writes (both or neither)",
     JitText<&Config::capture_file>},
    {nullptr, "N", "A64JIT_UNICORN_TB_MIB", "Unicorn: translation buffer size (4 to 1024 MiB)",
     nullptr},
    {nullptr, "N", "A64JIT_UNICORN_TLB_ENTRIES", "Unicorn: soft TLB entries (256 to 1048576)",
     nullptr},
    {nullptr, nullptr, "A64JIT_UNICORN_FIXED_TLB", "Unicorn: do not resize the soft TLB", nullptr},
    {nullptr, nullptr, "A64JIT_UNICORN_QEMU_TLB_SIZE", "Unicorn: leave the TLB at QEMU's own size",
     nullptr},
    {nullptr, nullptr, "A64JIT_UNICORN_SLOW_STORES", "Unicorn: keep the slow path for guest stores",
     nullptr},
    {nullptr, nullptr, "A64JIT_UNICORN_REG_CALLS",
     "Unicorn: access registers through Unicorn's calls", nullptr},
    {nullptr, nullptr, "A64JIT_UNICORN_STOP_CALLS", "Unicorn: stop emulation for every host call",
     nullptr},
};

}  // namespace

const std::vector<OptionSpec>& OptionTable() { return kOptionTable; }

const OptionSpec* FindOption(const std::string& option) {
  for (const OptionSpec& o : OptionTable()) {
    if (o.option != nullptr && option == o.option) return &o;
  }
  return nullptr;
}

std::string OptionsHelp() {
  constexpr size_t kIndent = 24, kWidth = 90;
  std::string out, variables;
  for (const OptionSpec& o : OptionTable()) {
    const std::string name = o.option != nullptr ? OptionText(o) : EnvText(o);
    std::string help = WithoutBackquotes(o.help);
    if (o.option != nullptr && o.env != nullptr) help += " [" + EnvText(o) + "]";
    std::string row = "  " + name;
    row += row.size() + 2 <= kIndent ? std::string(kIndent - row.size(), ' ')
                                     : "\n" + std::string(kIndent, ' ');
    row += Wrap(help, kIndent, kWidth) + "\n";
    (o.option != nullptr ? out : variables) += row;
  }
  return out + "Environment only:\n" + variables;
}

std::string OptionsMarkdown() {
  std::string out = "| option | environment | what it does |\n| --- | --- | --- |\n";
  for (const OptionSpec& o : OptionTable()) {
    const std::string option = OptionText(o), env = EnvText(o);
    out += "| " + (option.empty() ? "" : "`" + option + "`") + " | " +
           (env.empty() ? "" : "`" + env + "`") + " | " + o.help + " |\n";
  }
  return out;
}

void ApplyEnvironment(RunSettings* s) {
  for (const OptionSpec& o : OptionTable()) {
    if (o.env == nullptr || o.apply == nullptr) continue;
    const char* value = std::getenv(o.env);
    if (value == nullptr || *value == '\0') continue;
    const std::string error = o.apply(value, s);
    if (!error.empty()) throw std::invalid_argument(std::string(o.env) + ": " + error);
  }
  if (s->jit.capture_pattern.empty() != s->jit.capture_file.empty()) {
    throw std::invalid_argument("A64JIT_CAPTURE and A64JIT_CAPTURE_FILE go together");
  }
}

}  // namespace a64jit::python
