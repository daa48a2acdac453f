// bazel run //benchmarks:richards: Richards (richards.py) under Debian's CPython 3.11, in one
// process and one binary, in three modes:
//   richards/nojit         the stock interpreter (no eval-frame hook installed)
//   richards/jitlist       the benchmark's own functions compiled on their first call
//   richards/autojit=N     every function compiled after N calls (A64JIT_AUTOJIT=N, default 100)
// Each mode loads richards.py as a module of its own (fresh code objects, so one mode's
// compiled code never serves another), warms up with one untimed run, then times run(1) per
// iteration and fails the benchmark if Richards' self-check fails. After Google Benchmark's
// report, a table on stderr (stdout stays Google Benchmark's, e.g. pure JSON) gives time per
// iteration, the speed-up against nojit, the number of compiled
// functions, and each compiled Richards function's code size.
//
// Under Unicorn (x86-64) the JIT modes' times are emulation cost, not aarch64 speed: the
// table says so and reports no speed-up. Speed: bazel run --config=aarch64 //benchmarks:richards
#include <Python.h>
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "jit/python/code_info.h"
#include "jit/python/jit.h"

namespace {

struct ModeResult {
  double ms_per_iteration = 0;
  int64_t compiled = 0;  // functions of this mode's module
  std::map<std::string, int64_t> sizes;
  // Over the mode's whole run (Stats deltas): functions compiled / functions that reached
  // the threshold, and compiled entries / function entries.
  int64_t reached = 0, compiled_all = 0;
  int64_t entries = 0, compiled_entries = 0;
};

// "n/d (p%)", or "-" when nothing was counted.
std::string Share(int64_t n, int64_t d) {
  if (d <= 0) return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%lld/%lld (%.1f%%)", static_cast<long long>(n),
                static_cast<long long>(d), 100.0 * static_cast<double>(n) / d);
  return buf;
}

std::vector<std::string> g_order;             // modes in the order they ran
std::map<std::string, ModeResult> g_results;  // by mode
std::string g_source = "benchmarks/richards/richards.py";

// richards.py as module `name` (a fresh copy each time); nullptr with `error` set on failure.
PyObject* LoadRichards(const std::string& name, std::string* error) {
  PyObject* globals = PyDict_New();
  PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins());
  const std::string code =
      "import importlib.util, sys\n"
      "spec = importlib.util.spec_from_file_location(NAME, PATH)\n"
      "module = importlib.util.module_from_spec(spec)\n"
      "sys.modules[NAME] = module\n"
      "spec.loader.exec_module(module)\n";
  PyObject* n = PyUnicode_FromString(name.c_str());
  PyObject* p = PyUnicode_FromString(g_source.c_str());
  PyDict_SetItemString(globals, "NAME", n);
  PyDict_SetItemString(globals, "PATH", p);
  Py_XDECREF(n);
  Py_XDECREF(p);
  PyObject* r = PyRun_String(code.c_str(), Py_file_input, globals, globals);
  PyObject* module = nullptr;
  if (r == nullptr) {
    *error = "loading " + g_source + ": " + a64jit::python::TakePythonError();
  } else {
    module = PyDict_GetItemString(globals, "module");
    Py_XINCREF(module);
  }
  Py_XDECREF(r);
  Py_DECREF(globals);
  return module;
}

// One run of Richards; false (with `error`) if it raised or its self-check failed.
bool RunOnce(PyObject* run, std::string* error) {
  PyObject* ok = PyObject_CallFunction(run, "i", 1);
  if (ok == nullptr) {
    *error = "richards raised: " + a64jit::python::TakePythonError();
    return false;
  }
  const bool right = ok == Py_True;
  Py_DECREF(ok);
  if (!right) *error = "richards' self-check failed (wrong hold or packet count)";
  return right;
}

void BM_Richards(benchmark::State& state, const std::string& mode) {
  std::string module_name = "richards_" + mode;
  for (char& c : module_name) {
    if (c == '=') c = '_';
  }
  std::string error;
  a64jit::python::Config config;
  bool jit = true;
  if (mode == "nojit") {
    jit = false;
  } else if (mode == "jitlist") {
    config.jitlist = {module_name + ":*"};
    config.threshold = 0;
  } else {
    config.threshold = std::atoll(mode.substr(mode.find('=') + 1).c_str());
  }
  const a64jit::python::Stats before = a64jit::python::GetStats();
  if (jit && !a64jit::python::Enable(config)) {
    state.SkipWithError(("cannot enable the JIT: " + a64jit::python::TakePythonError()).c_str());
    return;
  }
  PyObject* module = LoadRichards(module_name, &error);
  PyObject* run = module != nullptr ? PyObject_GetAttrString(module, "run") : nullptr;
  if (run == nullptr) {
    if (error.empty()) error = a64jit::python::TakePythonError();
    state.SkipWithError(error.c_str());
    Py_XDECREF(module);
    a64jit::python::Disable();
    return;
  }
  if (!RunOnce(run, &error)) state.SkipWithError(("warm-up: " + error).c_str());
  int64_t iterations = 0;
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    if (!RunOnce(run, &error)) {
      state.SkipWithError(error.c_str());
      break;
    }
    iterations++;
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  a64jit::python::Disable();
  Py_DECREF(run);
  Py_DECREF(module);

  ModeResult result;
  result.ms_per_iteration = iterations > 0 ? 1000.0 * seconds / iterations : 0;
  for (const auto& [name, size] : a64jit::python::CompiledFunctionSizes()) {
    // Google Benchmark may run this function more than once (it sizes the iteration
    // count); each run loads a fresh copy, so a name can appear more than once.
    if (name.rfind(module_name + ":", 0) == 0)
      result.sizes[name.substr(module_name.size() + 1)] = size;
  }
  result.compiled = static_cast<int64_t>(result.sizes.size());
  state.counters["compiled"] = static_cast<double>(result.compiled);
  const a64jit::python::Stats stats = a64jit::python::GetStats();
  result.compiled_all = stats.compiled - before.compiled;
  result.reached = result.compiled_all + stats.failed - before.failed;
  result.compiled_entries = stats.entries - before.entries;
  result.entries = result.compiled_entries + stats.interpreted_entries - before.interpreted_entries;
  const bool emulated = stats.exec_mode == "unicorn";
  if (jit && !emulated && g_results.count("nojit") && result.ms_per_iteration > 0) {
    state.counters["speedup"] = g_results["nojit"].ms_per_iteration / result.ms_per_iteration;
  }
  if (!g_results.count(mode)) g_order.push_back(mode);
  g_results[mode] = result;
}

void PrintTable() {
  const a64jit::python::Stats stats = a64jit::python::GetStats();
  const bool emulated = stats.exec_mode == "unicorn";
  std::fprintf(stderr, "\nrichards: execution mode %s%s\n",
               stats.exec_mode.empty() ? "none (the JIT never ran)" : stats.exec_mode.c_str(),
               emulated ? " (x86-64 host): JIT times below are emulation cost, not aarch64 "
                          "speed; no speed-up is reported. For speed: bazel run "
                          "--config=aarch64 //benchmarks:richards"
                        : " (aarch64)");
  std::fprintf(stderr, "%-16s %14s %10s %9s %22s %26s\n", "mode", "ms/iteration", "speed-up",
               "compiled", "compiled/reached", "compiled entries");
  const double base = g_results.count("nojit") ? g_results["nojit"].ms_per_iteration : 0;
  for (const std::string& mode : g_order) {
    const ModeResult& r = g_results[mode];
    std::string speedup = "-";
    if (mode != "nojit" && base > 0 && r.ms_per_iteration > 0) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.2fx", base / r.ms_per_iteration);
      speedup = emulated ? "n/a" : buf;
    }
    std::fprintf(stderr, "%-16s %14.2f %10s %9lld %22s %26s\n", mode.c_str(), r.ms_per_iteration,
                 speedup.c_str(), static_cast<long long>(r.compiled),
                 Share(r.compiled_all, r.reached).c_str(),
                 Share(r.compiled_entries, r.entries).c_str());
  }
  for (const std::string& mode : g_order) {
    const ModeResult& r = g_results[mode];
    if (r.sizes.empty()) continue;
    std::fprintf(stderr, "\ncode size per function (%s):\n", mode.c_str());
    int64_t total = 0;
    for (const auto& [name, size] : r.sizes) {
      std::fprintf(stderr, "  %-36s %7lld B\n", name.c_str(), static_cast<long long>(size));
      total += size;
    }
    std::fprintf(stderr, "  %-36s %7lld B\n", "total", static_cast<long long>(total));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (const char* s = std::getenv("RICHARDS_PY")) g_source = s;
  const char* n = std::getenv("A64JIT_AUTOJIT");
  const std::string autojit = std::string("autojit=") + (n != nullptr ? n : "100");
  Py_InitializeEx(0);
  benchmark::RegisterBenchmark("richards/nojit", BM_Richards, std::string("nojit"))
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("richards/jitlist", BM_Richards, std::string("jitlist"))
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("richards/" + autojit).c_str(), BM_Richards, autojit)
      ->Unit(benchmark::kMillisecond);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  PrintTable();
  return 0;
}
