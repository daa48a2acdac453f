# pydiff: threshold=5
# pydiff: all-compiled
# pydiff: min-init_entries=300
# A call site that instantiates a user class remembers, in its cache, the class's __init__ and
# that function's compiled state (a64_init_enter's memo), keyed by the class's version tag.
# Everything the memo stands for must be seen again when it changes after the site filled it:
# a base's __init__ replaced (the subclass's tag goes with it), __init__'s code replaced in
# place, a metaclass given a __call__, the class given a __new__ or abstract methods, its
# metaclass swapped; classes made and dropped one after another at one site (a new class may
# take a dead one's address); two classes taking turns at one site; and the references of the
# classes and their __init__ functions afterwards.
import gc
import sys


class Base:
    def __init__(self, v):
        self.v = v


class Child(Base):
    pass


class Meta(type):
    pass


class Metered(metaclass=Meta):
    def __init__(self, v):
        self.v = v


class OtherMeta(type):
    def __call__(cls, *args):
        return ("made by OtherMeta", cls.__name__, args)


class Plain:
    def __init__(self, v):
        self.v = v


class Newed:
    def __init__(self, v):
        self.v = v


class Abstracted:
    def __init__(self, v):
        self.v = v


class Twin:
    def __init__(self, v):
        self.v = -v


def make(cls, v):
    return cls(v)


def make_child(n):
    return [Child(i).v for i in range(n)]


def make_metered(n):
    return [repr(getattr(Metered(i), "v", None)) for i in range(n)]


def make_plain(n):
    out = []
    for i in range(n):
        try:
            out.append(Plain(i).v)
        except TypeError as e:
            out.append("TypeError: " + str(e))
    return out


def alternate(n):
    return [make(Plain if i % 2 else Twin, i).v for i in range(n)]


def replaced_code(self, v):
    self.v = v * 100


def shown(obj):
    return obj.v if hasattr(obj, "v") else obj


def tail(xs):
    return len(xs), xs[-3:]


def made_or_error(cls, n):
    out = []
    for i in range(n):
        try:
            out.append(shown(make(cls, i)))
        except TypeError as e:
            out.append("TypeError: " + str(e))
    return out


for _ in range(8):  # warm every function past the threshold, then use them
    make_child(2)
    make_metered(2)
    make_plain(2)
    alternate(2)
    made_or_error(Newed, 2)
    tail(made_or_error(Abstracted, 30))

print("child", tail(make_child(30)))
old_init = Base.__init__  # alive, so that only the class's tag says it was replaced
Base.__init__ = lambda self, v: setattr(self, "v", ("base replaced", v))
print("child after Base.__init__ replaced", tail(make_child(30)))
del Base.__init__
try:
    print(make_child(2))
except TypeError as e:
    print("child with object's __init__: TypeError", e)
Base.__init__ = lambda self, v: setattr(self, "v", v + 1)
print("child again", tail(make_child(30)))

print("plain", tail(make_plain(30)))
Plain.__init__.__code__ = replaced_code.__code__
print("plain after __code__ replaced", tail(make_plain(30)))

print("metered", tail(make_metered(30)))
Meta.__call__ = lambda cls, *args: ("made by Meta.__call__", args)
print("metered after Meta.__call__", tail(make_metered(30)))
del Meta.__call__
print("metered after del", tail(make_metered(30)))
Metered.__class__ = OtherMeta
print("metered with OtherMeta", [shown(Metered(i)) for i in range(2)], make_metered(2))

print("newed", made_or_error(Newed, 2))
Newed.__new__ = staticmethod(lambda cls, v: ("made by __new__", v))
print("newed with __new__", tail(made_or_error(Newed, 30)))
del Newed.__new__  # 3.11 then calls object.__new__ through a slot, which takes no arguments
print("newed without", made_or_error(Newed, 2))

print("abstracted", tail(made_or_error(Abstracted, 30)))
Abstracted.__abstractmethods__ = frozenset({"run"})
print("abstracted abstract", tail(made_or_error(Abstracted, 30)))
Abstracted.__abstractmethods__ = frozenset()
print("abstracted again", tail(made_or_error(Abstracted, 30)))

print("alternate", tail(alternate(30)))

made = []
for k in range(40):  # a new class at each step, the last one dropped
    cls = type("Made%d" % k, (), {"__init__": lambda self, v, k=k: setattr(self, "v", (k, v))})
    made.append(make(cls, k).v)
    del cls
    if k % 10 == 0:
        gc.collect()
print("made", made[:3], made[-3:], len(made))

init = Twin.__init__
base_twin, base_init = sys.getrefcount(Twin), sys.getrefcount(init)
twins = [make(Twin, i) for i in range(50)]
print("Twin references while alive:", sys.getrefcount(Twin) - base_twin,
      "its __init__:", sys.getrefcount(init) - base_init)
del twins
print("Twin references after:", sys.getrefcount(Twin) - base_twin,
      "its __init__:", sys.getrefcount(init) - base_init)
