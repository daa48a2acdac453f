#include "jit/lower/call_stub.h"

#define Py_BUILD_CORE 1
#include <Python.h>
#include <internal/pycore_frame.h>

#include <cstddef>
#include <map>
#include <stdexcept>

#include "jit/lir/text.h"
#include "jit/lower/lower.h"
#include "jit/lower/stub_text.h"
#include "jit/runtime/site_cache.h"

namespace a64jit::lower {

namespace {

// The stub, with $name for each layout fact and address (StubValues). Its first half is
// a64_call_enter's path through IsCompiledFunction, EnterCompiledCall, PushFrame and BeginRun
// (jit/python/helpers.cc, jit.cc), minus what it hands over (bb12); its second half runs the
// callee and is a64_call_leave's common case (bb31 on). Before both, bb0-bb11 call a C
// function through the site's CCallCache (jit/runtime/site_cache.h). A compiled function the
// cache holds skips the first half's lookups (bb22-bb24: about 20 instructions a call), and the
// first compiled callee a site enters fills its empty cache (bb20-bb21). Tests that go to the
// same place and read only what is always there to read share a branch (LIR's either form: a
// cmp and a ccmp, no more instructions than two branches, one translated block fewer under
// QEMU and Unicorn each); or-ing them with cset and orr took 11 more instructions a call.
// A site that caches a compiled function takes another function object with the same code as a
// hit (bb40-bb43): closures made again on every call of their maker (a new round's `compose`,
// `make_accumulator`) missed the cache on every call and took the lookups, about 20
// instructions. A miss at a LOAD_METHOD site whose pair is [NULL, attribute] tries the plain shape
// (bb34-bb35, out of the way at the end) before the lookups, as a64_call_enter fills the cache for
// it. The blocks are in layout order: the helpers' blocks (bb12-bb15) sit after the C path's
// return, so that a compiled callee's path runs straight from its arguments (bb28-bb29) into the
// call and on to its return, the last block (its ret needs no jump to the epilogue): three
// jumps, and three translated blocks, fewer a call.
constexpr const char kStubTemplate[] = R"(
func @a64_call_stub(%0:ptr, %1:ptr, %57:i64) -> ptr {
  slot ss0 = 8
bb0:   ; the site's C-call cache %72 (never NULL: a site without one calls a64_call), the CALL's
        ; oparg %2 from its header (site_cache.h: a per-site constant, so no site moves it), its low
        ; bit %74 set when the site calls LOAD_METHOD's pair: then the callable %78 is sp[0]
        ; and self %75 is sp[1], exactly of the cached descriptor's type; else %78 is sp[1],
        ; self %77 the cached builtin's self (bb2). A miss retries a pair [NULL, attribute] in the
        ; plain shape (bb34-bb35), then a function with the cached code (bb40-bb43), then a
        ; bound C method (bb36-bb38)
  %72:ptr = and %57, -2
  %2:i64 = load [%72 - $argc_below_cache]
  %31:ptr = load [%0 + $ts_cframe]           ; the caller's frame %53 names the CALL (the
  %53:ptr = load [%31 + $cframe_current_frame] ; header's instruction) before anything runs
  %113:ptr = load [%72 - $prev_instr_below_cache]
  store.ptr %113, [%53 + $prev_instr]
  %73:ptr = load [%1]
  %74:i64 = and %57, 1
  %75:ptr = load [%1 + 8]
  %78:ptr = select %74, %73, %75
  %79:ptr = load [%72 + $ccall_callable]
  br.i64 ne %78, %79, bb34, bb1
bb1:    ; the cached callable: a compiled Python function (its state %110 set: bb22) or C
  %110:ptr = load [%72 + $ccall_state]
  br.i64 ne %110, 0, bb22, bb2
bb2:   ; a C function's self %77 (bb38 finds a bound C method's), off the compiled path
  %76:ptr = load [%72 + $ccall_self]
  %77:ptr = select %74, %75, %76
  jmp bb3
bb3:   ; the cached callable: the self type (a builtin's cached self_type is NULL, and so is
        ; its type's place in the plain shape), and the recursion limit. A class cached with
        ; a64_instantiate as its entry has that as its self_type, so it fails here (bb51)
  %80:ptr = load [%75 + $ob_type]
  %81:ptr = load [%72 + $ccall_self_type]
  %82:ptr = select %74, %80, 0
  %84:i32 = load [%0 + $ts_recursion_remaining]
  br.i64 ne %82, %81 or.i32 sle %84, 0, bb51, bb4
bb4:   ; its C entry, as 3.11's PRECALL_BUILTIN_* and PRECALL_NO_KW_METHOD_DESCRIPTOR_* call
        ; it: the argument vector (METH_FASTCALL, and a type's vectorcall), the one argument
        ; (METH_O) or NULL
  %84:i32 = sub %84, 1
  store.i32 %84, [%0 + $ts_recursion_remaining]
  %87:ptr = add %1, 16
  %88:ptr = load [%1 + 16]
  %89:i8 = cmp.i64 eq %2, 1
  %90:ptr = select %89, %88, 0
  %91:i64 = load [%72 + $ccall_fastcall]
  %92:ptr = select %91, %87, %90
  %93:ptr = load [%72 + $ccall_entry]
  %106:ptr = load [%72 + $ccall_context] ; NULL keyword names, or a trampoline's context
  %94:ptr = call *%93(%77, %92, %2, %106)
  %95:i32 = load [%0 + $ts_recursion_remaining]
  %95:i32 = add %95, 1
  store.i32 %95, [%0 + $ts_recursion_remaining]
  %96:i64 = load [%78]
  %96:i64 = sub %96, 1
  store.i64 %96, [%78]
  br.i64 eq %96, 0, bb39, bb5     ; the last only for a bound C method the cache does not hold
bb5:
  %97:i64 = shl %74, 3
  %98:ptr = sub %87, %97
  %99:i64 = add %2, %74
  %100:i64 = shl %99, 3
  %101:ptr = add %98, %100
  br.i64 ult %98, %101, bb6, bb9
bb6:   ; the call's other references released: self for a method, then the arguments, %98
        ; walking to %101
  %102:ptr = load [%98]
  %103:i64 = load [%102]
  %103:i64 = sub %103, 1
  store.i64 %103, [%102]
  br.i64 eq %103, 0, bb7, bb8
bb7:
  call @_Py_Dealloc(%102)
  jmp bb8
bb8:
  %98:ptr = add %98, 8
  br.i64 ult %98, %101, bb6, bb9
bb9:   ; a set eval breaker is handled after the call, as stock does
  %104:ptr = mov $eval_breaker
  %105:i32 = load [%104]
  br.i32 ne %105, 0, bb10, bb11
bb10:
  %94:ptr = call @a64_after_c_call(%0, %94)
  jmp bb11
bb11:
  ret %94
bb12:    ; anything else: the helper, with the arguments as they came. It returns the entry
        ; of a compiled callee whose frame it pushed (the frame in sp[0]), or 0 when it made
        ; the whole call (its result, NULL on error, in sp[0])
  %52:i64 = call @a64_call_enter(%0, %1, %57, %2)
  %58:ptr = load [%1]
  %38:ptr = mov %58
  br.i64 eq %52, 0, bb15, bb31
bb13:   ; anything else: a64_call_leave
  %71:ptr = call @a64_call_leave(%0, %58, %59)
  ret %71
bb14:
  call @_Py_Dealloc(%67)
  jmp bb33
bb15:   ; the helper made the whole call: its result
  ret %58
bb16:    ; sp (%1) is [NULL, callable, args...] or [method, self, args...]: %4 the function,
        ; its %6 arguments from %5
  %3:ptr = load [%1]
  %7:ptr = load [%1 + 8]
  %4:ptr = select %3, %3, %7
  %8:i8 = cmp.i64 ne %3, 0
  %9:i64 = zext %8
  %10:i64 = shl %9, 3
  %11:ptr = add %1, 16
  %5:ptr = sub %11, %10
  %6:i64 = add %2, %9
  %12:ptr = load [%4 + $ob_type]
  br.i64 ne %12, $function_type, bb57, bb17
bb17:    ; a compiled function (a bound method object is unbound first: bb57)
  %13:ptr = load [%4 + $func_vectorcall]
  br.i64 ne %13, $jit_vectorcall, bb12, bb18
bb18:    ; its code %14's state %20, from the runtime's direct-mapped cache of compiled code
  %14:ptr = load [%4 + $func_code]
  %15:i64 = lshr %14, 4
  %16:i64 = and %15, $state_cache_mask
  %17:i64 = shl %16, 4
  %18:ptr = mov $state_cache
  %18:ptr = add %18, %17
  %19:ptr = load [%18]
  br.i64 ne %19, %14, bb12, bb19
bb19:    ; the rest of the helper's tests (bb25-bb26): a compiled callee's
        ; state %20 says how many positional parameters it takes when that is all it takes
  %20:ptr = load [%18 + 8]
  %21:i64 = load [%20 + $state_plain_argcount]
  br.i64 ne %21, %6, bb44, bb20                ; not exactly its positional parameters
bb20:    ; an empty site cache takes this callee (site_cache.h): its later calls skip the lookups
  %112:ptr = load [%72 + $ccall_callable]
  br.i64 ne %112, 0, bb25, bb21
bb21:
  store.ptr %4, [%72 + $ccall_callable]
  store.ptr %14, [%72 + $ccall_code]
  store.ptr %20, [%72 + $ccall_state]
  jmp bb25
bb22:    ; a compiled function the site cached (site_cache.h): still a function, and still with
        ; the cached code %14, whose state is %110
  %12:ptr = load [%78 + $ob_type]
  br.i64 ne %12, $function_type, bb16, bb23
bb23:
  %14:ptr = load [%78 + $func_code]
  %111:ptr = load [%72 + $ccall_code]
  br.i64 ne %14, %111, bb16, bb24
bb24:    ; the function %4 and its %6 arguments from %5, as bb16 finds them. The count was
        ; checked when the site cached the function, but in the shape of that call: a site
        ; also calls the same function in the other shape, with one argument more or fewer
        ; (a LOAD_METHOD site given [NULL, function] by a class, bb35; a plain site given a
        ; bound method, bb57). So again: the parameters %21 are exactly the arguments, else the
        ; lookups (bb29 tests %21 too)
  %4:ptr = mov %78
  %10:i64 = shl %74, 3
  %11:ptr = add %1, 16
  %5:ptr = sub %11, %10
  %6:i64 = add %2, %74
  %20:ptr = mov %110
  %21:i64 = load [%20 + $state_plain_argcount]
  br.i64 ne %21, %6, bb16, bb25
bb25:    ; tracing (a uint8_t, then padding), or the JIT off (NULL) or on for another thread
  %27:ptr = mov $direct_thread_slot
  %28:ptr = load [%27]
  %32:i8 = load [%31 + $cframe_use_tracing]
  br.i8 ne %32, 0 or.i64 ne %28, %0, bb12, bb26
bb26:    ; at the recursion limit, or no room (also with no chunk: top, limit NULL)
  %35:i32 = load [%0 + $ts_recursion_remaining]
  %38:ptr = load [%0 + $ts_datastack_top]
  %39:i64 = load [%20 + $state_frame_bytes]
  %40:ptr = add %38, %39
  %41:ptr = load [%0 + $ts_datastack_limit]
  br.i32 sle %35, 0 or.i64 uge %40, %41, bb12, bb27
bb27:    ; push the frame %38 (3.11's _PyFrame_InitializeSpecials); the callable's reference
        ; moves in. The code is borrowed (the runtime pins compiled code): a64_call_leave gives
        ; the frame its own reference before anything may clear or keep it, as a64_make_generator
        ; does for what it leaves. Locals past the arguments are the callee's to clear (lower.cc).
  store.ptr %40, [%0 + $ts_datastack_top]
  store.ptr %4, [%38 + $f_func]
  store.ptr %14, [%38 + $f_code]
  %44:ptr = load [%4 + $func_builtins]
  store.ptr %44, [%38 + $f_builtins]
  %45:ptr = load [%4 + $func_globals]
  store.ptr %45, [%38 + $f_globals]
  store.ptr 0, [%38 + $f_locals]
  store.ptr 0, [%38 + $frame_obj]
  %46:i32 = load [%14 + $co_nlocalsplus]
  store.i32 %46, [%38 + $stacktop]
  %47:ptr = add %14, $first_instr_minus_one
  store.ptr %47, [%38 + $prev_instr]
  store.i8 0, [%38 + $is_entry]
  store.i8 $owned_by_thread, [%38 + $owner]
  %48:ptr = add %38, $localsplus
  %49:i64 = shl %6, 3
  %50:ptr = add %5, %49
  br.i64 eq %6, 0, bb29, bb28
bb28:    ; the arguments' references move in
  %51:ptr = load [%5]
  store.ptr %51, [%48]
  %48:ptr = add %48, 8
  %5:ptr = add %5, 8
  br.i64 ult %5, %50, bb28, bb29
bb29:    ; fewer arguments than its %21 positional parameters (bb44): the rest from the defaults
  br.i64 ne %21, %6, bb46, bb30
bb30:    ; the frame becomes current (BeginRun)
  %35:i32 = sub %35, 1
  store.i32 %35, [%0 + $ts_recursion_remaining]
  store.ptr %53, [%38 + $f_previous]
  store.ptr %38, [%31 + $cframe_current_frame]
  %54:ptr = mov $entry_counter
  %55:i64 = load [%54]
  %55:i64 = add %55, 1
  store.i64 %55, [%54]
  %52:i64 = load [%20 + $state_entry]
  %58:ptr = mov %38
  jmp bb31
bb31:    ; the callee %52 runs in its frame %58; below $deopt_code_limit its outcome %59 is a
        ; deopt code (or NULL), for the helper. Else it returned a value and released its
        ; locals (stacktop 0); with no frame object and no f_locals dict (locals() makes one,
        ; 3.11's _PyFrame_FastToLocalsWithError) the frame is popped here, else by the helper,
        ; which releases both. The frame's fields are there to read either way. The call
        ; passes %38, the same frame, still in the register it was loaded into; %58 is the
        ; copy that lives across the call (one register move a call fewer).
  %59:i64 = call *%52(%0, %38)
  %60:i32 = load [%58 + $stacktop]
  %61:ptr = load [%58 + $frame_obj]
  %62:i64 = zext %60
  %63:i64 = or %61, %62
  %64:ptr = load [%58 + $f_locals]
  %65:i64 = or %63, %64
  br.i64 ult %59, $deopt_code_limit or ne %65, 0, bb13, bb32
bb32:   ; the caller is current again (the return block, or a64_make_generator, made it so);
        ; the frame popped before the release, which may run code that pushes frames. Its code
        ; was borrowed (bb27); the function may go
  %66:i32 = load [%0 + $ts_recursion_remaining]
  %66:i32 = add %66, 1
  store.i32 %66, [%0 + $ts_recursion_remaining]
  %67:ptr = load [%58 + $f_func]
  store.ptr %58, [%0 + $ts_datastack_top]
  %70:i64 = load [%67]
  %70:i64 = sub %70, 1
  store.i64 %70, [%67]
  br.i64 eq %70, 0, bb14, bb33
bb33:
  ret %59
bb34:   ; not the cached callable. A LOAD_METHOD site's pair may be [NULL, attribute] (a module's
        ; function: `math.sqrt(x)`; a function an instance holds): the plain shape then, once more
  br.i64 eq %74, 0 or.i64 ne %73, 0, bb40, bb35
bb35:
  %74:i64 = mov 0
  %78:ptr = mov %75
  br.i64 ne %78, %79, bb40, bb1
bb36:   ; a bound C method, held (`get = d.get`, then `get(k)`; Random's `getrandbits`): the
        ; cache's PyMethodDef (site_cache.h), then the callable's own self. The plain shape only.
  %114:ptr = load [%78 + $ob_type]
  br.i64 ne %74, 0 or.i64 ne %114, $cfunction_type, bb16, bb37
bb37:
  %115:ptr = load [%78 + $cfunction_ml]
  %116:ptr = load [%72 + $ccall_method_def]
  br.i64 ne %115, %116, bb16, bb38
bb38:
  %77:ptr = load [%78 + $cfunction_self]
  jmp bb3
bb39:   ; the callable's last reference (a bound C method the cache does not hold)
  call @_Py_Dealloc(%78)
  jmp bb5
bb40:   ; a site that caches a compiled function takes another function with the cached code as
        ; a hit (a closure made again: a decorator's wrapper, each call's lambda), and caches
        ; that object, borrowed as bb21 takes one. Else the bound C method's test (bb36). The
        ; tests are bb22-bb23's, repeated: here a failure goes on to bb36 and a pass stores
  %110:ptr = load [%72 + $ccall_state]
  br.i64 eq %110, 0, bb36, bb41
bb41:
  %12:ptr = load [%78 + $ob_type]
  br.i64 ne %12, $function_type, bb36, bb42
bb42:
  %14:ptr = load [%78 + $func_code]
  %111:ptr = load [%72 + $ccall_code]
  br.i64 ne %14, %111, bb36, bb43
bb43:
  store.ptr %78, [%72 + $ccall_callable]
  jmp bb24
bb44:    ; fewer arguments %6 than the %21 positional parameters that are all it takes, the
        ; others with defaults (3.11's func_defaults, a tuple: its last items are the last
        ; parameters'): bb46 binds them after the arguments. Never cached (bb20: the cached
        ; path takes exactly the parameters). Anything else is the helper's
  %117:ptr = load [%4 + $func_defaults]
  br.i64 sle %21, %6 or.i64 eq %117, 0, bb12, bb45
bb45:
  %118:i64 = load [%117 + $ob_size]
  %119:i64 = sub %21, %6
  br.i64 slt %118, %119, bb12, bb25
bb46:    ; the defaults of the %21 - %6 parameters past the arguments (the tuple's last items,
        ; the same objects: a mutable default stays shared), a reference each, into the
        ; locals from %48 on
  %127:ptr = load [%4 + $func_defaults]
  %128:i64 = load [%127 + $ob_size]
  %129:i64 = sub %21, %6
  %130:i64 = sub %128, %129
  %131:i64 = shl %130, 3
  %132:ptr = add %127, %131
  %133:i64 = shl %129, 3
  %134:ptr = add %48, %133
  jmp bb47
bb47:
  %135:ptr = load [%132 + $tuple_items]
  %136:i64 = load [%135]
  %136:i64 = add %136, 1
  store.i64 %136, [%135]
  store.ptr %135, [%48]
  %48:ptr = add %48, 8
  %132:ptr = add %132, 8
  br.i64 ult %48, %134, bb47, bb30
bb48:   ; a user class with a Python __init__ (jit/python/instantiate.cc): a64_init_enter makes
        ; the object and pushes its compiled __init__'s frame with the object first, the frame
        ; then in sp[0] and the object in sp[1], and returns the entry; or 0 when it made the
        ; whole call itself, the result (NULL on error) in sp[0]. It keeps what it found about
        ; the class in the site's cache %72 (CCallCache::init)
  %140:i64 = call @a64_init_enter(%0, %1, %2, %72)
  %141:ptr = load [%1]
  br.i64 eq %140, 0, bb50, bb49
bb49:   ; __init__ runs in its frame %141; a64_init_leave pops it and gives the object (NULL on
        ; an error, or on a value other than None)
  %142:i64 = call *%140(%0, %141)
  %143:ptr = call @a64_init_leave(%0, %1, %142)
  ret %143
bb50:
  ret %141
bb51:   ; bb3's test failed: a class a64_init_enter takes, or a subclass's self (bb52)
  br.i64 eq %81, $instantiate_entry, bb48, bb52
bb52:   ; LOAD_METHOD's pair whose self %75 is of a subclass of the cached descriptor's type
        ; (`class Stack(list)`, then `s.append(x)`): the descriptor's C function takes any
        ; instance of its type, as 3.11's method_vectorcall_* check with PyObject_TypeCheck.
        ; Found among the bases of its type %80 (tp_base, each a base of the last and in its
        ; MRO: no false match); the cache holds the descriptor's own (static) type, nothing
        ; that may die. Only a direct C entry: a trampoline (a context set) may read the
        ; exact type's layout. Else the generic path
  %150:ptr = load [%72 + $ccall_context]
  br.i64 eq %74, 0 or.i64 ne %150, 0, bb16, bb53
bb53:   ; (a cached self type to look for: a NULL one would match the end of the bases)
  br.i64 eq %81, 0, bb16, bb54
bb54:
  %80:ptr = load [%80 + $tp_base]
  br.i64 eq %80, %81, bb56, bb55
bb55:
  br.i64 eq %80, 0, bb16, bb54
bb56:   ; bb3's other test, the recursion limit
  br.i32 sle %84, 0, bb16, bb4
bb57:   ; bb16's callable is no function: a bound method object %7 in the plain shape ([NULL,
        ; bound]: a classmethod read through its class, a method super() found, a bound method
        ; held) is unbound as the interpreter's CALL unbinds it (a64_call_enter's UnbindMethod):
        ; sp becomes [function, self, args...], and the stub starts again (bb0) with the site
        ; taken as a method call's, so that a cached compiled function is a hit. Only the
        ; stub's first two arguments live across the release, the third goes through the
        ; stack (bb60). Anything else: the helper
  br.i64 ne %3, 0 or.i64 ne %12, $method_type, bb12, bb58
bb58:
  %160:ptr = load [%7 + $im_func]
  %161:ptr = load [%7 + $im_self]
  %162:i64 = load [%160]
  %162:i64 = add %162, 1
  store.i64 %162, [%160]
  %163:i64 = load [%161]
  %163:i64 = add %163, 1
  store.i64 %163, [%161]
  store.ptr %160, [%1]
  store.ptr %161, [%1 + 8]
  %165:i64 = or %57, 1
  %166:ptr = slotaddr ss0
  store.i64 %165, [%166]
  %164:i64 = load [%7]
  %164:i64 = sub %164, 1
  store.i64 %164, [%7]
  br.i64 eq %164, 0, bb59, bb60
bb59:   ; the bound method's last reference (the function and self have their own)
  call @_Py_Dealloc(%7)
  jmp bb60
bb60:   ; the cache, tagged as a method call's, back from the stack slot: kept in a register
        ; across the release, it would take one more callee-saved register on every call
  %167:ptr = slotaddr ss0
  %57:i64 = load [%167]
  jmp bb0
}
)";

// The keyword-call stub: a CALL with keyword arguments (KW_NAMES' constant tuple %3) goes to
// a64_call_kw_enter, which pushes a compiled callee's frame with its parameters bound and
// returns its entry, or makes the whole call and returns 0 with the result in sp[0]. The callee
// then runs from here, as the call stub runs its own (bb31), with no host frame between, and a
// plain return's frame is popped here as the call stub pops it (bb32); the rest goes to
// a64_call_leave. Under QEMU every call out of line costs a lookup of its return: with the pop
// in a64_call_leave this path took 6 more lookups a call than a64_call's, for 95 fewer guest
// instructions, and ran 4% slower.
constexpr const char kKeywordStubTemplate[] = R"(
func @a64_kw_call_stub(%0:ptr, %1:ptr, %2:i64, %3:ptr) -> ptr {
bb0:
  %4:i64 = call @a64_call_kw_enter(%0, %1, %2, %3)
  %5:ptr = load [%1]
  br.i64 eq %4, 0, bb5, bb1
bb1:   ; the callee runs in its frame %5; a deopt code, a frame object or a locals dict: bb4
  %6:i64 = call *%4(%0, %5)
  %7:i32 = load [%5 + $stacktop]
  %8:ptr = load [%5 + $frame_obj]
  %9:i64 = zext %7
  %10:i64 = or %8, %9
  %11:ptr = load [%5 + $f_locals]
  %12:i64 = or %10, %11
  br.i64 ult %6, $deopt_code_limit or ne %12, 0, bb4, bb2
bb2:   ; a value returned: the frame popped before its function's release (call stub bb32)
  %13:i32 = load [%0 + $ts_recursion_remaining]
  %13:i32 = add %13, 1
  store.i32 %13, [%0 + $ts_recursion_remaining]
  %14:ptr = load [%5 + $f_func]
  store.ptr %5, [%0 + $ts_datastack_top]
  %15:i64 = load [%14]
  %15:i64 = sub %15, 1
  store.i64 %15, [%14]
  br.i64 eq %15, 0, bb3, bb6
bb3:
  call @_Py_Dealloc(%14)
  jmp bb6
bb4:
  %16:ptr = call @a64_call_leave(%0, %5, %6)
  ret %16
bb5:   ; the helper made the whole call: its result
  ret %5
bb6:
  ret %6
}
)";

std::map<std::string, int64_t> StubValues(const CallStubFacts& f) {
  const auto word = [](uint64_t v) { return static_cast<int64_t>(v); };
  const auto at = [](size_t offset) { return static_cast<int64_t>(offset); };
  std::map<std::string, int64_t> values = FrameLayoutValues();
  values.insert({
      {"tp_base", at(offsetof(PyTypeObject, tp_base))},
      {"function_type", word(f.function_type)},
      {"method_type", word(f.method_type)},
      {"im_func", at(offsetof(PyMethodObject, im_func))},
      {"im_self", at(offsetof(PyMethodObject, im_self))},
      {"func_vectorcall", at(offsetof(PyFunctionObject, vectorcall))},
      {"jit_vectorcall", word(f.jit_vectorcall)},
      {"func_code", at(offsetof(PyFunctionObject, func_code))},
      {"func_builtins", at(offsetof(PyFunctionObject, func_builtins))},
      {"func_globals", at(offsetof(PyFunctionObject, func_globals))},
      {"func_defaults", at(offsetof(PyFunctionObject, func_defaults))},
      {"ob_size", at(offsetof(PyVarObject, ob_size))},
      {"tuple_items", at(offsetof(PyTupleObject, ob_item))},
      {"co_nlocalsplus", at(offsetof(PyCodeObject, co_nlocalsplus))},
      // prev_instr = _PyCode_CODE(code) - 1, one code unit before the first
      {"first_instr_minus_one",
       at(offsetof(PyCodeObject, co_code_adaptive) - sizeof(_Py_CODEUNIT))},
      {"state_cache", word(f.state_cache)},
      {"state_cache_mask", f.state_cache_mask},
      {"state_entry", f.state_entry},
      {"state_plain_argcount", f.state_plain_argcount},
      {"state_frame_bytes", f.state_frame_bytes},
      {"direct_thread_slot", word(f.direct_thread_slot)},
      {"entry_counter", word(f.entry_counter)},
      {"ts_datastack_top", at(offsetof(PyThreadState, datastack_top))},
      {"ts_datastack_limit", at(offsetof(PyThreadState, datastack_limit))},
      {"f_builtins", at(offsetof(_PyInterpreterFrame, f_builtins))},
      {"f_globals", at(offsetof(_PyInterpreterFrame, f_globals))},
      {"prev_instr", at(offsetof(_PyInterpreterFrame, prev_instr))},
      {"is_entry", at(offsetof(_PyInterpreterFrame, is_entry))},
      {"owner", at(offsetof(_PyInterpreterFrame, owner))},
      {"owned_by_thread", int64_t{FRAME_OWNED_BY_THREAD}},
      {"eval_breaker", word(f.eval_breaker)},
      {"instantiate_entry", word(f.instantiate_entry)},
      {"argc_below_cache", -runtime::kHeaderArgc},  // the header's argc, before the cache
      {"prev_instr_below_cache", -runtime::kHeaderPrevInstr},
      {"ccall_callable", at(offsetof(runtime::CCallCache, callable))},
      {"ccall_self_type", at(offsetof(runtime::CCallCache, self_type))},
      {"ccall_self", at(offsetof(runtime::CCallCache, self))},
      {"ccall_entry", at(offsetof(runtime::CCallCache, entry))},
      {"ccall_fastcall", at(offsetof(runtime::CCallCache, fastcall))},
      {"ccall_code", at(offsetof(runtime::CCallCache, code))},
      {"ccall_state", at(offsetof(runtime::CCallCache, state))},
      {"ccall_method_def", at(offsetof(runtime::CCallCache, method_def))},
      {"ccall_context", at(offsetof(runtime::CCallCache, entry_context))},
      {"cfunction_type", word(f.cfunction_type)},
      {"cfunction_ml", at(offsetof(PyCFunctionObject, m_ml))},
      {"cfunction_self", at(offsetof(PyCFunctionObject, m_self))},
  });
  return values;
}

}  // namespace

std::string CallStubText(const CallStubFacts& facts) {
  if (facts.function_type == 0 || facts.method_type == 0 || facts.cfunction_type == 0 ||
      facts.state_cache == 0 || facts.state_cache_mask <= 0 || facts.jit_vectorcall == 0 ||
      facts.direct_thread_slot == 0 || facts.entry_counter == 0 || facts.eval_breaker == 0 ||
      facts.instantiate_entry == 0) {
    throw std::invalid_argument("call stub: incomplete runtime facts");
  }
  return FillStubText(kStubTemplate, StubValues(facts), "call stub");
}

lir::Function CallStub(const CallStubFacts& facts) {
  lir::Module m = lir::Parse(CallStubText(facts));
  return std::move(m.functions.at(0));
}

std::string KeywordCallStubText() {
  std::map<std::string, int64_t> values = FrameLayoutValues();
  values["ts_datastack_top"] = static_cast<int64_t>(offsetof(PyThreadState, datastack_top));
  return FillStubText(kKeywordStubTemplate, values, "keyword-call stub");
}

lir::Function KeywordCallStub() {
  lir::Module m = lir::Parse(KeywordCallStubText());
  return std::move(m.functions.at(0));
}

}  // namespace a64jit::lower
