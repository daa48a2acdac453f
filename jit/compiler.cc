#include "jit/compiler.h"

#include <chrono>

#include "jit/hir/builder.h"
#include "jit/hir/number_forms.h"
#include "jit/hir/passes.h"
#include "jit/lir/constant_operands.h"
#include "jit/lir/jump_threading.h"
#include "jit/lir/peephole.h"
#include "jit/lir/regalloc.h"
#include "jit/lir/text.h"

namespace a64jit::compiler {

hir::Function BuildHir(const hir::CodeInfo& code, Decisions* decisions) {
  hir::Function f = hir::Build(code, decisions);
  hir::RunPasses(f, decisions);
  return f;
}

namespace {
// Lowering's output is verified in builds with assertions: the default -O2 build, which
// every test, the gate and the nightly use. An opt build (-c opt, NDEBUG) trusts it, as
// compilers do with their internal checks; verifying took 5% of compile time
// (benchmarks/compile_time). LIR from text is always verified (lir::Parse, codegen::Compile).
#ifdef NDEBUG
constexpr bool kVerifyLowering = false;
#else
constexpr bool kVerifyLowering = true;
#endif
}  // namespace

lir::Function LowerToLir(hir::Function& f, const lower::RuntimeAddresses& rt,
                         const std::string& name, std::vector<lower::DeoptSite>* deopt_sites,
                         Decisions* decisions) {
  hir::ChooseNumberForms(f, lower::NumberFactsOf(rt), decisions);
  lir::Function out = lower::Lower(f, rt, name, deopt_sites, decisions);
  lir::ThreadJumps(out, decisions);
  lir::FuseCompareBranches(out, decisions);
  lir::FoldConstantOperands(out, decisions);
  if (kVerifyLowering) lir::Verify(out);
  return out;
}

codegen::CompiledFunction EmitCode(const lir::Function& f, const codegen::CompileOptions& options) {
  const lir::Allocation allocation = lir::AllocateRegisters(f, codegen::Aarch64Registers());
  return codegen::EmitAllocated(f, allocation, options);
}

namespace {
int64_t NanosSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              start)
      .count();
}
}  // namespace

namespace {
FaultHook g_fault_hook = nullptr;

inline void Fault(const char* point) {
  if (g_fault_hook != nullptr) g_fault_hook(point);
}
}  // namespace

void SetFaultHook(FaultHook hook) { g_fault_hook = hook; }

CompiledCode Compile(const hir::CodeInfo& code, const lower::RuntimeAddresses& rt,
                     runtime::CodeSink& sink, const codegen::CallResolver& resolve,
                     const std::string& keep_text, Decisions* decisions) {
  CompiledCode out;
  const bool all = keep_text == "all";
  auto start = std::chrono::steady_clock::now();
  hir::Function hir = BuildHir(code, decisions);
  Fault("hir");
  out.times.hir_ns = NanosSince(start);
  for (const hir::Block& b : hir.blocks) {
    for (const hir::Instr& in : b.instrs) out.feedback_sites += in.feedback != hir::Feedback::kNone;
  }
  out.loop_entries = hir.loop_entries;
  out.loop_entry_depths = hir.loop_entry_depths;
  out.handlers_left_by = hir.handlers_left_by;
  start = std::chrono::steady_clock::now();
  const lir::Function lir = LowerToLir(hir, rt, "jit_function", &out.deopt_sites, decisions);
  Fault("lower");
  out.times.lower_ns = NanosSince(start);
  // The HIR as lowering took it: with its number forms (stage 3a).
  if (keep_text == "hir") out.text = hir::Print(hir);
  if (all) out.text = "=== hir ===\n" + hir::Print(hir);
  if (keep_text == "lir") out.text = lir::Print(lir);
  if (all) out.text += "=== lir ===\n" + lir::Print(lir);
  start = std::chrono::steady_clock::now();
  codegen::CompileOptions options;
  options.resolve = resolve;
  options.exit_code_limit = lower::kDeoptCodeLimit;  // each deopt exit one `bl`
  options.release_stubs = rt.release_stubs;          // each dealloc a `bl` and a data word
  options.into_local_stub = rt.into_local_stub;      // a `bl` and two data words
  options.constant_registers = true;                 // a type guard's cmp without its load
  options.stub_entries = rt.stub_entries;            // stubs that place the first arguments
  out.code = codegen::CompileInto(sink, [&](std::optional<uint64_t> base) {
    options.base_address = base;
    Fault("emit");
    codegen::CompiledFunction emitted = EmitCode(lir, options);
    Fault("code-memory");  // the sink places what this returns
    return emitted;
  });
  out.times.emit_ns = NanosSince(start);
  if (keep_text == "asm" || all) {
    const std::string asm_text =
        codegen::Disassemble(out.code.code, reinterpret_cast<uintptr_t>(out.code.entry));
    out.text = all ? out.text + "=== asm ===\n" + asm_text : asm_text;
  }
  return out;
}

std::string HirText(const hir::CodeInfo& code, const lower::RuntimeAddresses& rt,
                    Decisions* decisions) {
  hir::Function f = BuildHir(code, decisions);
  hir::ChooseNumberForms(f, lower::NumberFactsOf(rt), decisions);
  return hir::Print(f);
}

std::string LirText(const hir::CodeInfo& code, const lower::RuntimeAddresses& rt,
                    Decisions* decisions) {
  std::vector<lower::DeoptSite> deopt_sites;
  hir::Function f = BuildHir(code, decisions);
  return lir::Print(LowerToLir(f, rt, "jit_function", &deopt_sites, decisions));
}

}  // namespace a64jit::compiler
