# pydiff: all-compiled
# Closures: cells and free variables (MAKE_CELL, LOAD_DEREF, STORE_DEREF, DELETE_DEREF,
# LOAD_CLOSURE, COPY_FREE_VARS), late binding, nonlocal, a cell deleted with `del` and read
# again (NameError from the interpreter's own message), the __class__ cell behind
# zero-argument super(), and lambdas capturing loop variables.


def make_counter(start):
    count = start

    def bump(by=1):
        nonlocal count
        count += by
        return count

    def peek():
        return count

    return bump, peek


def late_binding():
    # Every lambda reads the cell after the loop ended: all see the last value.
    late = [lambda: i for i in range(4)]
    # A default argument binds the value at definition time.
    early = [lambda i=i: i for i in range(4)]
    # A loop variable of the function itself, captured by inner functions.
    fns = []
    for k in range(3):
        fns.append(lambda: k * 10)
    k = 7
    return [f() for f in late], [f() for f in early], [f() for f in fns]


def rebinding_after_capture():
    x = "before"

    def read():
        return x

    first = read()
    x = "after"
    return first, read()


def deleted_cell():
    value = 41

    def read():
        return value + 1

    out = [read()]
    del value
    try:
        read()
    except NameError as e:
        out.append(type(e).__name__ + ": " + str(e))
    try:
        print(value)
    except NameError as e:
        out.append(type(e).__name__ + ": " + str(e))
    value = 9
    out.append(read())
    return out


def unbound_free_variable():
    def read():
        return later

    try:
        read()
    except NameError as e:
        msg = type(e).__name__ + ": " + str(e)
    later = 5
    return msg, read()


def three_levels(a):
    b = a * 2

    def middle(c):
        d = c + b

        def inner(e):
            nonlocal d
            d += e
            return a + b + c + d + e

        r1 = inner(1)
        r2 = inner(2)
        return r1, r2, d

    return middle(10), middle(20)


def nonlocal_shared():
    total = 0
    history = []

    def add(n):
        nonlocal total
        total += n
        history.append(total)

    def reset():
        nonlocal total, history
        total = 0
        history = history + ["reset"]

    for n in (3, 4, 5):
        add(n)
    reset()
    add(100)
    return total, history


class Base:
    def describe(self):
        return "Base(%s)" % self.name

    @classmethod
    def make(cls, name):
        obj = cls()
        obj.name = name
        return obj


class Child(Base):
    def describe(self):
        # Zero-argument super() reads the __class__ cell and the first argument.
        return "Child<" + super().describe() + ">"

    @classmethod
    def make(cls, name):
        return super().make(name.upper())

    def whoami(self):
        return __class__.__name__, type(self).__name__


class GrandChild(Child):
    def describe(self):
        return "GrandChild[" + super().describe() + "]"


def use_classes():
    out = []
    for cls in (Base, Child, GrandChild):
        out.append(cls.make("x").describe())
    out.append(GrandChild().whoami())
    return out


def class_in_function(factor):
    # A class body that reads a variable of the enclosing function (LOAD_CLASSDEREF).
    class Scaled:
        k = factor

        def apply(self, v):
            return v * factor + self.k

    return Scaled().apply(3)


def make_adders():
    adders = {}
    for name, n in (("one", 1), ("two", 2), ("ten", 10)):
        def adder(x, n=n):
            return x + n
        adders[name] = adder
    return sorted((name, f(5)) for name, f in adders.items())


def compose(*fns):
    def composed(x):
        for f in reversed(fns):
            x = f(x)
        return x
    return composed


def accumulator():
    data = []

    def push(x):
        data.append(x)
        return len(data)

    def drain():
        out = list(data)
        data.clear()
        return out

    return push, drain


def main():
    bump, peek = make_counter(10)
    print("counter", bump(), bump(5), peek())
    bump2, peek2 = make_counter(0)
    print("independent", bump2(), peek(), peek2())
    print("late binding", late_binding())
    print("rebinding", rebinding_after_capture())
    print("deleted cell", deleted_cell())
    print("unbound free", unbound_free_variable())
    print("three levels", three_levels(1))
    print("nonlocal shared", nonlocal_shared())
    print("classes", use_classes())
    print("class in function", class_in_function(4))
    print("adders", make_adders())
    print("compose", compose(lambda v: v + 1, lambda v: v * 3, abs)(-4))
    push, drain = accumulator()
    print("accumulator", push("a"), push("b"), drain(), drain(), push("c"))
    cells = make_counter(1)[0].__closure__
    print("closure cells", len(cells), cells[0].cell_contents)


main()
