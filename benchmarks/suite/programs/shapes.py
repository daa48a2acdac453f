"""Shapes: a class hierarchy as object-oriented application code writes one. An abstract
base (`abc`) counts its instances in a class attribute, subclasses chain `super().__init__`,
a property with a setter validates writes, and callers dispatch on `isinstance` and format
descriptions. The counter changes the classes' attributes on every instance, so their types
never keep one version for long."""
import abc
import math

import harness


class Shape(abc.ABC):
    made = 0

    def __init__(self, name):
        self.name = name
        Shape.made += 1

    @abc.abstractmethod
    def area(self):
        ...

    @abc.abstractmethod
    def perimeter(self):
        ...

    def describe(self):
        return "%s(%d, %d)" % (self.name, int(self.area()), int(self.perimeter()))


class Rect(Shape):
    def __init__(self, width, height):
        super().__init__("rect")
        self._width = width
        self.height = height

    @property
    def width(self):
        return self._width

    @width.setter
    def width(self, value):
        if value < 0:
            raise ValueError("negative width")
        self._width = value

    def area(self):
        return self.width * self.height

    def perimeter(self):
        return 2 * (self.width + self.height)


class Square(Rect):
    def __init__(self, side):
        super().__init__(side, side)
        self.name = "square"


class Circle(Shape):
    def __init__(self, radius):
        super().__init__("circle")
        self.radius = radius

    def area(self):
        return math.pi * self.radius * self.radius

    def perimeter(self):
        return 2 * math.pi * self.radius


def make(i):
    kind = i % 3
    if kind == 0:
        return Rect(i % 11 + 1, i % 4 + 1)
    if kind == 1:
        return Square(i % 9 + 1)
    return Circle(i % 5 + 1)


def workload():
    shapes = [make(i) for i in range(240)]
    rejected = 0
    for i, s in enumerate(shapes):
        if isinstance(s, Rect):
            try:
                s.width = s.width + (1 if i % 7 else -20)
            except ValueError:
                rejected += 1
    total = sum(s.area() for s in shapes)
    longest = max(shapes, key=lambda s: s.perimeter())
    kinds = {}
    for s in shapes:
        kinds[type(s).__name__] = kinds.get(type(s).__name__, 0) + 1
    names = sorted(set(s.describe() for s in shapes))
    return round(total, 6), rejected, longest.describe(), sorted(kinds.items()), len(names)


WANT = (6930.601535, 24, 'square(72, 34)', [('Circle', 80), ('Rect', 80), ('Square', 80)], 52)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("shapes", workload, check, calls=30)
