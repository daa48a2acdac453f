# pydiff: jit-args=--jitlist=__main__:drive*
# pydiff: min-compiled=3
# pydiff: min-interpreted_vectorcalls=2000
# Calls of functions that stay interpreted (not in the jitlist): once the hook has seen such a
# function run, its vectorcall pushes a plain call's frame itself and takes it straight to the
# interpreter (interpreted_calls.cc InterpretedVectorcall), where CPython would bind the
# arguments generically; any other shape takes CPython's path from there. The compiled
# drivers call them, and so do the interpreter and C code. What must still hold: unbound
# locals, generators made by the call, frame objects that outlive it, tracebacks, recursion to
# the limit, closures, a replaced __code__, defaults, keywords, *args, **kwargs and
# keyword-only parameters, calls that do not bind (stock's errors), tracing and profiling
# switched on meanwhile, and the references of the arguments.
import sys


def add(a, b):
    return a + b


def maybe_unbound(flag):
    if flag:
        value = "set"
    try:
        return value
    except UnboundLocalError as e:
        return "unbound: " + str(e)


def countdown(n):
    while n > 0:
        yield n
        n -= 1


def keep_frame(x):
    return sys._getframe(), x * 2


def caller_name():
    return sys._getframe(1).f_code.co_name


def fails(x):
    if x % 3 == 0:
        raise ValueError("no multiples of three: %d" % x)
    return x


def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)


def make_adder(k):
    def adder(x):
        return x + k

    return adder


def with_default(a, b=10):
    return a + b


def swapped(a, b):
    return (a, b)


def reversed_pair(a, b):
    return (b, a)


def pair(a, b):
    return (a, b)


def shapes_of(a, b=2, *rest, c, d=4, **named):
    return (a, b, rest, c, d, sorted(named.items()))


def only_rest(*rest):
    return rest


def only_named(**named):
    return sorted(named.items())


def drive_binding(n):
    out = []
    for i in range(n):
        out.append(shapes_of(i, c=1))
        out.append(shapes_of(i, 5, 6, 7, c=i, e=8, f=9))
        out.append(shapes_of(c=3, a=i))
        out.append(only_rest(i, i + 1))
        out.append(only_named(x=i))
        out.append(pair(b=i, a=-i))
    return out


def binding_errors():
    found = []
    for call in (lambda: pair(1), lambda: pair(1, 2, 3), lambda: pair(1, a=2),
                 lambda: pair(1, c=2), lambda: shapes_of(1), lambda: pair(**{1: 2})):
        try:
            call()
        except TypeError as e:
            found.append(str(e))
    return found


def locals_of(a, b):
    c = a + b
    return sorted(locals().items())


class Box:
    def __init__(self, v):
        self.v = v

    def get(self):
        return self.v


def drive_plain(n):
    total = 0
    for i in range(n):
        total = add(total, i)
        total = add(total, len(maybe_unbound(i % 2)))
    return total


def drive_shapes(n):
    out = []
    for i in range(n):
        out.append(sum(countdown(i % 5)))
        frame, doubled = keep_frame(i)
        out.append((frame.f_code.co_name, frame.f_locals["x"], doubled))
        out.append(caller_name())
        try:
            out.append(fails(i))
        except ValueError as e:
            out.append(str(e))
        out.append(make_adder(i)(1))
        out.append(with_default(i))
        out.append(with_default(i, b=1))
        out.append(Box(i).get())
        out.append(locals_of(i, 1))
    return out


def drive_from_c(n):
    return list(map(add, range(n), range(n))) + sorted(range(n), key=make_adder(3))


def tb_lines():
    try:
        fails(3)
    except ValueError as e:
        tb = e.__traceback__
        names = []
        while tb is not None:
            names.append(tb.tb_frame.f_code.co_name)
            tb = tb.tb_next
        return names


def traced_calls():
    events = []

    def tracer(frame, event, arg):
        if event == "call" and frame.f_code.co_filename == __file__:
            events.append(frame.f_code.co_name)
        return None

    sys.settrace(tracer)
    try:
        drive_plain(3)
    finally:
        sys.settrace(None)
    profiled = []
    sys.setprofile(lambda frame, event, arg: profiled.append((event, frame.f_code.co_name))
                   if event == "call" else None)
    try:
        add(1, 2)
    finally:
        sys.setprofile(None)
    return events, profiled


def recursion_limit():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        depth(10_000)
    except RecursionError as e:
        return "RecursionError: " + str(e)
    finally:
        sys.setrecursionlimit(old)


def replaced_code():
    before = swapped(1, 2)
    swapped.__code__ = reversed_pair.__code__
    after = swapped(1, 2)
    swapped.__code__ = with_default.__code__  # the defaults stay the function's (none)
    try:
        missing = swapped(5)
    except TypeError as e:
        missing = str(e)
    return before, after, swapped(1, 2), missing


print(drive_plain(3000))
bound = drive_binding(200)
print(len(bound), bound[:6], bound[-6:])
print(binding_errors())
shapes = drive_shapes(300)
print(len(shapes), shapes[:24], shapes[-12:])
print(drive_from_c(50)[:10], depth(50))
print(tb_lines())
print(recursion_limit())
print(traced_calls())
print(replaced_code())
print(drive_plain(10))


def module_code_as_function():
    # A function over module code: _PyFunction_Vectorcall gives its frame the globals as
    # locals, so it must never take the JIT's vectorcall, nor a function whose __code__
    # becomes such a code after the vectorcall went in.
    import types
    ns = {}
    body = types.FunctionType(compile("x = 1\ny = x + 1\n", "<module code>", "exec"), ns)
    for _ in range(30):
        body()
    late = types.FunctionType(pair.__code__, ns)
    for _ in range(30):
        late(1, 2)
    late.__code__ = compile("z = 3\n", "<module code>", "exec")
    results = []
    for _ in range(3):
        try:
            late()
            results.append(ns.get("z"))
        except Exception as e:
            results.append(type(e).__name__ + ": " + str(e))
    return ns["y"], results


print(module_code_as_function())

token = object()
before = sys.getrefcount(token)
for _ in range(100):
    pair(token, token)
print("argument references unchanged:", sys.getrefcount(token) == before)
