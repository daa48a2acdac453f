# pydiff: threshold=10
# pydiff: all-compiled
# pydiff: min-operator_calls=400
# Binary operators on two instances of a class that defines them in Python, which compiled
# code calls straight to the class's method (a64_binary_object), and instantiation of classes
# whose __init__ the runtime remembers by version tag. Each case stock treats in its own
# way must still be treated so: NotImplemented from the only method tried, an in-place
# operator with and without __iadd__, a list subclass's NotImplemented, an int or float on
# the right (and a class deriving from int, whose NotImplemented int's own slot answers),
# another class on the right (its reflected method after NotImplemented: a function, a
# staticmethod, none; a class deriving from the left one, which stock asks first), a method replaced, deleted or made a staticmethod after the sites compiled,
# operands of two classes, an exception raised in the method, and an __init__ replaced on a
# base class or returning a value.


class Vec:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, o):
        return Vec(self.x + o.x, self.y + o.y)

    def __sub__(self, o):
        return Vec(self.x - o.x, self.y - o.y)

    def __mul__(self, o):
        if isinstance(o, Vec):
            return self.x * o.x + self.y * o.y
        return NotImplemented

    def __truediv__(self, o):
        raise ZeroDivisionError("vec / vec: %d" % self.x)

    def __repr__(self):
        return "Vec(%r, %r)" % (self.x, self.y)


class Acc(Vec):
    __slots__ = ()

    def __iadd__(self, o):
        self.x += o.x
        return self


class Tagged(list):
    def __add__(self, o):
        return NotImplemented  # its class has no sq_concat of its own: stock raises


class Weird:
    def __init__(self, v):
        self.v = v

    def __and__(self, o):
        return "and %s %s" % (self.v, o.v)


def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def iadd(a, b):
    a += b
    return a


def band(a, b):
    return a & b


def attempt(f, *args):
    try:
        return f(*args)
    except Exception as e:  # the same exception and message as stock
        return "%s: %s" % (type(e).__name__, e)


def make(cls, v):
    return cls(v)  # a CALL site that caches the class


def run():
    out = []
    for i in range(60):
        a, b = Vec(i, 1), Vec(2, i)
        out.append((add(a, b).x, sub(a, b).y, mul(a, b), iadd(a, b).x))
    out.append(attempt(mul, Vec(1, 2), 3))  # NotImplemented with another type: generic
    out.append(attempt(div, Vec(7, 1), Vec(1, 1)))  # an exception from the method
    acc = Acc(1, 2)
    for i in range(20):
        r = iadd(acc, Vec(i, 0))  # Acc + Vec: two classes, generic
    out.append((r is acc, acc.x))
    out.append(attempt(iadd, Acc(1, 1), Acc(2, 2)))  # __iadd__: PyNumber_InPlaceAdd
    out.append(attempt(add, Tagged([1]), Tagged([2])))  # a list subclass: NotImplemented
    w = Weird(1)
    for i in range(20):
        out.append(band(w, Weird(i)))
    return out


class Scaled:
    def __init__(self, v):
        self.v = v

    def __mul__(self, o):
        if isinstance(o, (int, float)):
            return Scaled(self.v * o)
        return NotImplemented

    def __sub__(self, o):
        return NotImplemented


class MyInt(int):
    def __add__(self, o):
        return NotImplemented  # int's own slot then adds


class Left:
    def __mul__(self, o):
        return NotImplemented if o.defer else "Left*%s" % type(o).__name__

    def __add__(self, o):
        return NotImplemented


class RightFn:
    defer = True

    def __rmul__(self, o):
        return "RightFn.__rmul__(%s)" % type(o).__name__

    def __mul__(self, o):
        return "RightFn*"


class RightStatic:
    defer = True
    __rmul__ = staticmethod(lambda o: "static rmul %s" % type(o).__name__)

    def __mul__(self, o):
        return "RightStatic*"


class RightNone:
    defer = True

    def __mul__(self, o):
        return "RightNone*"


class Eager(RightFn):
    defer = False


class SubLeft(Left):
    defer = False  # Left.__mul__ would answer, but stock asks SubLeft.__rmul__ first

    def __rmul__(self, o):
        return "SubLeft.__rmul__ first"


def run_mixed():
    out = []
    for i in range(15):
        out.append((mul(Scaled(i), 2).v, mul(Scaled(i), 0.5).v, attempt(sub, Scaled(i), 1)))
        out.append(attempt(mul, Scaled(i), "x"))
        out.append((add(MyInt(i), 3), iadd(MyInt(i), 1.5)))
        out.append((mul(Left(), RightFn()), mul(Left(), Eager()), mul(Left(), RightStatic())))
        out.append((attempt(mul, Left(), RightNone()), mul(Left(), SubLeft())))
        out.append(attempt(add, Left(), RightFn()))
    RightFn.__rmul__ = lambda self, o: "replaced rmul"
    out.append(mul(Left(), RightFn()))
    del RightFn.__rmul__
    out.append(attempt(mul, Left(), RightFn()))
    return out


def run_replaced():
    out = []
    Vec.__add__ = lambda self, o: "lambda %d" % (self.x + o.x)
    out.append(add(Vec(1, 2), Vec(3, 4)))
    Vec.__add__ = staticmethod(lambda o: "static %d" % o.x)  # called with the right only
    out.append(add(Vec(1, 2), Vec(3, 4)))
    del Vec.__add__
    out.append(attempt(add, Vec(1, 2), Vec(3, 4)))
    Vec.__add__ = lambda self, o: NotImplemented
    out.append(attempt(add, Vec(1, 2), Vec(3, 4)))  # TypeError, as stock words it
    out.append(attempt(iadd, Vec(1, 2), Vec(3, 4)))  # '+=' in its message
    Weird.__and__ = lambda self, o: self.v * 100 + o.v
    out.append(band(Weird(3), Weird(4)))
    return out


class Base:
    def __init__(self, v):
        self.v = v


class Child(Base):
    pass


def run_init():
    out = [make(Child, i).v for i in range(30)]
    Base.__init__ = lambda self, v: setattr(self, "v", -v)  # a base's __init__ replaced
    out.append(make(Child, 5).v)
    Child.__init__ = lambda self, v: 3  # an __init__ that returns a value
    out.append(attempt(make, Child, 6))
    del Child.__init__
    out.append(make(Child, 7).v)
    return out


print(run())
print(run())
print(run_mixed())
print(run_replaced())
print(run_init())
