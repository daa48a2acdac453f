// Every LIR opcode, once, with its facts. `enum class Op` (lir.h), OpName, OpSyntaxOf,
// OpFamilyOf, IsTerminator, IsIntBinary, IsFloatBinary and the text parser's table of
// opcode names are all generated from A64JIT_LIR_OPS below.
//
// Columns of X(Name, text, syntax, family, terminator, helper):
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
//   helper      for a runtime protocol, the helper (runtime/helpers.h) it calls: the op is
//               that call, written `text @helper(args)` and run as it by the interpreter,
//               which code generation may instead make a `bl` to a shared stub with data
//               words (codegen/release_stubs.h, codegen/into_local_stub.h). nullptr for
//               every other op.
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
  kNote,         // lowering's notes, resolved before lowering returns (no machine effect)
  kJump,         // unconditional branch
  kBranch,       // two-way branch
  kReturn,       // return from the function
};

// clang-format off
#define A64JIT_LIR_OPS(X)                                                                   \
  /*name      text        syntax    family        terminator helper */                             \
  /* d = a */                                                                               \
  X(Mov,      "mov",      kPlain,   kMove,        false, nullptr)                           \
  /* Integer binary: d = a OP b */                                                          \
  X(Add,      "add",      kPlain,   kIntBinary,   false, nullptr)                           \
  X(Sub,      "sub",      kPlain,   kIntBinary,   false, nullptr)                           \
  X(Mul,      "mul",      kPlain,   kIntBinary,   false, nullptr)                           \
  X(SDiv,     "sdiv",     kPlain,   kIntBinary,   false, nullptr)                           \
  X(UDiv,     "udiv",     kPlain,   kIntBinary,   false, nullptr)                           \
  X(SRem,     "srem",     kPlain,   kIntBinary,   false, nullptr)                           \
  X(URem,     "urem",     kPlain,   kIntBinary,   false, nullptr)                           \
  X(And,      "and",      kPlain,   kIntBinary,   false, nullptr)                           \
  X(Or,       "or",       kPlain,   kIntBinary,   false, nullptr)                           \
  X(Xor,      "xor",      kPlain,   kIntBinary,   false, nullptr)                           \
  X(Shl,      "shl",      kPlain,   kIntBinary,   false, nullptr)                           \
  X(LShr,     "lshr",     kPlain,   kIntBinary,   false, nullptr)                           \
  X(AShr,     "ashr",     kPlain,   kIntBinary,   false, nullptr)                           \
  /* Integer unary: d = OP a */                                                             \
  X(Not,      "not",      kPlain,   kIntUnary,    false, nullptr)                           \
  X(Neg,      "neg",      kPlain,   kIntUnary,    false, nullptr)                           \
  /* d = convert(a) between integer types */                                                \
  X(SExt,     "sext",     kPlain,   kIntConvert,  false, nullptr)                           \
  X(ZExt,     "zext",     kPlain,   kIntConvert,  false, nullptr)                           \
  X(Trunc,    "trunc",    kPlain,   kIntConvert,  false, nullptr)                           \
  /* f64: d = a OP b */                                                                     \
  X(FAdd,     "fadd",     kPlain,   kFloatBinary, false, nullptr)                           \
  X(FSub,     "fsub",     kPlain,   kFloatBinary, false, nullptr)                           \
  X(FMul,     "fmul",     kPlain,   kFloatBinary, false, nullptr)                           \
  X(FDiv,     "fdiv",     kPlain,   kFloatBinary, false, nullptr)                           \
  /* f64: d = -a */                                                                         \
  X(FNeg,     "fneg",     kPlain,   kFloatUnary,  false, nullptr)                           \
  /* d:f64 = signed integer a */                                                            \
  X(SIToF,    "sitof",    kPlain,   kIntToFloat,  false, nullptr)                           \
  /* d:int = f64 a (saturating, NaN -> 0) */                                                \
  X(FToSI,    "ftosi",    kPlain,   kFloatToInt,  false, nullptr)                           \
  /* d = (a cond b) ? 1 : 0, operands of `cmp_type` (f64: ordered, see EvalCond) */         \
  X(Cmp,      "cmp",      kCmp,     kCompare,     false, nullptr)                           \
  /* d = a != 0 ? b : c */                                                                  \
  X(Select,   "select",   kPlain,   kSelect,      false, nullptr)                           \
  /* d = *(type*)(base + index * scale + disp) */                                           \
  X(Load,     "load",     kLoad,    kLoad,        false, nullptr)                           \
  /* *(store_type*)(base + index * scale + disp) = a */                                     \
  X(Store,    "store",    kStore,   kStore,       false, nullptr)                           \
  /* d:ptr = address of stack slot `slot` */                                                \
  X(SlotAddr, "slotaddr", kSlotAddr, kSlotAddr,    false, nullptr)                           \
  /* d:ptr = this function's frame record (x29); no interpreter semantics */                \
  X(FramePtr, "frameptr", kPlain,   kFramePtr,    false, nullptr)                           \
  /* [d =] call @callee(args...), or call *%t(args...) through a register; an argument */  \
  /* is a register or an i64 immediate */                                                   \
  X(Call,     "call",     kCall,    kCall,        false, nullptr)                           \
  /* `count` nops: spreads code out to test long branches */                                \
  /* Runtime protocols: a call of their helper, with operands in the helper's order. */     \
  /* release_at @a64_dealloc_at(%obj, %frame, unit): deallocates %obj (its count is 0)  */  \
  /* with the frame's prev_instr at `unit` (an immediate; -1: already there)             */ \
  X(ReleaseAt, "release_at", kCall, kCall,        false, "a64_dealloc_at")                  \
  /* %s:i64 = binop_into_local @a64_binary_op_into_local(%a, %b, how, unit): a BINARY_OP */ \
  /* whose result is stored into a local, releases included (0: an error is set)        */  \
  X(BinaryOpIntoLocal, "binop_into_local", kCall, kCall, false, "a64_binary_op_into_local") \
  X(Pad,      "pad",      kPad,     kPad,         false, nullptr)                           \
  /* Lowering's notes on the frame's prev_instr, which lower::ResolvePrevInstr turns into */ \
  /* stores (or nothing) before lowering returns; no other stage accepts them.          */  \
  /* set_prev_instr %frame, %address, unit: prev_instr = %address, the instruction at  */  \
  /* `unit`; %address is first_instr (unit 0) or the add just before that makes it     */  \
  X(SetPrevInstr, "set_prev_instr", kPlain, kNote, false, nullptr)                        \
  /* prev_instr_is unit: a helper left prev_instr at `unit` here (-1: unknown)          */  \
  X(PrevInstrIs, "prev_instr_is", kPlain, kNote,  false, nullptr)                         \
  /* Terminators: the last instruction of every block, and only there */                    \
  /* goto targets[0] */                                                                     \
  X(Jmp,      "jmp",      kJmp,     kJump,        true, nullptr)                            \
  /* if (cond form) goto targets[0] else targets[1]; the either form `br.T c a, b        */ \
  /* or[.T2] c2 c, d` (integers; T2 at least 32 bits) goes to targets[0] when either     */ \
  /* compare holds: one branch for two guards with one failure block (cmp, ccmp, b.cc)  */ \
  X(Br,       "br",       kBr,      kBranch,      true, nullptr)                            \
  /* return [a] */                                                                          \
  X(Ret,      "ret",      kPlain,   kReturn,      true, nullptr)                            \
  /* return callee(args...): the callee's result is the function's (a named callee, */     \
  /* register or immediate arguments, none on the stack); the frame is gone before  */     \
  /* the branch, so a stub's cold path can hand over to a helper and stay frameless */     \
  X(TailCall, "tailcall", kCall,    kCall,        true,  nullptr)
// clang-format on

}  // namespace a64jit::lir

#endif  // A64JIT_JIT_LIR_OPS_H_
