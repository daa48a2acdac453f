// Building the engine (engine.h): the executor and the shared guest stubs. The stubs are the
// call, send and site stubs, compiled from their LIR, and the hand-written release and
// into-local stubs, placed as bytes, all in the executor's code memory once per engine. Nothing
// here needs the GIL or writes the Runtime: what is to be listed, announced or dumped is kept
// in the Engine for AdoptEngine.
#include <algorithm>
#include <chrono>
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
#include "jit/python/engine.h"
#include "jit/python/helpers.h"
#include "jit/python/instantiate.h"
#include "jit/python/interp_state.h"
#include "jit/python/jit_stack.h"
#include "jit/python/runtime_state.h"
#include "jit/runtime/helpers.h"

namespace a64jit::python {

namespace {

// Compiles a guest stub, which calls only helpers, into the engine's code memory, after the
// words of its extra entries' `moves` (runtime/stub_entries.h); returns its entry. Its dump
// (its LIR and disassembly, entry words included, as WriteDump's for a function: census.py
// and qemu_profile readers find the stubs' instructions there) is kept when the inputs name a
// dump directory.
uint64_t CompileStub(Engine& e, const lir::Function& stub, const std::string& name,
                     const std::vector<runtime::EntryMove>& moves, int64_t* frame_size = nullptr) {
  codegen::CompileOptions options;
  options.resolve = ResolveHelper;
  options.entry_moves = moves;
  const codegen::LoadedFunction loaded =
      codegen::CompileInto(*e.executor, [&](std::optional<uint64_t> base) {
        options.base_address = base;
        return compiler::EmitCode(stub, options);
      });
  const uint32_t prefix = loaded.code.entry_offset;
  if (!e.inputs.dump_dir.empty()) {
    e.dumps.emplace_back(
        name, "function: " + name + "\n=== lir ===\n" + lir::Print(stub) + "=== asm ===\n" +
                  codegen::Disassemble(loaded.code, reinterpret_cast<uintptr_t>(loaded.entry)));
  }
  if (prefix > 0) e.code.push_back({name + ":entries", loaded.entry, prefix, false, true});
  const uint8_t* entry = loaded.entry + prefix;
  e.code.push_back(
      {name, entry, loaded.code.bytes.size() - prefix, true, loaded.code.stats.frameless});
  if (!moves.empty()) e.entry_table[reinterpret_cast<uintptr_t>(entry)] = moves;
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
void CountStubFrame(Engine& e, int64_t stub_frame) {
  e.level_bytes = std::max(e.level_bytes, static_cast<uint64_t>(kMaxDirectFrame + stub_frame + 16));
}

// The guest call stub (jit/lower/call_stub.h). The Runtime's words it reads and counts in are
// at fixed addresses: the Runtime is never destroyed.
uint64_t CompileCallStub(Engine& e) {
  Runtime& r = TheRuntime();
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
  facts.eval_breaker = reinterpret_cast<uintptr_t>(EvalBreakerAddress(e.inputs.interp));
  facts.instantiate_entry = reinterpret_cast<uintptr_t>(&runtime::a64_instantiate);
  int64_t stub_frame = 0;
  const uint64_t entry = CompileStub(e, lower::CallStub(facts), "a64jit:stub:call",
                                     runtime::CallStubMoves(), &stub_frame);
  CountStubFrame(e, stub_frame);
  return entry;
}

// The keyword-call stub (jit/lower/call_stub.h). Its calls are levels of the same chains as the
// call stub's.
uint64_t CompileKeywordCallStub(Engine& e) {
  int64_t stub_frame = 0;
  const uint64_t entry =
      CompileStub(e, lower::KeywordCallStub(), "a64jit:stub:kw_call", {}, &stub_frame);
  CountStubFrame(e, stub_frame);
  return entry;
}

// The send stub (jit/lower/send_stub.h). Its resumes are levels of the same chains as the call
// stub's calls.
uint64_t CompileSendStub(Engine& e) {
  Runtime& r = TheRuntime();
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
      CompileStub(e, lower::SendStub(facts), "a64jit:stub:send", {}, &stub_frame);
  CountStubFrame(e, stub_frame);
  return entry;
}

// Places hand-written stubs that call `helper` (the release stubs, codegen/release_stubs.h;
// the into-local stub, codegen/into_local_stub.h) in the engine's code memory. Listed, not
// announced to a debugger: they have no codegen prologue.
uint64_t LoadHandWrittenStubs(Engine& e, runtime::Helper helper,
                              std::vector<uint8_t> (*make)(uint64_t), const std::string& name) {
  const char* helper_name = runtime::HelperName(helper);
  const std::optional<uint64_t> address = ResolveHelper(helper_name);
  if (!address) throw std::logic_error(std::string(helper_name) + " is not a registered helper");
  const std::vector<uint8_t> bytes = make(*address);
  const uint8_t* at = e.executor->Load(bytes.data(), bytes.size());
  e.code.push_back({name, at, bytes.size(), true, /*frameless=*/true});
  return reinterpret_cast<uintptr_t>(at);
}

// Whether the switch `name` (A64JIT_NO_CALL_STUB and its kin, for measuring a stub) is off.
bool NotSwitchedOff(const char* name) {
  const char* v = std::getenv(name);
  return v == nullptr || std::strcmp(v, "1") != 0;
}

}  // namespace

EngineInputs EngineInputsFor(const Config& config) {
  EngineInputs in;
  in.mode = config.exec_mode.value_or(emu::HostExecMode());
  in.dump_dir = config.dump_dir;
  in.interp = PyInterpreterState_Get();
  in.stack_mib = JitStackMib();
  in.call_stub = NotSwitchedOff("A64JIT_NO_CALL_STUB");    // CALLs ask the host helper
  in.send_stub = NotSwitchedOff("A64JIT_NO_SEND_STUB");    // SENDs ask the host helper
  in.site_stubs = NotSwitchedOff("A64JIT_NO_SITE_STUBS");  // every site's guards inline
  // Each dealloc, and each fused float store's generic path, called as lowering wrote it.
  in.release_stubs = NotSwitchedOff("A64JIT_NO_RELEASE_STUBS");
  return in;
}

Engine BuildEngine(const EngineInputs& in, bool (*go_on)(void*), void* context) {
  const auto start = std::chrono::steady_clock::now();
  const auto check = [&] {
    if (go_on != nullptr && !go_on(context)) throw BuildCancelled{};
  };
  RegisterHelpers();  // once (a process that ends within the delay never does); stubs name them
  Engine e;
  e.inputs = in;
  // Under Unicorn compiled code runs on the executor's guest stack, which must hold as deep a
  // recursion as the JIT's own stack (jit_stack.h). Natively it runs on the JIT's stack, and
  // the executor's (checked mode) keeps its size.
  runtime::ExecutorOptions options;
  if (in.mode == runtime::ExecMode::kUnicorn) {
    options.stack_size = in.stack_mib << 20;
    options.max_nesting = 1 << 24;  // the host's room is what jit_stack.h checks
  }
  e.executor = emu::CreateExecutor(in.mode, options);
  // Listed, not announced to a debugger: hand-written, without codegen's prologue.
  e.code.push_back({"a64jit:stub:executor_entry", e.executor->entry_stub(),
                    e.executor->entry_stub_size(), false, true});
  check();
  if (in.call_stub) e.call_stub = CompileCallStub(e);
  check();
  if (in.call_stub) e.kw_call_stub = CompileKeywordCallStub(e);
  check();
  if (in.send_stub) e.send_stub = CompileSendStub(e);
  check();
  if (in.site_stubs) {
    lower::SiteStubFacts facts;
    facts.module_type = reinterpret_cast<uintptr_t>(&PyModule_Type);
    facts.type_type = reinterpret_cast<uintptr_t>(&PyType_Type);
    facts.str_type = reinterpret_cast<uintptr_t>(&PyUnicode_Type);
    facts.list_type = reinterpret_cast<uintptr_t>(&PyList_Type);
    facts.dict_type = reinterpret_cast<uintptr_t>(&PyDict_Type);
    facts.tuple_type = reinterpret_cast<uintptr_t>(&PyTuple_Type);
    facts.long_type = reinterpret_cast<uintptr_t>(&PyLong_Type);
    for (const lir::Function& f : lower::SiteStubs(facts)) {
      e.site_stubs[f.name] = CompileStub(e, f, "a64jit:stub:" + f.name, runtime::SiteStubMoves());
      check();
    }
  }
  if (in.release_stubs) {
    e.release_stubs = LoadHandWrittenStubs(e, runtime::Helper::a64_release_by_stub,
                                           codegen::ReleaseStubs, "a64jit:stub:release");
    e.into_local_stub = LoadHandWrittenStubs(e, runtime::Helper::a64_binary_op_by_stub,
                                             codegen::IntoLocalStub, "a64jit:stub:into_local");
  }
  e.build_us = std::chrono::duration_cast<std::chrono::microseconds>(
                   std::chrono::steady_clock::now() - start)
                   .count();
  return e;
}

}  // namespace a64jit::python
