# pydiff: threshold=10
# pydiff: all-compiled
# Attribute loads at sites that see objects of several classes, as a base class's methods do:
# each class keeps the attributes in its own inline values, in its own order, so each has its
# own entry in the site's cache; compiled code tests the first inline and the load helper the
# others. Covered: five classes at one site (one more than the cache holds), an attribute
# deleted from one object (AttributeError), an object whose __dict__ was read (a real dict: no
# inline values), a class attribute on one class, and a property added to a class after the
# functions compiled.


class Shape:
    def describe(self):
        return "%s %s %s" % (self.name, self.width, self.height)

    def area(self):
        return self.width * self.height


class Square(Shape):
    def __init__(self, side):
        self.name = "square"
        self.width = side
        self.height = side


class Wide(Shape):
    def __init__(self, w):
        self.width = w
        self.height = 1
        self.name = "wide"


class Tall(Shape):
    def __init__(self, h):
        self.height = h
        self.name = "tall"
        self.width = 1


class Odd(Shape):
    def __init__(self, n):
        self.extra = n
        self.height = n + 1
        self.width = n + 2
        self.name = "odd"


class Flat(Shape):
    height = 0  # a class attribute: no entry for this class

    def __init__(self, w):
        self.name = "flat"
        self.width = w


def attempt(f, o):
    try:
        return f(o)
    except AttributeError as e:
        return "AttributeError: %s" % e


def total_area(shapes):
    total = 0
    for s in shapes:
        total += s.area()
    return total


def main():
    shapes = [Square(3), Wide(4), Tall(5), Odd(6), Flat(7)]
    for _ in range(30):
        areas = total_area(shapes)
        names = [s.describe() for s in shapes]
    print(areas, names)
    odd = Odd(2)
    del odd.width
    print(attempt(Shape.area, odd), attempt(Shape.describe, odd))
    tall = Tall(9)
    print(sorted(vars(tall)), tall.area(), tall.describe())
    tall.width = 3
    print(tall.area(), total_area([tall, Wide(2), Square(2)]))
    Wide.width = property(lambda self: 100)
    print(total_area(shapes), [s.describe() for s in shapes])


main()
