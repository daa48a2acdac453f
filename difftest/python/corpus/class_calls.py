# pydiff: all-compiled
# Calls of user classes from compiled code. A class whose metaclass does not override
# __call__, whose __new__ is object's and whose __init__ is a Python function is cached by
# the site without a reference and instantiated as type_call would (the object from
# tp_alloc, then __init__ with it first: a64_instantiate, which puts the object and the
# arguments straight into a compiled __init__'s frame, however many). Everything that must
# leave that path: __init__ returning a value or raising, an abstract class, a metaclass
# __call__, a __new__ of its own, a builtin base, __init__ replaced on the class after the
# site cached it, keywords; and a cached class that dies. Also an __init__ taking *args or
# defaults (a compiled one entered the general way) and one of eleven plain parameters.
import abc
import gc
import sys
import weakref


class Point:
    def __init__(self, x, y=0):
        self.x = x
        self.y = y


class Point3(Point):
    def __init__(self, x, y, z):
        super().__init__(x, y)
        self.z = z


class Slotted:
    __slots__ = ("a", "b")

    def __init__(self, a, b):
        self.a, self.b = a, b


class ReturnsValue:
    def __init__(self):
        return 5


class Raises:
    def __init__(self, n):
        if n > 2:
            raise ValueError("too big: %d" % n)
        self.n = n


class Abstract(abc.ABC):
    def __init__(self):
        pass

    @abc.abstractmethod
    def run(self):
        pass


class Counting(type):
    made = 0

    def __call__(cls, *args):
        Counting.made += 1
        return super().__call__(*args)


class Metered(metaclass=Counting):
    def __init__(self, v):
        self.v = v


class OwnNew:
    def __new__(cls, v):
        obj = super().__new__(cls)
        obj.tag = "new"
        return obj

    def __init__(self, v):
        self.v = v


class MyList(list):
    def __init__(self, items):
        super().__init__(items)
        self.extra = len(items)


class Many:
    def __init__(self, *args):
        self.args = args


class NoInit:
    pass


class Wide:
    def __init__(self, a, b, c, d, e, f, g, h, i, j):
        self.total = a + b + c + d + e + f + g + h + i + j - len(str(self.__class__))


def make_points(n):
    return [Point(i, i + 1) for i in range(n)] + [Point(n)]


def shapes(n):
    out = []
    for i in range(n):
        out.append((Point3(i, 1, 2).z, Slotted(i, -i).b, Metered(i).v, OwnNew(i).tag,
                    MyList([i, i]).extra, len(Many(*range(i)).args), type(NoInit()).__name__,
                    Wide(i, 1, 2, 3, 4, 5, 6, 7, 8, 9).total, len(Many(i, i, i).args)))
    return out


def errors(n):
    out = []
    for i in range(n):
        for make in (ReturnsValue, lambda: Raises(i), Abstract, lambda: Many(1, 2, 3, 4, 5, 6, 7,
                                                                              8, 9, 10)):
            try:
                obj = make()
                out.append(type(obj).__name__ + ("" if not hasattr(obj, "n") else str(obj.n)))
            except (TypeError, ValueError) as e:
                out.append(type(e).__name__ + ": " + str(e))
    return out


def keywords(n):
    return [Point(x=i, y=2 * i).y for i in range(n)]


def same_site(classes, n):
    return [type(cls(i)).__name__ for cls in classes for i in range(n)]


print([(p.x, p.y) for p in make_points(4)])
print(shapes(4))
print(errors(4))
print(keywords(3), Counting.made)


def replaced_init(self, x, y=0):
    self.x = -x
    self.y = "replaced"


before = make_points(2)
Point.__init__ = replaced_init  # the cached class changes under the site
after = make_points(2)
print([(p.x, p.y) for p in before], [(p.x, p.y) for p in after])
print(same_site([Point, Metered, Raises, Point], 2))


def make_class(k):
    class Temp:
        def __init__(self, v):
            self.v = v + k

    return Temp


def instantiate(cls, v):
    return cls(v).v


dead = []
for k in range(5):  # each class dies after use: the site's cache must not keep it alive
    cls = make_class(k)
    print(instantiate(cls, 10), end=" ")
    dead.append(weakref.ref(cls))
    del cls
gc.collect()
print("classes alive:", sum(r() is not None for r in dead))
base = sys.getrefcount(Point)
points = make_points(50)
del points
print("Point references:", sys.getrefcount(Point) - base)


class Deep:  # __init__ instantiates its own class: the recursion limit's error, as stock's
    def __init__(self, n):
        self.child = Deep(n - 1) if n else None


def depth(n):
    try:
        Deep(n)
        return "ok"
    except RecursionError as e:
        return "RecursionError " + str(e)


print(depth(50), depth(100000))
