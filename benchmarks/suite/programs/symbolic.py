"""Symbolic algebra: expression trees with operator overloading, differentiation and
simplification by many small methods and isinstance tests, as a computer-algebra library
spends its time."""
import harness


class Expr:
    def __add__(self, other):
        return Add(self, wrap(other)).simplify()

    def __mul__(self, other):
        return Mul(self, wrap(other)).simplify()

    def __pow__(self, n):
        return Pow(self, n).simplify()


class Num(Expr):
    def __init__(self, value):
        self.value = value

    def diff(self, var):
        return Num(0)

    def simplify(self):
        return self

    def __repr__(self):
        return str(self.value)


class Sym(Expr):
    def __init__(self, name):
        self.name = name

    def diff(self, var):
        return Num(1 if var == self.name else 0)

    def simplify(self):
        return self

    def __repr__(self):
        return self.name


class Add(Expr):
    def __init__(self, a, b):
        self.a, self.b = a, b

    def diff(self, var):
        return self.a.diff(var) + self.b.diff(var)

    def simplify(self):
        a, b = self.a, self.b
        if isinstance(a, Num) and isinstance(b, Num):
            return Num(a.value + b.value)
        if isinstance(a, Num) and a.value == 0:
            return b
        if isinstance(b, Num) and b.value == 0:
            return a
        return self

    def __repr__(self):
        return "(%r + %r)" % (self.a, self.b)


class Mul(Expr):
    def __init__(self, a, b):
        self.a, self.b = a, b

    def diff(self, var):
        return self.a.diff(var) * self.b + self.a * self.b.diff(var)

    def simplify(self):
        a, b = self.a, self.b
        if isinstance(a, Num) and isinstance(b, Num):
            return Num(a.value * b.value)
        for x, y in ((a, b), (b, a)):
            if isinstance(x, Num) and x.value == 0:
                return Num(0)
            if isinstance(x, Num) and x.value == 1:
                return y
        return self

    def __repr__(self):
        return "%r*%r" % (self.a, self.b)


class Pow(Expr):
    def __init__(self, base, n):
        self.base, self.n = base, n

    def diff(self, var):
        return Num(self.n) * self.base ** (self.n - 1) * self.base.diff(var)

    def simplify(self):
        if self.n == 0:
            return Num(1)
        if self.n == 1:
            return self.base
        return self

    def __repr__(self):
        return "%r**%d" % (self.base, self.n)


def wrap(v):
    return v if isinstance(v, Expr) else Num(v)


x, y = Sym("x"), Sym("y")


def workload():
    total = 0
    for k in range(1, 30):
        e = (x ** k + y * x * k + 3) * (x + y ** 2) + x * y * k
        d = e.diff("x").diff("y")
        total += len(repr(d))
    return total


def check(result):
    return None if result == 1526 else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("symbolic", workload, check)
