// The LIR text format: what fuzz reproducers, golden files and dumps are written in.
//
//   extern @helper = 0x7f0000001000
//   func @f(%0:i64, %1:f64) -> i64 {
//     slot ss0 = 5376
//   bb0:
//     %2:i64 = add %0, 4096
//     %3:i8 = cmp.i64 slt %2, -1
//     %4:i32 = load [%0 + %2*4 + 16]
//     store.i16 %4, [%0 - 8]          ; stores the low 16 bits
//     br.i64 slt %2, 10, bb1, bb2     ; or: br %3, bb1, bb2
//   ...
//   }
//
// Print(Parse(text)) == text for any text Print produced. ';' starts a comment.
#ifndef A64JIT_JIT_LIR_TEXT_H_
#define A64JIT_JIT_LIR_TEXT_H_

#include <stdexcept>
#include <string>

#include "jit/lir/lir.h"

namespace a64jit::lir {

std::string Print(const Function& f);
std::string Print(const Module& m);
std::string PrintInstr(const Function& f, const Instr& in);

// Names where parsing stopped: "line L, column C: expected X, found 'Y'".
class ParseError : public std::runtime_error {
 public:
  ParseError(int line, int column, const std::string& message);
  int line() const { return line_; }
  int column() const { return column_; }

 private:
  int line_, column_;
};

// Parses and verifies a module. Throws ParseError or VerifyError.
Module Parse(const std::string& text);

// Parses a module without verifying it: for tests of lowering's last steps, whose input still
// holds lowering's notes (set_prev_instr, prev_instr_is), which the verifier refuses.
Module ParseUnverified(const std::string& text);

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_TEXT_H_
