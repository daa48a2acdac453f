// The compiler pipeline, in one place. Each stage is a library of its own (its folder in
// parentheses); this file only runs them in order:
//
//   CPython 3.11 code object (as hir::CodeInfo)
//   1. hir::Build                  bytecode -> HIR                      (jit/hir/builder.h)
//   2. hir::RunPasses              simplify, dead code, refcounts        (jit/hir/passes.h)
//  3a. hir::ChooseNumberForms      int/float forms, unboxed temporaries (jit/hir/number_forms.h)
//   3. lower::Lower                HIR -> LIR, then the frame's prev_instr stores
//                                  (lower::ResolvePrevInstr)            (jit/lower/lower.h)
//   4. lir::ThreadJumps            branches past jump-only blocks       (jit/lir/jump_threading.h)
//   5. lir::FuseCompareBranches    peephole                             (jit/lir/peephole.h)
//   6. lir::FoldConstantOperands   a constant into its one reader (jit/lir/constant_operands.h)
//   7. lir::Verify                 once per function; not in -c opt     (jit/lir/lir.h)
//   8. lir::AllocateRegisters      linear scan                          (jit/lir/regalloc.h)
//   9. codegen::EmitAllocated      aarch64 machine code through asmjit  (jit/codegen/codegen.h)
//  10. runtime::CodeSink           executable memory                    (jit/runtime/code_sink.h)
//
// The runtime (jit/python/jit.cc) runs all of it for each function it compiles; the golden
// tests run the front half (HIR, LIR) and the benchmarks the back half (LIR -> code).
#ifndef A64JIT_JIT_COMPILER_H_
#define A64JIT_JIT_COMPILER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "jit/codegen/codegen.h"
#include "jit/decisions.h"
#include "jit/hir/hir.h"
#include "jit/lir/lir.h"
#include "jit/lower/lower.h"
#include "jit/runtime/code_sink.h"

namespace a64jit::compiler {

// Every stage's optional rewrites and fast paths ask `decisions` (jit/decisions.h), numbered
// in this order; null takes them all.

// Stages 1-2: the optimised HIR of a function. Throws hir::Unsupported.
hir::Function BuildHir(const hir::CodeInfo& code, Decisions* decisions = nullptr);

// Stages 3-7: the LIR function `name`, verified unless NDEBUG (compiler.cc);
// `deopt_sites` receives its exits' sites. Stage 3a writes the number forms into `f`.
lir::Function LowerToLir(hir::Function& f, const lower::RuntimeAddresses& rt,
                         const std::string& name, std::vector<lower::DeoptSite>* deopt_sites,
                         Decisions* decisions = nullptr);

// Stages 8-9 for a verified LIR function.
codegen::CompiledFunction EmitCode(const lir::Function& f, const codegen::CompileOptions& options);

// Time spent in each stage of one Compile, in nanoseconds (for stats() and the compile-time
// figures of benchmarks/README.md).
struct StageTimes {
  int64_t hir_ns = 0;    // stages 1-2
  int64_t lower_ns = 0;  // stages 3-7
  int64_t emit_ns = 0;   // stages 8-10, including any recompile for a new code arena
  int64_t total_ns() const { return hir_ns + lower_ns + emit_ns; }
};

// One compiled function. It keeps no text of its stages: at about 37 KB of HIR, LIR and
// disassembly per function (3.3 KB of code) that text was most of a compile's time and of
// the JIT's memory on a real suite. HirText, LirText and codegen::DisassembleAt produce it
// on demand.
struct CompiledCode {
  std::vector<lower::DeoptSite> deopt_sites;  // indexed by the deopt codes it returns
  codegen::LoadedFunction code;               // entry and bytes, in the sink
  StageTimes times;
  // Instructions whose inline forms type feedback narrowed (hir/feedback.h): 0 for a function
  // compiled before 3.11 quickened it.
  int feedback_sites = 0;
  // The loop headers the code may be entered at (hir::Function::loop_entries), when
  // CodeInfo::loop_entries asked for them.
  std::vector<int> loop_entries;
  std::vector<int> loop_entry_depths;  // each header's stack depth
  std::string text;                    // the stage text Compile was asked to keep, if any
  // hir::Function::handlers_left_by: set when the handlers stay interpreted.
  std::optional<int> handlers_left_by;
};

// Test only (A64JIT_TEST_FAIL, jit/python/options.h): called at the named points of every
// compile, "hir" (after stage 2), "lower" (after stage 3), "emit" (before stage 8) and
// "code-memory" (as the sink places the code), where it may throw what a real failure there
// throws (std::bad_alloc, runtime::CodeMemoryExhausted) so that the compile fails at that
// point. nullptr, the default: none.
using FaultHook = void (*)(const char* point);
void SetFaultHook(FaultHook hook);

// Stages 1-8: compiles `code` into `sink`, keeping the text of stage `keep_text` ("hir",
// "lir", "asm", or "all": the three under `=== hir ===` headers; anything else: none). Throws
// hir::Unsupported (bytecode the JIT does not handle), lir::VerifyError and
// codegen::CompileError (internal errors).
CompiledCode Compile(const hir::CodeInfo& code, const lower::RuntimeAddresses& rt,
                     runtime::CodeSink& sink, const codegen::CallResolver& resolve,
                     const std::string& keep_text = "", Decisions* decisions = nullptr);

// The text of stages 1-3a (the HIR lowering takes, its number forms chosen) and 3-5 of `code`. Both
// stages are deterministic: given the same code, the same addresses (the same site caches, in the
// order Compile asked for them) and decisions of the same limit and plant, this is the text of what
// Compile compiled.
std::string HirText(const hir::CodeInfo& code, const lower::RuntimeAddresses& rt,
                    Decisions* decisions = nullptr);
std::string LirText(const hir::CodeInfo& code, const lower::RuntimeAddresses& rt,
                    Decisions* decisions = nullptr);

}  // namespace a64jit::compiler

#endif  // A64JIT_JIT_COMPILER_H_
