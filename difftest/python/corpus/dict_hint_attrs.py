# pydiff: threshold=10
# pydiff: all-compiled
# pydiff: min-feedback_sites=4
# Attributes in an instance's real __dict__ read and written at sites whose type feedback
# named a dict hint (3.11's LOAD_ATTR_WITH_HINT and STORE_ATTR_WITH_HINT): the objects'
# attributes outgrew their class's shared keys, so each has a dict of its own. After the
# functions are compiled with that feedback they meet an attribute deleted and set again (it
# moves in its dict), another key at the hint, a dict replaced whole, a dict given a non-str key, a split dict made by
# reading __dict__, a property added to the class over a cached name, a subclass, an int
# subclass (its dict is not a managed one), a plain instance, and a store whose old value's
# __del__ speaks.


class Bag:
    def __init__(self, n):
        for i in range(n):
            setattr(self, "f%d" % i, i)
        self.a = "a"
        self.b = "b"


class SubBag(Bag):
    pass


class IntBag(int):
    pass


class Plain:
    def __init__(self):
        self.a = "plain a"
        self.b = "plain b"


class Loud:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        print("released", self.name)


def attempt(f, *args):
    try:
        return f(*args)
    except AttributeError as e:
        return "AttributeError: %s" % e


def read_a(o):
    return o.a


def read_ab(o):
    return o.a + o.b


def write_a(o, v):
    o.a = v


def warm_up():
    bags = [Bag(40) for _ in range(3)]
    for _ in range(4):
        for o in bags:
            read_a(o)
            read_ab(o)
            write_a(o, "a")


def main():
    warm_up()
    bag = Bag(40)
    print(read_a(bag), read_ab(bag))
    for i in range(20):
        write_a(bag, "a%d" % i)
    print(read_a(bag), read_ab(bag))
    del bag.a
    print(attempt(read_a, bag), attempt(read_ab, bag))
    write_a(bag, "again")
    print(read_a(bag), read_ab(bag), list(vars(bag))[-2:])
    bag.__dict__ = {"b": "new dict b", "a": "new dict a"}
    print(read_a(bag), read_ab(bag))
    write_a(bag, "stored in the new dict")
    print(read_a(bag), vars(bag))
    bag.__dict__[1] = "a key that is not a str"
    print(read_a(bag), read_ab(bag))
    write_a(bag, "general keys")
    print(read_a(bag))
    shifted = Bag(39)  # "b" where the hint points: the key tells them apart
    print(read_a(shifted), read_ab(shifted))
    small = Plain()
    print(len(vars(small)), read_a(small), read_ab(small))
    write_a(small, "split")
    print(read_a(small))
    others = [SubBag(35), IntBag(7), Plain()]
    others[1].a, others[1].b = "int a", "int b"
    for o in others:
        print(type(o).__name__, read_a(o), read_ab(o))
        write_a(o, "w")
        print(read_a(o))
    loud = Bag(40)
    write_a(loud, Loud("first"))
    write_a(loud, Loud("second"))
    print("after the store")
    write_a(loud, None)
    print("after the second store")
    Bag.a = property(lambda self: "a property now", lambda self, v: print("property set", v))
    print(read_a(loud), read_ab(loud))
    write_a(loud, "through the property")
    del Bag.a
    print(read_a(loud))
    write_a(loud, "dict again ")
    print(read_a(loud), read_ab(loud))


main()
