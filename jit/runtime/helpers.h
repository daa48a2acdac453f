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

// X(function, consumes, error): the whole table.
//   consumes  whose references the function takes over: kNone (it borrows its operands), kAll
//             (every object operand, on every path), kSome (some, or only on some outcomes:
//             its declaration below says which)
//   error     how it reports an error: kNull (a new reference, or NULL with an exception
//             set), kNegative (an int, negative with an exception set), kCannotFail, kOwn (a
//             convention of its own, which its declaration below describes)
// An op lowered as one helper call (hir/ops.h's Call column) must agree with its helper:
// jit/lower/call_rules.h checks at compile time that the op steals its operands exactly when
// the helper consumes them all, and that the call's outcome is the helper's way of failing.
// clang-format off
#define A64JIT_HELPERS(X)                               \
  /* name                           consumes error */   \
  /* Written here */                                    \
  X(a64_load_global,                kNone, kOwn)        \
  X(a64_load_global_cached,         kNone, kOwn)        \
  X(a64_load_global_module_cached,  kNone, kOwn)        \
  X(a64_module_attr_of_global,      kNone, kOwn)        \
  X(a64_module_attr_into_frame,     kNone, kOwn)        \
  X(a64_load_attr_cached,           kNone, kNull)       \
  X(a64_getitem_cached,             kNone, kNull)       \
  X(a64_dict_getitem,               kNone, kNull)       \
  X(a64_dict_setitem,               kNone, kNegative)   \
  X(a64_store_attr_cached,          kNone, kNegative)   \
  X(a64_load_method,                kNone, kNegative)   \
  X(a64_load_method_cached,         kNone, kNegative)   \
  X(a64_load_method_super,          kNone, kOwn)        \
  X(a64_load_method_super_of,       kNone, kOwn)        \
  X(a64_compare_bool,               kNone, kNegative)   \
  X(a64_compare_value,              kNone, kNull)       \
  X(a64_compare_tuple_items,        kNone, kNull)       \
  X(a64_contains_in_tuple,          kNone, kNegative)   \
  X(a64_int_of,                     kNone, kNull)       \
  X(a64_call,                       kAll,  kNull)       \
  X(a64_call_enter,                 kAll,  kOwn)        \
  X(a64_call_kw_enter,              kAll,  kOwn)        \
  X(a64_call_leave,                 kSome, kNull)       \
  X(a64_init_enter,                 kAll,  kOwn)        \
  X(a64_init_leave,                 kSome, kNull)       \
  X(a64_after_c_call,               kAll,  kNull)       \
  X(a64_build_list,                 kAll,  kNull)       \
  X(a64_build_tuple,                kAll,  kNull)       \
  X(a64_build_map,                  kAll,  kNull)       \
  X(a64_build_const_key_map,        kSome, kNull)       \
  X(a64_build_string,               kSome, kNull)       \
  X(a64_format_value,               kNone, kNull)       \
  X(a64_unpack_sequence,            kNone, kNegative)   \
  X(a64_list_extend,                kNone, kNegative)   \
  X(a64_make_function,              kAll,  kNull)       \
  X(a64_for_iter,                   kNone, kOwn)        \
  X(a64_power,                      kNone, kNull)       \
  X(a64_inplace_power,              kNone, kNull)       \
  X(a64_binary_object,              kNone, kNull)       \
  X(a64_make_cell,                  kNone, kNegative)   \
  X(a64_build_set,                  kAll,  kNull)       \
  X(a64_dict_update,                kNone, kNegative)   \
  X(a64_dict_merge,                 kNone, kNegative)   \
  X(a64_call_ex,                    kNone, kNull)       \
  X(a64_unpack_ex,                  kNone, kNegative)   \
  X(a64_store_global,               kNone, kNegative)   \
  X(a64_delete_global,              kNone, kOwn)        \
  X(a64_import_name,                kNone, kNull)       \
  X(a64_import_from,                kNone, kNull)       \
  X(a64_get_len,                    kNone, kNull)       \
  X(a64_get_slice,                  kNone, kNull)       \
  X(a64_box_int,                    kNone, kNull)       \
  X(a64_box_int_reusing,            kNone, kNull)       \
  X(a64_binary_op_into_local,       kSome, kOwn)        \
  X(a64_number_add,                 kNone, kNull)       \
  X(a64_str_concat,                 kNone, kNull)       \
  X(a64_number_subtract,            kNone, kNull)       \
  X(a64_number_multiply,            kNone, kNull)       \
  X(a64_number_true_divide,         kNone, kNull)       \
  X(a64_number_inplace_add,         kNone, kNull)       \
  X(a64_number_inplace_subtract,    kNone, kNull)       \
  X(a64_number_inplace_multiply,    kNone, kNull)       \
  X(a64_number_inplace_true_divide, kNone, kNull)       \
  X(a64_number_floor_divide,        kNone, kNull)       \
  X(a64_number_remainder,           kNone, kNull)       \
  X(a64_number_and,                 kNone, kNull)       \
  X(a64_number_or,                  kNone, kNull)       \
  X(a64_number_xor,                 kNone, kNull)       \
  X(a64_number_lshift,              kNone, kNull)       \
  X(a64_number_rshift,              kNone, kNull)       \
  X(a64_number_inplace_floor_divide, kNone, kNull)       \
  X(a64_number_inplace_remainder,   kNone, kNull)       \
  X(a64_number_inplace_and,         kNone, kNull)       \
  X(a64_number_inplace_or,          kNone, kNull)       \
  X(a64_number_inplace_xor,         kNone, kNull)       \
  X(a64_number_inplace_lshift,      kNone, kNull)       \
  X(a64_number_inplace_rshift,      kNone, kNull)       \
  X(a64_dealloc,                    kAll,  kCannotFail) \
  X(a64_dealloc_at,                 kAll,  kCannotFail) \
  X(a64_release_by_stub,            kAll,  kCannotFail) \
  X(a64_binary_op_by_stub,          kSome, kOwn)        \
  X(a64_isinstance,                 kNone, kNegative)   \
  X(a64_isinstance_items,           kNone, kNull)       \
  X(a64_match_keys,                 kNone, kNull)       \
  X(a64_match_class,                kNone, kNull)       \
  X(a64_load_build_class,           kNone, kNull)       \
  X(a64_before_with,                kNone, kNegative)   \
  X(a64_get_awaitable,              kNone, kNull)       \
  X(a64_get_aiter,                  kNone, kNull)       \
  X(a64_get_anext,                  kNone, kNull)       \
  X(a64_get_yield_from_iter,        kNone, kNull)       \
  X(a64_send,                       kNone, kNegative)   \
  X(a64_send_end,                   kSome, kNegative)   \
  X(a64_async_gen_wrap,             kNone, kNull)       \
  X(a64_make_generator,             kNone, kOwn)        \
  X(a64_eval_breaker,               kNone, kOwn)        \
  X(a64_frame_lasti,                kNone, kNull)       \
  X(a64_catch_exception,            kNone, kOwn)        \
  X(a64_push_exc_info,              kNone, kCannotFail) \
  X(a64_pop_except,                 kAll,  kCannotFail) \
  X(a64_check_exc_match,            kNone, kNegative)   \
  X(a64_is_stop_async_iteration,    kNone, kNegative)   \
  X(a64_with_except_start,          kNone, kNull)       \
  X(a64_raise,                      kAll,  kOwn)        \
  X(a64_reraise,                    kSome, kOwn)        \
  /* libpython */                                       \
  X(_Py_Dealloc,                    kAll,  kCannotFail) \
  X(PySlice_New,                    kNone, kNull)       \
  X(PyList_Append,                  kNone, kNegative)   \
  X(PyList_AsTuple,                 kNone, kNull)       \
  X(PyTuple_New,                    kNone, kNull)       \
  X(PyLong_FromLongLong,            kNone, kNull)       \
  X(PyLong_FromSsize_t,             kNone, kNull)       \
  X(PyObject_IsInstance,            kNone, kNegative)   \
  X(PyFloat_FromDouble,             kNone, kNull)       \
  X(PySet_Add,                      kNone, kNegative)   \
  X(_PySet_Update,                  kNone, kNegative)   \
  X(PyDict_SetItem,                 kNone, kNegative)   \
  X(PyObject_DelItem,               kNone, kNegative)   \
  X(PyObject_GetAttr,               kNone, kNull)       \
  X(PyObject_Str,                   kNone, kNull)       \
  X(PySequence_Tuple,               kNone, kNull)       \
  X(PyObject_Size,                  kNone, kNegative)   \
  X(PyObject_SetAttr,               kNone, kNegative)   \
  X(PyObject_RichCompare,           kNone, kNull)       \
  X(PyObject_GetItem,               kNone, kNull)       \
  X(PyObject_SetItem,               kNone, kNegative)   \
  X(PySequence_Contains,            kNone, kNegative)   \
  X(PyObject_GetIter,               kNone, kNull)       \
  X(PyObject_IsTrue,                kNone, kNegative)   \
  X(PyNumber_Negative,              kNone, kNull)       \
  X(PyNumber_Positive,              kNone, kNull)       \
  X(PyNumber_Invert,                kNone, kNull)       \
  X(PyNumber_Add,                   kNone, kNull)       \
  X(PyNumber_And,                   kNone, kNull)       \
  X(PyNumber_FloorDivide,           kNone, kNull)       \
  X(PyNumber_Lshift,                kNone, kNull)       \
  X(PyNumber_MatrixMultiply,        kNone, kNull)       \
  X(PyNumber_Multiply,              kNone, kNull)       \
  X(PyNumber_Remainder,             kNone, kNull)       \
  X(PyNumber_Or,                    kNone, kNull)       \
  X(PyNumber_Rshift,                kNone, kNull)       \
  X(PyNumber_Subtract,              kNone, kNull)       \
  X(PyNumber_TrueDivide,            kNone, kNull)       \
  X(PyNumber_Xor,                   kNone, kNull)       \
  X(PyNumber_InPlaceAdd,            kNone, kNull)       \
  X(PyNumber_InPlaceAnd,            kNone, kNull)       \
  X(PyNumber_InPlaceFloorDivide,    kNone, kNull)       \
  X(PyNumber_InPlaceLshift,         kNone, kNull)       \
  X(PyNumber_InPlaceMatrixMultiply, kNone, kNull)       \
  X(PyNumber_InPlaceMultiply,       kNone, kNull)       \
  X(PyNumber_InPlaceRemainder,      kNone, kNull)       \
  X(PyNumber_InPlaceOr,             kNone, kNull)       \
  X(PyNumber_InPlaceRshift,         kNone, kNull)       \
  X(PyNumber_InPlaceSubtract,       kNone, kNull)       \
  X(PyNumber_InPlaceTrueDivide,     kNone, kNull)       \
  X(PyNumber_InPlaceXor,            kNone, kNull)       \
// clang-format on

namespace a64jit::runtime {

enum class Consumes : uint8_t { kNone, kAll, kSome };
enum class OnError : uint8_t { kNull, kNegative, kCannotFail, kOwn };

// The helpers written here (definitions in jit/python/helpers.cc). NULL or a negative int
// is an error with an exception set unless a comment says otherwise.

// LOAD_GLOBAL: globals, then builtins; NULL without an exception when missing (the
// interpreter then redoes the instruction and raises stock's exact error).
PyObject* a64_load_global(_PyInterpreterFrame* frame, PyObject* name);
// The site helpers below are what compiled code calls on a cache miss. Each takes its
// instruction from its cache's SiteHeader (site_cache.h): it sets prev_instr to it first and
// reads the name there. The frame is the thread's current one, the compiled code's own
// (python/interp_state.h's RunningFrame): not passing it is an instruction fewer at each of
// the stdlib's 18,000 such calls.
PyObject* a64_load_global_cached(GlobalCache* cache);
// The cache of a site whose inline check compares the globals' version tag alone: filled
// only with a value found in the globals (LOAD_GLOBAL_MODULE's case).
PyObject* a64_load_global_module_cached(GlobalCache* cache);
PyObject* a64_load_attr_cached(PyObject* obj, AttrCache* cache);
// BINARY_SUBSCR at a site 3.11 specialised to BINARY_SUBSCR_GETITEM: container[sub] by the
// class's Python __getitem__, called directly when the site's cache holds the class's version
// (jit/python/helpers_subscript.cc), else PyObject_GetItem.
PyObject* a64_getitem_cached(PyObject* container, PyObject* sub, GetItemCache* cache);
// BINARY_SUBSCR and STORE_SUBSCR at a site 3.11 specialised to BINARY_SUBSCR_DICT or
// STORE_SUBSCR_DICT: an exact dict's item through PyDict_GetItemWithError (KeyError when
// missing) or PyDict_SetItem, as those forms do, without PyObject_GetItem's or
// PyObject_SetItem's dispatch and dict_subscript's or dict_ass_sub's own tests; any other
// container through those two (helpers_subscript.cc).
PyObject* a64_dict_getitem(PyObject* container, PyObject* sub);
int a64_dict_setitem(PyObject* container, PyObject* sub, PyObject* value);
// LOAD_GLOBAL of a module and LOAD_ATTR or LOAD_METHOD of it (`math.sqrt`) as one call: the
// cold path of lower.module-attr-of-global, through the two sites' caches; `method`: the
// attribute's is LOAD_METHOD (`attr_cache` then a MethodCache). Returns 0 with out[0] the
// attribute, or out[0..1] LOAD_METHOD's pair; 1 when the global failed (as
// a64_load_global_module_cached: maybe without an exception), nothing held; 2 when the
// attribute failed (an exception set), out[0] then the module, a reference for the
// attribute instruction's error exit. prev_instr is the attribute's once the global is
// loaded.
int64_t a64_module_attr_of_global(_PyInterpreterFrame* frame, GlobalCache* global_cache,
                                  SiteCache* attr_cache, PyObject** out, int64_t method);
// The same with one result, for a cold path that is one call and one test, the attribute's
// cache the one after the global's (NextSiteCache): the attribute (a new reference; for LOAD_METHOD
// the attribute form, a method pair made bound as LOAD_ATTR would make it), or NULL. `how` is
// method | slot << 1: on NULL, frame->localsplus[slot] (the stack entry the module would take) is
// NULL when the global failed (no exception: the interpreter redoes LOAD_GLOBAL), or the module
// when the attribute failed (a reference, with an exception set), for the one exit attributes.cc's
// ModuleAttrExit makes.
PyObject* a64_module_attr_into_frame(_PyInterpreterFrame* frame, GlobalCache* global_cache,
                                     int64_t how);
int64_t a64_store_attr_cached(PyObject* obj, PyObject* value, AttrCache* cache);
// LOAD_METHOD: out[0], out[1] = method, self or NULL, attribute.
int a64_load_method(PyObject* obj, PyObject* name, PyObject** out);
int64_t a64_load_method_cached(PyObject* obj, PyObject** out, MethodCache* cache);
// LOAD_METHOD of `super().name` with the super() call before it (hir LoadMethodSuper): 0 and
// LOAD_METHOD's pair in out (new references), found as super_getattro finds it from the
// `__class__` cell and `first` (local 0) without making the super object; or -1, with nothing
// done and no exception set, where the interpreter must make the call and the LOAD_METHOD
// (jit/python/super_lookup.cc says which names the runtime takes).
int64_t a64_load_method_super(PyObject* super_global, PyObject* cell, PyObject* first,
                              PyObject* name, PyObject** out);
// The same for `super(cls, obj).name` (hir LoadMethodSuperOf).
int64_t a64_load_method_super_of(PyObject* super_global, PyObject* cls, PyObject* obj,
                                 PyObject* name, PyObject** out);
// bool(a op b): 1, 0, or -1 on error.
int a64_compare_bool(PyObject* a, PyObject* b, int64_t op);
// a op b as PyObject_RichCompare gives it, shorter for two numbers a64_compare_bool decides.
PyObject* a64_compare_value(PyObject* a, PyObject* b, int64_t op);
// a op (items[0], ..., items[n - 1]) as PyObject_RichCompare gives it, with no tuple made for
// an exact tuple `a` (hir CompareTupleItems).
PyObject* a64_compare_tuple_items(PyObject* a, PyObject** items, int64_t n, int64_t op);
// `item in tuple` (CONTAINS_OP of a constant tuple, always an exact tuple): 1, 0, or -1 on
// error, as PySequence_Contains gives it.
int a64_contains_in_tuple(PyObject* tuple, PyObject* item);
// int(x), one positional argument: what int's tp_new does with it (PyNumber_Long), inside
// the recursion check that calling a type makes (_PyObject_MakeTpCall), so that compiled code
// and the interpreter fail alike at the recursion limit.
PyObject* a64_int_of(PyThreadState* ts, PyObject* x);
// CALL over sp[0 .. oparg+1]: [callable|NULL, self|callable, args...], references moved.
PyObject* a64_call(PyThreadState* ts, PyObject** sp, int64_t oparg, PyObject* kwnames);
// The same CALL (without keywords), made by compiled code itself when the callee is
// compiled: returns the callee's entry, with its pushed frame in sp[0], for the caller to
// call as entry(ts, frame) and pass the outcome to a64_call_leave. Otherwise makes the
// whole call as a64_call does and returns 0 with the result (NULL on error) in sp[0].
// `c_call_cache` (0: none): the site's CCallCache, tagged (kCCallMethodShape), filled here
// when the callee is a C function that compiled code can call directly.
uint64_t a64_call_enter(PyThreadState* ts, PyObject** sp, uint64_t c_call_cache, int64_t oparg);
// The same for a CALL with keyword arguments, whose names are `kwnames` (KW_NAMES' constant
// tuple; the values are the last arguments): the keyword-call stub's helper
// (jit/lower/call_stub.h). A compiled callee's frame is pushed with its parameters bound, and
// its entry returned for the stub to call; else the whole call is made here.
uint64_t a64_call_kw_enter(PyThreadState* ts, PyObject** sp, int64_t oparg, PyObject* kwnames);
// The call stub's way with a site whose cache holds a class a64_instantiate takes
// (jit/python/instantiate.cc), CALL's sp[0 .. oparg+1] being [NULL, class, args...]: makes the
// object and pushes its compiled __init__'s frame with the object and the arguments' references,
// the frame then in sp[0] and the object in sp[1], and returns the entry to call as
// entry(ts, frame), whose outcome goes to a64_init_leave. Otherwise makes the whole call and
// returns 0 with the result (the object, or NULL on error) in sp[0]. `cache`: the site's, whose
// InitMemo it reads and fills.
uint64_t a64_init_enter(PyThreadState* ts, PyObject** sp, int64_t oparg, CCallCache* cache);
// What the entry a64_init_enter gave returned -> the object when __init__ returned None, else
// NULL (with type_call's TypeError for another value); the frame is popped.
PyObject* a64_init_leave(PyThreadState* ts, PyObject** sp, uint64_t result);
// After a C call made by compiled code with the eval breaker set: handles it (a signal
// handler may raise) and returns `result`, or NULL (released) with the exception set.
PyObject* a64_after_c_call(PyThreadState* ts, PyObject* result);
// What the entry a64_call_enter gave returned -> the call's result (NULL on error); the
// frame is popped, and `result` (the entry's new reference, or a deopt code) is taken over.
PyObject* a64_call_leave(PyThreadState* ts, _PyInterpreterFrame* frame, uint64_t result);
// BUILD_LIST, BUILD_TUPLE: consume items[0 .. n-1] on every path. BUILD_MAP:
// n pairs, items[0 .. 2n-1]. BUILD_CONST_KEY_MAP: consumes values[0 .. n-1] and borrows
// `keys` (a co_consts tuple).
PyObject* a64_build_list(PyObject** items, int64_t n);
PyObject* a64_build_tuple(PyObject** items, int64_t n);
PyObject* a64_build_map(PyObject** items, int64_t n);
PyObject* a64_build_const_key_map(PyObject** values, int64_t n, PyObject* keys);
// BUILD_STRING: consumes items[i] unless bit i of `lent` is set (hir::Instr::borrowed).
PyObject* a64_build_string(PyObject** items, int64_t n, uint64_t lent);
PyObject* a64_format_value(PyObject* value, PyObject* spec, int64_t conversion);
int a64_list_extend(PyObject* list, PyObject* iterable);
PyObject* a64_make_function(_PyInterpreterFrame* frame, PyObject** items, int64_t n, int64_t flags,
                            FunctionCache* cache);
// FOR_ITER: the next value, NULL when exhausted, (PyObject*)1 on error.
PyObject* a64_for_iter(PyObject* iter);
// BINARY_OP ** (and in place): PyNumber_Power(a, b, None), shorter for a positive finite base
// and a finite exponent that are exact floats or ints of one digit, one a float
// (helpers_numbers.cc).
PyObject* a64_power(PyObject* a, PyObject* b);
PyObject* a64_inplace_power(PyObject* a, PyObject* b);
// BINARY_OP (nb: its NB_* oparg) where the operands are not expected to be numbers: a left
// operand whose class defines the operator in Python has it called directly, with a right
// operand of its class, an int or float, or another such class (jit/python/helpers_dunders.cc
// says when); anything else is PyNumber_*'s.
PyObject* a64_binary_object(PyObject* a, PyObject* b, int64_t nb);

// ---- Cells and closures (definitions in jit/python/helpers_closures.cc) ----
// MAKE_CELL: localsplus[index] becomes a new cell holding its old value (which may be NULL).
int a64_make_cell(_PyInterpreterFrame* frame, int64_t index);

// ---- Containers, calls, names (jit/python/helpers_objects.cc). Operands are borrowed
// unless a comment says "consumes". ----
// BUILD_SET: consumes items[0 .. n-1].
PyObject* a64_build_set(PyObject** items, int64_t n);
// DICT_UPDATE: stock's "'%.200s' object is not a mapping" on AttributeError.
int a64_dict_update(PyObject* dict, PyObject* update);
// DICT_MERGE: `func` is the callable (for stock's "... argument after ** must be a
// mapping" and "... got multiple values for keyword argument" messages).
int a64_dict_merge(PyObject* func, PyObject* dict, PyObject* update);
// CALL_FUNCTION_EX: func(*callargs, **kwargs); kwargs may be NULL. Converts callargs to a
// tuple and kwargs to a dict as stock does, with stock's messages.
PyObject* a64_call_ex(PyObject* func, PyObject* callargs, PyObject* kwargs);
// UNPACK_SEQUENCE: out[0 .. n-1] from bottom to top of the stack it leaves.
int a64_unpack_sequence(PyObject* seq, int64_t n, PyObject** out);
// UNPACK_EX: out[0 .. before+after] (before + 1 + after values: the list in the middle),
// bottom to top of the stack it leaves, as a64_unpack_sequence. Stock's messages.
int a64_unpack_ex(PyObject* seq, int64_t before, int64_t after, PyObject** out);
int a64_store_global(_PyInterpreterFrame* frame, PyObject* name, PyObject* value);
// DELETE_GLOBAL: 0 deleted; 1 the name is not a global (no exception set: the interpreter
// redoes the instruction and raises stock's NameError); -1 error.
int a64_delete_global(_PyInterpreterFrame* frame, PyObject* name);
PyObject* a64_import_name(_PyInterpreterFrame* frame, PyObject* name, PyObject* fromlist,
                          PyObject* level);
PyObject* a64_import_from(PyObject* module, PyObject* name);
// GET_LEN: len(obj) as an int object.
PyObject* a64_get_len(PyObject* obj);
// container[start:stop], BUILD_SLICE 2 and BINARY_SUBSCR fused (hir::Op::kGetSlice): an exact
// str, list or tuple with None or exact-int bounds is sliced without a slice object, as its
// mp_subscript would slice it; anything else makes the slice and calls PyObject_GetItem.
PyObject* a64_get_slice(PyObject* container, PyObject* start, PyObject* stop);
// PyLong_FromLongLong(v), faster for what compiled code boxes after its small-int test: an
// int of one digit (|v| < 2**30) taken from the runtime's int free list (a64_dealloc fills
// it) or made here as 3.11's _PyLong_FromMedium makes it, without PyLong_FromLongLong's
// tests and _Py_NewReference's call; the small ints (-5 to 256, singletons), larger ones,
// and any while tracemalloc traces (it must see each new reference) by PyLong_FromLongLong.
PyObject* a64_box_int(int64_t v);
// a64_box_int(v) for a value about to be stored into the local `*slot` (STORE_FAST right
// after the BINARY_OP that made it): when the local's old value is an exact int of one or two
// digits whose only reference is the local's (no one else can see it change) and v is not a
// small int and has no more digits than it, v is written into that int, which is returned
// with a new reference (the store then releases the local's): `n = 3 * n + 1` and
// `h = (h ^ b) * 16777619 & 0xFFFFFFFF` cost no allocation and no deallocation.
PyObject* a64_box_int_reusing(int64_t v, PyObject** slot);
// BINARY_OP `nb` (one with a float form: + - * /, plain or in place) of a and b, and the
// STORE_FAST of its result right after it, for compiled code whose hot path wrote the result
// into the local's old float (arithmetic.cc BoxFloatResult): what is between the two, in stock's
// order. `how` is nb | releases << 8 | gap << 10 | local << 12: prev_instr names the
// operation's code unit, `gap` (0 to 3) before `store_unit`, while it runs (so compiled code
// does not set it); the operands whose bit is set in `releases` (1: a, 2: b) are released,
// then the result goes into the frame's local `local` and its old value is released with
// prev_instr at code unit `store_unit`. The frame is the running one, as for the site helpers
// above. Returns 1, or 0 with an exception set and nothing released or stored. For + of two
// strs where the local holds a (`s += t`), t is appended to a's own object when no one else
// holds a reference to it, as 3.11's BINARY_OP_INPLACE_ADD_UNICODE does.
int64_t a64_binary_op_into_local(PyObject* a, PyObject* b, int64_t how, int64_t store_unit);
// BINARY_OP + - * / (and in place) as PyNumber_Add and its kin compute them, shorter for the
// mixed operands 3.11 does not specialise: an exact float and an exact int of one digit at most,
// either way round, two exact floats, or two such ints divided; and for + - * two exact ints of
// at most two digits (helpers_numbers.cc).
PyObject* a64_number_add(PyObject* a, PyObject* b);
PyObject* a64_number_subtract(PyObject* a, PyObject* b);
PyObject* a64_number_multiply(PyObject* a, PyObject* b);
PyObject* a64_number_true_divide(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_add(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_subtract(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_multiply(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_true_divide(PyObject* a, PyObject* b);
// BINARY_OP + (`in_place`: +=) at a site 3.11 specialised to BINARY_OP_ADD_UNICODE, whose
// result no local takes back: two exact strs by PyUnicode_Concat, as that form does, without
// a64_number_add's number tests and PyNumber_Add's slot search; anything else by
// a64_number_add or a64_number_inplace_add.
PyObject* a64_str_concat(PyObject* a, PyObject* b, int64_t in_place);
// BINARY_OP // % & | ^ << >> (and in place) as PyNumber_FloorDivide and its kin compute them,
// in 64 bits for two exact ints of at most two digits whose result fits (helpers_numbers.cc).
PyObject* a64_number_floor_divide(PyObject* a, PyObject* b);
PyObject* a64_number_remainder(PyObject* a, PyObject* b);
PyObject* a64_number_and(PyObject* a, PyObject* b);
PyObject* a64_number_or(PyObject* a, PyObject* b);
PyObject* a64_number_xor(PyObject* a, PyObject* b);
PyObject* a64_number_lshift(PyObject* a, PyObject* b);
PyObject* a64_number_rshift(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_floor_divide(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_remainder(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_and(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_or(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_xor(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_lshift(PyObject* a, PyObject* b);
PyObject* a64_number_inplace_rshift(PyObject* a, PyObject* b);
// _Py_Dealloc(obj) for an object whose last reference compiled code released; an exact int
// of one digit goes on the runtime's int free list instead, while it has room and
// tracemalloc is not tracing (3.11 keeps no free list of ints; compiled code's loops make
// and drop one at almost every step).
void a64_dealloc(PyObject* obj);
// a64_dealloc(obj) for compiled code's decrefs: when deallocation may run code, `frame`'s
// prev_instr names code unit `unit` first (-1: it already names the right one), as 3.11
// keeps the line right for a __del__ or a weakref callback. An int that goes on the runtime's
// free list runs nothing, so needs none.
void a64_dealloc_at(PyObject* obj, _PyInterpreterFrame* frame, int64_t unit);
// a64_dealloc_at for a release stub (jit/codegen/release_stubs.h): `word` is the data word
// after the stub's call and `at` its address; returns where the code goes on.
uint64_t a64_release_by_stub(PyObject* obj, _PyInterpreterFrame* frame, uint64_t word, uint64_t at);
// a64_binary_op_into_local for the into-local stub (jit/codegen/into_local_stub.h): `regs` are
// x0-x28 as the stub's call found them and `at` the address of its two data words, which name
// the operands' registers and the rest. Returns where the code goes on (the continuation, or
// past the words), or 0 with an exception set.
uint64_t a64_binary_op_by_stub(const uint64_t* regs, uint64_t at);
// isinstance(x, cls) for x not exactly of type cls (compiled code tests that inline): 1 or 0
// when the types alone answered (no other code ran), kIsInstanceRanCode plus 1 or 0 when
// PyObject_IsInstance did (a metaclass's __instancecheck__, a __class__ property or a
// __getattr__ may have run Python code), or -1 with an exception set. For cls an exact type, 3.11
// answers PyType_IsSubtype(type(x), cls) and, when that fails, looks x.__class__ up in case it
// names another class. The lookup is skipped where it can only give type(x): x's type gets
// attributes generically (tp_getattro) and finds object's own __class__, a data descriptor
// that nothing in x's __dict__ can hide.
constexpr int kIsInstanceRanCode = 2;
int a64_isinstance(PyObject* x, PyObject* cls);
// callable(x, (items[0], ..., items[n - 1])) for hir IsInstanceOfItems: for `callable` the
// builtin isinstance (`expected`), what PyObject_IsInstance does with that tuple, made of
// a64_isinstance over the items without the tuple; for anything else a call with the tuple made.
PyObject* a64_isinstance_items(PyObject* callable, PyObject* x, PyObject* expected,
                               PyObject** items, int64_t n);
// MATCH_KEYS: a tuple of the values, or None when a key is missing.
PyObject* a64_match_keys(PyObject* subject, PyObject* keys);
// MATCH_CLASS: a tuple of the matched attributes, or None (a new reference) on no match.
PyObject* a64_match_class(PyObject* subject, PyObject* type, int64_t nargs, PyObject* names);
// LOAD_BUILD_CLASS: builtins.__build_class__.
PyObject* a64_load_build_class(_PyInterpreterFrame* frame);
// BEFORE_WITH / BEFORE_ASYNC_WITH (is_async): out[0] = the bound __exit__ (__aexit__),
// out[1] = the bound __enter__ (__aenter__), which compiled code then calls with no
// arguments. Stock's "does not support the context manager protocol" messages.
int a64_before_with(PyObject* mgr, PyObject** out, int64_t is_async);

// ---- Generators and coroutines (jit/python/helpers_generators.cc) ----
// GET_AWAITABLE: `where` is its oparg (1: after __aenter__, 2: after __aexit__).
PyObject* a64_get_awaitable(PyObject* iterable, int64_t where);
PyObject* a64_get_aiter(PyObject* obj);
// GET_ANEXT: the awaitable for the next item (aiter stays on the stack).
PyObject* a64_get_anext(PyObject* aiter);
// GET_YIELD_FROM_ITER: `frame` gives the code's flags (a coroutine may only be awaited
// from a coroutine or an iterable coroutine).
PyObject* a64_get_yield_from_iter(_PyInterpreterFrame* frame, PyObject* iterable);
// SEND: PYGEN_NEXT (1, *out yielded), PYGEN_RETURN (0, *out the return value) or
// PYGEN_ERROR (-1). `value` is not consumed.
int a64_send(PyObject* receiver, PyObject* value, PyObject** out);
// The send stub's end (jit/lower/send_stub.h) for a run it began on `receiver`, a generator or
// coroutine, and that ended in `result` (a deopt code, NULL, or a value the stub does not
// finish): as a64_send would have returned, *out set. Takes `result`'s reference.
int a64_send_end(PyThreadState* ts, PyObject* receiver, uint64_t result, PyObject** out);
// ASYNC_GEN_WRAP: value wrapped so the async generator yields it to its caller.
PyObject* a64_async_gen_wrap(PyObject* value);
// RETURN_GENERATOR: the generator, coroutine or async generator of the frame's function,
// with the frame moved into it (the frame is left as ceval.c leaves it: no locals, its own
// references to the function and code; the caller's frame is current again). NULL on error;
// (PyObject*)1, with nothing done, when coroutine origin tracking is on (the interpreter then makes
// it: that needs the hidden compute_cr_origin).
PyObject* a64_make_generator(PyThreadState* ts, _PyInterpreterFrame* frame);
// The eval breaker or tracing is set (compiled code tests both at RESUME and backward
// jumps): 0 when compiled code goes on (signal handlers, pending calls, a GIL hand-over and
// an asynchronous exception done as the interpreter does them), -1 with an exception set
// (it raises at the instruction), 1 when tracing or profiling is on (the interpreter takes
// the frame there and emits the events).
int64_t a64_eval_breaker(PyThreadState* ts);

// ---- Exception handlers (jit/python/helpers_exceptions.cc) ----
// The raising instruction's offset in code units (prev_instr), as an int.
PyObject* a64_frame_lasti(_PyInterpreterFrame* frame);
// The pending exception, caught by a handler of `frame` (the thread's current frame): the
// frame's traceback entry added (unless it was re-raised: `add_traceback` 0), normalised, its
// __traceback__ set; the exception is no longer pending. NULL, with the exception still pending and
// nothing done, while tracing or profiling is on (the interpreter then reports the exception event
// and runs the handler).
PyObject* a64_catch_exception(PyThreadState* ts, _PyInterpreterFrame* frame, int64_t add_traceback);
// PUSH_EXC_INFO: `exc` becomes the thread's handled exception; returns the one it replaces
// (None if none). Cannot fail.
PyObject* a64_push_exc_info(PyThreadState* ts, PyObject* exc);
// POP_EXCEPT: `value` (consumed) becomes the thread's handled exception again.
void a64_pop_except(PyThreadState* ts, PyObject* value);
// CHECK_EXC_MATCH: 1 if `exc` is an instance of `type` (a class or a tuple of classes), else
// 0; stock's TypeError for a type that is not an exception class.
int a64_check_exc_match(PyObject* exc, PyObject* type);
// END_ASYNC_FOR: 1 if `exc` is a StopAsyncIteration, else 0. Never negative (the kNegative
// convention of its row only lets lowering treat it as CHECK_EXC_MATCH's kind of test).
int a64_is_stop_async_iteration(PyObject* exc);
// WITH_EXCEPT_START: exit_func(type(exc), exc, exc.__traceback__).
PyObject* a64_with_except_start(PyObject* exit_func, PyObject* exc);
// RAISE_VARARGS 1 and 2: raises `exc` (a class is called first) with __cause__ `cause`
// (NULL: none given); consumes both. Always leaves an exception set.
void a64_raise(PyObject* exc, PyObject* cause);
// RERAISE: 0 with `exc` (consumed) pending again, its traceback as it is, and prev_instr set
// from `lasti` (an int, or NULL: left); 1, with nothing done, while tracing or profiling is on.
int64_t a64_reraise(PyThreadState* ts, _PyInterpreterFrame* frame, PyObject* exc, PyObject* lasti);

// The typed id of every helper: Helper::PyNumber_Add, Helper::a64_call, ...
enum class Helper : uint16_t {
#define A64JIT_HELPER_ID(fn, ...) fn,
  A64JIT_HELPERS(A64JIT_HELPER_ID)
#undef A64JIT_HELPER_ID
};

// The table's consumes and on-error columns, by helper.
inline constexpr Consumes kHelperConsumes[] = {
#define A64JIT_HELPER_CONSUMES(fn, consumes, on_error) Consumes::consumes,
    A64JIT_HELPERS(A64JIT_HELPER_CONSUMES)
#undef A64JIT_HELPER_CONSUMES
};
inline constexpr OnError kHelperOnError[] = {
#define A64JIT_HELPER_ON_ERROR(fn, consumes, on_error) OnError::on_error,
    A64JIT_HELPERS(A64JIT_HELPER_ON_ERROR)
#undef A64JIT_HELPER_ON_ERROR
};
constexpr Consumes HelperConsumes(Helper h) { return kHelperConsumes[static_cast<size_t>(h)]; }
constexpr OnError HelperOnError(Helper h) { return kHelperOnError[static_cast<size_t>(h)]; }

// The symbol compiled code calls (what LIR's `call @name` says).
const char* HelperName(Helper h);
// The number of arguments the helper's C type takes.
int HelperArity(Helper h);

}  // namespace a64jit::runtime

#endif  // A64JIT_JIT_RUNTIME_HELPERS_H_
