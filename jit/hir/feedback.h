// Type feedback: what CPython 3.11's specialising interpreter saw at an instruction, read off
// the quickened form of its code. After a code object has run 8 times (calls or loop
// iterations), 3.11 rewrites its instructions in place (co_code_adaptive) into adaptive forms,
// and each adaptive instruction, the next time it runs, into the specialised form for the
// operand types it found (BINARY_OP -> BINARY_OP_ADD_FLOAT), or stays adaptive when none fits.
// A function compiled after it ran interpreted (a threshold above 8) carries these forms; one
// compiled at its first call (threshold 0) has none, and lowering emits every guarded form.
//
// Feedback only narrows which inline forms lowering emits: each keeps its guards and the
// generic fallback, so feedback that stops being true costs speed, never correctness.
#ifndef A64JIT_JIT_HIR_FEEDBACK_H_
#define A64JIT_JIT_HIR_FEEDBACK_H_

#include <cstdint>

namespace a64jit::hir {

enum class Feedback : uint8_t {
  kNone,           // no specialised form: not run since quickening, adaptive, or not specialisable
  kInt,            // BINARY_OP_{ADD,SUBTRACT,MULTIPLY}_INT, COMPARE_OP_INT_JUMP
  kFloat,          // BINARY_OP_{ADD,SUBTRACT,MULTIPLY}_FLOAT, COMPARE_OP_FLOAT_JUMP
  kStr,            // BINARY_OP_ADD_UNICODE, BINARY_OP_INPLACE_ADD_UNICODE, COMPARE_OP_STR_JUMP
  kListInt,        // BINARY_SUBSCR_LIST_INT, STORE_SUBSCR_LIST_INT: an exact list and an int
  kTupleInt,       // BINARY_SUBSCR_TUPLE_INT
  kDict,           // BINARY_SUBSCR_DICT, STORE_SUBSCR_DICT: an exact dict
  kGetItem,        // BINARY_SUBSCR_GETITEM: a class with a Python __getitem__
  kTuple,          // UNPACK_SEQUENCE_TWO_TUPLE, UNPACK_SEQUENCE_TUPLE: an exact tuple
  kList,           // UNPACK_SEQUENCE_LIST: an exact list
  kInstance,       // LOAD_ATTR_INSTANCE_VALUE, STORE_ATTR_INSTANCE_VALUE, LOAD_METHOD_WITH_VALUES,
                   // LOAD_METHOD_NO_DICT: an attribute or method found through the type
  kModule,         // LOAD_ATTR_MODULE, LOAD_METHOD_MODULE: an attribute of a module
  kGlobalModule,   // LOAD_GLOBAL_MODULE: the name was found in the globals
  kGlobalBuiltin,  // LOAD_GLOBAL_BUILTIN: the name was found in the builtins
  kSlot,           // LOAD_ATTR_SLOT, STORE_ATTR_SLOT: a `__slots__` member of the object's type
  kDictHint,       // LOAD_ATTR_WITH_HINT, STORE_ATTR_WITH_HINT: an attribute in a real __dict__
  // On a CALL, from the PRECALL before it: a builtin C function or a builtin class called
  // through its vectorcall (PRECALL_NO_KW_BUILTIN_{O,FAST}, PRECALL_BUILTIN_FAST_WITH_KEYWORDS,
  // PRECALL_BUILTIN_CLASS)
  kCFunction,
  // On a CALL, from the PRECALL before it: a C method descriptor of the object's type
  // (PRECALL_NO_KW_METHOD_DESCRIPTOR_{NOARGS,O,FAST}, PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS)
  kMethodDescriptor,
  kOther,  // any other specialised form (class methods, methods of dict instances, a
           // CALL of a Python function: PRECALL_PYFUNC, PRECALL_BOUND_METHOD)
};

// The feedback of one code unit's quickened opcode (CPython's opcode.h numbers). A CALL's is
// its PRECALL's: 3.11 specialises the pair there.
Feedback FeedbackOf(int quickened_opcode);

// The name the HIR printer shows ("float", "list-int", ...); "" for kNone.
const char* FeedbackName(Feedback f);

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_FEEDBACK_H_
