"""The a64jit module's API, checked from Python: compile control, introspection, dumps,
statistics and error handling. Runs under a64jit-run --no-jit (the module built in) and in
Debian's /usr/bin/python3.11 with the a64jit.so extension; the JIT starts disabled and the
test enables it. Prints `N passed, N failed`; exit status 1 on any failure."""

import sys

import a64jit

results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(("PASS " if condition else "FAIL ") + name + ("" if condition else ": " + detail))


def raises(exc, fn, *args):
    try:
        fn(*args)
    except exc as e:
        return str(e)
    return None


def square_plus(a, b):
    return a * a + b


def listed_one(x):
    return x + 1


def unlisted_one(x):
    return x - 1


def gen():
    yield 1


def enumerated(xs):
    return [i * x for i, x in enumerate(xs)]


def zipped_sum(a, b):
    return sum(x * y for x, y in zip(a, b))


# PRINT_EXPR only appears in interactive ('single') code, never in a function body: a
# function made to contain one is refused, with the opcode named.
def interactive_only():
    x = 1
    return x


def with_print_expr(f):
    import opcode
    code = bytearray(f.__code__.co_code)
    store = code.index(opcode.opmap["STORE_FAST"])
    code[store] = opcode.opmap["PRINT_EXPR"]
    f.__code__ = f.__code__.replace(co_code=bytes(code))
    return f


with_print_expr(interactive_only)


def counted(x):
    return x * 3


# force_compile / is_jit_compiled / get_compiled_size
check("not compiled before", not a64jit.is_jit_compiled(square_plus))
check("force_compile", a64jit.force_compile(square_plus) is True)
check("is_jit_compiled", a64jit.is_jit_compiled(square_plus))
size = a64jit.get_compiled_size(square_plus)
check("compiled size", 0 < size < 10000, str(size))
check("force_compile compiles a generator", a64jit.force_compile(gen) is True)
check("generator runs compiled", list(gen()) == [1])
check("force_compile refuses PRINT_EXPR", a64jit.force_compile(interactive_only) is False)
check("PRINT_EXPR named in stats", "unsupported opcode PRINT_EXPR" in
      a64jit.stats()["failures"].get("__main__:interactive_only", ""),
      str(a64jit.stats()["failures"]))
check("PRINT_EXPR counted", a64jit.stats()["unsupported_opcodes"].get("PRINT_EXPR") == 1,
      str(a64jit.stats()["unsupported_opcodes"]))

# dumps
hir = a64jit.dump(square_plus, "hir")
check("dump hir", "BinaryOp" in hir and "Return" in hir, hir)
lir = a64jit.dump(square_plus, "lir")
# The generic multiply: a64_number_multiply, or a64_binary_object where 3.11 had not yet
# specialised the site to ints (lowering's lower.binary-object)
check("dump lir", "call @a64_number_multiply" in lir or "call @a64_binary_object" in lir, lir)
asm = a64jit.dump(square_plus, "asm")
check("dump asm", "ret" in asm and "stp x29, x30" in asm, asm)
check("dump of an uncompiled function", "not compiled" in (raises(ValueError, a64jit.dump,
                                                                  counted, "hir") or ""))
check("dump what", "what must be" in (raises(ValueError, a64jit.dump, square_plus, "x") or ""))
check("dump of a non-function", raises(TypeError, a64jit.dump, len, "hir") is not None)
check("get_compiled_size of a non-function",
      raises(TypeError, a64jit.get_compiled_size, 3) is not None)

# jitlist
a64jit.enable(jitlist=["__main__:listed_*"])
listed_one(1)
unlisted_one(1)
check("jitlist compiles listed", a64jit.is_jit_compiled(listed_one))
check("jitlist skips unlisted", not a64jit.is_jit_compiled(unlisted_one))
a64jit.disable()
check("a jitlist alone: threshold 0", a64jit.get_threshold() == 0,
      str(a64jit.get_threshold()))
a64jit.enable()
check("enable(): the tiering policy", a64jit.get_threshold() == "auto",
      str(a64jit.get_threshold()))
a64jit.disable()

# threshold
a64jit.enable(threshold=3)
before = a64jit.stats()["entries"]
for i in range(3):
    counted(i)
check("threshold: interpreted for 3 calls", not a64jit.is_jit_compiled(counted))
check("threshold: right result before", counted(5) == 15)
check("threshold: compiled on call 4", a64jit.is_jit_compiled(counted))
check("threshold: right result after", counted(6) == 18)
before_vc = a64jit.stats()["vectorcall_entries"]
check("later calls enter by vectorcall", counted(7) == 21 and
      a64jit.stats()["vectorcall_entries"] == before_vc + 1, str(a64jit.stats()))
stats = a64jit.stats()
check("entries counted", stats["entries"] > before, str(stats))
check("compiled functions listed", "__main__:counted" in a64jit.get_compiled_functions())
check("stats fields", all(k in stats for k in ("compiled", "failed", "entries", "deopts",
                                               "interpreted_entries", "bodies",
                                               "emulated_instructions", "exec_mode")))
check("compile time measured", stats["compile_us_max"] >= stats["compile_us_median"] >= 0 and
      stats["compile_hir_ns"] > 0 and stats["compile_lower_ns"] > 0 and
      stats["compile_emit_ns"] > 0, str(stats))
if stats["exec_mode"] == "unicorn":
    check("emulated instructions", stats["emulated_instructions"] > 0, str(stats))
else:
    check("native: nothing emulated", stats["emulated_instructions"] == 0, str(stats))

# A comprehension compiled from its frame keeps what `.0` held as a hint (the header of its
# HIR), and its loop over `.0` steps that iterator inline. Its function is made anew at each
# call: a function over its code object finds the code's compiled state.
def comprehension_hir(outer):
    import types
    inner = [c for c in outer.__code__.co_consts if isinstance(c, types.CodeType)][0]
    return a64jit.dump(types.FunctionType(inner, globals()), "hir")


for i in range(5):
    enumerated([1, 2, 3])
    zipped_sum([1, 2], [3, 4])
listcomp_hir = comprehension_hir(enumerated)
check("a list comprehension over enumerate(): its hint and inline step",
      "local 0 enumerate)" in listcomp_hir and "ForIterOfEnumerate" in listcomp_hir, listcomp_hir)
genexpr_hir = comprehension_hir(zipped_sum)
check("a generator expression over zip(): its hint and inline step",
      "local 0 zip)" in genexpr_hir and "ForIterOfZip" in genexpr_hir, genexpr_hir)
a64jit.disable()

# set_threshold applies at once, also to a function the hook was counting without asking the
# policy (CodeState::quiet_until, set under the old threshold).
def recounted(x):
    return x * 2


a64jit.enable(threshold=100)
for i in range(10):
    recounted(i)
check("set_threshold: counted under 100", not a64jit.is_jit_compiled(recounted))
a64jit.set_threshold(5)
check("set_threshold: compiled at the next call", recounted(4) == 8 and
      a64jit.is_jit_compiled(recounted))
a64jit.disable()

# hot_loop_us: a function with a loop compiles below the threshold once its interpreted runs
# took that long (here 1 us: at once, after its first call); 0 turns it off.
def looping(n):
    t = 0
    for i in range(n):
        t += i
    return t


a64jit.enable(threshold=100, hot_loop_us=0)
looping(2000)
looping(2000)
check("hot_loop_us=0: calls only", not a64jit.is_jit_compiled(looping))
a64jit.disable()
qualified = a64jit.stats()["loop_time_qualified"]
a64jit.enable(threshold=100, hot_loop_us=1)
looping(2000)
check("hot_loop_us: interpreted below the threshold", not a64jit.is_jit_compiled(looping))
check("hot_loop_us: compiled at the next call", looping(2000) == 1999000 and
      a64jit.is_jit_compiled(looping) and
      a64jit.stats()["loop_time_qualified"] == qualified + 1, str(a64jit.stats()))
check("hot_loop_us < 0 refused", "hot_loop_us" in (raises(ValueError, lambda: a64jit.enable(
    hot_loop_us=-1)) or ""))
a64jit.disable()

# Compiled code calls a compiled function itself (a64_call_enter / a64_call_leave): the
# first call of `leaf` compiles it, the other nine are direct.
a64jit.enable(threshold=0)


def leaf(x):
    return x + 1


def calls_leaf(n):
    total = 0
    for i in range(n):
        total += leaf(i)
    return total


before = a64jit.stats()
check("compiled calls of compiled functions are direct",
      calls_leaf(10) == 55 and a64jit.stats()["direct_entries"] == before["direct_entries"] + 9,
      str(a64jit.stats()))
# ... entered by the guest call stub (jit/lower/call_stub.h), with no host call.
check("the call stub enters them",
      a64jit.stats()["stub_entries"] == before["stub_entries"] + 9, str(a64jit.stats()))


# A closure made anew by each call of its maker (MAKE_FUNCTION in compiled code) has the JIT's
# vectorcall from the start once its code is compiled, so the stub enters it.
def make_and_call(n):
    def add(x):
        return x + n

    return add(1)


make_and_call(0)  # compiles make_and_call, then add
before = a64jit.stats()
sums = []
for i in range(5):  # interpreted here: only the closures' calls are the stub's
    sums.append(make_and_call(i))
check("a closure compiled code made is entered by the stub",
      sums == [1, 2, 3, 4, 5] and
      a64jit.stats()["stub_entries"] == before["stub_entries"] + 5, str(a64jit.stats()))


# A compiled callee of another shape (*args, a keyword-only default): the helper binds its
# arguments into its frame and the stub runs it, with no other host frame (direct_entries).
def star(*items, extra=1):
    return len(items) + extra


def calls_star(n):
    total = 0
    for i in range(n):
        total += star(i, i)
    return total


calls_star(1)  # compiles both
before = a64jit.stats()
check("a compiled *args callee is entered directly",
      calls_star(10) == 30 and
      a64jit.stats()["direct_entries"] == before["direct_entries"] + 10, str(a64jit.stats()))


# A generator function called with exactly its positional parameters: the stub pushes its
# frame and its call path clears the locals past the parameters (HIR ClearLocals), which
# MAKE_CELL reads before RETURN_GENERATOR; it used to be entered through the helper.
def cells(n):
    hidden = [n] * 3  # a local past the parameter, and a cell

    def inner():
        return hidden[0]

    yield inner()


def calls_cells(n):
    total = 0
    for i in range(n):
        total += next(cells(i))
    return total


calls_cells(1)  # compiles both
before = a64jit.stats()
check("a compiled generator function is entered by the stub",
      calls_cells(10) == 45 and  # the generators' calls and their closures'
      a64jit.stats()["stub_entries"] == before["stub_entries"] + 20, str(a64jit.stats()))

# Disabling the JIT from inside compiled code: the compiled callee's later calls from the
# same compiled caller are interpreted (the stub's one test of the enabled thread).
def disables_then_calls(n):
    total = leaf(n)
    a64jit.disable()
    total += leaf(n)
    a64jit.enable(threshold=0)
    return total


disables_then_calls(1)  # compiles it
before = a64jit.stats()
check("a disabled JIT's calls are not direct",
      disables_then_calls(1) == 4 and
      a64jit.stats()["stub_entries"] == before["stub_entries"] + 1, str(a64jit.stats()))

# The call stub's frames borrow their callee's code (jit/lower/call_stub.cc): every end
# other than a plain return gives the frame its own reference first (LeaveCompiledCall), and a
# generator keeps the one a64_make_generator adds. Each shape of end, many times: a reference
# too many or too few shows in the counts.
def ends_plain(x):
    return x + 1


def ends_generator(x):
    yield x


def ends_raising(x):
    raise KeyError(x)


def ends_with_frame(x):
    return sys._getframe()


def ends_each_way(n):
    kept = 0
    for i in range(n):
        ends_plain(i)
        for _ in ends_generator(i):
            pass
        try:
            ends_raising(i)
        except KeyError:
            pass
        kept += ends_with_frame(i) is not None  # the frame object outlives its frame
    return kept


ended = (ends_plain, ends_generator, ends_raising, ends_with_frame)
ends_each_way(1)  # compiles them
counts = [sys.getrefcount(f.__code__) for f in ended]
before = a64jit.stats()
check("the stub's frames leave their code's reference count as it was",
      ends_each_way(200) == 200 and [sys.getrefcount(f.__code__) for f in ended] == counts and
      a64jit.stats()["stub_entries"] >= before["stub_entries"] + 800,
      str(counts) + " " + str([sys.getrefcount(f.__code__) for f in ended]) + " " +
      str(a64jit.stats()))

# A compiled frame releases its locals when it returns (frames.cc, LowerReturnBlock), and
# keeps them when a frame object may outlive it.
deleted = []


class Noisy:
    def __del__(self):
        deleted.append(1)


def holds_noisy(x):
    n = Noisy()
    return x + 1


def calls_holds_noisy():
    return holds_noisy(1) + holds_noisy(2) + holds_noisy(3)


check("a returning compiled frame releases its locals",
      calls_holds_noisy() == 9 and len(deleted) == 3, str(deleted))
# ... and is no longer on the thread's stack while it does (3.11.1's gh-99729): a finalizer
# run by the release sees the caller as its frame's parent.
parents = []


class Peek:
    def __del__(self):
        parents.append(sys._getframe(1).f_code.co_name)


def dies_with_peek(x):
    p = Peek()
    return x


def calls_dies_with_peek():
    return dies_with_peek(1) + dies_with_peek(2)


check("a frame releasing its locals is off the stack",
      calls_dies_with_peek() == 3 and parents == ["calls_dies_with_peek"] * 2, str(parents))
kept = []


def keeps_frame(a):
    b = a * 2
    kept.append(sys._getframe())
    return b


def calls_keeps_frame():
    return keeps_frame(3) + keeps_frame(4)


check("a frame object kept past the return keeps its locals",
      calls_keeps_frame() == 14 and kept[-1].f_locals == {"a": 4, "b": 8},
      str(kept[-1].f_locals if kept else None))


def on_a_thread(results_of_threads):
    results_of_threads.append(square_plus(3, 1))  # compiled: enters the JIT on this thread


# Threads that run one after another take the stack of the one before (jit_stack.cc's pool)
# instead of mapping their own. A thread gives its stack back as it exits, a little after
# join() returns (CPython releases the join before the thread's exit handlers run): the
# pause lets that happen, and one thread may still map a stack of its own.
import threading  # noqa: E402
import time  # noqa: E402

stacks_before = a64jit.stats()
thread_results = []
for _ in range(6):
    worker = threading.Thread(target=on_a_thread, args=(thread_results,))
    worker.start()
    worker.join()
    time.sleep(0.2)
stacks_after = a64jit.stats()
stacks_made = stacks_after["jit_stacks_made"] - stacks_before["jit_stacks_made"]
stacks_reused = stacks_after["jit_stacks_reused"] - stacks_before["jit_stacks_reused"]
check("threads one after another reuse a JIT stack",
      thread_results == [10] * 6 and a64jit.is_jit_compiled(square_plus) and stacks_made <= 2 and
      stacks_made + stacks_reused == 6,
      "results %s, stacks made %d, reused %d" % (thread_results, stacks_made, stacks_reused))
a64jit.disable()
check("bad threshold", raises(ValueError, a64jit.enable, -1) is not None)

passed = sum(results)
failed = len(results) - passed
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
