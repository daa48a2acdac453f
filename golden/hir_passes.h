// Golden filetests whose input is HIR text (golden/passes/*.passes): the HIR after the passes
// the file names. Directives, one a line:
//   ; run: PASS[, PASS...]   in order; PASS is simplify, dead-code, refcounts,
//                            store-targets, module-attrs, isinstance-tests, call-checks
//                            (fusions.h), fusions (those four), all (hir::RunPasses; none
//                            given: all) or number-forms (hir::ChooseNumberForms, with the
//                            constants' facts of fake_addresses.h). A last PASS `lower` lowers
//                            the result (jit/compiler.h LowerToLir, which chooses the number
//                            forms first, with the fixed addresses of fake_addresses.h): the
//                            output is then LIR
//   ; check: TEXT            the output must have a line containing TEXT, after the line the
//                            previous check matched; a file with checks is judged by them
//                            alone, and bless leaves it as it is
//   ; check-not: TEXT        no line of the output contains TEXT
//   # ...                    a comment
// Everything else is the function, in jit/hir/text.h's format.
#ifndef A64JIT_GOLDEN_HIR_PASSES_H_
#define A64JIT_GOLDEN_HIR_PASSES_H_

#include <string>
#include <vector>

namespace a64jit::golden {

// The printed HIR after the file's passes; a malformed input or an unknown pass renders as
// one "error: ..." line, so a golden shows it.
std::string RenderHirPasses(const std::string& input);

struct Check {
  bool absent;  // check-not
  std::string text;
};

// The file's check lines, in order.
std::vector<Check> CheckLines(const std::string& input);

// "" when `output` satisfies `checks`; else which check failed, and the output.
std::string CheckFailure(const std::string& output, const std::vector<Check>& checks);

}  // namespace a64jit::golden

#endif  // A64JIT_GOLDEN_HIR_PASSES_H_
