// Every LIR opcode, once, with its facts. `enum class Op` (lir.h), OpName, OpSyntaxOf,
// OpFamilyOf, IsTerminator, IsIntBinary, IsFloatBinary and the text parser's table of
// opcode names are all generated from A64JIT_LIR_OPS below.
//
// Columns of X(Name, text, syntax, family, terminator):
//   Name        the enumerator's suffix: X(Add, ...) declares Op::kAdd.
//   text        the opcode's name in the text format (text.h) and in diagnostics.
//   syntax      kPlain: `[%d:type =] text operand, operand, ...`, printed and parsed by the
//               generic path of text.cc. Any other value: the op's syntax of its own (a
//               type suffix, a condition, an address, a slot, a callee, block targets),
//               written by its case in text.cc's FormatOperation and Parser::ParseOperands.
//               A special op is recognised by the word before its `.TYPE` suffix, a plain
//               one by its whole word.
//   family      the kind of operation, by the shape of its operands and result (OpFamily);
//               IsIntBinary and IsFloatBinary are family tests.
//   terminator  true if it ends a block (and only a block).
//
// Adding an op means adding a row here. Every switch over Op in jit/lir and jit/codegen
// lists all ops without a `default:` and is compiled with -Werror=switch, so the compiler
// then names each place (verifier, interpreter, printer, parser, code generator) that must
// learn the new op.
#ifndef A64JIT_JIT_LIR_OPS_H_
#define A64JIT_JIT_LIR_OPS_H_

#include <cstdint>

namespace a64jit::lir {

// kPlain, or the one op's own syntax (printer and parser switch over this, not over Op:
// a plain op needs nothing there, a new syntax is named by -Werror=switch).
enum class OpSyntax : uint8_t { kPlain, kCmp, kLoad, kStore, kSlotAddr, kCall, kPad, kJmp, kBr };

enum class OpFamily : uint8_t {
  kMove,         // d = a
  kIntBinary,    // d = a OP b over integers (arithmetic, bitwise, shifts, division)
  kIntUnary,     // d = OP a over integers
  kIntConvert,   // d = a between integer types
  kFloatBinary,  // d = a OP b over f64
  kFloatUnary,   // d = OP a over f64
  kIntToFloat,   // d:f64 = a:int
  kFloatToInt,   // d:int = a:f64
  kCompare,      // d = a cond b
  kSelect,       // d = c ? a : b
  kLoad,         // d = memory
  kStore,        // memory = a
  kSlotAddr,     // d = address of a stack slot
  kFramePtr,     // d = the frame record
  kCall,         // [d =] call
  kPad,          // nops
  kJump,         // unconditional branch
  kBranch,       // two-way branch
  kReturn,       // return from the function
};

// clang-format off
#define A64JIT_LIR_OPS(X)                                                                   \
  /*name      text        syntax    family        terminator */                             \
  /* d = a */                                                                               \
  X(Mov,      "mov",      kPlain,   kMove,        false)                                    \
  /* Integer binary: d = a OP b */                                                          \
  X(Add,      "add",      kPlain,   kIntBinary,   false)                                    \
  X(Sub,      "sub",      kPlain,   kIntBinary,   false)                                    \
  X(Mul,      "mul",      kPlain,   kIntBinary,   false)                                    \
  X(SDiv,     "sdiv",     kPlain,   kIntBinary,   false)                                    \
  X(UDiv,     "udiv",     kPlain,   kIntBinary,   false)                                    \
  X(SRem,     "srem",     kPlain,   kIntBinary,   false)                                    \
  X(URem,     "urem",     kPlain,   kIntBinary,   false)                                    \
  X(And,      "and",      kPlain,   kIntBinary,   false)                                    \
  X(Or,       "or",       kPlain,   kIntBinary,   false)                                    \
  X(Xor,      "xor",      kPlain,   kIntBinary,   false)                                    \
  X(Shl,      "shl",      kPlain,   kIntBinary,   false)                                    \
  X(LShr,     "lshr",     kPlain,   kIntBinary,   false)                                    \
  X(AShr,     "ashr",     kPlain,   kIntBinary,   false)                                    \
  /* Integer unary: d = OP a */                                                             \
  X(Not,      "not",      kPlain,   kIntUnary,    false)                                    \
  X(Neg,      "neg",      kPlain,   kIntUnary,    false)                                    \
  /* d = convert(a) between integer types */                                                \
  X(SExt,     "sext",     kPlain,   kIntConvert,  false)                                    \
  X(ZExt,     "zext",     kPlain,   kIntConvert,  false)                                    \
  X(Trunc,    "trunc",    kPlain,   kIntConvert,  false)                                    \
  /* f64: d = a OP b */                                                                     \
  X(FAdd,     "fadd",     kPlain,   kFloatBinary, false)                                    \
  X(FSub,     "fsub",     kPlain,   kFloatBinary, false)                                    \
  X(FMul,     "fmul",     kPlain,   kFloatBinary, false)                                    \
  X(FDiv,     "fdiv",     kPlain,   kFloatBinary, false)                                    \
  /* f64: d = -a */                                                                         \
  X(FNeg,     "fneg",     kPlain,   kFloatUnary,  false)                                    \
  /* d:f64 = signed integer a */                                                            \
  X(SIToF,    "sitof",    kPlain,   kIntToFloat,  false)                                    \
  /* d:int = f64 a (saturating, NaN -> 0) */                                                \
  X(FToSI,    "ftosi",    kPlain,   kFloatToInt,  false)                                    \
  /* d = (a cond b) ? 1 : 0, operands of `cmp_type` (f64: ordered, see EvalCond) */         \
  X(Cmp,      "cmp",      kCmp,     kCompare,     false)                                    \
  /* d = a != 0 ? b : c */                                                                  \
  X(Select,   "select",   kPlain,   kSelect,      false)                                    \
  /* d = *(type*)(base + index * scale + disp) */                                           \
  X(Load,     "load",     kLoad,    kLoad,        false)                                    \
  /* *(store_type*)(base + index * scale + disp) = a */                                     \
  X(Store,    "store",    kStore,   kStore,       false)                                    \
  /* d:ptr = address of stack slot `slot` */                                                \
  X(SlotAddr, "slotaddr", kSlotAddr, kSlotAddr,    false)                                    \
  /* d:ptr = this function's frame record (x29); no interpreter semantics */                \
  X(FramePtr, "frameptr", kPlain,   kFramePtr,    false)                                    \
  /* [d =] call @callee(args...), or call *%t(args...) through a register; an argument */  \
  /* is a register or an i64 immediate */                                                   \
  X(Call,     "call",     kCall,    kCall,        false)                                    \
  /* `count` nops: spreads code out to test long branches */                                \
  X(Pad,      "pad",      kPad,     kPad,         false)                                    \
  /* Terminators: the last instruction of every block, and only there */                    \
  /* goto targets[0] */                                                                     \
  X(Jmp,      "jmp",      kJmp,     kJump,        true)                                     \
  /* if (cond form) goto targets[0] else targets[1]; the either form `br.T c a, b        */ \
  /* or[.T2] c2 c, d` (integers; T2 at least 32 bits) goes to targets[0] when either     */ \
  /* compare holds: one branch for two guards with one failure block (cmp, ccmp, b.cc)  */ \
  X(Br,       "br",       kBr,      kBranch,      true)                                     \
  /* return [a] */                                                                          \
  X(Ret,      "ret",      kPlain,   kReturn,      true)                                     \
  /* return callee(args...): the callee's result is the function's (a named callee, */     \
  /* register or immediate arguments, none on the stack); the frame is gone before  */     \
  /* the branch, so a stub's cold path can hand over to a helper and stay frameless */     \
  X(TailCall, "tailcall", kCall,    kCall,        true)
// clang-format on

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_OPS_H_
