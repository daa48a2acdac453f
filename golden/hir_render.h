// Golden filetests whose input is Python source: the HIR (after passes) or the lowered LIR
// of every function it defines, through the pipeline's own stages (jit/compiler.h).
#ifndef A64JIT_GOLDEN_HIR_RENDER_H_
#define A64JIT_GOLDEN_HIR_RENDER_H_

#include <string>

namespace a64jit::golden {

enum class Stage {
  kHir,      // after the HIR passes (golden/hir/*.hir)
  kLowered,  // after lowering, peephole and verification (golden/lower/*.lower)
};

// The given stage's text for every function Python source defines, nested ones included, in
// order of appearance. Starts an embedded interpreter on first use (nothing is executed:
// the source is only compiled). A function the builder rejects renders as one "not
// compiled" line.
std::string RenderPython(const std::string& python_source, Stage stage);

// By the file's extension: RenderLir for *.lir, RenderPython for *.hir and *.lower,
// RenderHirPasses (hir_passes.h) for *.passes.
std::string RenderFor(const std::string& path, const std::string& input);

}  // namespace a64jit::golden

#endif  // A64JIT_GOLDEN_HIR_RENDER_H_
