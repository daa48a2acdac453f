# pydiff: all-compiled
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# pydiff: min-super_methods=4000
# pydiff: max-deopts=30
# Methods called through super(): Python methods, C methods of a builtin base, object's slot
# wrappers, class methods, static methods, properties, cooperative __init__ through a diamond,
# the two-argument form, class-method mode, a metaclass, names only the super object has,
# a missing name, and the references of self across many calls. Then the cases the runtime
# leaves to the interpreter: `super` rebound in the module, self deleted or replaced, a
# property found through super(), a class whose dict has a key that is not a str, and the
# two-argument form given something other than a class and an object of it. Those leave
# for the interpreter (a deopt each); the loops, which must not, bound the deopts.
import sys


class Base:
    def __init__(self, **kw):
        self.seen = ["Base"]
        self.extra = kw

    def describe(self, x):
        return "Base.describe(%r)" % (x,)

    @classmethod
    def make(cls, n):
        return "%s.make(%d)" % (cls.__name__, n)

    @staticmethod
    def helper(a, b):
        return a * b

    @property
    def doubled(self):
        return lambda v: v * 2

    def __repr__(self):
        return "<%s>" % type(self).__name__


class Left(Base):
    def __init__(self, left=0, **kw):
        super().__init__(**kw)
        self.seen.append("Left")
        self.left = left

    def describe(self, x):
        return "Left>" + super().describe(x + 1)


class Right(Base):
    def __init__(self, right=0, **kw):
        super().__init__(**kw)
        self.seen.append("Right")
        self.right = right

    def describe(self, x):
        return "Right>" + super().describe(x * 10)


class Diamond(Left, Right):
    def __init__(self, **kw):
        super().__init__(**kw)
        self.seen.append("Diamond")

    def describe(self, x):
        return "Diamond>" + super().describe(x)

    @classmethod
    def make(cls, n):
        return "Diamond>" + super().make(n + 1)

    def uses(self):
        return [
            super().helper(6, 7),
            super().make(5),
            super().doubled(21),
            super().__repr__(),
            super().__getattribute__("left"),
            super(Left, self).describe("two-arg"),
            super(Diamond, type(self)).make(3),
            super(Diamond, Diamond).__repr__(self),
        ]

    def explicit_forms(self, i):
        return super(Diamond, self).describe(i), super(Diamond, type(self)).make(i)

    def missing(self):
        return super().nowhere()

    def own_names(self):
        return [super().__thisclass__.__name__, super().__self_class__.__name__,
                type(super().__self__).__name__]

    def __new__(cls, **kw):
        return super().__new__(cls)


class Fallbacks(Base):
    @property
    def as_method(self):
        return lambda: "property's callable"

    def describe(self, x):
        return "Fallbacks>" + super().describe(x)

    def deleted(self):
        del self
        return super().describe(0)

    def replaced(self):
        self = 42
        return super().describe(0)

    def via_property(self):
        return super().as_method()

    def explicit(self, cls, obj):
        return super(cls, obj).describe(5)


class Sub(Fallbacks):
    def via_property(self):
        return super().as_method()


class Shadow:
    def describe(self, x):
        return "a module's own super(), %r" % (x,)


def odd_describe(self, x):
    return "Odd.describe(%r)" % (x,)


Odd = type("Odd", (Base,), {"describe": odd_describe, 1: "not a str"})


class AfterOdd(Odd):
    def describe(self, x):
        return "AfterOdd>" + super().describe(x)


def fallbacks():
    f = Fallbacks()
    out = [f.describe(1)]
    g = globals()
    g["super"] = Shadow
    try:
        out.append(f.describe(2))
    finally:
        del g["super"]
    out.append(f.describe(3))
    for name in ("deleted", "replaced"):
        try:
            getattr(f, name)()
        except Exception as e:
            out.append((name, type(e).__name__, str(e)))
    out.append(Sub().via_property())
    out.append(f.explicit(Fallbacks, f))
    # Class mode (Base.describe unbound: one argument short), then no class, no object, and an
    # object of another class.
    for cls, obj in ((Fallbacks, Fallbacks), (42, f), (Base, None), (Right, Left())):
        try:
            out.append(f.explicit(cls, obj))
        except Exception as e:
            out.append(("explicit", type(e).__name__, str(e)))
    out.append(AfterOdd().describe(4))
    return out


class Stack(list):
    def push(self, x):
        super().append(x)
        return super().__len__()

    def pop(self):
        return super().pop() * 100


class Meta(type):
    def __call__(cls, *args):
        obj = super().__call__(*args)
        obj.via_meta = True
        return obj


class Made(metaclass=Meta):
    def __init__(self, v):
        self.v = v


def main():
    d = Diamond(left=1, right=2, colour="red")
    print(d.seen, d.left, d.right, d.extra)
    print(d.describe(5))
    print(Diamond.make(1), Left.make(2))
    print(d.uses())
    print(d.own_names())
    try:
        d.missing()
    except AttributeError as e:
        print("AttributeError", e)
    s = Stack()
    print([s.push(i) for i in range(5)], s.pop(), list(s))
    m = Made(4)
    print(m.v, m.via_meta)
    print(fallbacks())
    before = sys.getrefcount(d)
    out = 0
    for i in range(3000):
        out += len(d.describe(i))
    for i in range(1000):
        out += sum(map(len, d.explicit_forms(i)))
    print(out, sys.getrefcount(d) - before)


main()
