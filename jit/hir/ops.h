// Every HIR op, listed once, with the facts the passes and lowering need. Adding an op is
// adding a row here, a bytecode rule (jit/hir/rules_*.cc, named in builder.cc's table) and a
// lowering rule, Rule<Op>, in jit/lower/lower.cc (declared and tabled from this list, so a
// missing rule does not link); every switch over Op has no `default:`, so with -Werror=switch the
// compiler names each other place that must handle it.
//
// Columns:
//   name      Op::k<name>, and the name the HIR printer shows
//   result    what the op's (first) result is, for reference counting:
//               kNone            no result
//               kOwned           a new reference
//               kOwnedOrNull     a new reference or NULL
//               kBorrowedStable  borrowed and stays valid (constants, True/False)
//               kBorrowedMutable borrowed from something that may change (a local, COPY)
//               kNull            always NULL
//               kCInt            a C integer (truth values, comparison results)
//   steals    the op takes over the references of all its operands
//   leaves    it may leave for the interpreter (it carries a frame state: an error, or a
//             resume where the interpreter redoes the instruction)
//   pure      no side effect: removable when its result is unused and it has no state
//   arity     operand count, or kVariadic
//   kind      kPlain, or kTerminator (ends a block)
//   immediate what the immediate means (ImmKind), which the printer follows
//   lowering  (optional, on a line of its own) Call(helper, lead, tail, outcome): the op is
//             lowered as one call of that jit/runtime/helpers.h function, its arguments the
//             lead, the operands and the tail, its result reported as the outcome says
//             (jit/lower/call_rules.h). Without it the op has a rule of its own, Rule<Op> in
//             jit/lower/lower.cc; an op with neither does not compile. HIR itself never reads
//             this column.
//
// Operands and immediates of each op are documented on its row.
#ifndef A64JIT_JIT_HIR_OPS_H_
#define A64JIT_JIT_HIR_OPS_H_

#include <cstddef>
#include <cstdint>

namespace a64jit::hir {

enum class Result : uint8_t {
  kNone,
  kOwned,
  kOwnedOrNull,
  kBorrowedStable,
  kBorrowedMutable,
  kNull,
  kCInt
};

constexpr int kVariadic = -1;

// clang-format off
#define A64JIT_HIR_OPS(X)                                                                      \
  /* name             result            steals leaves pure   arity      kind         immediate */ \
  /* %d = locals[local]; `checked`: an unbound local resumes the interpreter */                \
  X(LoadLocal,        kBorrowedMutable, false, true,  true,  0,         kPlain,      kLocal)   \
  /* locals[local] = %a; the old value is released */                                          \
  X(StoreLocal,       kNone,            true,  false, false, 1,         kPlain,      kLocal)   \
  /* %d = co_consts[imm] (the code object keeps it alive) */                                   \
  X(LoadConst,        kBorrowedStable,  false, false, true,  0,         kPlain,      kConst)   \
  /* %d = NULL (the 3.11 call protocol's "no self") */                                         \
  X(LoadNull,         kNull,            false, false, true,  0,         kPlain,      kNone)    \
  /* %d = globals, then builtins [co_names[imm]]; missing: resume the interpreter */           \
  X(LoadGlobal,       kOwned,           false, true,  false, 0,         kPlain,      kName)    \
  /* %d = %a.co_names[imm] */                                                                  \
  X(LoadAttr,         kOwned,           false, true,  false, 1,         kPlain,      kName)    \
  /* %a.co_names[imm] = %b */                                                                  \
  X(StoreAttr,        kNone,            false, true,  false, 2,         kPlain,      kName)    \
  /* %d, %d2 = [method, self] or [NULL, attribute] for %a.co_names[imm] */                     \
  X(LoadMethod,       kOwnedOrNull,     false, true,  false, 1,         kPlain,      kName)    \
  /* %d, %d2 = LoadMethod's pair for super().co_names[imm], the super() call before it */      \
  /* fused in (rules_values.cc FuseSuperMethod): %a the global `super`, %b the `__class__` */   \
  /* cell, %c local 0; no super object is made. Where that is not the builtin super, or the */ \
  /* name needs more than reading the MRO's dicts: resume at the CALL, whose stack it keeps */  \
  X(LoadMethodSuper,  kOwnedOrNull,     false, true,  false, 3,         kPlain,      kName)    \
  /* The same for super(%b, %c).co_names[imm]: %a the global `super`, %b the class given, */   \
  /* %c the object; the CALL's resume keeps [NULL, super, %b, %c] */                           \
  X(LoadMethodSuperOf, kOwnedOrNull,    false, true,  false, 3,         kPlain,      kName)    \
  /* %d = CALL imm over [callable|NULL, self|callable, args...]; `kwnames`: co_consts index */ \
  X(Call,             kOwned,           true,  true,  false, kVariadic, kPlain,      kArgc)    \
  /* %d = %a op %b (imm: BINARY_OP's NB_* code) */                                             \
  X(BinaryOp,         kOwned,           false, true,  false, 2,         kPlain,      kNb)      \
  /* %d = %a op %b (imm: Py_LT ... Py_GE) */                                                   \
  X(CompareOp,        kOwned,           false, true,  false, 2,         kPlain,      kCompare) \
  /* %d = %a op (args[1:]...): BUILD_TUPLE and the COMPARE_OP right after it, fused by the */ \
  /* builder, so the right tuple is never made; its state is COMPARE_OP's, with the values */   \
  /* where the tuple would be (imm: Py_LT ... Py_GE) */                                         \
  X(CompareTupleItems, kOwned,          false, true,  false, kVariadic, kPlain,      kCompare) \
  /* %d = %a(%b, (args[2:]...)) for `isinstance(x, (A, B))`: BUILD_TUPLE, PRECALL 2 and */     \
  /* CALL 2 of the global `isinstance`, fused by the builder; the builtin makes no tuple, */    \
  /* another callable gets it made. Its state: an error at the CALL, BUILD_TUPLE's stack */      \
  X(IsInstanceOfItems, kOwned,          false, true,  false, kVariadic, kPlain,      kNone)    \
  /* %d = op %a (imm: UnaryKind) */                                                            \
  X(UnaryOp,          kOwned,           false, true,  false, 1,         kPlain,      kUnary)   \
  /* %d = %a[%b] */                                                                            \
  X(GetItem,          kOwned,           false, true,  false, 2,         kPlain,      kNone)    \
  /* %d = %a[%b:%c]: BUILD_SLICE of two bounds and the BINARY_SUBSCR right after it, fused by */ \
  /* the builder; its state is BINARY_SUBSCR's, with the bounds where the slice would be */     \
  X(GetSlice,         kOwned,           false, true,  false, 3,         kPlain,      kNone,    \
    Call(a64_get_slice, kNone, kNone, kObject))                                                \
  /* %a[%b] = %c */                                                                            \
  X(SetItem,          kNone,            false, true,  false, 3,         kPlain,      kNone)    \
  /* %d:cint = (%a in %b) */                                                                   \
  X(Contains,         kCInt,            false, true,  false, 2,         kPlain,      kNone)    \
  /* %d = [args...] */                                                                         \
  X(BuildList,        kOwned,           true,  true,  false, kVariadic, kPlain,      kNone)    \
  /* %d = (args...) */                                                                         \
  X(BuildTuple,       kOwned,           true,  true,  false, kVariadic, kPlain,      kNone)    \
  /* %d = {args[0]: args[1], ...} */                                                           \
  X(BuildMap,         kOwned,           true,  true,  false, kVariadic, kPlain,      kNone)    \
  /* %d = dict(zip(co_consts[keys_const], args)) */                                            \
  X(BuildConstKeyMap, kOwned,           true,  true,  false, kVariadic, kPlain,      kKeys)    \
  /* %d = "".join(args) */                                                                     \
  X(BuildString,      kOwned,           true,  true,  false, kVariadic, kPlain,      kNone)    \
  /* %d = slice(args...) (2 or 3 args) */                                                      \
  X(BuildSlice,       kOwned,           false, true,  false, kVariadic, kPlain,      kNone)    \
  /* %d = format(conversion imm of %a, spec %b if given) */                                    \
  X(FormatValue,      kOwned,           false, true,  false, kVariadic, kPlain,      kNumber)  \
  /* %d = function of code args.back() (imm: MAKE_FUNCTION flags) */                           \
  X(MakeFunction,     kOwned,           true,  true,  false, kVariadic, kPlain,      kNone)    \
  /* %a.append(%b) */                                                                          \
  X(ListAppend,       kNone,            false, true,  false, 2,         kPlain,      kNone)    \
  /* %a.extend(%b) */                                                                          \
  X(ListExtend,       kNone,            false, true,  false, 2,         kPlain,      kNone)    \
  /* unpacks %a into imm values, read back with ScratchLoad */                                 \
  X(UnpackSequence,   kNone,            false, true,  false, 1,         kPlain,      kNumber)  \
  /* %d = the imm-th value UnpackSequence produced (bottom to top) */                          \
  X(ScratchLoad,      kOwned,           false, false, false, 0,         kPlain,      kNumber)  \
  /* %d = iter(%a) */                                                                          \
  X(GetIter,          kOwned,           false, true,  false, 1,         kPlain,      kNone)    \
  /* %d = next(%a), NULL when exhausted */                                                     \
  X(ForIter,          kOwnedOrNull,     false, true,  false, 1,         kPlain,      kNone)    \
  /* %d:cint = bool(%a) */                                                                     \
  X(IsTrue,           kCInt,            false, true,  false, 1,         kPlain,      kNone)    \
  /* %d:cint = bool(%a op %b) (imm: Py_LT ... Py_GE); made by the passes */                    \
  X(CompareBool,      kCInt,            false, true,  false, 2,         kPlain,      kCompare) \
  /* %d:cint = %a is %b */                                                                     \
  X(IsSame,           kCInt,            false, false, true,  2,         kPlain,      kNone)    \
  /* %d:cint = %a is None */                                                                   \
  X(IsNone,           kCInt,            false, false, true,  1,         kPlain,      kNone)    \
  /* %d:cint = %a == NULL */                                                                   \
  X(IsNull,           kCInt,            false, false, true,  1,         kPlain,      kNone)    \
  /* %d = True if %a != 0 else False (imm: 1 inverts) */                                       \
  X(BoolFromCInt,     kBorrowedStable,  false, false, true,  1,         kPlain,      kInverted) \
  /* %d = %a, moving the reference (may be NULL) */                                            \
  X(Mov,              kOwnedOrNull,     true,  false, true,  1,         kPlain,      kNone)    \
  /* %d = %a, a second reference (COPY) */                                                     \
  X(Dup,              kBorrowedMutable, false, false, true,  1,         kPlain,      kNone)    \
  /* RESUME and backward jumps: if the eval breaker is set (a signal, a GIL drop request, an */ \
  /* async exception) do what the interpreter does there, raising at this instruction; if */   \
  /* tracing is on, resume the interpreter at this instruction. imm 1 (RESUME): tracing was */ \
  /* off when the frame was entered, and nothing ran since, so only the breaker is tested */   \
  X(CheckEvalBreaker, kNone,            false, true,  false, 0,         kPlain,      kEntry)   \
  /* after a call: if the callee switched tracing or profiling on, resume the interpreter at */ \
  /* the next instruction (which then emits the line events, as it would have) */              \
  X(CheckTracing,     kNone,            false, true,  false, 0,         kPlain,      kNone)    \
  /* ---- Cells and closures (imm: the localsplus index of the cell) ---- */                    \
  /* locals[imm] = cell(locals[imm]) */                                                        \
  X(MakeCell,         kNone,            false, true,  false, 0,         kPlain,      kLocal,   \
    Call(a64_make_cell, kFrame, kImm, kStatus))                                                \
  /* the function's imm closure cells into the free-variable slots */                          \
  X(CopyFreeVars,     kNone,            false, false, false, 0,         kPlain,      kNumber)  \
  /* %d = locals[imm].cell_contents; empty: resume the interpreter (it raises) */              \
  X(LoadDeref,        kOwned,           false, true,  false, 0,         kPlain,      kLocal)   \
  /* locals[imm].cell_contents = %a */                                                         \
  X(StoreDeref,       kNone,            true,  false, false, 1,         kPlain,      kLocal)   \
  /* del locals[imm].cell_contents; empty: resume the interpreter */                           \
  X(DeleteDeref,      kNone,            false, true,  false, 0,         kPlain,      kLocal)   \
  /* del locals[imm]; unbound: resume the interpreter */                                       \
  X(DeleteLocal,      kNone,            false, true,  false, 0,         kPlain,      kLocal)   \
  /* ---- Containers, calls, names ---- */                                                     \
  /* %d = {args...} */                                                                         \
  X(BuildSet,         kOwned,           true,  true,  false, kVariadic, kPlain,      kNone)    \
  /* %a.add(%b) */                                                                             \
  X(SetAdd,           kNone,            false, true,  false, 2,         kPlain,      kNone,    \
    Call(PySet_Add, kNone, kNone, kStatus))                                                    \
  /* %a |= set(%b) */                                                                          \
  X(SetUpdate,        kNone,            false, true,  false, 2,         kPlain,      kNone,    \
    Call(_PySet_Update, kNone, kNone, kStatus))                                                \
  /* %a[%b] = %c (a dict) */                                                                   \
  X(MapAdd,           kNone,            false, true,  false, 3,         kPlain,      kNone,    \
    Call(PyDict_SetItem, kNone, kNone, kStatus))                                               \
  /* %a.update(%b) */                                                                          \
  X(DictUpdate,       kNone,            false, true,  false, 2,         kPlain,      kNone,    \
    Call(a64_dict_update, kNone, kNone, kStatus))                                              \
  /* %b.update(%c) rejecting duplicates, for a call of %a */                                   \
  X(DictMerge,        kNone,            false, true,  false, 3,         kPlain,      kNone,    \
    Call(a64_dict_merge, kNone, kNone, kStatus))                                               \
  /* %d = tuple(%a) of a list */                                                               \
  X(ListToTuple,      kOwned,           false, true,  false, 1,         kPlain,      kNone,    \
    Call(PyList_AsTuple, kNone, kNone, kObject))                                               \
  /* %d = %a(*%b, **%c) (%c optional) */                                                       \
  X(CallEx,           kOwned,           false, true,  false, kVariadic, kPlain,      kNone,    \
    Call(a64_call_ex, kNone, kNullPad, kObject))                                               \
  /* unpacks %a into imm & 0xff values, a list, and imm >> 8 values, read by ScratchLoad */    \
  X(UnpackEx,         kNone,            false, true,  false, 1,         kPlain,      kNumber)  \
  /* del %a.co_names[imm] */                                                                   \
  X(DeleteAttr,       kNone,            false, true,  false, 1,         kPlain,      kName,    \
    Call(PyObject_SetAttr, kNone, kNameNull, kStatus))                                         \
  /* del %a[%b] */                                                                             \
  X(DeleteSubscr,     kNone,            false, true,  false, 2,         kPlain,      kNone,    \
    Call(PyObject_DelItem, kNone, kNone, kStatus))                                             \
  /* globals[co_names[imm]] = %a */                                                            \
  X(StoreGlobal,      kNone,            false, true,  false, 1,         kPlain,      kName,    \
    Call(a64_store_global, kFrameName, kNone, kStatus))                                        \
  /* del globals[co_names[imm]]; missing: resume the interpreter (it raises) */                \
  X(DeleteGlobal,     kNone,            false, true,  false, 0,         kPlain,      kName)    \
  /* %d = __import__(co_names[imm], fromlist %a, level %b) */                                  \
  X(ImportName,       kOwned,           false, true,  false, 2,         kPlain,      kName,    \
    Call(a64_import_name, kFrameName, kNone, kObject))                                         \
  /* %d = from module %a import co_names[imm] */                                               \
  X(ImportFrom,       kOwned,           false, true,  false, 1,         kPlain,      kName,    \
    Call(a64_import_from, kNone, kName, kObject))                                              \
  /* %d = len(%a) */                                                                           \
  X(GetLen,           kOwned,           false, true,  false, 1,         kPlain,      kNone,    \
    Call(a64_get_len, kNone, kNone, kObject))                                                  \
  /* %d:cint = type(%a).tp_flags & imm (MATCH_MAPPING, MATCH_SEQUENCE) */                      \
  X(TypeFlags,        kCInt,            false, false, true,  1,         kPlain,      kNumber)  \
  /* %d = values of keys %b in mapping %a, or None */                                          \
  X(MatchKeys,        kOwned,           false, true,  false, 2,         kPlain,      kNone,    \
    Call(a64_match_keys, kNone, kNone, kObject))                                               \
  /* %d = attributes of %a matching class %b with imm positional and %c keyword names, or None */ \
  X(MatchClass,       kOwned,           false, true,  false, 3,         kPlain,      kNumber)  \
  /* %d = builtins.__build_class__ */                                                          \
  X(LoadBuildClass,   kOwned,           false, true,  false, 0,         kPlain,      kNone,    \
    Call(a64_load_build_class, kFrame, kNone, kObject))                                        \
  /* %d, %d2 = bound __exit__, bound __enter__ of %a (imm 1: the async ones) */                \
  X(BeforeWith,       kOwned,           false, true,  false, 1,         kPlain,      kAsync)   \
  /* ---- Exception handlers (reached through FrameState::catch_block) ---- */                 \
  /* %d = the raising instruction's offset (prev_instr) as an int, for a `lasti` handler */     \
  X(FrameLasti,       kOwned,           false, true,  false, 0,         kPlain,      kNone)    \
  /* %d = the pending exception, normalised, with this frame's traceback entry added (imm */    \
  /* 1: not, after a re-raise); the exception is no longer set. While tracing is on the */       \
  /* interpreter takes over (kRaised) */                                                        \
  X(CatchException,   kOwned,           false, true,  false, 0,         kPlain,      kReraised) \
  /* %d = the thread's handled exception (None if none); %a becomes it (PUSH_EXC_INFO) */      \
  X(PushExcInfo,      kOwned,           false, false, false, 1,         kPlain,      kNone,    \
    Call(a64_push_exc_info, kThread, kNone, kValue))                                           \
  /* the thread's handled exception = %a, the one it replaces released (POP_EXCEPT) */         \
  X(PopExcept,        kNone,            true,  false, false, 1,         kPlain,      kNone,    \
    Call(a64_pop_except, kThread, kNone, kVoid))                                               \
  /* %d:cint = exception %a matches %b, a class or tuple of classes (CHECK_EXC_MATCH) */        \
  X(CheckExcMatch,    kCInt,            false, true,  false, 2,         kPlain,      kNone,    \
    Call(a64_check_exc_match, kNone, kNone, kStatus))                                          \
  /* %d:cint = exception %a is a StopAsyncIteration (END_ASYNC_FOR's test; never fails) */     \
  X(IsStopAsyncIteration, kCInt,        false, true,  false, 1,         kPlain,      kNone,    \
    Call(a64_is_stop_async_iteration, kNone, kNone, kStatus))                                  \
  /* %d = %a(type(%b), %b, %b.__traceback__): a context manager's __exit__ on an exception */  \
  X(WithExceptStart,  kOwned,           false, true,  false, 2,         kPlain,      kNone,    \
    Call(a64_with_except_start, kNone, kNone, kObject))                                        \
  /* raise %a [from %b] (RAISE_VARARGS 1 and 2): always leaves with the exception set */       \
  X(Raise,            kNone,            true,  true,  false, kVariadic, kTerminator, kNone)    \
  /* re-raise exception %a (RERAISE imm; imm > 0: prev_instr from the int imm entries down */ \
  /* the state's stack); while tracing, the interpreter redoes the RERAISE */                  \
  X(Reraise,          kNone,            true,  true,  false, 1,         kTerminator, kNumber)  \
  /* ---- Generators and coroutines ---- */                                                    \
  /* %d:cint = the frame was suspended at code unit imm (prev_instr) */                       \
  X(ResumedAt,        kCInt,            false, false, true,  0,         kPlain,      kResumeUnit) \
  /* %d = the frame's value-stack entry imm (its reference moves to %d) */                     \
  X(LoadFrameStack,   kOwned,           false, false, false, 0,         kPlain,      kNumber)  \
  /* the frame's value stack is empty (stacktop = co_nlocalsplus): its entries are loaded */   \
  X(ResetStackTop,    kNone,            false, false, false, 0,         kPlain,      kNone)    \
  /* the locals past the parameters NULL: a generator's call path only (its entry is also */ \
  /* where it resumes; the guest call stub pushes the frame without them) */                  \
  X(ClearLocals,      kNone,            false, false, false, 0,         kPlain,      kNone)    \
  /* %d = the awaitable of %a (imm: GET_AWAITABLE's oparg) */                                  \
  X(GetAwaitable,     kOwned,           false, true,  false, 1,         kPlain,      kNumber,  \
    Call(a64_get_awaitable, kNone, kImm, kObject))                                             \
  /* %d = %a.__aiter__() */                                                                    \
  X(GetAiter,         kOwned,           false, true,  false, 1,         kPlain,      kNone,    \
    Call(a64_get_aiter, kNone, kNone, kObject))                                                \
  /* %d = awaitable of %a.__anext__() */                                                       \
  X(GetAnext,         kOwned,           false, true,  false, 1,         kPlain,      kNone,    \
    Call(a64_get_anext, kNone, kNone, kObject))                                                \
  /* %d = iter(%a) for yield from (coroutines pass through) */                                 \
  X(GetYieldFromIter, kOwned,           false, true,  false, 1,         kPlain,      kNone,    \
    Call(a64_get_yield_from_iter, kFrame, kNone, kObject))                                     \
  /* %d, %d2:cint = %a.send(%b): the value and 1 (yielded) or 0 (returned) */                 \
  X(Send,             kOwned,           false, true,  false, 2,         kPlain,      kNone)    \
  /* %d = %a wrapped for an async generator's yield */                                         \
  X(AsyncGenWrap,     kOwned,           false, true,  false, 1,         kPlain,      kNone,    \
    Call(a64_async_gen_wrap, kNone, kNone, kObject))                                           \
  /* %d = the generator the frame moves into (RETURN_GENERATOR; the interpreter makes it */     \
  /* when coroutine origin tracking is on) */                                                  \
  X(MakeGenerator,    kOwned,           false, true,  false, 0,         kPlain,      kNone)    \
  /* Reference counting, inserted by the refcount pass only. XDecref: %a may be NULL */        \
  X(Incref,           kNone,            false, false, false, 1,         kPlain,      kNone)    \
  X(Decref,           kNone,            false, false, false, 1,         kPlain,      kNone)    \
  X(XDecref,          kNone,            false, false, false, 1,         kPlain,      kNone)    \
  /* ---- Made by the speculation passes (speculation.h), after reference counting. Each */    \
  /* stands for an op above, and every analysis reads it as that op (Unfused below) ---- */     \
  /* LoadGlobal of a module whose attribute the next instruction loads (LoadAttr or */          \
  /* LoadMethod of %d) and whose reference the one after releases (Decref %d): lowered as */    \
  /* one, the hot path taking no reference to the module (fuse_module_attrs.cc) */             \
  X(LoadModuleForAttr, kOwned,          false, true,  false, 0,         kPlain,      kName)    \
  /* IsTrue of an isinstance() result read by nothing else, two after its Call (a */           \
  /* CheckTracing between) and released by the next instruction: the call's inline path */     \
  /* answers it without making, testing and releasing a bool (fuse_isinstance_tests.cc) */      \
  X(IsTrueOfIsInstance, kCInt,          false, true,  false, 1,         kPlain,      kNone)    \
  /* StoreLocal of the value the BinaryOp before it made (past releases of that op's */         \
  /* operands), or the loop's ForIter: that op may make %a in the local's old object, or do */  \
  /* the store itself (store_targets.cc) */                                                    \
  X(StoreLocalResult, kNone,            true,  false, false, 1,         kPlain,      kLocal)   \
  /* CheckTracing right after a Call: the call's NULL-result test and this one made as one */  \
  /* guard, the two exits one where they agree (fuse_call_checks.cc) */                       \
  X(CheckTracingOfCall, kNone,          false, true,  false, 0,         kPlain,      kNone)    \
  /* ForIter of the iterator that GetIter made of a call of the global `enumerate` (the */      \
  /* name only a hint): its step over a list or tuple is inline, the result tuple filled */    \
  /* again as enum_next fills it (fuse_known_iterators.cc) */                                  \
  X(ForIterOfEnumerate, kOwnedOrNull,   false, true,  false, 1,         kPlain,      kNone)    \
  /* ForIter of the iterator that GetIter made of a call of a method `items` with no */       \
  /* argument (the name only a hint): an exact dict item iterator over a dict whose values */   \
  /* are in its keys' entries steps inline (fuse_known_iterators.cc) */                        \
  X(ForIterOfDictItems, kOwnedOrNull,   false, true,  false, 1,         kPlain,      kNone)    \
  /* ForIter of the iterator that GetIter made of a call of a method `keys` or `values` with */ \
  /* no argument (the name only a hint): an exact dict key or value iterator over a dict */     \
  /* whose values are in its keys' entries steps inline (fuse_known_iterators.cc) */           \
  X(ForIterOfDictKeys, kOwnedOrNull,    false, true,  false, 1,         kPlain,      kNone)    \
  X(ForIterOfDictValues, kOwnedOrNull,  false, true,  false, 1,         kPlain,      kNone)    \
  /* ForIter of the iterator that GetIter made of a call of the global `zip` with two */       \
  /* arguments (the name only a hint): an exact zip of two list or tuple iterators steps */    \
  /* inline (fuse_known_iterators.cc) */                                                       \
  X(ForIterOfZip,     kOwnedOrNull,     false, true,  false, 1,         kPlain,      kNone)    \
  /* goto targets[0] */                                                                        \
  X(Jump,             kNone,            false, false, false, 0,         kTerminator, kNone)    \
  /* if %a:cint != 0 goto targets[0] else targets[1] */                                        \
  X(Branch,           kNone,            false, false, false, 1,         kTerminator, kNone)    \
  /* return %a */                                                                              \
  X(Return,           kNone,            true,  false, false, 1,         kTerminator, kNone)    \
  /* leave for the interpreter as the frame state says */                                      \
  X(Deopt,            kNone,            false, true,  false, 0,         kTerminator, kNone)    \
  /* the same for a block that had not run when compiled (builder.h): its code is not built */ \
  X(ColdExit,         kNone,            false, true,  false, 0,         kTerminator, kNone)    \
  /* suspend the generator: the state's stack into the frame, then return %a to the caller */  \
  X(Yield,            kNone,            true,  true,  false, 1,         kTerminator, kNone)    \
  /* hand the frame to the interpreter as it is (a resume point compiled code lacks) */        \
  X(EnterInterpreter, kNone,            false, false, false, 0,         kTerminator, kNone)
// clang-format on

enum class Op : uint8_t {
#define A64JIT_HIR_OP_ENUM(name, ...) k##name,
  A64JIT_HIR_OPS(A64JIT_HIR_OP_ENUM)
#undef A64JIT_HIR_OP_ENUM
};

enum class OpKind : uint8_t { kPlain, kTerminator };

// What an op's immediate (Instr::imm, and the fields named here) means, which is how the HIR
// printer writes it.
enum class ImmKind : uint8_t {
  kNone,        // no immediate
  kLocal,       // a localsplus index: `3 (x)`; LoadLocal adds ` checked`, StoreLocal ` bound`
  kName,        // a co_names index: `'attr'`
  kNumber,      // a number printed as it is (a count, flags, an oparg)
  kResumeUnit,  // a code unit, printed as its byte offset: `@12`
  kConst,       // a co_consts index: `2 (None)`
  kArgc,        // a CALL's argument count, and Instr::kwnames: `argc=2 kwnames=('a',)`
  kNb,          // BINARY_OP's NB_* code: `nb=0`
  kCompare,     // Py_LT .. Py_GE: `<`
  kUnary,       // UnaryKind: `-`
  kKeys,        // no immediate; Instr::keys_const: `keys=('a', 'b')`
  kAsync,       // 1: `async`
  kEntry,       // 1: `entry` (the check at function entry)
  kReraised,    // nonzero: `reraised`
  kInverted,    // nonzero: `inverted`
};

struct OpInfo {
  const char* name;
  Result result;
  bool steals;
  bool leaves;
  bool pure;
  int arity;
  OpKind kind;
  ImmKind imm;
};

// Every op's row, indexed by Op (constexpr: lowering checks its Call columns at compile time).
inline constexpr OpInfo kOpInfo[] = {
#define A64JIT_HIR_OP_INFO(name, result, steals, leaves, pure, arity, kind, imm, ...) \
  {#name, Result::result, steals, leaves, pure, arity, OpKind::kind, ImmKind::imm},
    A64JIT_HIR_OPS(A64JIT_HIR_OP_INFO)
#undef A64JIT_HIR_OP_INFO
};

constexpr const OpInfo& InfoOf(Op op) { return kOpInfo[static_cast<size_t>(op)]; }

// The op a speculation pass's op stands for (itself for the others): analyses that ask what an
// instruction does (stores a local, loads a global, tests truth) read the fused ops as these.
constexpr Op Unfused(Op op) {
  switch (op) {
    case Op::kLoadModuleForAttr:
      return Op::kLoadGlobal;
    case Op::kIsTrueOfIsInstance:
      return Op::kIsTrue;
    case Op::kStoreLocalResult:
      return Op::kStoreLocal;
    case Op::kCheckTracingOfCall:
      return Op::kCheckTracing;
    case Op::kForIterOfEnumerate:
    case Op::kForIterOfDictItems:
    case Op::kForIterOfDictKeys:
    case Op::kForIterOfDictValues:
    case Op::kForIterOfZip:
      return Op::kForIter;
    default:
      return op;
  }
}

constexpr const char* OpName(Op op) { return InfoOf(op).name; }
constexpr bool IsTerminator(Op op) { return InfoOf(op).kind == OpKind::kTerminator; }

}  // namespace a64jit::hir

#endif  // A64JIT_JIT_HIR_OPS_H_
