// The `a64jit` Python module: built into a64jit-run and as an extension module for Debian's
// /usr/bin/python3.11. Importing it with A64JIT_THRESHOLD or A64JIT_JITLIST set enables the
// JIT; A64JIT_STATS_FILE names a file that gets the statistics as JSON at exit.
#include "jit/python/module.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "jit/python/code_listing.h"
#include "jit/python/deopt_stats.h"
#include "jit/python/early_frames.h"
#include "jit/python/jit.h"
#include "jit/python/loop_entry.h"

namespace a64jit::python {

namespace {

// enable()'s count arguments: None leaves `out` as it is; false with an exception set for
// anything but an int >= 0.
bool NonNegativeArgument(PyObject* value, const char* name, int64_t* out) {
  if (value == Py_None) return true;
  const long long v = PyLong_AsLongLong(value);
  if (v == -1 && PyErr_Occurred()) return false;
  if (v < 0) {
    PyErr_Format(PyExc_ValueError, "a64jit: %s must be an int >= 0", name);
    return false;
  }
  *out = v;
  return true;
}

// A threshold argument: a count, or "auto" for the tiering policy (Config::kAutoThreshold).
bool ThresholdArgument(PyObject* value, int64_t* out) {
  if (value == Py_None) {
    PyErr_SetString(PyExc_TypeError, "a64jit: threshold must be an int >= 0 or 'auto'");
    return false;
  }
  if (PyUnicode_Check(value) && PyUnicode_CompareWithASCIIString(value, "auto") == 0) {
    *out = Config::kAutoThreshold;
    return true;
  }
  if (PyUnicode_Check(value)) {
    PyErr_SetString(PyExc_ValueError, "a64jit: threshold must be an int >= 0 or 'auto'");
    return false;
  }
  return NonNegativeArgument(value, "threshold", out);
}

PyObject* PyEnable(PyObject*, PyObject* args, PyObject* kwargs) {
  static const char* kKeywords[] = {"threshold", "jitlist", "hot_loop_us", nullptr};
  PyObject* threshold = Py_None;
  PyObject* jitlist = Py_None;
  PyObject* hot_loop_us = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|OOO:enable", const_cast<char**>(kKeywords),
                                   &threshold, &jitlist, &hot_loop_us)) {
    return nullptr;
  }
  Config config;
  try {
    config = ConfigFromEnvironment().config;
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_ValueError, "a64jit: %s", e.what());
    return nullptr;
  }
  // A program that switches the JIT on itself has started already: the hook goes in at once.
  config.start_delay_ms = 0;
  int64_t threshold_value = Config::kAutoThreshold;
  if ((threshold != Py_None && !ThresholdArgument(threshold, &threshold_value)) ||
      !NonNegativeArgument(hot_loop_us, "hot_loop_us", &config.hot_loop_us)) {
    return nullptr;
  }
  if (threshold != Py_None) config.threshold = threshold_value;
  if (jitlist != Py_None) {
    PyObject* seq = PySequence_Fast(jitlist, "a64jit.enable: jitlist must be a sequence");
    if (seq == nullptr) return nullptr;
    config.jitlist.clear();
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(seq); i++) {
      const char* s = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(seq, i));
      if (s == nullptr) {
        Py_DECREF(seq);
        return nullptr;
      }
      config.jitlist.push_back(s);
    }
    Py_DECREF(seq);
  }
  if (!Enable(config)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* PyDisable(PyObject*, PyObject*) {
  Disable();
  Py_RETURN_NONE;
}

PyObject* PyForceCompile(PyObject*, PyObject* func) {
  const bool ok = ForceCompile(func);
  if (PyErr_Occurred()) return nullptr;
  return PyBool_FromLong(ok);
}

PyObject* PyIsJitCompiled(PyObject*, PyObject* func) {
  if (!PyFunction_Check(func)) Py_RETURN_FALSE;
  return PyBool_FromLong(IsCompiled(func));
}

// A count the call must give (None is an error, where enable()'s arguments leave it as is).
bool RequiredCount(PyObject* value, const char* name, int64_t* out) {
  if (value == Py_None) {
    PyErr_Format(PyExc_TypeError, "a64jit: %s must be an int >= 0", name);
    return false;
  }
  return NonNegativeArgument(value, name, out);
}

PyObject* PySuppress(PyObject*, PyObject* func) {
  if (!Suppress(func)) return nullptr;
  Py_RETURN_NONE;
}

PyObject* PyIsEnabled(PyObject*, PyObject*) { return PyBool_FromLong(IsEnabled()); }

PyObject* PyGetThreshold(PyObject*, PyObject*) {
  const int64_t t = Threshold();
  return t == Config::kAutoThreshold ? PyUnicode_FromString("auto") : PyLong_FromLongLong(t);
}

PyObject* PySetThreshold(PyObject*, PyObject* value) {
  int64_t calls = 0;
  if (!ThresholdArgument(value, &calls)) return nullptr;
  SetThreshold(calls);
  Py_RETURN_NONE;
}

PyObject* PyGetJitList(PyObject*, PyObject*) {
  const std::vector<std::string> list = JitList();
  PyObject* out = PyList_New(static_cast<Py_ssize_t>(list.size()));
  if (out == nullptr) return nullptr;
  for (size_t i = 0; i < list.size(); i++) {
    PyObject* s = PyUnicode_FromString(list[i].c_str());
    if (s == nullptr) {
      Py_DECREF(out);
      return nullptr;
    }
    PyList_SET_ITEM(out, static_cast<Py_ssize_t>(i), s);
  }
  return out;
}

PyObject* PyAppendJitList(PyObject*, PyObject* pattern) {
  const char* p = PyUnicode_AsUTF8(pattern);
  if (p == nullptr) return nullptr;
  if (std::strchr(p, ':') == nullptr) {
    PyErr_Format(PyExc_ValueError, "a64jit: a JIT list entry is 'module:qualname', not '%s'", p);
    return nullptr;
  }
  AppendJitList(p);
  Py_RETURN_NONE;
}

PyObject* PySetMaxCodeSize(PyObject*, PyObject* value) {
  int64_t bytes = 0;
  if (!RequiredCount(value, "max_code_size", &bytes)) return nullptr;
  SetMaxCodeSize(static_cast<uint64_t>(bytes));
  Py_RETURN_NONE;
}

PyObject* PyGetCompiledFunctions(PyObject*, PyObject*) {
  const auto names = CompiledFunctions();
  PyObject* list = PyList_New(0);
  if (list == nullptr) return nullptr;
  for (const std::string& n : names) {
    PyObject* s = PyUnicode_FromString(n.c_str());
    if (s == nullptr || PyList_Append(list, s) < 0) {
      Py_XDECREF(s);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(s);
  }
  return list;
}

PyObject* PyGetCompiledSize(PyObject*, PyObject* func) {
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "a64jit.get_compiled_size: expected a Python function");
    return nullptr;
  }
  return PyLong_FromLongLong(CompiledSize(func));
}

PyObject* PyGetCodeAddress(PyObject*, PyObject* func) {
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "a64jit.get_code_address: expected a Python function");
    return nullptr;
  }
  return PyLong_FromUnsignedLongLong(CompiledAddress(func));
}

PyObject* PyGetCompilationTime(PyObject*, PyObject* func) {
  if (!PyFunction_Check(func)) {
    PyErr_SetString(PyExc_TypeError, "a64jit.get_compilation_time: expected a Python function");
    return nullptr;
  }
  const int64_t ns = CompilationTimeNs(func);
  if (ns < 0) Py_RETURN_NONE;
  return PyFloat_FromDouble(static_cast<double>(ns) / 1e9);
}

PyObject* PyDump(PyObject*, PyObject* args) {
  PyObject* func = nullptr;
  const char* what = "asm";
  if (!PyArg_ParseTuple(args, "O|s:dump", &func, &what)) return nullptr;
  auto text = Dump(func, what);
  if (!text) return nullptr;
  return PyUnicode_FromStringAndSize(text->data(), static_cast<Py_ssize_t>(text->size()));
}

int SetInt(PyObject* d, const char* key, long long v) {
  PyObject* o = PyLong_FromLongLong(v);
  if (o == nullptr) return -1;
  const int rc = PyDict_SetItemString(d, key, o);
  Py_DECREF(o);
  return rc;
}

int SetStr(PyObject* d, const char* key, const std::string& v) {
  PyObject* o = PyUnicode_FromString(v.c_str());
  if (o == nullptr) return -1;
  const int rc = PyDict_SetItemString(d, key, o);
  Py_DECREF(o);
  return rc;
}

PyObject* StringMap(const std::map<std::string, std::string>& m) {
  PyObject* d = PyDict_New();
  if (d == nullptr) return nullptr;
  for (const auto& [k, v] : m) {
    PyObject* o = PyUnicode_FromString(v.c_str());
    if (o == nullptr || PyDict_SetItemString(d, k.c_str(), o) < 0) {
      Py_XDECREF(o);
      Py_DECREF(d);
      return nullptr;
    }
    Py_DECREF(o);
  }
  return d;
}

PyObject* PyStats(PyObject*, PyObject*) {
  const Stats s = GetStats();
  PyObject* d = PyDict_New();
  if (d == nullptr) return nullptr;
  PyObject* failures = StringMap(s.failures);
  PyObject* opcodes = PyDict_New();
  PyObject* handler_opcodes = PyDict_New();
  bool ok = failures != nullptr && opcodes != nullptr && handler_opcodes != nullptr;
  for (const auto& [op, n] : s.unsupported_opcodes) ok = ok && SetInt(opcodes, op.c_str(), n) == 0;
  for (const auto& [op, n] : s.handler_opcodes) {
    ok = ok && SetInt(handler_opcodes, op.c_str(), n) == 0;
  }
  PyObject* mode = PyUnicode_FromString(s.exec_mode.c_str());
  ok = ok && mode != nullptr && SetInt(d, "compiled", s.compiled) == 0 &&
       SetInt(d, "failed", s.failed) == 0 && SetInt(d, "entries", s.entries) == 0 &&
       SetInt(d, "vectorcall_entries", s.vectorcall_entries) == 0 &&
       SetInt(d, "direct_entries", s.direct_entries) == 0 &&
       SetInt(d, "stub_entries", s.stub_entries) == 0 &&
       SetInt(d, "resumed_entries", s.resumed_entries) == 0 &&
       SetInt(d, "stub_resumes", s.stub_resumes) == 0 && SetInt(d, "deopts", s.deopts) == 0 &&
       SetInt(d, "cold_path_exits", s.cold_path_exits) == 0 &&
       SetInt(d, "operator_calls", s.operator_calls) == 0 &&
       SetInt(d, "comparison_calls", s.comparison_calls) == 0 &&
       SetInt(d, "leaf_equalities", s.leaf_equalities) == 0 &&
       SetInt(d, "keyword_entries", s.keyword_entries) == 0 &&
       SetInt(d, "init_entries", s.init_entries) == 0 &&
       SetInt(d, "str_appends_in_place", s.str_appends_in_place) == 0 &&
       SetInt(d, "interpreted_entries", s.interpreted_entries) == 0 &&
       SetInt(d, "interpreted_vectorcalls", s.interpreted_vectorcalls) == 0 &&
       SetInt(d, "interpreted_resumes", s.interpreted_resumes) == 0 &&
       SetInt(d, "async_gen_values", s.async_gen_values) == 0 &&
       SetInt(d, "super_methods", s.super_methods) == 0 && SetInt(d, "bodies", s.bodies) == 0 &&
       SetInt(d, "other_thread_entries", s.other_thread_entries) == 0 &&
       SetInt(d, "breaker_calls", s.breaker_calls) == 0 && SetInt(d, "caught", s.caught) == 0 &&
       SetInt(d, "unwinds", s.unwinds) == 0 &&
       SetInt(d, "handlers_interpreted", s.HandlersInterpreted()) == 0 &&
       SetInt(d, "emulated_instructions", static_cast<long long>(s.guest_instructions)) == 0 &&
       SetInt(d, "host_calls", static_cast<long long>(s.host_calls)) == 0 &&
       SetInt(d, "host_calls_in_hook", static_cast<long long>(s.host_calls_in_hook)) == 0 &&
       SetInt(d, "code_bytes", static_cast<long long>(s.code_bytes)) == 0 &&
       SetInt(d, "compile_us_median", s.compile_us_median) == 0 &&
       SetInt(d, "compile_us_p90", s.compile_us_p90) == 0 &&
       SetInt(d, "feedback_sites", s.feedback_sites) == 0 &&
       SetInt(d, "feedback_functions", s.feedback_functions) == 0 &&
       SetInt(d, "loop_time_qualified", s.loop_time_qualified) == 0 &&
       SetInt(d, "loop_entry_compiles", s.loop_entry_compiles) == 0 &&
       SetInt(d, "loop_traps", s.loop_traps) == 0 &&
       SetInt(d, "loop_traps_refused", s.loop_traps_refused) == 0 &&
       SetInt(d, "loop_entries", s.loop_entries) == 0 &&
       SetInt(d, "early_entries", s.early_entries) == 0 &&
       SetInt(d, "early_entries_refused", s.early_entries_refused) == 0 &&
       SetInt(d, "budget_deferred", s.budget_deferred) == 0 &&
       SetInt(d, "budget_waiting", s.budget_waiting) == 0 &&
       SetInt(d, "start_delay_ms", s.start_delay_ms) == 0 &&
       SetInt(d, "hook_started_ms", s.hook_started_ms) == 0 &&
       SetInt(d, "engine_build_us", s.engine_build_us) == 0 &&
       SetInt(d, "engine_off_gil", s.engine_off_gil) == 0 &&
       SetInt(d, "jit_stacks_made", s.jit_stacks_made) == 0 &&
       SetInt(d, "jit_stacks_reused", s.jit_stacks_reused) == 0 &&
       SetInt(d, "jit_stack_rests_used", s.jit_stack_rests_used) == 0 &&
       SetInt(d, "compile_us_max", s.compile_us_max) == 0 &&
       SetInt(d, "compile_hir_ns", s.compile_hir_ns) == 0 &&
       SetInt(d, "compile_lower_ns", s.compile_lower_ns) == 0 &&
       SetInt(d, "compile_emit_ns", s.compile_emit_ns) == 0 &&
       SetInt(d, "compile_ns_total", s.compile_ns_total) == 0 &&
       SetInt(d, "code_memory_used", static_cast<long long>(s.code_memory_used)) == 0 &&
       SetInt(d, "code_memory_reserved", static_cast<long long>(s.code_memory_reserved)) == 0 &&
       SetInt(d, "max_code_size", static_cast<long long>(s.max_code_size)) == 0 &&
       SetInt(d, "refused_by_code_cap", s.refused_by_code_cap) == 0 &&
       SetStr(d, "perf_map_file", PerfMapPath()) == 0 &&
       SetStr(d, "jitdump_file", JitdumpPath()) == 0 &&
       PyDict_SetItemString(d, "failures", failures) == 0 &&
       PyDict_SetItemString(d, "unsupported_opcodes", opcodes) == 0 &&
       PyDict_SetItemString(d, "handler_opcodes", handler_opcodes) == 0 &&
       PyDict_SetItemString(d, "exec_mode", mode) == 0;
  Py_XDECREF(failures);
  Py_XDECREF(opcodes);
  Py_XDECREF(handler_opcodes);
  Py_XDECREF(mode);
  if (!ok) {
    Py_DECREF(d);
    return nullptr;
  }
  return d;
}

PyObject* DeoptEntryDict(const DeoptEntry& e) {
  PyObject* d = PyDict_New();
  if (d == nullptr) return nullptr;
  PyObject* type = e.type.empty() ? Py_NewRef(Py_None) : PyUnicode_FromString(e.type.c_str());
  const bool ok = type != nullptr && SetStr(d, "function", e.function) == 0 &&
                  SetInt(d, "line", e.line) == 0 && SetInt(d, "offset", e.offset) == 0 &&
                  SetStr(d, "opcode", e.opcode) == 0 && SetStr(d, "reason", e.reason) == 0 &&
                  PyDict_SetItemString(d, "type", type) == 0 &&
                  SetStr(d, "exit", DeoptExitName(e.exit)) == 0 && SetInt(d, "count", e.count) == 0;
  Py_XDECREF(type);
  if (!ok) Py_CLEAR(d);
  return d;
}

PyObject* PyGetDeoptStats(PyObject*, PyObject*) {
  PyObject* list = PyList_New(0);
  if (list == nullptr) return nullptr;
  for (const DeoptEntry& e : DeoptEntries()) {
    PyObject* d = DeoptEntryDict(e);
    if (d == nullptr || PyList_Append(list, d) < 0) {
      Py_XDECREF(d);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(d);
  }
  return list;
}

PyObject* PyClearDeoptStats(PyObject*, PyObject*) {
  ClearDeoptStats();
  Py_RETURN_NONE;
}

// a64jit._enter_loops(): LookAtLoops without the policy's question (loop_entry.h).
PyObject* PyEnterLoops(PyObject*, PyObject*) { return PyBool_FromLong(LookAtLoops(true)); }

PyMethodDef kMethods[] = {
    {"enable", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(PyEnable)),
     METH_VARARGS | METH_KEYWORDS,
     "enable(threshold=None, jitlist=None, hot_loop_us=None): compile functions once they "
     "proved hot within the compile budget (threshold 'auto', the default; 0 with a jitlist "
     "alone), or after `threshold` calls (0: on the first), or, with a loop, once their "
     "interpreted runs took "
     "`hot_loop_us` microseconds (default 1000, 0: never), only those matching a "
     "'module:qualname' pattern of `jitlist`."},
    {"disable", PyDisable, METH_NOARGS, "Stop compiling and running compiled code."},
    {"force_compile", PyForceCompile, METH_O,
     "force_compile(f) -> bool: compile f now; the reason for False is in stats()."},
    {"is_jit_compiled", PyIsJitCompiled, METH_O, "is_jit_compiled(f) -> bool"},
    {"is_enabled", PyIsEnabled, METH_NOARGS, "Whether the JIT is on."},
    {"suppress", PySuppress, METH_O, "suppress(f): never compile f (force_compile too)."},
    {"_enter_loops", PyEnterLoops, METH_NOARGS,
     "_enter_loops() -> bool: for tests, compile the function whose loop runs interpreted "
     "(the innermost timed run) with loop entries now, and trap its loop headers."},
    {"get_threshold", PyGetThreshold, METH_NOARGS,
     "Calls after which a function is compiled (0: on the first), or 'auto'."},
    {"set_threshold", PySetThreshold, METH_O,
     "set_threshold(n): compile functions on their call n + 1 from now on ('auto': the "
     "tiering policy)."},
    {"get_jitlist", PyGetJitList, METH_NOARGS,
     "The JIT list's 'module:qualname' patterns (empty: every function qualifies)."},
    {"append_jitlist", PyAppendJitList, METH_O,
     "append_jitlist(pattern): also compile functions matching it; a function is matched on "
     "its first call with the JIT on, so the list changes only what has not run yet."},
    {"set_max_code_size", PySetMaxCodeSize, METH_O,
     "set_max_code_size(bytes): compile nothing that would take code memory past it (0: no "
     "cap)."},
    {"get_compiled_functions", PyGetCompiledFunctions, METH_NOARGS,
     "The 'module:qualname' of every compiled function."},
    {"get_compiled_size", PyGetCompiledSize, METH_O,
     "get_compiled_size(f) -> bytes of machine code (0: not compiled)."},
    {"get_code_address", PyGetCodeAddress, METH_O,
     "get_code_address(f) -> where f's machine code starts (0: not compiled)."},
    {"get_compilation_time", PyGetCompilationTime, METH_O,
     "get_compilation_time(f) -> seconds compiling f took, None when not compiled."},
    {"dump", PyDump, METH_VARARGS, "dump(f, what='asm'): 'hir', 'lir' or 'asm' text of f."},
    {"get_deopt_stats", PyGetDeoptStats, METH_NOARGS,
     "One dict per site and reason where compiled code gave up, most frequent first: "
     "function, line, offset, opcode, reason, type (the guilty one or None), exit "
     "('interpreter', 'unwound' or 'generic path') and count."},
    {"clear_deopt_stats", PyClearDeoptStats, METH_NOARGS, "Forget get_deopt_stats()' counts."},
    {"stats", PyStats, METH_NOARGS,
     "Counters: compiled, failed (with reasons), entries, deopts, emulated instructions."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef kModule = {
    PyModuleDef_HEAD_INIT,
    "a64jit",
    "An aarch64 JIT for CPython 3.11.",
    -1,
    kMethods,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

// a64jit._early_look_asker: setting any attribute of it asks for a look at early frames
// (AskEarlyLook) and stores nothing. An attribute store because 3.11's STORE_ATTR does not
// test the eval breaker, where a call does right after it: in a loop whose body calls nothing
// else, the frame's next test is the loop's backward jump, where the look can take it.
int AskEarlyLookSetAttr(PyObject*, PyObject*, PyObject*) {
  AskEarlyLook();
  return 0;
}
PyType_Slot kAskerSlots[] = {{Py_tp_setattro, reinterpret_cast<void*>(AskEarlyLookSetAttr)},
                             {0, nullptr}};
PyType_Spec kAskerSpec = {"a64jit.EarlyLookAsker", sizeof(PyObject), 0, Py_TPFLAGS_DEFAULT,
                          kAskerSlots};

// Adds _early_look_asker to `m`; false with an error set.
bool AddEarlyLookAsker(PyObject* m) {
  PyObject* type = PyType_FromSpec(&kAskerSpec);
  PyObject* asker = type != nullptr ? PyObject_CallNoArgs(type) : nullptr;
  Py_XDECREF(type);
  return asker != nullptr && PyModule_AddObject(m, "_early_look_asker", asker) == 0;
}

void WriteStatsFileAtExit() {
  const char* path = std::getenv("A64JIT_STATS_FILE");
  if (path != nullptr && *path != '\0') WriteStatsFile(path);
}

}  // namespace

PyObject* InitModule() {
  PyObject* m = PyModule_Create(&kModule);
  if (m == nullptr) return nullptr;
  if (!AddEarlyLookAsker(m)) {
    Py_DECREF(m);
    return nullptr;
  }
  static bool registered = false;
  if (!registered) {
    registered = true;
    Py_AtExit(WriteStatsFileAtExit);
  }
  EnvConfig env;
  try {
    env = ConfigFromEnvironment();
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_ValueError, "a64jit: %s", e.what());
    Py_DECREF(m);
    return nullptr;
  }
  if (env.any && !IsEnabled() && !Enable(env.config)) {
    Py_DECREF(m);
    return nullptr;
  }
  return m;
}

}  // namespace a64jit::python

// The extension module's entry point (also used by a64jit-run's inittab).
extern "C" PyMODINIT_FUNC PyInit_a64jit() { return a64jit::python::InitModule(); }
