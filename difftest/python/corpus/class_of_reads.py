# pydiff: threshold=20
# pydiff: all-compiled
# `x.__class__`, which 3.11 specialises to LOAD_ATTR_SLOT of the word at ob_type when the name
# finds object's own descriptor: compiled code reads the type inline, guarded by its version.
# What must still hold: an instance whose __class__ is assigned, a class whose __class__ is a
# property or a plain class attribute, __getattribute__ and __getattr__ of a class's own,
# __slots__, builtin types, modules and classes (their metaclass), a site meeting several
# classes, and the references of the types.
import sys
import types


class Plain:
    def __init__(self, v):
        self.v = v


class Other:
    pass


class Slotted:
    __slots__ = ("v",)

    def __init__(self, v):
        self.v = v


class Pretender:
    @property
    def __class__(self):
        return int


class Labelled:
    __class__ = "a label"


class Intercepting:
    def __getattribute__(self, name):
        if name == "__class__":
            return Other
        return object.__getattribute__(self, name)


class Fallback:
    def __getattr__(self, name):
        return "fallback " + name


def class_of(x):
    return x.__class__


def same_class(a, b):
    return a.__class__ is b.__class__


def describe(x):
    c = x.__class__
    return getattr(c, "__name__", repr(c)) + ("!" if type(x) is x.__class__ else "?")


def main():
    p = Plain(1)
    for _ in range(30):  # quickened with Plain, then compiled
        class_of(p)
        same_class(p, Plain(2))
        describe(p)
    print(class_of(p), same_class(p, Plain(3)), same_class(p, Other()), describe(p))
    q = Plain(4)
    q.__class__ = Other  # the object's type changes under the site
    print(class_of(q), same_class(p, q), describe(q))
    q.__class__ = Plain
    print(class_of(q), same_class(p, q))
    for x in (Slotted(1), Pretender(), Labelled(), Intercepting(), Fallback(), 5, 2.5, "s",
              [1], {}, None, sys, Plain, type, types.SimpleNamespace(a=1)):
        # twice: the first read fills the site's entry, the second uses it
        print(class_of(x), describe(x), class_of(x), describe(x))
    objs = [Plain(1), Slotted(2), Other(), Plain(3)] * 10
    print(sum(1 for a, b in zip(objs, objs[1:]) if same_class(a, b)))
    Plain.extra = 1  # a new version tag for Plain
    print(class_of(p), describe(p))
    before = sys.getrefcount(Plain), sys.getrefcount(Other)
    for _ in range(50):
        class_of(p)
        same_class(p, q)
    print((sys.getrefcount(Plain), sys.getrefcount(Other)) == before)


main()
