// a64jit-run: CPython 3.11 (Debian's libpython3.11) with the JIT, running a script, a module
// (-m) or a command (-c). The program's own output is untouched; the JIT's goes to stderr
// only when asked (--stats, --dump, --log).
#include <Python.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "jit/python/jit.h"
#include "jit/python/module.h"
#include "jit/python/native_backtrace.h"

namespace {

// Each option with the environment variable that means the same (the README's table
// lists the same rows; runner_cli_test checks that they match).
constexpr char kUsage[] =
    "usage: a64jit-run [options] [--] [python3.11 options] (script.py | -m module | -c cmd)\n"
    "                  [args]\n"
    "An option's value follows '=' or comes as the next argument; '--' ends the runner's\n"
    "options. A usage error exits with status 64; otherwise the status is the program's.\n"
    "  --threshold=N         compile a function on its (N+1)-th call (default 0)\n"
    "                        [A64JIT_THRESHOLD]\n"
    "  --hot-loop-us=N       with a threshold above 0, also compile a function with a loop\n"
    "                        once its interpreted runs took N us in all (default 1000; 0: off)\n"
    "                        [A64JIT_HOT_LOOP_US]\n"
    "  --jitlist=P,P...      only functions matching a module:qualname pattern (* wildcard)\n"
    "                        [A64JIT_JITLIST]\n"
    "  --jitlist-file=PATH   patterns from a file, one a line, # comments [A64JIT_JITLIST_FILE]\n"
    "  --exec=MODE           native | unicorn (default: this host's: native on aarch64)\n"
    "                        [A64JIT_EXEC]\n"
    "  --no-jit              run the stock interpreter (the a64jit module stays importable)\n"
    "                        [A64JIT_NO_JIT=1]\n"
    "  --stats               print JIT statistics and the top deopt sites to stderr at exit\n"
    "  --stats-file=PATH     write the statistics as JSON [A64JIT_STATS_FILE]\n"
    "  --dump=WHAT           print hir, lir or asm of every compiled function to stderr at exit\n"
    "                        (several, comma-separated, or all: the three)\n"
    "  --log=DEST            log compilation to stderr or to a file [A64JIT_LOG]\n"
    "  --max-code-size=N     stop compiling once N bytes of code memory are in use\n"
    "                        [A64JIT_MAX_CODE_SIZE]\n"
    "  --perf-map            write /tmp/perf-PID.map for perf [A64JIT_PERFMAP=1]\n"
    "  --jitdump=DIR         write DIR/jit-PID.dump for perf inject --jit [A64JIT_JITDUMP]\n"
    "  --native-backtrace    on a crash of this process, print its native stack to stderr\n"
    "                        [A64JIT_NATIVE_BACKTRACE=1; not passed on to subprocesses]\n"
    "Environment only:\n"
    "  A64JIT_CHECKED=1      native: run compiled code through the executor (faults become\n"
    "                        SystemError)\n"
    "  A64JIT_EXECUTABLE     sys.executable (a wrapper starting this binary under QEMU)\n"
    "  A64JIT_NO_CALL_STUB=1 compiled CALLs go through the host helper\n"
    "  A64JIT_NO_SITE_STUBS=1  every LOAD_GLOBAL and module.attr site checks its guards inline\n"
    "  A64JIT_NO_RELEASE_STUBS=1  every deallocation, and each fused float store's generic\n"
    "                        path, is called inline, none through a release or into-local stub\n"
    "  A64JIT_UNICORN_UNCOUNTED=1  Unicorn: do not count guest instructions (faster)\n"
    "  A64JIT_TRACE=1        Unicorn: print every executed instruction to stderr\n"
    "Bisection (difftest/bisect sets these):\n"
    "  A64JIT_OPT_LIMIT=N    take only the first N optional decisions of each function\n"
    "  A64JIT_DUMP_DIR=DIR   write each compiled function's decisions, HIR, LIR and asm there\n"
    "  A64JIT_TEST_PLANT=KIND:PATTERN  test only: miscompile matching functions (flip-branch,\n"
    "                        drop-decref, cache-index)\n"
    "  A64JIT_TEST_PLANT_FLAKY=FILE    test only: plant in one process in three (a counter)\n"
    "  A64JIT_CAPTURE=PATTERN, A64JIT_CAPTURE_FILE=PATH  record the plain arguments and\n"
    "                        results of calls of matching functions (for reproducers)\n"
    "Unicorn knobs, for measuring the emulator (x86-64 hosts):\n"
    "  A64JIT_UNICORN_TB_MIB=N          translation buffer size (4 to 1024 MiB)\n"
    "  A64JIT_UNICORN_TLB_ENTRIES=N     soft TLB entries (256 to 1048576)\n"
    "  A64JIT_UNICORN_FIXED_TLB=1       do not resize the soft TLB\n"
    "  A64JIT_UNICORN_QEMU_TLB_SIZE=1   leave the TLB at QEMU's own size\n"
    "  A64JIT_UNICORN_SLOW_STORES=1     keep Unicorn's slow path for guest stores\n"
    "  A64JIT_UNICORN_REG_CALLS=1       access registers through Unicorn calls\n"
    "  A64JIT_UNICORN_STOP_CALLS=1      stop emulation for every host call\n"
    "The runner sets the variables from its options, so a program that starts\n"
    "sys.executable again (or forks) gets the same JIT settings.\n";

struct Options {
  a64jit::python::Config jit;
  bool no_jit = false;
  bool stats = false;
  std::string stats_file;
  bool native_backtrace = false;  // --native-backtrace, or A64JIT_NATIVE_BACKTRACE=1
};

Options g_report;  // what to print at exit

void Report() {
  const Options& o = g_report;
  // --dump asked the JIT to keep that text at compile time (Config::keep_text).
  if (!o.jit.keep_text.empty()) std::fputs(a64jit::python::DumpKept().c_str(), stderr);
  if (o.stats) std::fputs(a64jit::python::StatsSummary().c_str(), stderr);
  if (!o.stats_file.empty() && !a64jit::python::WriteStatsFile(o.stats_file)) {
    std::fprintf(stderr, "a64jit-run: cannot write %s\n", o.stats_file.c_str());
  }
}

// The runner's own usage errors exit with 64 (EX_USAGE), which no Python program's status
// is mistaken for; a program's own status, and python3.11's errors, pass through.
constexpr int kUsageError = 64;

int Usage(const std::string& error) {
  std::fprintf(stderr, "a64jit-run: %s\n%s", error.c_str(), kUsage);
  return kUsageError;
}

// The options that take a value, which comes as `--name=VALUE` or as `--name VALUE`.
constexpr const char* kValueOptions[] = {
    "--threshold",  "--hot-loop-us", "--jitlist", "--jitlist-file",  "--exec",
    "--stats-file", "--dump",        "--log",     "--max-code-size", "--jitdump"};

// argv[*i] as `--name=VALUE`: *name and *value. A value option given bare takes the next
// argument as its value (advancing *i); false when there is none.
bool SplitOption(int argc, char** argv, int* i, std::string* name, std::string* value) {
  const std::string a = argv[*i];
  const size_t eq = a.find('=');
  *name = a.substr(0, eq);
  *value = eq == std::string::npos ? "" : a.substr(eq + 1);
  if (eq != std::string::npos) return true;
  for (const char* option : kValueOptions) {
    if (*name != option) continue;
    if (*i + 1 >= argc) return false;
    *value = argv[++*i];
    return true;
  }
  return true;
}

// --dump's kinds: hir, lir, asm, or several of them (comma-separated) or all, which dump all
// three. Empty: not a kind.
std::string DumpKinds(const std::string& v) {
  const std::vector<std::string> kinds = a64jit::python::SplitList(v);
  if (kinds.empty()) return "";
  for (const std::string& k : kinds) {
    if (k != "hir" && k != "lir" && k != "asm" && k != "all") return "";
  }
  return kinds.size() == 1 ? kinds[0] : "all";
}

// One of the runner's own options, `name` with its value `v` (empty for a flag). Returns -1
// to go on, or the exit status (0 after --help, kUsageError for a usage error, printed).
int TakeOption(const std::string& name, const std::string& v, Options* o) {
  const std::optional<int64_t> n = a64jit::python::ParseCount(v);  // for the count options
  if (name == "--help") {
    std::fputs(kUsage, stdout);
    return 0;
  } else if (name == "--threshold") {
    if (!n) return Usage("--threshold: not a count: " + v);
    o->jit.threshold = *n;
  } else if (name == "--hot-loop-us") {
    if (!n) return Usage("--hot-loop-us: not a count: " + v);
    o->jit.hot_loop_us = *n;
  } else if (name == "--jitlist") {
    o->jit.jitlist = a64jit::python::SplitList(v);
  } else if (name == "--exec") {
    if (v == "native") {
      o->jit.exec_mode = a64jit::runtime::ExecMode::kNative;
    } else if (v == "unicorn") {
      o->jit.exec_mode = a64jit::runtime::ExecMode::kUnicorn;
    } else {
      return Usage("--exec: expected native or unicorn, got " + v);
    }
  } else if (name == "--no-jit") {
    o->no_jit = true;
  } else if (name == "--stats") {
    o->stats = true;
  } else if (name == "--native-backtrace") {
    o->native_backtrace = true;
  } else if (name == "--stats-file") {
    o->stats_file = v;
  } else if (name == "--dump") {
    o->jit.keep_text = DumpKinds(v);  // printed after the interpreter has finalised
    if (o->jit.keep_text.empty()) return Usage("--dump: hir, lir, asm, several of them or all");
  } else if (name == "--log") {
    o->jit.log = v;
  } else if (name == "--jitlist-file") {
    o->jit.jitlist_file = v;
    try {
      a64jit::python::LoadJitListFile(&o->jit);
    } catch (const std::exception& e) {
      return Usage(std::string("--jitlist-file: ") + e.what());
    }
  } else if (name == "--max-code-size") {
    if (!n) return Usage("--max-code-size: not a byte count: " + v);
    o->jit.max_code_size = static_cast<uint64_t>(*n);
  } else if (name == "--perf-map") {
    o->jit.perf_map = true;
  } else if (name == "--jitdump") {
    if (v.empty()) return Usage("--jitdump: expected a directory");
    o->jit.jitdump_dir = v;
  } else {
    return Usage("unknown option " + name);
  }
  return -1;
}

// The runner's own options, from the environment and then argv (each overrides), up to the
// first argument that is python3.11's (or past `--`); *first is its index. Returns -1 to go
// on, or the exit status (0 after --help, kUsageError for a usage error, printed).
int ParseCommandLine(int argc, char** argv, Options* o, int* first) {
  try {
    o->jit = a64jit::python::ConfigFromEnvironment().config;
  } catch (const std::exception& e) {
    return Usage(e.what());
  }
  if (!o->jit.threshold) o->jit.threshold = 0;
  if (const char* n = std::getenv("A64JIT_NO_JIT")) o->no_jit = std::string(n) == "1";
  if (const char* f = std::getenv("A64JIT_STATS_FILE")) o->stats_file = f;
  // Subprocesses (a test suite's crash tests compare their stderr) do not inherit it.
  const char* backtrace_env = std::getenv("A64JIT_NATIVE_BACKTRACE");
  o->native_backtrace = backtrace_env != nullptr && std::string(backtrace_env) == "1";
  unsetenv("A64JIT_NATIVE_BACKTRACE");
  int i = 1;
  for (; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "-h") {
      std::fputs(kUsage, stdout);
      return 0;
    }
    if (a == "--") {  // the rest is python3.11's
      i++;
      break;
    }
    if (a.compare(0, 2, "--") != 0 || a == "--version" ||
        a.compare(0, 25, "--check-hash-based-pycs") == 0) {
      break;  // python3.11's own command line from here
    }
    std::string name, v;
    if (!SplitOption(argc, argv, &i, &name, &v)) return Usage(name + " needs a value");
    if (const int status = TakeOption(name, v, o); status >= 0) return status;
  }
  *first = i;
  return -1;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  int i = 0;
  if (const int status = ParseCommandLine(argc, argv, &o, &i); status >= 0) return status;
  if (i >= argc) return Usage("nothing to run");
  // A program that starts sys.executable again (test suites start many) gets this run's
  // settings: stock under --no-jit, this threshold and jitlist otherwise.
  if (o.no_jit) {
    setenv("A64JIT_NO_JIT", "1", 1);
  } else {
    unsetenv("A64JIT_NO_JIT");
    a64jit::python::ExportToEnvironment(o.jit);
  }
  if (o.native_backtrace) a64jit::python::InstallNativeBacktrace();

  // CPython parses the rest exactly as python3.11 would (-E, -I, -X, -W, -c, -m, a script,
  // ...): tests start `sys.executable` with interpreter options.
  std::vector<char*> cargv;
  cargv.push_back(argv[0]);
  for (; i < argc; i++) cargv.push_back(argv[i]);

  if (PyImport_AppendInittab("a64jit", PyInit_a64jit) < 0) return Usage("inittab full");
  PyConfig config;
  PyConfig_InitPythonConfig(&config);
  config.parse_argv = 1;
  PyStatus status =
      PyConfig_SetBytesArgv(&config, static_cast<Py_ssize_t>(cargv.size()), cargv.data());
  // sys.executable is this runner, so `subprocess.run([sys.executable, "-c", ...])` starts
  // a64jit-run again (left alone, Python would derive it from sys.argv[0], e.g. pytest).
  // Under qemu-aarch64 without binfmt_misc the binary cannot be exec'd directly:
  // A64JIT_EXECUTABLE names a wrapper that starts it under QEMU.
  const char* wrapper = std::getenv("A64JIT_EXECUTABLE");
  if (!PyStatus_Exception(status) && wrapper != nullptr && *wrapper != '\0') {
    status = PyConfig_SetBytesString(&config, &config.executable, wrapper);
  } else if (!PyStatus_Exception(status)) {
    char self[4096];
    const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
      self[n] = '\0';
      status = PyConfig_SetBytesString(&config, &config.executable, self);
    }
  }
  if (!PyStatus_Exception(status)) status = Py_InitializeFromConfig(&config);
  PyConfig_Clear(&config);
  if (PyStatus_Exception(status)) Py_ExitStatusException(status);

  if (!o.no_jit && !a64jit::python::Enable(o.jit)) {
    PyErr_Print();
    Py_FinalizeEx();
    return 2;
  }
  // sys.exit() ends the process inside Py_RunMain (Py_Exit calls exit()), so the report is
  // an exit handler.
  g_report = o;
  std::atexit(Report);
  const int rc = Py_RunMain();
  return rc;
}
