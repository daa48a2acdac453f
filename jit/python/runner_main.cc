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
#include "jit/python/options.h"

namespace {

// The usage around options.h's table, which gives the rows (and the README's table).
constexpr char kUsageHead[] =
    "usage: a64jit-run [options] [--] [python3.11 options] (script.py | -m module | -c cmd)\n"
    "                  [args]\n"
    "An option's value follows '=' or comes as the next argument; '--' ends the runner's\n"
    "options. A usage error exits with status 64; otherwise the status is the program's.\n"
    "Each option's variable is in brackets; a flag's variable is 0 or 1.\n";
constexpr char kUsageTail[] =
    "The runner sets the variables from its options, so a program that starts\n"
    "sys.executable again (or forks) gets the same JIT settings.\n";

std::string UsageText() { return kUsageHead + a64jit::python::OptionsHelp() + kUsageTail; }

using Options = a64jit::python::RunSettings;

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
  std::fprintf(stderr, "a64jit-run: %s\n%s", error.c_str(), UsageText().c_str());
  return kUsageError;
}

// argv[*i] as `--name=VALUE`: *name and *value. An option of options.h's table that takes
// a value, given bare, takes the next argument (advancing *i); false when there is none.
bool SplitOption(int argc, char** argv, int* i, std::string* name, std::string* value) {
  const std::string a = argv[*i];
  const size_t eq = a.find('=');
  *name = a.substr(0, eq);
  *value = eq == std::string::npos ? "" : a.substr(eq + 1);
  if (eq != std::string::npos) return true;
  const a64jit::python::OptionSpec* spec = a64jit::python::FindOption(*name);
  if (spec == nullptr || spec->value == nullptr) return true;
  if (*i + 1 >= argc) return false;
  *value = argv[++*i];
  return true;
}

// One of the runner's own options, `name` with its value `v` (a flag's is "", or 0 or 1 after
// '='). Returns -1 to go on, or the exit status (0 after --help, kUsageError, printed).
int TakeOption(const std::string& name, const std::string& v, Options* o) {
  if (name == "--help") {
    std::fputs(UsageText().c_str(), stdout);
    return 0;
  }
  const a64jit::python::OptionSpec* spec = a64jit::python::FindOption(name);
  if (spec == nullptr) return Usage("unknown option " + name);
  const std::string value = spec->value == nullptr && v.empty() ? "1" : v;
  const std::string error = spec->apply(value, o);
  if (!error.empty()) return Usage(name + ": " + error);
  return -1;
}

// The runner's own options, from the environment and then argv (each overrides), up to the
// first argument that is python3.11's (or past `--`); *first is its index. Returns -1 to go
// on, or the exit status (0 after --help, kUsageError for a usage error, printed).
int ParseCommandLine(int argc, char** argv, Options* o, int* first) {
  try {
    a64jit::python::ApplyEnvironment(o);
  } catch (const std::exception& e) {
    return Usage(e.what());
  }
  // Subprocesses (a test suite's crash tests compare their stderr) do not inherit it.
  unsetenv("A64JIT_NATIVE_BACKTRACE");
  int i = 1;
  for (; i < argc; i++) {
    const std::string a = argv[i];
    if (a == "-h") {
      std::fputs(UsageText().c_str(), stdout);
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
  o->jit.SettleThreshold();
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
