# pydiff: all-compiled
# One attribute or method site that sees many receiver types: the JIT's caches keep an entry
# per type (four of them), so each entry must stay tied to its own type's layout. The types
# here keep the same attribute at different indexes, outnumber the entries, and change
# (attributes deleted, methods patched or shadowed) while the other types stay cached.


class Base:
    def __init__(self, n):
        self.n = n

    def describe(self):
        return "base %d" % self.n

    def bump(self):
        self.n += 1
        return self.n


class A(Base):
    def __init__(self, n):
        self.first = "a"
        Base.__init__(self, n)


class B(Base):
    def __init__(self, n):
        self.first = "b"
        self.second = "b2"
        Base.__init__(self, n)

    def describe(self):
        return "B %d" % self.n


class C(Base):
    def describe(self):
        return "C %d" % self.n


class D(Base):
    def __init__(self, n):
        Base.__init__(self, n)
        self.after = "d"


class E(B):
    def describe(self):
        return "E %d" % self.n


class F(Base):
    __slots__ = ()


class Plain:
    def __init__(self, n):
        self.n = n

    def describe(self):
        return "plain %d" % self.n

    def bump(self):
        self.n -= 1
        return self.n


def read_n(o):
    return o.n


def write_n(o, v):
    o.n = v
    return o.n


def describe(o):
    return o.describe()


def bump(o):
    return o.bump()


def rounds(objs, count):
    total = 0
    seen = []
    for _ in range(count):
        for o in objs:
            total += read_n(o)
            seen.append(describe(o))
            total += bump(o)
    return total, seen[-len(objs):]


def others(objs, skip):
    kept = []
    for o in objs:
        if o is not skip:
            kept.append(read_n(o))
    return kept


# Mutations run at module level (DELETE_ATTR is not compiled); every function is.
objs = [A(1), B(2), C(3), D(4), E(5), Base(6), Plain(7)]
print(rounds(objs, 3))
print([write_n(o, i * 10) for i, o in enumerate(objs)])
print(rounds(objs, 2))
# One type's instance loses its attribute; the others keep theirs.
del objs[2].n
try:
    read_n(objs[2])
except AttributeError as e:
    print("AttributeError:", e)
print(others(objs, objs[2]))
objs[2].n = 33
print(rounds(objs, 2))
# A method patched on one class, shadowed on one instance of another.
C.describe = lambda self: "patched C %d" % self.n
objs[1].describe = lambda: "instance-level B"
print([describe(o) for o in objs])
print(rounds(objs, 2))
# A class attribute (here a property) now shadows the instance attribute on one type.
D.n = property(lambda self: -1, lambda self, v: None)
print([read_n(o) for o in objs], write_n(objs[3], 99), rounds(objs, 1)[0])
del D.n
print([read_n(o) for o in objs])
# __dict__ materialised on one object.
vars(objs[0])["extra"] = 1
print(rounds(objs, 2))
# A subclass that declares empty __slots__ (its instances still have Base's dict).
f = F(8)
print(read_n(f), write_n(f, 9), describe(f), bump(f))
