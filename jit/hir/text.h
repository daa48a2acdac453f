// HIR as text: Print (hir.h) writes a function, Parse reads that text back, so that HIR can be
// the input of a test (a pass or lowering run on hand-written HIR) as well as its output.
//
// The format, one function:
//   function MODULE:QUALNAME (locals N, args M)
//   bbK (in A, out B[, @OFFSET]):
//     [DST[:cint][, DST2] = ]OP[ OPERAND, ...][, IMMEDIATE][ [FEEDBACK]][ inline=FORMS]
//         [ unboxed=FORMS][ bbT | -> bbT, bbF][  {STATE}]
// Registers are %N, or sK for the stack register of depth K (hir.h). The immediate is written
// as the op's row in ops.h says (ImmKind). A state is `error @OFF`, `resume @OFF`, `raised` or
// `reraise @OFF`, then ` catch bbK` when a handler of the function takes it, then the stack
// as [REG[ borrowed], ...]. FORMS is int, float or int+float (number_forms.h). Offsets are in
// bytes, as dis shows them (code units * 2).
//
// What the text does not hold comes back as it can: names and constants are collected from
// the immediates that show them (a local's name, a constant's repr, an attribute's name), the
// code object's bytecode is empty, and an instruction's code unit is its state's (or -1).
// Print(Parse(text)) == text for any text Print wrote.
#ifndef A64JIT_JIT_HIR_TEXT_H_
#define A64JIT_JIT_HIR_TEXT_H_

#include <stdexcept>
#include <string>

#include "jit/hir/hir.h"

namespace a64jit::hir {

// Malformed HIR text: what and where ("line 4: ...").
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// One function in Print's format (a leading "; " on each line, as golden files have, is
// allowed). Throws ParseError.
Function Parse(const std::string& text);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_TEXT_H_
