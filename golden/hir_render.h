// HIR golden filetests: the input is Python source; the output is the HIR (after passes) of
// every function it defines, nested ones included, in order of appearance.
#ifndef A64JIT_GOLDEN_HIR_RENDER_H_
#define A64JIT_GOLDEN_HIR_RENDER_H_

#include <string>

namespace a64jit::golden {

// Starts an embedded interpreter on first use (nothing is executed: the source is only
// compiled). A function the builder rejects renders as one "not compiled" line.
std::string RenderHir(const std::string& python_source);

// RenderLir for *.lir, RenderHir for *.hir.
std::string RenderFor(const std::string& path, const std::string& input);

}  // namespace a64jit::golden

#endif  // A64JIT_GOLDEN_HIR_RENDER_H_
