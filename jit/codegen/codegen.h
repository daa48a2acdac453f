// LIR -> aarch64 machine code, through asmjit.
//
// Frame (growing down from the caller's SP):
//   [x29 + 16 ...]        incoming stack arguments
//   [x29 + 8]  LR         frame record: return address ...
//   [x29]      caller x29 ... and the caller's frame, so frames can be walked
//   [x29 - 8 * n]         callee-saved registers this function uses
//   spill slots           8 bytes each
//   user stack slots      16-byte aligned (at SP when no call passes arguments on the stack)
//   [sp ...]              outgoing stack arguments of calls
// Scratch registers x15-x17 and d29-d31 are never allocated; every sequence that needs a
// temporary uses only them. Immediates, offsets, frame sizes, branch distances and call
// targets that do not fit an encoding are legalised; anything that still cannot be encoded
// is a CompileError naming the LIR instruction, never an abort.
#ifndef A64JIT_JIT_CODEGEN_CODEGEN_H_
#define A64JIT_JIT_CODEGEN_CODEGEN_H_

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/lir/lir.h"
#include "jit/lir/regalloc.h"
#include "jit/runtime/code_sink.h"
#include "jit/runtime/stub_entries.h"

namespace a64jit::codegen {

class CompileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Resolves a call target by name to an address.
using CallResolver = std::function<std::optional<uint64_t>(const std::string& name)>;

struct CompileOptions {
  // Where the code will run. Unknown: calls go through the literal pool (position
  // independent). Known: calls within +-128 MiB become a direct `bl`.
  std::optional<uint64_t> base_address;
  CallResolver resolve;
  // Long forms from the start, as for a function of 1 MiB or more (see EmitAllocated).
  bool force_long_ranges = false;
  // Exits by call (the JIT's deopt exits, jit/lower/lower.h): nonzero, a `ret` of an
  // immediate code below this whose low two bits are 1 or 2 becomes one `bl` to an exit
  // block the function's exits share, which returns that bl's offset in the code ORed with 3
  // (kExitByOffset; below this limit too, else the exit stays a `ret` of its code).
  // CompiledFunction::exits maps each offset back to its code: one instruction an exit
  // instead of two (the code's movz and the branch to the epilogue). 0: every `ret` as
  // written.
  uint64_t exit_code_limit = 0;
  // Nonzero: where the release stubs are (release_stubs.h). A call of @a64_dealloc_at with its
  // object and frame in registers and an immediate unit becomes a `bl` to the pair's stub and
  // a data word (CompiledFunction::data_words), which also stands for the jump after the call
  // when its target is in reach. 0: such a call is emitted as written.
  uint64_t release_stubs = 0;
  // Nonzero: where the into-local stub is (into_local_stub.h). A call of
  // @a64_binary_op_into_local with its operands in registers becomes a `bl` to it and two data
  // words, which also stand for the branch after the call when its join is in reach. 0: such a
  // call is emitted as written.
  uint64_t into_local_stub = 0;
  // Frequent wide constants in callee-saved registers allocation left unused, loaded in the
  // prologue (constant_registers.h); false: each use loads its constant.
  bool constant_registers = false;
  // Moves placed before the function's entry, a word each (a shared stub's extra entries,
  // stub_entries.h); CompiledFunction::entry_offset says where the entry is.
  std::vector<runtime::EntryMove> entry_moves;
  // The stubs with extra entries (stub_entries.h), or null. A call of one whose first
  // arguments are where an entry's moves take them from calls that entry and leaves those
  // arguments to it.
  const runtime::StubEntryTable* stub_entries = nullptr;
};

// What an exit by call returns in its low two bits (the rest is its bl's offset).
constexpr uint64_t kExitByOffset = 3;

// Whether a `ret` of `code` may be an exit by call under CompileOptions::exit_code_limit
// `limit` (0: none may): a deopt code (low bits 1 or 2) below the limit. The bl's offset,
// known only where it is emitted, must be below the limit too.
inline bool IsExitCode(uint64_t code, uint64_t limit) {
  const uint64_t kind = code & kExitByOffset;
  return code < limit && kind != 0 && kind != kExitByOffset;
}

// An exit by call: its bl's offset from the function's start, and the code its `ret` had.
struct ExitByCall {
  uint32_t offset;
  uint32_t code;
};

struct CodeStats {
  size_t code_bytes = 0;  // instructions (the literal pool follows)
  size_t pool_bytes = 0;
  int pool_entries = 0;
  int direct_calls = 0;        // bl
  int pool_calls = 0;          // ldr x16, literal; blr x16
  int far_calls = 0;           // movz/movk x16; blr x16 (no pool in range)
  int exits_by_call = 0;       // CompileOptions::exit_code_limit
  int register_calls = 0;      // blr x17: `call *%t(...)`, a target known only at run time
  int release_calls = 0;       // CompileOptions::release_stubs: `bl` and a data word
  int into_local_calls = 0;    // CompileOptions::into_local_stub: `bl` and two data words
  int constant_registers = 0;  // CompileOptions::constant_registers: registers given constants
  int stub_entry_calls = 0;    // CompileOptions::stub_entries: calls of an extra entry
  bool long_ranges = false;
  int64_t frame_size = 0;
  int spill_slots = 0;
  // A leaf with nothing on the stack and no exits by call: no frame record (no prologue; each
  // return is a `ret`). Such code does not start with the prologue debuggers are told about
  // (gdb_jit.h).
  bool frameless = false;
};

struct CompiledFunction {
  std::vector<uint8_t> bytes;
  CodeStats stats;
  std::vector<ExitByCall> exits;  // by offset (CompileOptions::exit_code_limit)
  // Offsets of the words among the instructions that are data, not code (the release stubs'
  // data words), in order: the disassembly shows them as `.word`.
  std::vector<uint32_t> data_words;
  uint32_t entry_offset = 0;  // bytes of CompileOptions::entry_moves before the entry
};

// For what a function's exit block returned: the code of the exit whose `bl` is at
// `result & ~kExitByOffset` in `exits` (that function's); nullopt if no exit is there.
std::optional<uint64_t> ExitCodeAt(const std::vector<ExitByCall>& exits, uint64_t result);

// The registers the allocator may hand out on aarch64 (x15-x18 and d29-d31 are reserved).
const lir::RegisterFile& Aarch64Registers();

// Verifies `f`, allocates its registers and emits it (for LIR from text or tests; the JIT's
// pipeline in jit/compiler.h runs those stages itself, once each).
CompiledFunction Compile(const lir::Function& f, const CompileOptions& options);
// Emits a verified function with its register allocation for Aarch64Registers().
CompiledFunction EmitAllocated(const lir::Function& f, const lir::Allocation& allocation,
                               const CompileOptions& options);

// Disassembly of compiled code (capstone), literal pool entries as `.quad`, one line each:
// "<offset>: <instruction>".
std::string Disassemble(const CompiledFunction& code, uint64_t base_address);

// A module's functions compiled into a code sink, in order; a function may call earlier
// functions of the module, itself, `extern` declarations, and whatever `resolve` knows.
// Each function is compiled once, for the address the sink says it will get; only when the
// sink places it elsewhere (a new code arena) is it compiled again for that address.
struct LoadedFunction {
  const uint8_t* entry = nullptr;
  CompiledFunction code;
};
std::map<std::string, LoadedFunction> CompileAndLoad(const lir::Module& module,
                                                     runtime::CodeSink& sink,
                                                     const CallResolver& resolve);

// Places one function compiled by `compile(base_address)` in `sink`: compiled once for
// sink.NextAddress(), and again only if the sink puts it somewhere else.
using CompileAt = std::function<CompiledFunction(std::optional<uint64_t> base_address)>;
LoadedFunction CompileInto(runtime::CodeSink& sink, const CompileAt& compile);

}  // namespace a64jit::codegen

#endif  // A64JIT_JIT_CODEGEN_CODEGEN_H_
