# pydiff: threshold=10
# pydiff: all-compiled
# Class attributes that are plain values (no __get__), read at sites without type feedback
# (3.11 specialises neither form): through the class (`Mode.FAST`) and through an instance
# (`self.LIMIT`), which compiled code answers from the site's descriptor entry in guest code
# (a64_attr_hint_or_helper_stub). After the functions compiled: one instance gets its own
# attribute of the name (its class's shared keys grow, so no instance may be answered from the
# class any more), the class attribute is reassigned and deleted, an instance's __dict__ is
# read (a real dict), a value that has __get__ takes the name, and a metaclass answers for
# another class.


class Mode:
    FAST = 1
    SLOW = 2


class Meter:
    LIMIT = 10

    def __init__(self, v):
        self.v = v

    def capped(self):
        return min(self.v, self.LIMIT)


class Meta(type):
    FAST = "the metaclass's"


class OtherMode(metaclass=Meta):
    pass


class Slotted:
    __slots__ = ("v",)
    LIMIT = 3

    def __init__(self, v):
        self.v = v

    def capped(self):
        return min(self.v, self.LIMIT)


def fast(cls):
    return cls.FAST


def total(meters):
    return sum(m.capped() for m in meters)


def main():
    meters = [Meter(i) for i in range(20)]
    slotted = [Slotted(i) for i in range(6)]
    for _ in range(20):
        t = total(meters), total(slotted), fast(Mode)
    print(t)
    meters[3].LIMIT = 1
    print(total(meters), meters[3].capped(), meters[4].capped(), Meter(50).capped())
    Meter.LIMIT = 15
    Slotted.LIMIT = 4
    Mode.FAST = "reassigned"
    print(total(meters), total(slotted), fast(Mode))
    vars(meters[5])
    print(meters[5].capped(), total(meters))
    Meter.LIMIT = property(lambda self: 7)
    print(total(meters[4:]), fast(OtherMode))
    del Mode.FAST
    try:
        fast(Mode)
    except AttributeError as e:
        print("AttributeError:", e)


main()
