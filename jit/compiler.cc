#include "jit/compiler.h"

#include "jit/hir/builder.h"
#include "jit/hir/passes.h"
#include "jit/lir/peephole.h"
#include "jit/lir/regalloc.h"
#include "jit/lir/text.h"

namespace a64jit::compiler {

hir::Function BuildHir(const hir::CodeInfo& code) {
  hir::Function f = hir::Build(code);
  hir::RunPasses(f);
  return f;
}

lir::Function LowerToLir(const hir::Function& f, const lower::RuntimeAddresses& rt,
                         const std::string& name, std::vector<lower::DeoptSite>* deopt_sites) {
  lir::Function out = lower::Lower(f, rt, name, deopt_sites);
  lir::FuseCompareBranches(out);
  lir::Verify(out);
  return out;
}

codegen::CompiledFunction EmitCode(const lir::Function& f, const codegen::CompileOptions& options) {
  const lir::Allocation allocation = lir::AllocateRegisters(f, codegen::Aarch64Registers());
  return codegen::EmitAllocated(f, allocation, options);
}

CompiledCode Compile(const hir::CodeInfo& code, const lower::RuntimeAddresses& rt,
                     runtime::CodeSink& sink, const codegen::CallResolver& resolve) {
  CompiledCode out;
  const hir::Function hir = BuildHir(code);
  out.hir = hir::Print(hir);
  const lir::Function lir = LowerToLir(hir, rt, "jit_function", &out.deopt_sites);
  out.lir = lir::Print(lir);
  codegen::CompileOptions options;
  options.resolve = resolve;
  out.code = codegen::CompileInto(sink, [&](std::optional<uint64_t> base) {
    options.base_address = base;
    return EmitCode(lir, options);
  });
  out.disassembly =
      codegen::Disassemble(out.code.code, reinterpret_cast<uintptr_t>(out.code.entry));
  return out;
}

}  // namespace a64jit::compiler
