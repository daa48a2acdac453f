# pydiff: threshold=10
# pydiff: all-compiled
# pydiff: min-feedback_sites=4
# `__slots__` members read and written at sites whose type feedback named a slot (3.11's
# LOAD_ATTR_SLOT and STORE_ATTR_SLOT): the functions run interpreted until 3.11 has
# specialised them, are compiled with that feedback and then meet everything else: unset and
# deleted members, subclasses (with more slots, with a property over a member, with a
# __dict__), a class whose member is replaced after the site cached it, __class__ changes,
# plain instances, a member descriptor planted on a class it does not apply to, and a store
# whose old value's __del__ speaks.


class Slotted:
    __slots__ = ("x", "y")

    def __init__(self, x, y):
        self.x = x
        self.y = y


class More(Slotted):
    __slots__ = ("z",)

    def __init__(self, x, y):
        super().__init__(x, y)
        self.z = "z"


class WithDict(Slotted):
    __slots__ = ("__dict__",)


class PropertyOverX(Slotted):
    __slots__ = ()

    @property
    def x(self):
        return "property x"

    @x.setter
    def x(self, value):
        print("property set", value)


class Renamed(Slotted):
    __slots__ = ()


class Plain:
    def __init__(self, x, y):
        self.x = x
        self.y = y


class Foreign:
    x = Slotted.x


class Loud:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("released", self.name)


def attempt(f, *args):
    try:
        return f(*args)
    except (AttributeError, TypeError) as e:
        return "%s: %s" % (type(e).__name__, e)


def read_x(o):
    return o.x


def sum_xy(o):
    return o.x + o.y


def write_x(o, v):
    o.x = v


def swap(o):
    o.x, o.y = o.y, o.x
    return o.x


def warm_up():
    objs = [Slotted(i, i + 1) for i in range(4)]
    for _ in range(3):
        for o in objs:
            read_x(o)
            sum_xy(o)
            write_x(o, o.x)
            swap(o)


def main():
    warm_up()
    s = Slotted(1, 2)
    print(read_x(s), sum_xy(s), swap(s), read_x(s))
    for i in range(20):
        write_x(s, i)
    print(read_x(s), sum_xy(s))
    del s.x
    print(attempt(read_x, s), attempt(sum_xy, s))
    write_x(s, "back")
    print(read_x(s))
    unset = Slotted.__new__(Slotted)
    print(attempt(read_x, unset), attempt(swap, unset))
    write_x(unset, 5)
    print(read_x(unset), attempt(sum_xy, unset))
    others = [More(3, 4), WithDict(5, 6), PropertyOverX.__new__(PropertyOverX), Plain(7, 8)]
    others[1].extra = "in the dict"
    for o in others:
        print(type(o).__name__, attempt(read_x, o), attempt(sum_xy, o))
        write_x(o, "w")
        print(attempt(read_x, o))
    print(attempt(read_x, Foreign()), attempt(write_x, Foreign(), 1))
    loud = Slotted(Loud("first"), 0)
    write_x(loud, Loud("second"))
    print("after the store")
    write_x(loud, None)
    print("after the second store")
    write_x(s, 10)
    s.__class__ = Renamed
    print(type(s).__name__, read_x(s), sum_xy(s))
    s.__class__ = Slotted
    saved = Slotted.x
    Slotted.x = property(lambda self: "replaced on the class")
    print(read_x(s), attempt(write_x, s, 1), attempt(sum_xy, s))
    Slotted.x = saved
    write_x(s, 40)
    print(read_x(s), sum_xy(s), swap(s))


main()
