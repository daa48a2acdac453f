# pydiff: all-compiled
# Attribute loads that a data descriptor of the object's type answers, which a compiled site
# caches by the type's version and calls the descriptor's getter for (jit/python/
# attr_descriptors.h): __slots__ members (set, unset, deleted), properties (raising, replaced
# and deleted on the class after the site cached them, re-initialised in place, deleting
# themselves while they run), a C type's members and getters (complex, slice, range, int,
# functions, exceptions, dates, ElementTree elements), named tuple fields (and a subclass
# that turns one into a property), classes with __getattr__ or __getattribute__, objects
# whose class changes, one site seeing all of these, and an audit hook that must see the
# reads it audits (a traceback's tb_frame).
import collections
import datetime
import sys
import xml.etree.ElementTree as ET

audited = []


def hook(event, args):
    if event == "object.__getattr__":
        audited.append(args[1])


sys.addaudithook(hook)


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x):
        self.x = x


class Props:
    def __init__(self, v):
        self._v = v

    @property
    def x(self):
        if self._v < 0:
            raise AttributeError("negative")
        return self._v * 10


class Plain:
    def __init__(self, x):
        self.x = x


Pair = collections.namedtuple("Pair", "x y")


class NamedProp(Pair):
    @property
    def x(self):
        return "prop"


class Lazy:
    def __getattr__(self, name):
        return "lazy " + name


class Watched:
    def __init__(self):
        self.x = 1

    def __getattribute__(self, name):
        return "watched " + name


def attempt(read, o):
    try:
        return read(o)
    except AttributeError as e:
        return "AttributeError: %s" % e


def read_x(objs):
    return [attempt(lambda o: o.x, o) for o in objs]


def read_y(objs):
    return [attempt(lambda o: o.y, o) for o in objs]


def c_attrs(values):
    z, s, r, n, f, e, d, el = values
    return [z.real, z.imag, s.start, s.stop, s.step, r.start, r.stop, n.real, n.numerator,
            f.__name__, f.__qualname__, e.args, d.year, d.month, el.tag, el.text]


def frames_of(n):
    seen = []
    for _ in range(n):
        try:
            raise ValueError
        except ValueError as e:
            seen.append(e.__traceback__.tb_frame.f_code.co_name)
    return seen


class SelfDeleting:
    @property
    def x(self):
        del SelfDeleting.x
        return "deleted myself"


def main():
    slotted = [Slotted(i) for i in range(3)]
    props = [Props(i) for i in (1, 2, -1)]
    plain = [Plain("p")]
    pairs = [Pair(1, 2), NamedProp(3, 4)]
    odd = [Lazy(), Watched()]
    everything = slotted + props + plain + pairs + odd
    for _ in range(3):
        print(read_x(everything))
        print(read_y(slotted + pairs + odd))
    del slotted[0].x
    slotted[1].y = "y set"
    print(read_x(slotted), read_y(slotted))
    Props.x = property(lambda self: "replaced")
    print(read_x(props))
    Props.x.__init__(lambda self: "re-initialised")
    print(read_x(props))
    del Props.x
    print(read_x(props))
    slotted[2].__class__ = type("Other", (Slotted,), {"__slots__": (), "x": "class attribute"})
    print(read_x(slotted))
    element = ET.Element("tag")
    element.text = "text"
    values = (3 + 4j, slice(1, 9, 2), range(2, 7), 41, main, KeyError("k"),
              datetime.date(2024, 5, 6), element)
    for _ in range(3):
        print(c_attrs(values))
    print(frames_of(3), len(audited))
    deleting = [SelfDeleting()]
    print(read_x(deleting), read_x(deleting))


main()
