# pydiff: all-compiled
# pydiff: min-caught=2000
# pydiff: max-deopts=120
# Exception handlers run in compiled code: the exception table's landing blocks, PUSH_EXC_INFO,
# CHECK_EXC_MATCH, POP_EXCEPT, WITH_EXCEPT_START and RAISE_VARARGS in compiled code. What
# the output shows is what a wrong catch gets wrong: traceback entries and their lines (the
# caught frame's entry and a `finally` re-raise's original line), sys.exc_info() inside,
# after and between handlers, __context__ and __cause__, the values the stack held below
# and above the handler's depth (reference counts before and after many catches), and
# stock's TypeErrors for what cannot be raised or caught. The loops catch thousands of
# exceptions with few deopts (the max-deopts directive): the handlers are compiled.
import sys


class Problem(Exception):
    pass


class Minor(Problem):
    pass


SENTINEL = object()


def lines_of(tb):
    out = []
    while tb is not None:
        # f_lineno of a frame that has finished: the line its last instruction had, which a
        # `finally` or `with` re-raise sets back to the raising line.
        out.append((tb.tb_frame.f_code.co_name, tb.tb_lineno, tb.tb_frame.f_lineno))
        tb = tb.tb_next
    return out


def fails(x):
    if x % 3 == 0:
        raise Minor(x)
    if x % 3 == 1:
        raise Problem
    return x


def classify(n):
    minor = problem = other = 0
    for i in range(n):
        try:
            fails(i)
            other += 1
        except Minor as e:
            minor += e.args[0]
        except (KeyError, Problem):
            problem += 1
    return minor, problem, other, sys.exc_info()


def traceback_lines():
    try:
        fails(3)
    except Problem as e:
        return lines_of(e.__traceback__), type(sys.exc_info()[1]).__name__


def finally_reraise(x):
    try:
        try:
            fails(x)
        finally:
            marker = "cleaned"
    except Problem as e:
        return marker, lines_of(e.__traceback__)
    return marker, None


def nested_context():
    try:
        try:
            raise KeyError("first")
        except KeyError:
            inner = sys.exc_info()[1]
            try:
                raise ValueError("second")
            except ValueError as e:
                return repr(e.__context__), repr(inner), repr(sys.exc_info()[1])
    finally:
        pass


def cause_forms():
    out = []
    for cause in (None, Problem, Problem("given"), 7):
        try:
            try:
                raise Minor("m") from cause
            except TypeError as e:
                out.append(("TypeError", str(e)))
        except Minor as e:
            out.append((repr(e.__cause__), e.__suppress_context__))
    for raised in (Minor, Minor("x"), 5):
        try:
            raise raised
        except Minor as e:
            out.append(("Minor", e.args))
        except TypeError as e:
            out.append(("TypeError", str(e)))
    try:
        try:
            raise Minor
        except 5:
            out.append("unreachable")
    except TypeError as e:
        out.append(("bad except", str(e)))
    return out


def deep_stack(n):
    # Values above the handler's depth (a list being built, call arguments, a for loop's
    # iterator) are released by the catch; below it (the outer loop's iterator) kept.
    total = 0
    for i in range(n):
        try:
            total += len([SENTINEL, SENTINEL, fails(i), SENTINEL])
        except Problem:
            total += 100
        try:
            for j in [SENTINEL, i]:
                if j is not SENTINEL:
                    fails(j)
        except Problem:
            total += 1
    return total


class Manager:
    def __init__(self, suppress):
        self.suppress = suppress
        self.seen = []

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        self.seen.append((kind and kind.__name__, tb and tb.tb_lineno))
        return self.suppress


def with_blocks():
    quiet = Manager(True)
    for i in range(3):
        with quiet:
            fails(i)
    loud = Manager(False)
    try:
        with loud:
            fails(1)
    except Problem as e:
        return quiet.seen, loud.seen, lines_of(e.__traceback__)


def gen_with_handler(n):
    for i in range(n):
        try:
            fails(i)
            yield ("ok", i)
        except Problem as e:
            yield ("caught", type(e).__name__, sys.exc_info()[0].__name__)
            yield ("after yield", sys.exc_info()[0].__name__)


def escapes_finally(x):
    try:
        fails(x)
    finally:
        x = "cleaned"


def escapes_with(x):
    with Manager(False):
        fails(x)
        x += 1


def escaped(fn, x):
    try:
        fn(x)
    except Problem as e:
        return lines_of(e.__traceback__)


def bare_reraise():
    try:
        try:
            fails(0)
        except Minor:
            raise
    except Problem as e:
        return lines_of(e.__traceback__)


before = sys.getrefcount(SENTINEL)
for _ in range(3):
    print(classify(3000))
print(traceback_lines())
print(finally_reraise(0), finally_reraise(2))
print(nested_context(), sys.exc_info())
print(cause_forms())
print(deep_stack(300), sys.getrefcount(SENTINEL) - before)
print(with_blocks())
print(list(gen_with_handler(4)))
print(bare_reraise())
print(escaped(escapes_finally, 0), escaped(escapes_with, 1))
