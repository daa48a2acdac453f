// Calls that lowering makes inline, as CPython 3.11's specialising interpreter does with
// PRECALL_NO_KW_LEN, PRECALL_NO_KW_ISINSTANCE, PRECALL_NO_KW_LIST_APPEND, PRECALL_NO_KW_STR_1,
// PRECALL_NO_KW_TUPLE_1 and PRECALL_NO_KW_TYPE_1 (and for ord, chr and int, what their C
// functions do). A site is recognised by its shape: what
// loaded the callable (LOAD_GLOBAL of a name, or LOAD_METHOD of a name) and how many arguments it
// passes. The name is only a hint: the inline path is guarded at run time by the callable's
// identity (the builtin `len`, the descriptor `list.append`), and any other callable, or an
// argument the inline path does not handle, takes the generic call.
#ifndef A64JIT_JIT_HIR_KNOWN_CALLS_H_
#define A64JIT_JIT_HIR_KNOWN_CALLS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "jit/hir/hir.h"

namespace a64jit::hir {

enum class KnownCall : uint8_t {
  kNone,
  kLen,         // len(x): an exact str, list, tuple or dict's length, else PyObject_Size
  kIsInstance,  // isinstance(x, cls): PyObject_IsInstance without the builtin's parsing
  kListAppend,  // list.append(x) on an exact list with room: stored in place
  kOrd,         // ord(c) of a one-character ASCII str: one of the small ints
  kChr,         // chr(i) for 0 <= i < 128: the interpreter's one-character ASCII str
  kIntOf,       // int(x): x itself if an exact int, else PyNumber_Long without the type call
  kStrOf,       // str(x): x itself if an exact str, else PyObject_Str (PRECALL_NO_KW_STR_1)
  kTupleOf,     // tuple(x): x itself if an exact tuple, else PySequence_Tuple (..._TUPLE_1)
  kTypeOf,      // type(x): x's type (PRECALL_NO_KW_TYPE_1)
  // obj.name(args) with at most two arguments, where the name is one builtin types' methods
  // have (kBuiltinMethodNames) or 3.11's interpreter specialised the site to a method
  // descriptor (Feedback::kMethodDescriptor: `m.end()`, `n.bit_length()`): the C method
  // descriptor the site's CCallCache holds, called through its C entry
  // (PRECALL_NO_KW_METHOD_DESCRIPTOR_{NOARGS,O,FAST}) without the call stub.
  kMethodDescriptor,
  // f(args) with at most two arguments and no LOAD_METHOD pair, where the interpreter
  // specialised the site to a builtin C function or class (Feedback::kCFunction: `abs(x)`,
  // `getattr(o, name)`, `range(n)`): the one the site's CCallCache holds, called through its C
  // entry or vectorcall (PRECALL_NO_KW_BUILTIN_{O,FAST}, PRECALL_BUILTIN_CLASS) without the
  // call stub.
  kCFunction,
};

struct KnownCallRule {
  const char* name;  // co_names item that loaded the callable
  bool method;       // loaded by LOAD_METHOD (else LOAD_GLOBAL with its NULL)
  int argc;          // CALL's oparg
  KnownCall call;
};

// clang-format off
inline constexpr KnownCallRule kKnownCallRules[] = {
  // name          method  argc  call
  {"len",          false,  1,    KnownCall::kLen},
  {"isinstance",   false,  2,    KnownCall::kIsInstance},
  {"append",       true,   1,    KnownCall::kListAppend},
  {"ord",          false,  1,    KnownCall::kOrd},
  {"chr",          false,  1,    KnownCall::kChr},
  {"int",          false,  1,    KnownCall::kIntOf},
  {"str",          false,  1,    KnownCall::kStrOf},
  {"tuple",        false,  1,    KnownCall::kTupleOf},
  {"type",         false,  1,    KnownCall::kTypeOf},
};
// clang-format on

// Names of C methods of str, bytes, list, dict and set that a site calling LOAD_METHOD's pair
// with at most two arguments makes a kMethodDescriptor site when it has no feedback (a
// function compiled before 3.11 specialised it). Only a hint, so that sites calling Python
// methods (Richards' `task.release()`) do not grow by the inline path: the run-time guard is
// the cached descriptor and self's exact type.
inline constexpr const char* kBuiltinMethodNames[] = {
    // str and bytes
    "isspace", "isdigit", "isalpha", "isalnum", "isdecimal", "isnumeric", "isidentifier", "islower",
    "isupper", "istitle", "lower", "upper", "casefold", "title", "capitalize", "swapcase", "strip",
    "lstrip", "rstrip", "split", "rsplit", "splitlines", "join", "startswith", "endswith", "find",
    "rfind", "replace", "partition", "rpartition", "zfill", "ljust", "rjust", "center", "encode",
    "decode", "removeprefix", "removesuffix",
    // dict
    "get", "setdefault", "items", "keys", "values", "popitem",
    // list and set
    "extend", "insert", "pop", "remove", "reverse", "add", "discard", "issubset", "issuperset",
    "isdisjoint",
    // several
    "copy", "clear", "count", "index", "update"};

// Which call sites of one function have a known callable, by the shape of their operands.
class KnownCallSites {
 public:
  explicit KnownCallSites(const Function& f) : KnownCallSites(f, f.DefinitionCounts()) {}
  // With `defs`, f.DefinitionCounts(), already counted.
  KnownCallSites(const Function& f, const std::vector<int>& defs);
  // The known call `call` (an Op::kCall) may be, or kNone.
  KnownCall Of(const Instr& call) const;
  // Whether `call` (an Op::kCall without keywords) calls what was loaded by the name `name`:
  // a global in the plain shape [NULL, callable, args...] or, with `method`, LOAD_METHOD's pair
  // [method, self, args...]. The name is only a hint of what it calls.
  bool CallsName(const Instr& call, const std::string& name, bool method) const;

 private:
  // The known call by the name that loaded the callable (kKnownCallRules, kBuiltinMethodNames).
  KnownCall ByName(const Instr& call, bool method) const;
  // Whether `call` is an Op::kCall without keywords in LOAD_METHOD's shape (true) or the plain
  // one [NULL, callable, args...] (false); nothing for any other instruction.
  std::optional<bool> MethodShape(const Instr& call) const;
  // The co_names item that loaded `call`'s callable in that shape (with LOAD_METHOD's own self),
  // or null.
  const std::string* LoadedName(const Instr& call, bool method) const;
  struct Loader {
    bool method;
    int64_t name;   // co_names index
    int self = -1;  // LOAD_METHOD's second result
  };
  const Function& f_;
  std::map<int, Loader> loaders_;  // registers with one definition, by what loaded them
  std::map<int, int> null_defs_;   // LoadNull's registers -> definitions of that register
};

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_KNOWN_CALLS_H_
