# pydiff: all-compiled
# isinstance(x, cls) read only by an `if` (analyses.cc's FindIsInstanceTests): the branch takes
# the answer as an int when the types alone gave it (an exact match, a subclass, a miss) and
# makes the bool, tests tracing and releases it when PyObject_IsInstance did. Here every
# outcome: exact types, subclasses, misses, `not`, elif chains, a __class__ property, a
# metaclass's __instancecheck__ (counted, and one that raises), an ABC, a tuple of classes, a
# non-class (TypeError), isinstance rebound, and an __instancecheck__ that turns tracing on,
# which the function must see at its next line as stock does.
import abc
import builtins
import sys


class Shape:
    pass


class Circle(Shape):
    pass


class Claims:  # reports Shape as its class: PyObject_IsInstance asks __class__
    @property
    def __class__(self):
        return Shape


checks = []


class Counting(type):
    def __instancecheck__(cls, x):
        checks.append(type(x).__name__)
        return isinstance(x, int) and x > 2


class Big(metaclass=Counting):
    pass


class Refuses(type):
    def __instancecheck__(cls, x):
        raise LookupError("no instances")


class Nothing(metaclass=Refuses):
    pass


class Sized(abc.ABC):
    @classmethod
    def __subclasshook__(cls, other):
        return hasattr(other, "__len__")


def classify(xs):
    out = []
    for x in xs:
        if isinstance(x, Circle):
            out.append("circle")
        elif isinstance(x, Shape):
            out.append("shape")
        elif isinstance(x, int):
            out.append("int")
        elif not isinstance(x, str):
            out.append("other")
        else:
            out.append("str")
    return out


def metaclass_checks(xs):
    n = 0
    for x in xs:
        if isinstance(x, Big):
            n += 1
        if isinstance(x, Sized):
            n += 10
        if isinstance(x, (float, str)):
            n += 100
    return n


def refused(x):
    try:
        if isinstance(x, Nothing):
            return "yes"
        return "no"
    except LookupError as e:
        return f"LookupError {e}"


def not_a_class(x, cls):
    try:
        if isinstance(x, cls):
            return "yes"
        return "no"
    except TypeError as e:
        return f"TypeError {e}"


def rebound(x):
    if isinstance(x, int):
        return "int"
    return "not int"


events = []


def tracer(frame, event, arg):
    if frame.f_code.co_filename == __file__:
        events.append((frame.f_code.co_name, event, frame.f_lineno))
    return tracer


class StartsTracing(type):
    def __instancecheck__(cls, x):
        sys.settrace(tracer)
        sys._getframe(1).f_trace = tracer
        return True


class Traced(metaclass=StartsTracing):
    pass


def traced_after_check(x):
    if isinstance(x, Traced):
        y = x + 1
    else:
        y = 0
    sys.settrace(None)
    return y


def main():
    xs = [Circle(), Shape(), 3, True, "s", 2.5, None, Claims(), [1], (2,)]
    for _ in range(3):
        print(classify(xs))
        print(metaclass_checks(xs), len(checks))
    print(checks[:12])
    print(refused(1), refused(Shape()))
    print(not_a_class(1, 5), not_a_class(1, int), not_a_class("a", (int, 5)))
    print(rebound(1), rebound("a"))
    saved = builtins.isinstance
    builtins.isinstance = lambda x, c: x == 1
    try:
        print(rebound(1), rebound(2))
    finally:
        builtins.isinstance = saved
    print(traced_after_check(41), events)


main()
