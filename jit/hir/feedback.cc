#include "jit/hir/feedback.h"

#include <Python.h>
#include <opcode.h>

namespace a64jit::hir {

Feedback FeedbackOf(int quickened_opcode) {
  switch (quickened_opcode) {
    case BINARY_OP_ADD_INT:
    case BINARY_OP_SUBTRACT_INT:
    case BINARY_OP_MULTIPLY_INT:
    case COMPARE_OP_INT_JUMP:
      return Feedback::kInt;
    case BINARY_OP_ADD_FLOAT:
    case BINARY_OP_SUBTRACT_FLOAT:
    case BINARY_OP_MULTIPLY_FLOAT:
    case COMPARE_OP_FLOAT_JUMP:
      return Feedback::kFloat;
    case BINARY_OP_ADD_UNICODE:
    case BINARY_OP_INPLACE_ADD_UNICODE:
    case COMPARE_OP_STR_JUMP:
      return Feedback::kStr;
    case BINARY_SUBSCR_LIST_INT:
    case STORE_SUBSCR_LIST_INT:
      return Feedback::kListInt;
    case BINARY_SUBSCR_TUPLE_INT:
      return Feedback::kTupleInt;
    case BINARY_SUBSCR_DICT:
    case STORE_SUBSCR_DICT:
      return Feedback::kDict;
    case BINARY_SUBSCR_GETITEM:
      return Feedback::kGetItem;
    case UNPACK_SEQUENCE_TWO_TUPLE:
    case UNPACK_SEQUENCE_TUPLE:
      return Feedback::kTuple;
    case UNPACK_SEQUENCE_LIST:
      return Feedback::kList;
    case LOAD_ATTR_INSTANCE_VALUE:
    case STORE_ATTR_INSTANCE_VALUE:
    case LOAD_METHOD_WITH_VALUES:
    case LOAD_METHOD_NO_DICT:
      return Feedback::kInstance;
    case LOAD_ATTR_MODULE:
    case LOAD_METHOD_MODULE:
      return Feedback::kModule;
    case LOAD_GLOBAL_MODULE:
      return Feedback::kGlobalModule;
    case LOAD_GLOBAL_BUILTIN:
      return Feedback::kGlobalBuiltin;
    case LOAD_ATTR_SLOT:
    case STORE_ATTR_SLOT:
      return Feedback::kSlot;
    case LOAD_ATTR_WITH_HINT:
    case STORE_ATTR_WITH_HINT:
      return Feedback::kDictHint;
    case PRECALL_NO_KW_BUILTIN_O:
    case PRECALL_NO_KW_BUILTIN_FAST:
    case PRECALL_BUILTIN_FAST_WITH_KEYWORDS:
    case PRECALL_BUILTIN_CLASS:
      return Feedback::kCFunction;
    case PRECALL_NO_KW_METHOD_DESCRIPTOR_NOARGS:
    case PRECALL_NO_KW_METHOD_DESCRIPTOR_O:
    case PRECALL_NO_KW_METHOD_DESCRIPTOR_FAST:
    case PRECALL_METHOD_DESCRIPTOR_FAST_WITH_KEYWORDS:
      return Feedback::kMethodDescriptor;
    case PRECALL_PYFUNC:  // a Python function or bound method: no C call to inline
    case PRECALL_BOUND_METHOD:
    case LOAD_METHOD_CLASS:
    case LOAD_METHOD_WITH_DICT:
      return Feedback::kOther;
    default:
      return Feedback::kNone;
  }
}

const char* FeedbackName(Feedback f) {
  switch (f) {
    case Feedback::kNone:
      return "";
    case Feedback::kInt:
      return "int";
    case Feedback::kFloat:
      return "float";
    case Feedback::kStr:
      return "str";
    case Feedback::kListInt:
      return "list-int";
    case Feedback::kTupleInt:
      return "tuple-int";
    case Feedback::kDict:
      return "dict";
    case Feedback::kGetItem:
      return "getitem";
    case Feedback::kTuple:
      return "tuple";
    case Feedback::kList:
      return "list";
    case Feedback::kInstance:
      return "instance";
    case Feedback::kModule:
      return "module";
    case Feedback::kGlobalModule:
      return "global-module";
    case Feedback::kGlobalBuiltin:
      return "global-builtin";
    case Feedback::kSlot:
      return "slot";
    case Feedback::kDictHint:
      return "dict-hint";
    case Feedback::kCFunction:
      return "c-function";
    case Feedback::kMethodDescriptor:
      return "method-descriptor";
    case Feedback::kOther:
      return "other";
  }
  return "";
}

}  // namespace a64jit::hir
