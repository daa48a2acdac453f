# pydiff: all-compiled
# Attributes a type gives, read at a site whose cache keeps them (attr_descriptors.h): class
# constants and methods read through instances (until an instance gets its own attribute of
# that name: set after the site cached, through a materialised __dict__, on slots and dict-less
# objects), methods of C types read as values (`d.get`), and attributes of a class read
# through the class (constants, functions, class and static methods, properties, nested
# classes). Then what an entry must notice: the class changed, a subclass, a metaclass with
# attributes of its own, names that `type` itself has, a descriptor class that gains __get__
# or loses __set__ after the site cached, an attribute deleted (its AttributeError).


def reads(o, n):
    out = []
    for _ in range(n):
        out.append((o.LIMIT, o.label, o.twice(3), o.make(), o.helper(2)))
    return out


def method_values(o):
    f = o.twice
    return [f(5), f.__name__, o.twice == o.twice, o.twice.__self__ is o]


def class_reads(cls, n):
    out = []
    for _ in range(n):
        out.append((cls.LIMIT, cls.twice.__name__, cls.make(), cls.helper(4), cls.Inner.__name__,
                    type(cls.size).__name__))
    return out


def c_values(d, items, n):
    out = []
    for _ in range(n):
        get = d.get
        add = items.append
        add(get("a", 0))
        out.append((get("b"), len(items), d.keys.__name__))
    return out


class Base:
    LIMIT = 10
    label = "base"

    class Inner:
        pass

    def __init__(self):
        self.x = 1

    def twice(self, v):
        return 2 * v

    @classmethod
    def make(cls):
        return cls.__name__

    @staticmethod
    def helper(v):
        return v + 100

    @property
    def size(self):
        return 7


class Sub(Base):
    LIMIT = 20


class Slotted:
    __slots__ = ("y",)
    LIMIT = 30
    label = "slotted"

    def __init__(self):
        self.y = 0

    def twice(self, v):
        return 3 * v

    Inner = int
    size = property(lambda self: 8)
    make = classmethod(lambda cls: "slotted " + cls.__name__)
    helper = staticmethod(lambda v: v + 300)


class Meta(type):
    LIMIT = "meta's"
    extra = "meta only"


class WithMeta(metaclass=Meta):
    label = "with meta"


class Getter:
    pass


class Setter:
    def __get__(self, obj, owner):
        return "setter's get"

    def __set__(self, obj, value):
        raise AttributeError("read-only")


class Host:
    plain = Getter()
    guarded = Setter()

    def __init__(self):
        self.z = 0


def host_reads(h, n):
    return [(type(h.plain).__name__ if isinstance(h.plain, Getter) else h.plain, h.guarded)
            for _ in range(n)]


def names_of_type(cls):
    return [cls.__name__, cls.__qualname__, cls.mro()[0].__name__, cls.__doc__]


def deleted(o):
    try:
        return o.LIMIT
    except AttributeError as e:
        return "AttributeError: %s" % e


def main():
    b, s, t = Base(), Sub(), Slotted()
    for o in (b, s, t, b, s, t):
        print(reads(o, 3), method_values(o))
    for cls in (Base, Sub, Base, Sub):
        print(class_reads(cls, 3))
    print(class_reads(Slotted, 2))
    print(c_values({"a": 1, "b": 2}, [], 3), c_values({"b": 5}, [0], 2))
    # An instance's own attribute, set after the sites cached: it shadows the class's.
    b.LIMIT = 11
    b.twice = lambda v: "own twice"
    print(reads(b, 2), reads(Base(), 1))
    # Through a materialised __dict__.
    m = Base()
    print(reads(m, 2))
    m.__dict__["label"] = "from dict"
    print(reads(m, 2), m.__dict__)
    # The class changed.
    Base.LIMIT = 12
    Base.label = "changed"
    print(reads(Base(), 2), reads(s, 1), class_reads(Base, 2), class_reads(Sub, 1))
    # A metaclass with attributes: the class's own win, the metaclass's show where it has none.
    print(WithMeta.label, WithMeta.LIMIT, WithMeta.extra, WithMeta().label)
    WithMeta.LIMIT = "own"
    print(WithMeta.LIMIT, names_of_type(Base), names_of_type(WithMeta))
    # A descriptor class that gains __get__, and one that loses __set__, after the site cached.
    h = Host()
    print(host_reads(h, 3))
    Getter.__get__ = lambda self, obj, owner: "gained get"
    print(host_reads(h, 2))
    h.__dict__["guarded"] = "instance's own"
    print(host_reads(h, 2))
    del Setter.__set__
    print(host_reads(h, 2), host_reads(Host(), 1))
    # Deleted from the class: the generic path's AttributeError.
    print([deleted(s) for _ in range(2)])
    del Sub.LIMIT
    print([deleted(s) for _ in range(2)])
    del Base.LIMIT
    print([deleted(s) for _ in range(2)], deleted(Base()), deleted(t))


main()
