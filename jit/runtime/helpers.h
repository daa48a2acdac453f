// Every function compiled code may call, declared once. Lowering names a helper by its
// typed id (`Helper::PyNumber_Add`); the runtime (jit/python/helpers.cc) takes each
// helper's address, and its signature for Unicorn, from the same table row. A helper that
// lowering uses but the table lacks does not compile; one the table lists but nobody
// defines does not link.
//
// The id of a helper is the function's own name, so a row is one word and a reader never
// has to map an id to the function it calls. Helpers named a64_* are written here (where
// 3.11's own are static or hidden); the rest come straight from libpython.
#ifndef A64JIT_JIT_RUNTIME_HELPERS_H_
#define A64JIT_JIT_RUNTIME_HELPERS_H_

#include <Python.h>

#include <cstdint>

#include "jit/runtime/site_cache.h"

struct _PyInterpreterFrame;

// X(function): the whole table.
// clang-format off
#define A64JIT_HELPERS(X)           \
  /* Written here */                \
  X(a64_load_global)                \
  X(a64_load_global_cached)         \
  X(a64_load_attr_cached)           \
  X(a64_store_attr_cached)          \
  X(a64_load_method)                \
  X(a64_load_method_cached)         \
  X(a64_compare_bool)               \
  X(a64_call)                       \
  X(a64_build_list)                 \
  X(a64_build_tuple)                \
  X(a64_build_map)                  \
  X(a64_build_const_key_map)        \
  X(a64_build_string)               \
  X(a64_format_value)               \
  X(a64_unpack_sequence)            \
  X(a64_list_extend)                \
  X(a64_make_function)              \
  X(a64_for_iter)                   \
  X(a64_power)                      \
  X(a64_inplace_power)              \
  /* libpython */                   \
  X(_Py_Dealloc)                    \
  X(PySlice_New)                    \
  X(PyList_Append)                  \
  X(PyObject_GetAttr)               \
  X(PyObject_SetAttr)               \
  X(PyObject_RichCompare)           \
  X(PyObject_GetItem)               \
  X(PyObject_SetItem)               \
  X(PySequence_Contains)            \
  X(PyObject_GetIter)               \
  X(PyObject_IsTrue)                \
  X(PyNumber_Negative)              \
  X(PyNumber_Positive)              \
  X(PyNumber_Invert)                \
  X(PyNumber_Add)                   \
  X(PyNumber_And)                   \
  X(PyNumber_FloorDivide)           \
  X(PyNumber_Lshift)              \
  X(PyNumber_MatrixMultiply)        \
  X(PyNumber_Multiply)              \
  X(PyNumber_Remainder)             \
  X(PyNumber_Or)                    \
  X(PyNumber_Rshift)                \
  X(PyNumber_Subtract)              \
  X(PyNumber_TrueDivide)            \
  X(PyNumber_Xor)                   \
  X(PyNumber_InPlaceAdd)            \
  X(PyNumber_InPlaceAnd)            \
  X(PyNumber_InPlaceFloorDivide)    \
  X(PyNumber_InPlaceLshift)         \
  X(PyNumber_InPlaceMatrixMultiply) \
  X(PyNumber_InPlaceMultiply)       \
  X(PyNumber_InPlaceRemainder)      \
  X(PyNumber_InPlaceOr)             \
  X(PyNumber_InPlaceRshift)         \
  X(PyNumber_InPlaceSubtract)       \
  X(PyNumber_InPlaceTrueDivide)     \
  X(PyNumber_InPlaceXor)
// clang-format on

namespace a64jit::runtime {

// The helpers written here (definitions in jit/python/helpers.cc). NULL or a negative int
// is an error with an exception set unless a comment says otherwise.

// LOAD_GLOBAL: globals, then builtins; NULL without an exception when missing (the
// interpreter then redoes the instruction and raises stock's exact error).
PyObject* a64_load_global(_PyInterpreterFrame* frame, PyObject* name);
PyObject* a64_load_global_cached(_PyInterpreterFrame* frame, PyObject* name, GlobalCache* cache);
PyObject* a64_load_attr_cached(PyObject* obj, PyObject* name, AttrCache* cache);
int a64_store_attr_cached(PyObject* obj, PyObject* name, PyObject* value, AttrCache* cache);
// LOAD_METHOD: out[0], out[1] = method, self or NULL, attribute.
int a64_load_method(PyObject* obj, PyObject* name, PyObject** out);
int a64_load_method_cached(PyObject* obj, PyObject* name, PyObject** out, MethodCache* cache);
// bool(a op b): 1, 0, or -1 on error.
int a64_compare_bool(PyObject* a, PyObject* b, int64_t op);
// CALL over sp[0 .. oparg+1]: [callable|NULL, self|callable, args...], references moved.
PyObject* a64_call(PyThreadState* ts, PyObject** sp, int64_t oparg, PyObject* kwnames);
PyObject* a64_build_list(PyObject** items, int64_t n);
PyObject* a64_build_tuple(PyObject** items, int64_t n);
PyObject* a64_build_map(PyObject** items, int64_t n);
PyObject* a64_build_const_key_map(PyObject** values, int64_t n, PyObject* keys);
PyObject* a64_build_string(PyObject** items, int64_t n);
PyObject* a64_format_value(PyObject* value, PyObject* spec, int64_t conversion);
// UNPACK_SEQUENCE: out[0 .. n-1] from bottom to top of the stack it leaves.
int a64_unpack_sequence(PyObject* seq, int64_t n, PyObject** out);
int a64_list_extend(PyObject* list, PyObject* iterable);
PyObject* a64_make_function(_PyInterpreterFrame* frame, PyObject** items, int64_t n, int64_t flags);
// FOR_ITER: the next value, NULL when exhausted, (PyObject*)1 on error.
PyObject* a64_for_iter(PyObject* iter);
PyObject* a64_power(PyObject* a, PyObject* b);
PyObject* a64_inplace_power(PyObject* a, PyObject* b);

// The typed id of every helper: Helper::PyNumber_Add, Helper::a64_call, ...
enum class Helper : uint16_t {
#define A64JIT_HELPER_ID(fn) fn,
  A64JIT_HELPERS(A64JIT_HELPER_ID)
#undef A64JIT_HELPER_ID
};

// The symbol compiled code calls (what LIR's `call @name` says).
const char* HelperName(Helper h);
// The number of arguments the helper's C type takes.
int HelperArity(Helper h);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_HELPERS_H_
