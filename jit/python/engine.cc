// Setting up the JIT's runtime (EnsureRuntime): the engine (engine.h), built here holding the
// GIL or taken from a start delay's waker, which built it without; and the outputs a config
// names (the log, the perf map and jitdump files).
#include "jit/python/engine.h"

#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>

#include "emulation/executors.h"
#include "jit/python/code_listing.h"
#include "jit/python/runtime_state.h"

namespace a64jit::python {

// A new file in Config::dump_dir for `name` (its characters other than letters, digits and
// `._-` written `_`), numbered by the process's dumps; nullptr, logged, if it cannot be made.
FILE* OpenDumpFile(Runtime& r, const std::string& name) {
  std::string file = name;
  for (char& ch : file) {
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '.' && ch != '_' && ch != '-') {
      ch = '_';
    }
  }
  const std::string path = r.config.dump_dir + "/" + file + "." + std::to_string(getpid()) + "." +
                           std::to_string(++r.dumps_written) + ".txt";
  FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) Log("cannot write dump " + path);
  return out;
}

namespace {

// The waker's engine: the inputs it is to build from, and what it built. The mutex is held for
// the whole build, so that TakePreparedEngine, holding the GIL, waits for a build in progress
// (which never needs the GIL) rather than starting a second one.
struct Prepared {
  std::mutex mu;
  std::unique_ptr<EngineInputs> inputs;
  std::unique_ptr<Engine> engine;
};
Prepared& g_prepared = *new Prepared();

void WriteStubDump(Runtime& r, const std::string& name, const std::string& text) {
  FILE* out = OpenDumpFile(r, name);
  if (out == nullptr) return;
  std::fputs(text.c_str(), out);
  std::fclose(out);
}

// Starts the perf map and jitdump files as `config` asks, with the code listed so far.
bool StartNativeTools(const Config& config) {
  try {
    ConfigureNativeTools(NativeToolsConfig{config.perf_map, config.jitdump_dir});
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_OSError, "a64jit: %s", e.what());
    return false;
  }
  return true;
}

}  // namespace

void SetEngineToPrepare(const EngineInputs& inputs) {
  std::lock_guard<std::mutex> lock(g_prepared.mu);
  if (g_prepared.engine != nullptr && g_prepared.engine->inputs == inputs) return;  // built
  g_prepared.inputs = std::make_unique<EngineInputs>(inputs);
  g_prepared.engine.reset();
}

void PrepareEngine(bool (*go_on)(void*), void* context) {
  std::lock_guard<std::mutex> lock(g_prepared.mu);
  if (g_prepared.inputs == nullptr || g_prepared.engine != nullptr) return;
  try {
    g_prepared.engine = std::make_unique<Engine>(BuildEngine(*g_prepared.inputs, go_on, context));
    g_prepared.engine->off_gil = true;
  } catch (const BuildCancelled&) {
    // The waker was cancelled (a disable, a fork, the exit): a later start builds anew.
  } catch (const std::exception&) {
    // EnsureEngine builds again holding the GIL, and reports the error as a Python one.
  }
}

std::unique_ptr<Engine> TakePreparedEngine(const EngineInputs& want) {
  std::lock_guard<std::mutex> lock(g_prepared.mu);
  std::unique_ptr<Engine> engine = std::move(g_prepared.engine);
  g_prepared.inputs.reset();
  if (engine != nullptr && !(engine->inputs == want)) engine.reset();
  return engine;
}

void AdoptEngine(Runtime& r, Engine e) {
  r.executor = std::move(e.executor);
  r.call_stub = e.call_stub;
  r.kw_call_stub = e.kw_call_stub;
  r.send_stub = e.send_stub;
  r.site_stubs = std::move(e.site_stubs);
  r.entry_table = std::move(e.entry_table);
  r.release_stubs = e.release_stubs;
  r.into_local_stub = e.into_local_stub;
  r.level_bytes = e.level_bytes;
  r.stats.engine_build_us = e.build_us;
  r.stats.engine_off_gil = e.off_gil ? 1 : 0;
  for (const Engine::Code& c : e.code) {
    if (c.announce) {
      AnnounceCode(r, c.name, c.start, c.size, c.frameless);
    } else {
      ListCode(c.name, c.start, c.size);
    }
  }
  for (const auto& [name, text] : e.dumps) WriteStubDump(r, name, text);
}

bool EnsureEngine(const Config& config) {
  Runtime& r = TheRuntime();
  try {
    if (r.extra_index < 0) {
      r.extra_index = _PyEval_RequestCodeExtraIndex(FreeCodeState);
      if (r.extra_index < 0) {
        PyErr_SetString(PyExc_RuntimeError, "a64jit: no code extra index left");
        return false;
      }
    }
    r.config.dump_dir = config.dump_dir;  // functions compiled later are dumped there too
    const EngineInputs inputs = EngineInputsFor(config);
    if (r.executor != nullptr && r.executor->mode() == inputs.mode) return true;
    if (r.executor != nullptr && !r.compiled.empty()) {
      PyErr_SetString(PyExc_RuntimeError,
                      "a64jit: cannot change the execution mode after compiling");
      return false;
    }
    std::unique_ptr<Engine> prepared = TakePreparedEngine(inputs);
    AdoptEngine(r, prepared != nullptr ? std::move(*prepared) : BuildEngine(inputs));
  } catch (const std::exception& e) {
    PyErr_Format(PyExc_RuntimeError, "a64jit: %s", e.what());
    return false;
  }
  return true;
}

bool OpenOutputs(const Config& config) {
  Runtime& r = TheRuntime();
  const runtime::ExecMode mode = config.exec_mode.value_or(emu::HostExecMode());
  r.stats.exec_mode = runtime::ExecModeName(mode);
  r.direct_calls = mode == runtime::ExecMode::kNative && !config.checked_native;
  if (r.log != nullptr && r.log != stderr) std::fclose(r.log);
  r.log = nullptr;
  if (config.log == "stderr" || config.log == "1") {
    r.log = stderr;
  } else if (!config.log.empty()) {
    r.log = std::fopen(config.log.c_str(), "a");
    if (r.log == nullptr) {
      PyErr_Format(PyExc_OSError, "a64jit: cannot open log file %s", config.log.c_str());
      return false;
    }
  }
  return StartNativeTools(config);
}

bool EnsureRuntime(const Config& config) { return EnsureEngine(config) && OpenOutputs(config); }

}  // namespace a64jit::python
