// Setting up the JIT's runtime (EnsureRuntime): the executor, the shared guest stubs and the
// native tools. The stubs are the call, send and site stubs, compiled from their LIR, and
// the hand-written release and into-local stubs, placed as bytes, all in the executor's code
// memory once per runtime.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "emulation/executors.h"
#include "jit/codegen/disassembly.h"
#include "jit/codegen/into_local_stub.h"
#include "jit/codegen/release_stubs.h"
#include "jit/compiler.h"
#include "jit/lir/text.h"
#include "jit/lower/call_stub.h"
#include "jit/lower/send_stub.h"
#include "jit/lower/site_stubs.h"
#include "jit/python/code_info.h"
#include "jit/python/code_listing.h"
#include "jit/python/helpers.h"
#include "jit/python/instantiate.h"
#include "jit/python/interp_state.h"
#include "jit/python/jit_stack.h"
#include "jit/python/runtime_state.h"
#include "jit/runtime/helpers.h"

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

// A stub's dump (its LIR and disassembly, entry words included), as WriteDump's for a
// function: census.py and qemu_profile readers find the stubs' instructions there.
void WriteStubDump(Runtime& r, const std::string& name, const std::string& text) {
  FILE* out = OpenDumpFile(r, name);
  if (out == nullptr) return;
  std::fprintf(out, "function: %s\n", name.c_str());
  std::fputs(text.c_str(), out);
  std::fclose(out);
}

// Compiles a guest stub, which calls only helpers, into the executor's code memory, after the
// words of its extra entries' `moves` (runtime/stub_entries.h); returns its entry. Dumped to
// Config::dump_dir when there is one.
uint64_t CompileStub(Runtime& r, const lir::Function& stub, const std::string& name,
                     const std::vector<runtime::EntryMove>& moves, int64_t* frame_size = nullptr) {
  codegen::CompileOptions options;
  options.resolve = ResolveHelper;
  options.entry_moves = moves;
  const codegen::LoadedFunction loaded =
      codegen::CompileInto(*r.executor, [&](std::optional<uint64_t> base) {
        options.base_address = base;
        return compiler::EmitCode(stub, options);
      });
  const uint32_t prefix = loaded.code.entry_offset;
  if (!r.config.dump_dir.empty()) {
    WriteStubDump(r, name,
                  "=== lir ===\n" + lir::Print(stub) + "=== asm ===\n" +
                      codegen::Disassemble(loaded.code, reinterpret_cast<uintptr_t>(loaded.entry)));
  }
  if (prefix > 0) ListCode(name + ":entries", loaded.entry, prefix);
  const uint8_t* entry = loaded.entry + prefix;
  AnnounceCode(r, name, entry, loaded.code.bytes.size() - prefix, loaded.code.stats.frameless);
  if (!moves.empty()) r.entry_table[reinterpret_cast<uintptr_t>(entry)] = moves;
  if (frame_size != nullptr) *frame_size = loaded.code.stats.frame_size;
  return reinterpret_cast<uintptr_t>(entry);
}

// The offset, in a CodeState, of its stub view's word `field` (what the guest stubs read).
template <typename T>
int64_t StubViewOffset(T StubView::*field) {
  static const CodeState probe;
  return static_cast<int64_t>(reinterpret_cast<const char*>(&(probe.stub.*field)) -
                              reinterpret_cast<const char*>(&probe));
}

// A level of a chain of direct calls (jit_stack.h) holds a stub's frame, its frame record and
// the callee's: the larger stub's frame counts.
void CountStubFrame(Runtime& r, int64_t stub_frame) {
  r.level_bytes = std::max(r.level_bytes, static_cast<uint64_t>(kMaxDirectFrame + stub_frame + 16));
}

}  // namespace

// Compiles the guest call stub (jit/lower/call_stub.h) into the executor's code memory.
uint64_t CompileCallStub(Runtime& r) {
  lower::CallStubFacts facts;
  facts.function_type = reinterpret_cast<uintptr_t>(&PyFunction_Type);
  facts.method_type = reinterpret_cast<uintptr_t>(&PyMethod_Type);
  facts.cfunction_type = reinterpret_cast<uintptr_t>(&PyCFunction_Type);
  facts.jit_vectorcall = reinterpret_cast<uintptr_t>(&JitVectorcall);
  facts.state_cache = reinterpret_cast<uintptr_t>(&g_state_cache[0]);
  facts.state_cache_mask = kStateCacheSize - 1;
  facts.state_entry = StubViewOffset(&StubView::entry);
  facts.state_plain_argcount = StubViewOffset(&StubView::plain_argcount);
  facts.state_frame_bytes = StubViewOffset(&StubView::frame_bytes);
  facts.direct_thread_slot = reinterpret_cast<uintptr_t>(&r.stub_thread);
  facts.entry_counter = reinterpret_cast<uintptr_t>(&r.stub_entries);
  facts.eval_breaker = reinterpret_cast<uintptr_t>(EvalBreakerAddress(PyInterpreterState_Get()));
  facts.instantiate_entry = reinterpret_cast<uintptr_t>(&runtime::a64_instantiate);
  int64_t stub_frame = 0;
  const uint64_t entry = CompileStub(r, lower::CallStub(facts), "a64jit:stub:call",
                                     runtime::CallStubMoves(), &stub_frame);
  CountStubFrame(r, stub_frame);
  return entry;
}

// Compiles the send stub (jit/lower/send_stub.h) into the executor's code memory. Its resumes
// are levels of the same chains as the call stub's calls.
uint64_t CompileSendStub(Runtime& r) {
  lower::SendStubFacts facts;
  facts.gen_type = reinterpret_cast<uintptr_t>(&PyGen_Type);
  facts.coro_type = reinterpret_cast<uintptr_t>(&PyCoro_Type);
  facts.py_none = reinterpret_cast<uintptr_t>(Py_None);
  facts.state_cache = reinterpret_cast<uintptr_t>(&g_state_cache[0]);
  facts.state_cache_mask = kStateCacheSize - 1;
  facts.state_entry = StubViewOffset(&StubView::entry);
  facts.state_resumable = StubViewOffset(&StubView::resumable);
  facts.direct_thread_slot = reinterpret_cast<uintptr_t>(&r.stub_thread);
  facts.resume_counter = reinterpret_cast<uintptr_t>(&r.stub_resumes);
  int64_t stub_frame = 0;
  const uint64_t entry =
      CompileStub(r, lower::SendStub(facts), "a64jit:stub:send", {}, &stub_frame);
  CountStubFrame(r, stub_frame);
  return entry;
}

// Places hand-written stubs that call `helper` (the release stubs, codegen/release_stubs.h;
// the into-local stub, codegen/into_local_stub.h) in the executor's code memory. Not announced
// to a debugger: they have no codegen prologue.
uint64_t LoadHandWrittenStubs(Runtime& r, runtime::Helper helper,
                              std::vector<uint8_t> (*make)(uint64_t), const std::string& name) {
  const char* helper_name = runtime::HelperName(helper);
  const std::optional<uint64_t> address = ResolveHelper(helper_name);
  if (!address) throw std::logic_error(std::string(helper_name) + " is not a registered helper");
  const std::vector<uint8_t> bytes = make(*address);
  const uint8_t* at = r.executor->Load(bytes.data(), bytes.size());
  AnnounceCode(r, name, at, bytes.size(), /*frameless=*/true);
  return reinterpret_cast<uintptr_t>(at);
}

// Compiles the site stubs (jit/lower/site_stubs.h) into the executor's code memory, by name.
std::map<std::string, uint64_t> CompileSiteStubs(Runtime& r) {
  std::map<std::string, uint64_t> stubs;
  lower::SiteStubFacts facts;
  facts.module_type = reinterpret_cast<uintptr_t>(&PyModule_Type);
  facts.type_type = reinterpret_cast<uintptr_t>(&PyType_Type);
  for (const lir::Function& f : lower::SiteStubs(facts)) {
    stubs[f.name] = CompileStub(r, f, "a64jit:stub:" + f.name, runtime::SiteStubMoves());
  }
  return stubs;
}

namespace {

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
    const runtime::ExecMode mode = config.exec_mode.value_or(emu::HostExecMode());
    if (r.executor == nullptr || r.executor->mode() != mode) {
      if (r.executor != nullptr && !r.compiled.empty()) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a64jit: cannot change the execution mode after compiling");
        return false;
      }
      // Under Unicorn compiled code runs on the executor's guest stack, which must hold as
      // deep a recursion as the JIT's own stack (jit_stack.h). Natively it runs on the JIT's
      // stack, and the executor's (checked mode) keeps its size.
      runtime::ExecutorOptions options;
      if (mode == runtime::ExecMode::kUnicorn) {
        options.stack_size = JitStackMib() << 20;
        options.max_nesting = 1 << 24;  // the host's room is what jit_stack.h checks
      }
      r.executor = emu::CreateExecutor(mode, options);
      r.call_stub = 0;
      r.send_stub = 0;
      r.level_bytes = 0;
      r.site_stubs.clear();
      r.entry_table.clear();
      r.release_stubs = 0;
      r.into_local_stub = 0;
      // Not announced to a debugger: hand-written, without codegen's prologue.
      ListCode("a64jit:stub:executor_entry", r.executor->entry_stub(),
               r.executor->entry_stub_size());
    }
    RegisterHelpers();
    r.config.dump_dir = config.dump_dir;  // the stubs compiled below are dumped there too
    // A64JIT_NO_CALL_STUB=1: CALLs ask the host helper (for measuring the stub).
    const char* no_stub = std::getenv("A64JIT_NO_CALL_STUB");
    if (r.call_stub == 0 && (no_stub == nullptr || std::strcmp(no_stub, "1") != 0)) {
      r.call_stub = CompileCallStub(r);
    }
    // A64JIT_NO_SEND_STUB=1: SENDs ask the host helper (for measuring the stub).
    const char* no_send_stub = std::getenv("A64JIT_NO_SEND_STUB");
    if (r.send_stub == 0 && (no_send_stub == nullptr || std::strcmp(no_send_stub, "1") != 0)) {
      r.send_stub = CompileSendStub(r);
    }
    // A64JIT_NO_SITE_STUBS=1: every site's guards inline (for measuring the stubs).
    const char* no_site_stubs = std::getenv("A64JIT_NO_SITE_STUBS");
    if (r.site_stubs.empty() &&
        (no_site_stubs == nullptr || std::strcmp(no_site_stubs, "1") != 0)) {
      r.site_stubs = CompileSiteStubs(r);
    }
    // A64JIT_NO_RELEASE_STUBS=1: each dealloc, and each fused float store's generic path,
    // called as lowering wrote it (for measuring).
    const char* no_release = std::getenv("A64JIT_NO_RELEASE_STUBS");
    const bool release_stubs = no_release == nullptr || std::strcmp(no_release, "1") != 0;
    if (r.release_stubs == 0 && release_stubs) {
      r.release_stubs = LoadHandWrittenStubs(r, runtime::Helper::a64_release_by_stub,
                                             codegen::ReleaseStubs, "a64jit:stub:release");
    }
    if (r.into_local_stub == 0 && release_stubs) {
      r.into_local_stub = LoadHandWrittenStubs(r, runtime::Helper::a64_binary_op_by_stub,
                                               codegen::IntoLocalStub, "a64jit:stub:into_local");
    }
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
