// HIR: a Python-level IR built from CPython 3.11 bytecode by abstract interpretation of the
// value stack. Values are registers holding PyObject* (or, for "cint" registers, a C integer:
// truth values and comparison results). Locals stay in the interpreter frame; only stack
// values live in registers, so leaving compiled code for the interpreter (deopt) is a matter
// of writing the stack back into the frame.
//
// Registers are not SSA. Within a block each definition is a new register, except the
// "canonical" stack registers s0, s1, ...: the value at stack depth k on entry to a block is
// in s_k, and a block hands its outgoing stack to its successors by moving it into s_k just
// before its terminator. So a value never crosses a block edge except through s_k, and
// reference counting can be decided block by block (see passes.h).
#ifndef A64JIT_JIT_HIR_HIR_H_
#define A64JIT_JIT_HIR_HIR_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "jit/hir/feedback.h"
#include "jit/hir/ops.h"

namespace a64jit::hir {

enum class UnaryKind : uint8_t { kNegative = 0, kPositive = 1, kInvert = 2 };

enum class ValueType : uint8_t { kObject, kCInt };

// What the interpreter needs to take over: the stack to write into the frame, and where to
// continue. kError: the instruction at `bc` failed with an exception set (the interpreter
// unwinds from it, adding the traceback entry). kResume: execute the instruction at `bc`
// (and the rest) in the interpreter; `resume_unit` is where its EXTENDED_ARGs start.
// kRaised: as kError, for the instruction the frame's prev_instr already names (a handler's
// landing block, shared by every instruction that raises into it). kReraise: RERAISE at
// `bc` re-raised the exception: no new traceback entry, and prev_instr is what RERAISE set.
//
// `catch_block`: the landing block of the exception handler covering `bc` (the builder makes
// one per exception-table entry), or -1. An error there does not leave compiled code: the
// stack below the handler's depth moves into s_k, the rest is released, and the landing
// block takes over.
struct FrameState {
  enum class Kind : uint8_t { kError, kResume, kRaised, kReraise };
  Kind kind = Kind::kError;
  int bc = 0;           // code unit of the instruction
  int resume_unit = 0;  // kResume: first code unit to execute
  int catch_block = -1;
  // A handler of this function covers `bc` (whether compiled or left to the interpreter).
  bool protected_range = false;
  std::vector<int> stack;
  // Filled by the refcount pass: entries that hold a borrowed reference and need a new one
  // before the frame owns them.
  std::vector<bool> borrowed;
};

struct Instr {
  Op op = Op::kJump;
  int dst = -1;
  int dst2 = -1;  // kLoadMethod's second result
  std::vector<int> args;
  int64_t imm = 0;            // the op's immediate (see ops.h)
  bool checked = false;       // LoadLocal: an unbound local resumes the interpreter
  bool bound = false;         // StoreLocal: the local is bound before it (its old value,
                              // released, needs no NULL test)
  int kwnames = -1;           // Call: co_consts index of the keyword names tuple, or -1
  int keys_const = -1;        // BuildConstKeyMap: co_consts index of the keys tuple
  int bc = -1;                // code unit of the bytecode instruction this came from
  bool has_state = false;     // can leave for the interpreter (error or resume)
  FrameState state;           // valid when has_state
  int targets[2] = {-1, -1};  // kJump, kBranch
  // BinaryOp, CompareOp/CompareBool, GetItem, SetItem, UnpackSequence, LoadAttr, StoreAttr,
  // LoadMethod, LoadGlobal: what 3.11's interpreter saw here (feedback.h); kNone: unknown.
  Feedback feedback = Feedback::kNone;
  // BinaryOp, CompareOp/CompareBool: the inline number forms lowering emits in front of the
  // generic call, kIntForm | kFloatForm (ChooseNumberForms, number_forms.h); 0: none.
  uint8_t forms = 0;
  // Call, BuildString (Lends): bit i set when args[i] is lent, a value a local or the code's
  // constants keep alive (InsertRefcounts): the op takes its own reference where it keeps or
  // passes the value on, and releases none.
  uint32_t borrowed = 0;
  // LoadMethod, and the Call it feeds (LendSelves): on the method shape, [method, self], self is
  // the local's value without a reference of its own; on [NULL, attribute] the attribute has one.
  bool lent_self = false;
  // LoadMethod (InsertRefcounts): its object is a new reference read by nothing after it
  // (`self.items` in `self.items.append(x)`, `f().strip()`), which the op takes over: on the method
  // shape it is self's reference, on [NULL, attribute] the op releases it. No decref follows the
  // op.
  bool given_self = false;

  // Calls fn(reg) for each register it reads: its arguments, then its frame state's stack.
  template <typename Fn>
  void ForEachRead(Fn fn) const {
    for (int a : args) fn(a);
    if (!has_state) return;
    for (int r : state.stack) fn(r);
  }
  // How many times it reads `reg` (what Function::UseCounts counts of it here).
  int Reads(int reg) const {
    int n = 0;
    ForEachRead([&](int r) { n += r == reg; });
    return n;
  }
};

// Whether `in`'s type feedback (feedback.h) leaves inline form `form` possible: without
// feedback every form is; with it, only the one 3.11's interpreter specialised the site to.
inline bool Allows(const Instr& in, Feedback form) {
  return in.feedback == Feedback::kNone || in.feedback == form;
}

// Instr::borrowed has a bit for each of at most this many operands.
constexpr size_t kMaxBorrowedOperands = 32;

// Whether `in`'s operand `i` is lent (Instr::borrowed).
inline bool Lent(const Instr& in, size_t i) {
  return i < kMaxBorrowedOperands && ((in.borrowed >> i) & 1) != 0;
}

// The stealing ops whose lowering can take lent operands (Instr::borrowed).
inline bool Lends(Op op) { return op == Op::kCall || op == Op::kBuildString; }

// Inline number forms (Instr::forms, Function::unboxed).
constexpr uint8_t kIntForm = 1;    // ints of at most one digit, as C integers
constexpr uint8_t kFloatForm = 2;  // exact floats, as doubles

struct Block {
  int in_depth = 0;   // stack depth on entry: s_0 .. s_{in_depth-1} are live in
  int out_depth = 0;  // stack depth handed to the successors in s_0 ..
  int bc_start = -1;  // first code unit, or -1 for a block the builder made up
  std::vector<Instr> instrs;
};

// What the builder knows about the code object; also what the printer shows.
struct CodeInfo {
  std::string qualname;
  std::string module;
  std::vector<uint16_t> code;  // the unquickened code units (co_code)
  // Each code unit's opcode in the quickened code (co_code_adaptive) as it was when the
  // function was compiled, the type feedback (feedback.h); empty: none.
  std::vector<uint8_t> quickened;
  // Per code unit, 1 where the quickened instruction is an adaptive one that has not run
  // since quickening (3.11 quickens every specialisable instruction to its adaptive form with
  // its counter at 0, and the first run specialises it or backs its counter off); empty: not
  // quickened. The builder leaves blocks that begin with such code to the interpreter
  // (ColdExit).
  std::vector<uint8_t> unrun;
  std::vector<std::string> const_reprs;
  std::vector<std::string> names;
  // Per co_names entry, what the function's globals held under that name at compile time:
  // guesses, for code not yet quickened, at LOAD_GLOBAL_MODULE (the name is there) and at
  // LOAD_ATTR_MODULE (a module is). Empty: globals not given.
  enum GlobalKind : uint8_t { kNotGlobal = 0, kGlobal = 1, kGlobalModule = 2 };
  std::vector<uint8_t> global_kinds;
  std::vector<std::string> localsplus_names;
  int nlocalsplus = 0;
  int nargs = 0;  // positional + keyword-only + *args + **kwargs: bound on entry
  int flags = 0;
  int first_traceable = 0;
  // The localsplus index of the `__class__` free variable where zero-argument super() reads
  // its object straight from local 0 (co_argcount >= 1, local 0 not a cell), else -1: the
  // builder fuses `super().name` there (rules_values.cc FuseSuperMethod).
  int super_class_slot = -1;
  std::vector<uint8_t> exception_table;  // co_exceptiontable (exception_table.h)
  // Build entries at the loop headers (Function::loop_entries), for a frame the interpreter
  // is running (jit/python/loop_entry.h). Not for generators, which have their own.
  bool loop_entries = false;
  // A comprehension's or generator expression's local 0 (`.0`) is the iterator its caller
  // made, so no GET_ITER in the code says what it is: this is what `.0` held in the frame the
  // compile was asked from, a hint for the loop over it (FuseKnownIterators). kNone: no such
  // frame, another iterator, or other code.
  enum class LocalIterator : uint8_t {
    kNone,
    kEnumerate,
    kDictItems,
    kDictKeys,
    kDictValues,
    kZip
  };
  LocalIterator first_local_iterator = LocalIterator::kNone;
};

// A LocalIterator's name in HIR text ("enumerate", "dict_items", "dict_keys", "dict_values",
// "zip"; "" for kNone), and back (false: no such name).
const char* LocalIteratorName(CodeInfo::LocalIterator it);
bool LocalIteratorByName(const std::string& name, CodeInfo::LocalIterator* it);

// CO_GENERATOR | CO_COROUTINE | CO_ITERABLE_COROUTINE | CO_ASYNC_GENERATOR (checked against
// CPython's macros in builder.cc): code that runs in a generator's frame, from resume points.
constexpr int kGeneratorFlags = 0x20 | 0x80 | 0x100 | 0x200;
inline bool IsGenerator(int co_flags) { return (co_flags & kGeneratorFlags) != 0; }

struct Function {
  CodeInfo code;
  std::vector<ValueType> reg_types;
  // Per register: the forms (kIntForm | kFloatForm) in which it may hold its C value with no
  // object, an unboxed temporary (ChooseNumberForms, number_forms.h). Empty until that ran.
  std::vector<uint8_t> unboxed;
  std::vector<int> stack_regs;  // s_k
  std::vector<Block> blocks;    // blocks[0] is the entry
  // Per local, whether it is bound at every Return (passes.cc, RemoveUnboundChecks): the
  // return's release then needs no NULL test. Empty until that pass ran, and for generators.
  std::vector<bool> bound_at_return;
  // CodeInfo::loop_entries: the loop headers (code units) a frame may enter at, with
  // prev_instr on the header and its stack as the header expects (block 0 dispatches).
  std::vector<int> loop_entries;
  std::vector<int> loop_entry_depths;  // per entry, the stack values the header expects
  // Set when built without compiled exception handlers (Build): its exceptions leave for the
  // interpreter, which runs the handlers. The opcode a handler uses that the builder lacks, or
  // -1 when no one opcode is at fault (an inconsistent handler stack).
  std::optional<int> handlers_left_by;

  int NewReg(ValueType t) {
    reg_types.push_back(t);
    return static_cast<int>(reg_types.size()) - 1;
  }
  int StackReg(int depth);  // s_depth, created on first use
  bool IsStackReg(int reg) const;
  size_t InstrCount() const;
  // How many instructions define each register (dst or dst2); 1 for all but the s_k.
  std::vector<int> DefinitionCounts() const;
  // How many times each register is read: as an argument or in a frame state's stack.
  std::vector<int> UseCounts() const;
};

// Bytecode the builder does not handle: the function stays interpreted and the reason
// (the opcode's name and offset) is reported.
class Unsupported : public std::runtime_error {
 public:
  // opcode -1: not about one opcode (e.g. inconsistent stack depths).
  Unsupported(int opcode, int offset, const std::string& what)
      : std::runtime_error(what), opcode_(opcode), offset_(offset) {}
  int opcode() const { return opcode_; }
  int offset() const { return offset_; }  // in bytes, as dis shows it

 private:
  int opcode_;
  int offset_;
};

// Whether `in` writes local `local` (and so ends what a borrowed reference to its value, or a
// register known to hold it, may rely on).
bool WritesLocal(const Instr& in, int64_t local);

// What the function's globals held under co_names[name] at compile time (CodeInfo::
// global_kinds): kNotGlobal when not given.
uint8_t GlobalKindOf(const CodeInfo& code, int64_t name);

// Whether a LoadGlobal's name is in the globals rather than the builtins: 3.11 specialised it
// LOAD_GLOBAL_MODULE, or, not quickened yet, the name was a key of the function's globals when
// it was compiled. A guess that stops being true costs speed only.
bool InGlobals(const CodeInfo& code, const Instr& load_global);

// Whether attribute load `attr` (LoadAttr or LoadMethod) expects a module's attribute: its
// feedback says so, or, without feedback, its object is a global that held a module when the
// function was compiled (`math.sqrt`), as `object_held_module` says.
bool ExpectsModule(const Instr& attr, bool object_held_module);

// The function as text (text.cc; text.h's Parse reads it back).
std::string Print(const Function& f);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_HIR_H_
