# pydiff: threshold=10
# pydiff: all-compiled
# pydiff: min-feedback_sites=4
# Instance attributes that live in a real __dict__ read and written at sites compiled for
# inline values (the objects' dicts were made after the functions compiled), and at sites
# compiled for a dict hint: the helpers remember where the name is in the dict at either
# kind of site. A class with its own __setattr__ met at such a site after a
# plain class's hint must still see every store and miss; so must a property added over a
# cached name, a deleted attribute, a dict replaced whole, and a method that an object's own
# dict shadows, and a class constant that an instance shadows.


class Plain:
    def __init__(self, i):
        self.a = i
        self.b = -i


def read_a(o):
    return o.a


def write_b(o, v):
    o.b = v
    return o.b


# Compiled while every Plain has inline values.
for i in range(40):
    p = Plain(i)
    read_a(p)
    write_b(p, i)


class Crowd:
    def __init__(self, i):
        self.a = i


# More than 30 instances use up the class's shared keys but for one name: a second name
# first set afterwards makes each instance's own dict.
crowd = [Crowd(i) for i in range(40)]
for i, c in enumerate(crowd):
    c.b = i * 10
    c.late = i


def total(objs):
    t = 0
    for o in objs:
        t += read_a(o) + write_b(o, o.late + 1)
    return t


print("crowd", total(crowd), total(crowd))


# Counted outside the class: a store to a class attribute would change the class's version
# and void every cached entry for it.
STORES = [0]


class Counting:
    """Its __setattr__ counts (its loads are the generic ones); stores still land in the dict."""

    def __init__(self, i):
        self.a = i
        self.b = i

    def __setattr__(self, name, value):
        STORES[0] += 1
        object.__setattr__(self, name, value)


counted = [Counting(i) for i in range(40)]
for c in counted:
    c.late = 1  # the last name the class's shared keys take
    c.later = 2  # each instance's own dict
STORES[0] = 0
for _ in range(3):
    for c in counted:
        read_a(c)
        write_b(c, 5)
print("counting", STORES[0])


# Back to the plain objects at the same sites, then a property over `a` on their class.
print("crowd again", total(crowd))
Crowd.a = property(lambda self: "prop")
print("property", [read_a(c) for c in crowd[:3]])
del Crowd.a
print("property gone", [read_a(c) for c in crowd[:3]])

# A deleted attribute, set again (it moves in the dict), and a dict replaced whole.
c0 = crowd[0]
del c0.b
try:
    read_b = c0.b
except AttributeError as e:
    print("deleted", e)
print("set again", write_b(c0, 77), c0.__dict__["b"])
c1 = crowd[1]
c1.__dict__ = {"a": "new a", "b": "new b"}
print("replaced", read_a(c1), write_b(c1, "newer"), c1.__dict__)


def write_many(objs):
    for o in objs:
        o.b = o.b + 1
        o.late = o.late * 2
    return sum(o.b + o.late for o in objs)


# Methods of objects with real dicts: the class's method unless the object's own dict has the
# name, which a compiled LOAD_METHOD must see on each call.
class Walker:
    def __init__(self, i):
        self.i = i

    def step(self):
        return self.i + 1


walkers = [Walker(i) for i in range(40)]
for w in walkers:
    w.x = 1  # the last name the shared keys take
    w.y = 2  # each walker's own dict


def steps(objs):
    t = 0
    for o in objs:
        t += o.step()
    return t


for _ in range(12):
    steps(walkers)  # compiled on the way
print("steps", steps(walkers))
walkers[3].step = lambda: 1000
print("shadowed", steps(walkers))
del walkers[3].step
print("unshadowed", steps(walkers))
Walker.step = lambda self: -self.i
print("replaced on the class", steps(walkers))


# A class constant read through instances (the site's descriptor entry, checked in the site
# stub): then an instance's own attribute of that name (the class's shared keys grow), the
# constant replaced on the class, and instances of a class without __dict__.
class Limits:
    LIMIT = 5

    def __init__(self, i):
        self.i = i


class Slotted:
    __slots__ = ("i",)
    LIMIT = 6

    def __init__(self, i):
        self.i = i


def limit_of(o):
    return o.LIMIT


limits = [Limits(i) for i in range(5)]
for _ in range(12):
    [limit_of(o) for o in limits]
print("constant", [limit_of(o) for o in limits])
limits[2].LIMIT = 99
print("shadowed by one", [limit_of(o) for o in limits])
Limits.LIMIT = 7
print("replaced", [limit_of(o) for o in limits])
slotted = [Slotted(i) for i in range(3)]
print("no dict", [limit_of(o) for o in slotted], [limit_of(o) for o in slotted])


# Compiled with dict-hint feedback, then met by the counting class.
for _ in range(12):
    write_many(crowd[2:])
print("hinted", write_many(crowd[2:]))
STORES[0] = 0
print("hinted counting", write_many(counted), STORES[0])
