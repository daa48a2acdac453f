# pydiff: all-compiled
# pydiff: threshold=0,10
"""Properties read by compiled code, whose getters are compiled too: the attribute helper calls
such a getter directly (jit/python/helpers.cc CompiledPropertyValue) instead of through
property's __get__. Values, errors with the getter's traceback line, the frame chain the
getter sees, a getter that deletes or replaces its own property, a property re-initialised
with another getter in place, a property without a getter, getters that are not Python
functions, subclasses that shadow the property, reads through the class, recursion at the
limit, and reference counts."""
import sys


class Temperature:
    def __init__(self, celsius):
        self._celsius = celsius

    @property
    def celsius(self):
        return self._celsius

    @property
    def fahrenheit(self):
        return self._celsius * 9 / 5 + 32

    @property
    def kelvin(self):
        if self._celsius < -273.15:
            raise ValueError("below absolute zero: %r" % self._celsius)
        return self._celsius + 273.15

    @property
    def caller(self):
        return sys._getframe(1).f_code.co_name


class Slotted:
    __slots__ = ("_n",)

    def __init__(self, n):
        self._n = n

    @property
    def doubled(self):
        return self._n * 2


class Shadowing(Temperature):
    celsius = 100  # a plain class attribute replaces the property for this subclass


class Overriding(Temperature):
    @property
    def celsius(self):
        return -self._celsius


class SelfDeleting:
    @property
    def once(self):
        del SelfDeleting.once  # the property, and its getter's last other reference, go
        return "read once"


def getter_a(self):
    return "a"


def getter_b(self):
    return "b"


class Reinitialised:
    p = property(getter_a)


class NotPython:
    length = property(len)  # a C getter: called by property's __get__ as before
    ident = property(lambda self: "lambda")


class WriteOnly:
    def _set(self, value):
        self.value = value

    secret = property(None, _set)


def read_celsius(t):
    return t.celsius


def read_all(t):
    return t.celsius, t.fahrenheit, t.kelvin


def read_kelvin(t):
    return t.kelvin


def read_caller(t):
    return t.caller


def read_doubled(s):
    return s.doubled


def read_once(o):
    return o.once


def read_p(o):
    return o.p


def read_not_python(o):
    return o.length, o.ident


def read_secret(o):
    return o.secret


def show(f, *args):
    try:
        print(f.__name__, "->", repr(f(*args))[:70])
    except Exception as e:
        print(f.__name__, "raises", type(e).__name__, str(e)[:70])


temps = [Temperature(c) for c in (-40, 0, 36.6, 100, -300)]
for i in range(12):
    for t in temps:
        read_celsius(t)
for t in temps:
    show(read_all, t)
    show(read_kelvin, t)
show(read_caller, temps[0])
for cls in (Shadowing, Overriding):
    for i in range(12):
        read_celsius(cls(5))
    show(read_celsius, cls(7))
for i in range(12):
    read_doubled(Slotted(i))
show(read_doubled, Slotted(21))
print(read_celsius(Temperature(1)), Temperature.celsius.__class__.__name__)

for i in range(12):
    read_p(Reinitialised())
show(read_p, Reinitialised())
Reinitialised.p.__init__(getter_b)  # the same property object, another getter
show(read_p, Reinitialised())

o = SelfDeleting()
show(read_once, o)
show(read_once, o)
for i in range(12):
    try:
        read_not_python(NotPython())
    except TypeError:
        pass
show(read_not_python, NotPython())
show(read_secret, WriteOnly())

marker = object()
holder = Temperature(marker)
before = sys.getrefcount(marker), sys.getrefcount(holder)
for i in range(3000):
    read_celsius(holder)
print(before == (sys.getrefcount(marker), sys.getrefcount(holder)))


class Deep:
    @property
    def down(self):
        return self.down  # recurses until RecursionError


show(lambda d: d.down, Deep())
read_kelvin(Temperature(-500))
