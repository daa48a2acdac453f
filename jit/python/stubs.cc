// The shared guest stubs: the call stub and the site stubs, compiled from their LIR, and the
// hand-written release and into-local stubs, placed as bytes, all in the executor's code
// memory once per runtime (EnsureRuntime, jit.cc).
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/codegen/disassembly.h"
#include "jit/compiler.h"
#include "jit/lir/text.h"
#include "jit/lower/call_stub.h"
#include "jit/lower/site_stubs.h"
#include "jit/python/code_listing.h"
#include "jit/python/helpers.h"
#include "jit/python/interp_state.h"
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
                     const std::vector<runtime::EntryMove>& moves) {
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
  return reinterpret_cast<uintptr_t>(entry);
}

}  // namespace

// Compiles the guest call stub (jit/lower/call_stub.h) into the executor's code memory.
uint64_t CompileCallStub(Runtime& r) {
  static const CodeState probe;
  lower::CallStubFacts facts;
  facts.function_type = reinterpret_cast<uintptr_t>(&PyFunction_Type);
  facts.cfunction_type = reinterpret_cast<uintptr_t>(&PyCFunction_Type);
  facts.jit_vectorcall = reinterpret_cast<uintptr_t>(&JitVectorcall);
  facts.state_cache = reinterpret_cast<uintptr_t>(&g_state_cache[0]);
  facts.state_cache_mask = kStateCacheSize - 1;
  const auto offset = [](const void* field) {
    return static_cast<int64_t>(static_cast<const char*>(field) -
                                reinterpret_cast<const char*>(&probe));
  };
  facts.state_entry = offset(&probe.stub.entry);
  facts.state_plain_argcount = offset(&probe.stub.plain_argcount);
  facts.state_frame_bytes = offset(&probe.stub.frame_bytes);
  facts.direct_thread_slot = reinterpret_cast<uintptr_t>(&r.direct_thread);
  facts.entry_counter = reinterpret_cast<uintptr_t>(&r.stub_entries);
  facts.eval_breaker = reinterpret_cast<uintptr_t>(EvalBreakerAddress(PyInterpreterState_Get()));
  return CompileStub(r, lower::CallStub(facts), "a64jit:stub:call", runtime::CallStubMoves());
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
  for (const lir::Function& f : lower::SiteStubs(reinterpret_cast<uintptr_t>(&PyModule_Type))) {
    stubs[f.name] = CompileStub(r, f, "a64jit:stub:" + f.name, runtime::SiteStubMoves());
  }
  return stubs;
}

}  // namespace a64jit::python
