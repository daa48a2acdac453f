// The engine: the executor and the shared guest stubs in its code memory (the call, send and
// site stubs compiled from their LIR; the release and into-local stubs placed as bytes).
//
// Building it is the costly part of the JIT's start: under QEMU about 35 ms, most of it
// translating the compiler's own code. Nothing in it needs the GIL, so with a start delay the
// waker thread builds it before it asks for the GIL (PrepareEngine), while the program runs on,
// and the thread that then holds the GIL only adopts it into the Runtime (AdoptEngine): the
// Runtime's fields, the code listings, the debugger interface and the dump files are written
// there and only there. Without a prepared engine, EnsureEngine builds one holding the GIL.
#ifndef A64JIT_JIT_PYTHON_ENGINE_H_
#define A64JIT_JIT_PYTHON_ENGINE_H_

#include <Python.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "jit/python/jit.h"
#include "jit/runtime/executor.h"
#include "jit/runtime/stub_entries.h"

namespace a64jit::python {

struct Runtime;

// What an engine is built from, taken holding the GIL; no Python object is read through it.
struct EngineInputs {
  runtime::ExecMode mode = runtime::ExecMode::kNative;
  std::string dump_dir;                  // the stubs' dumps, when not empty
  PyInterpreterState* interp = nullptr;  // its eval breaker's address goes into the call stub
  size_t stack_mib = 0;                  // the executor's stack under Unicorn
  bool call_stub = true, send_stub = true, site_stubs = true, release_stubs = true;  // A64JIT_NO_*
  bool operator==(const EngineInputs& o) const {
    return mode == o.mode && dump_dir == o.dump_dir && interp == o.interp &&
           stack_mib == o.stack_mib && call_stub == o.call_stub && send_stub == o.send_stub &&
           site_stubs == o.site_stubs && release_stubs == o.release_stubs;
  }
};

// A built engine, not yet the Runtime's.
struct Engine {
  EngineInputs inputs;
  std::unique_ptr<runtime::Executor> executor;
  uint64_t call_stub = 0, kw_call_stub = 0, send_stub = 0, release_stubs = 0, into_local_stub = 0;
  std::map<std::string, uint64_t> site_stubs;
  runtime::StubEntryTable entry_table;
  uint64_t level_bytes = 0;  // Runtime::level_bytes
  // Code to list (perf map, jitdump) and, when `announce`, to tell a debugger of: in order.
  struct Code {
    std::string name;
    const uint8_t* start;
    size_t size;
    bool announce;
    bool frameless;
  };
  std::vector<Code> code;
  std::vector<std::pair<std::string, std::string>> dumps;  // name, text
  int64_t build_us = 0;                                    // how long BuildEngine took
  bool off_gil = false;                                    // built by PrepareEngine
};

// The inputs `config` gives, holding the GIL (the environment's A64JIT_NO_* switches too).
EngineInputs EngineInputsFor(const Config& config);
// Builds an engine; throws std::exception when it cannot. Needs no GIL. `go_on`, when given, is
// asked between the stubs: false stops the build (BuildCancelled), so that a process that
// exits while its waker builds waits for one stub at most, not for the whole engine.
struct BuildCancelled {};
Engine BuildEngine(const EngineInputs& inputs, bool (*go_on)(void*) = nullptr,
                   void* context = nullptr);
// Makes `engine` the Runtime's, holding the GIL: its stubs, code listings and dumps.
void AdoptEngine(Runtime& r, Engine engine);

// With a start delay: the inputs the waker is to build from (holding the GIL, before the
// waker starts), and the waker's build (without the GIL; failures are left to EnsureEngine,
// which builds again and reports them). TakePreparedEngine waits for a build in progress and
// returns it if it was made from `want`.
void SetEngineToPrepare(const EngineInputs& inputs);
void PrepareEngine(bool (*go_on)(void*), void* context);
std::unique_ptr<Engine> TakePreparedEngine(const EngineInputs& want);

}  // namespace a64jit::python

#endif  // A64JIT_JIT_PYTHON_ENGINE_H_
