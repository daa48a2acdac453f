# pydiff: all-compiled
# Instance attributes stored by compiled code into an object's inline values: a new
# attribute (as __init__ makes them) joins the values' insertion order, which vars(),
# __dict__ iteration and repr show; a replaced one is released. Deleting and re-adding
# moves an attribute to the end; a materialised __dict__ and many attributes leave the
# inline form.


class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
        self.norm = x * x + y * y


class Wide:
    def __init__(self, n):
        for i in range(n):
            setattr(self, "a%d" % i, i)


def readd(p, name, value):
    delattr(p, name)
    setattr(p, name, value)
    p.x = value  # x again, whether or not it was deleted


def grow(p, value):
    p.extra = value
    p.later = value + 1
    return list(vars(p))


def store_after_dict(p):
    d = p.__dict__  # materialised: the stores go to the dict
    p.z = 9
    p.x = 10
    return list(d), d["x"]


class Tracked:
    released = 0

    def __del__(self):
        Tracked.released += 1


def replace_many(p, n):
    for _ in range(n):
        p.y = Tracked()
    return Tracked.released


points = [Point(i, i + 1) for i in range(5)]
print([vars(p) for p in points[:2]])
readd(points[0], "x", 100)
readd(points[1], "y", 200)
print(list(vars(points[0])), list(vars(points[1])), points[1].y, points[1].x)
print(grow(points[2], 7), grow(Point(1, 2), 8))
print(store_after_dict(points[3]))
print(replace_many(points[4], 10), points[4].norm)
w = Wide(40)
print(len(vars(w)), list(vars(w))[-3:], w.a39)
print([sorted(vars(Point(-i, i))) for i in range(3)])
