# pydiff: all-compiled
# Attributes, classes, inheritance, overriding, class attributes, properties, __eq__.


class Shape:
    sides = 0

    def __init__(self, name):
        self.name = name
        self.moves = 0

    def area(self):
        return 0

    def describe(self):
        return self.name + " with " + str(self.sides) + " sides, area " + str(self.area())

    def move(self, n):
        self.moves = self.moves + n
        return self


class Rect(Shape):
    sides = 4

    def __init__(self, w, h):
        Shape.__init__(self, "rect")
        self.w = w
        self.h = h

    def area(self):
        return self.w * self.h

    @property
    def ratio(self):
        return self.w / self.h


class Square(Rect):
    def __init__(self, s):
        Rect.__init__(self, s, s)
        self.name = "square"

    def __eq__(self, other):
        return isinstance(other, Square) and other.w == self.w


def shapes():
    return [Rect(2, 3), Square(4), Shape("blob")]


def report(items):
    out = []
    for s in items:
        out.append(s.describe())
        s.move(2).move(3)
        out.append(s.moves)
    return out


def compare_squares(a, b):
    return Square(a) == Square(b), Square(a) != Square(b), Square(a) is Square(a)


def missing(obj):
    return obj.nothing_here


print(report(shapes()))
print(Rect(3, 4).ratio, compare_squares(2, 2), compare_squares(2, 3))
try:
    missing(Square(1))
except AttributeError as e:
    print("AttributeError:", e)
