"""a64jit.get_deopt_stats() for planted events, each checked by site, reason, guilty type,
exit and count: a type change at an attribute site, an unbound local, an exception leaving a
function, a signal handler raising at a loop's eval-breaker check, tracing switched on while
compiled code runs; and that a class modified at each instance keeps its attribute and method
sites cached. Run with the JIT on (`a64jit-run --jitlist='__main__:*'`). Prints
PASS/FAIL lines and `N passed, N failed`; exit status 1 on any failure."""

import gc
import math
import signal
import sys
import weakref

import a64jit

results = []


def check(name, condition, detail=""):
    results.append(bool(condition))
    print(("PASS " if condition else "FAIL ") + name + ("" if condition else ": " + str(detail)))


class Plain:
    def __init__(self):
        self.x = 1


class Other:
    def __init__(self):
        self.y = 0
        self.x = 2


class Dynamic:  # a __getattr__ of its own: no entry serves it, each access misses
    def __getattr__(self, name):
        return 3


def get_x(o):
    return o.x


def maybe_unbound(flag):
    if flag:
        v = 1
    return v


def lookup(d):
    return d["key"]


class Stop(Exception):
    pass


def on_signal(signum, frame):
    raise Stop()


def spin_until_signal():
    signal.setitimer(signal.ITIMER_REAL, 0.05)  # arrives while the loop runs
    n = 0
    while True:
        n += 1


def start_tracing():
    sys.settrace(lambda *args: None)


def traced_after_call():
    start_tracing()
    return 5


class Holder:  # a C function as an instance attribute: LOAD_METHOD pushes [NULL, it]
    pass


def call_held(holder, x):
    return holder.fn(x)


def entries(function, reason=None):
    return [e for e in a64jit.get_deopt_stats()
            if e["function"] == "__main__:" + function and reason in (None, e["reason"])]


def expect(name, function, reason, count, exit, type_name, opcode=None):
    found = entries(function, reason)
    ok = (len(found) == 1 and found[0]["count"] == count and found[0]["exit"] == exit and
          found[0]["type"] == type_name and (opcode is None or found[0]["opcode"] == opcode) and
          found[0]["line"] > 0)
    check(name, ok, found or a64jit.get_deopt_stats())


a64jit.clear_deopt_stats()
for _ in range(50):
    get_x(Plain())
for _ in range(7):
    get_x(Other())
expect("a new receiver type at an attribute site fails its guard once, then is cached",
       "get_x", "type guard", 1, "generic path", "Other", "LOAD_ATTR")
for _ in range(5):
    get_x(Dynamic())
check("a receiver no cache can serve fails the guard every time",
      [e["count"] for e in entries("get_x") if e["type"] == "Dynamic"] == [5], entries("get_x"))


class Counted:  # counts its instances in a class attribute: a new version at each one
    made = 0

    def __init__(self):
        self.x = 5
        Counted.made += 1

    def twice(self):
        return 2 * self.x


def get_counted_x(o):
    return o.x


def call_counted(o):
    return o.twice()


# Each round makes instances, which leaves the site's entry for Counted at an old version, and
# then reads one many times. The site refreshes the same class's entry in place, outside its
# budget of misses (16), so after more rounds than that a round's reads still miss only once.
for _ in range(40):
    batch = [Counted() for _ in range(3)]
    a64jit.clear_deopt_stats()
    for _ in range(30):
        get_counted_x(batch[0])
        call_counted(batch[0])
expect("a class modified at each instance: its entry is refreshed, a round misses once",
       "get_counted_x", "type guard", 1, "generic path", "Counted", "LOAD_ATTR")
expect("the same for a method of the class", "call_counted", "type guard", 1, "generic path",
       "Counted", "LOAD_METHOD")


def make_class(k):
    class Made:
        def __init__(self):
            self.x = k

    return Made


# A class made and dropped per call, as test suites make them: each fails the attribute
# site's guard once; the statistics count them by name and keep none alive.
made = []
for k in range(5):
    cls = make_class(k)
    get_x(cls())
    made.append(weakref.ref(cls))
    del cls
gc.collect()
check("the statistics keep no class alive", all(r() is None for r in made),
      sum(r() is not None for r in made))
check("same-named classes add up",
      [e["count"] for e in entries("get_x") if e["type"] == "Made"] == [5], entries("get_x"))

# The call stub takes LOAD_METHOD's [NULL, C function] as a plain call and caches the C
# function at the site: another one there fails the cache's guard once (before the stub
# looked at sp[0], such a site never filled its cache and called through the host helper).
holder = Holder()
holder.fn = math.sqrt
for _ in range(20):
    call_held(holder, 4.0)
holder.fn = math.floor
check("call_held's results", [call_held(holder, 4.5) for _ in range(3)] == [4, 4, 4])
expect("a module's C function at a LOAD_METHOD site is cached; another one misses once",
       "call_held", "type guard", 1, "generic path", "builtin_function_or_method", "CALL")

for _ in range(3):
    try:
        maybe_unbound(False)
    except UnboundLocalError:
        pass
expect("an unbound local leaves for the interpreter", "maybe_unbound", "unbound local", 3,
       "interpreter", None, "LOAD_FAST")

for _ in range(4):
    try:
        lookup({})
    except KeyError:
        pass
expect("an exception unwinds the compiled frame", "lookup", "exception", 4, "unwound",
       "KeyError", "BINARY_SUBSCR")

signal.signal(signal.SIGALRM, on_signal)
try:
    spin_until_signal()
except Stop:
    pass
expect("a signal handler's exception at a loop's check", "spin_until_signal", "eval breaker", 1,
       "unwound", "Stop")

traced_after_call()
sys.settrace(None)
expect("tracing switched on leaves for the interpreter", "traced_after_call", "tracing", 1,
       "interpreter", None)

check("the JIT compiled the planted functions",
      all(a64jit.is_jit_compiled(f)
          for f in (get_x, call_held, maybe_unbound, lookup, traced_after_call)))
check("every site names its opcode", all(e["opcode"] for e in a64jit.get_deopt_stats()))
a64jit.clear_deopt_stats()
check("clear_deopt_stats forgets them", a64jit.get_deopt_stats() == [])
# a last event for --stats to print
try:
    lookup({})
except KeyError:
    pass

passed = sum(results)
print("%d passed, %d failed" % (passed, len(results) - passed))
sys.exit(0 if passed == len(results) else 1)
