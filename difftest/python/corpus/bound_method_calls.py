# pydiff: all-compiled
# pydiff: min-stub_entries=1500
# Calls of bound method objects, which the call stub unbinds in guest code (call_stub.cc
# bb57-bb59) as the interpreter's CALL does: classmethods read through their class or an
# instance, methods that super() finds, bound methods held in variables and lists, one whose
# object only the bound method keeps alive (released after the call, not before), a
# MethodType over a builtin, methods that take defaults, *args or keywords, a generator
# method, an exception's traceback, and a deep recursion through a classmethod.
import sys
import types


class Shape:
    count = 0

    def __init__(self, size):
        self.size = size

    @classmethod
    def make(cls, size):
        cls.count += 1
        return cls(size)

    @classmethod
    def depth(cls, n):
        return 0 if n == 0 else 1 + cls.depth(n - 1)

    def area(self):
        return self.size * self.size

    def scaled(self, factor=2, *rest, offset=0):
        return self.size * factor + sum(rest) + offset

    def walk(self, n):
        for i in range(n):
            yield self.size + i

    def fail(self):
        raise ValueError("shape %d failed" % self.size)


class Square(Shape):
    def __init__(self, size):
        super().__init__(size)
        self.kind = "square"

    def area(self):
        return super().area() + 0


class Noisy:
    def __init__(self, name):
        self.name = name

    def hello(self, greeting):
        return greeting + " " + self.name

    def __del__(self):
        print("released", self.name)


def with_classmethods(n):
    total = 0
    for i in range(n):
        s = Shape.make(i) if i % 2 else Square.make(i)
        total += s.area() + s.make(1).size
    return total, Shape.count, Square.count


def held(n):
    sq = Square(3)
    area = sq.area
    calls = [sq.scaled, Shape(5).area, sq.walk]
    out = [area() for _ in range(n)]
    out.append(calls[0]())
    out.append(calls[0](3, 1, 1, offset=4))
    out.append(calls[1]())
    out.append(list(calls[2](3)))
    return out


def only_the_bound_method(i):
    return getattr(Noisy("noisy %d" % i), "hello")("hi")


def over_a_builtin():
    m = types.MethodType(len, [1, 2, 3])
    return [m() for _ in range(3)]


def raises():
    bound = Shape(7).fail
    try:
        bound()
    except ValueError as e:
        return str(e), e.__traceback__.tb_next.tb_frame.f_code.co_name


def main():
    print(with_classmethods(200))
    for _ in range(3):
        print(held(20)[-5:])
    for i in range(3):
        print(only_the_bound_method(i))
    print(over_a_builtin())
    print(raises())
    print(Shape.depth(200))
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(250)
    try:
        Shape.depth(1000)
    except RecursionError:
        print("RecursionError")
    finally:
        sys.setrecursionlimit(limit)


main()
