# pydiff: all-compiled
# Calls that compiled code makes inline (jit/hir/known_calls.h): len of an exact str, list
# or tuple, isinstance, list.append on an exact list with room, ord of one ASCII character,
# chr below 128; and every way they fall back to the generic call: subclasses (a __len__ of
# its own), other sized and unsized objects, lengths past the small ints, a full list, a
# class that borrows list.append, the builtins rebound or shadowed, isinstance's errors,
# tuples of types and objects whose __class__ names another class, ord of non-ASCII or
# longer strs, chr of big or negative ints, and the references each path takes and releases.
# Int results are boxed from the small ints inline (-5 .. 256), so arithmetic around both
# ends of that range is here too.
import abc
import builtins
import sys


class MyList(list):
    def __len__(self):
        return 99


class MyStr(str):
    pass


class MyTuple(tuple):
    pass


class Borrower:
    append = list.append


class Base:
    pass


class Derived(Base):
    pass


class Duck(abc.ABC):
    @classmethod
    def __subclasshook__(cls, other):
        return hasattr(other, "quack")


class Quacker:
    quack = True


class ClaimsBase:  # isinstance consults __class__ when the type check fails
    @property
    def __class__(self):
        return Base


class MasksAsDerived:
    def __getattribute__(self, name):
        return Derived if name == "__class__" else object.__getattribute__(self, name)


def lengths(xs):
    out = []
    for x in xs:
        try:
            out.append(len(x))
        except TypeError as e:
            out.append(str(e))
    return out


def instances(xs, cls):
    return [isinstance(x, cls) for x in xs]


def hierarchy(xs):
    rows = []
    for x in xs:
        rows.append((isinstance(x, Base), isinstance(x, Derived), isinstance(x, (int, str)),
                     isinstance(x, Duck)))
    return rows


def appends(n):
    a = []
    for i in range(n):
        a.append(i * i)  # grows through every resize
    b = MyList()
    for i in range(5):
        b.append(i)
    return a[-1], len(a), sum(a), list(b), len(b)


def borrowed():
    try:
        Borrower().append(1)
    except TypeError as e:
        return str(e)


def shadowed():
    len = lambda x: -1  # noqa: E731
    isinstance = lambda x, c: "mine"  # noqa: E731
    return len([1, 2]), isinstance(1, int)


def big():
    return len("x" * 1000), len(list(range(256))), len(list(range(257))), \
        len(tuple(range(300))), len(range(10 ** 6)), len("é" * 5), len("€" * 7)


def bad_isinstance():
    try:
        return isinstance(1, 5)
    except TypeError as e:
        return str(e)


def references():
    x = [1, 2, 3]
    y = object()
    before_x, before_y = sys.getrefcount(x), sys.getrefcount(y)
    kept = []
    for _ in range(100):
        len(x)
        isinstance(x, list)
        isinstance(y, Base)
    for _ in range(10):
        kept.append(y)
    return sys.getrefcount(x) - before_x, sys.getrefcount(y) - before_y


def temporaries():
    # the list and the str die inside the call: their references are the last ones
    return len([1, 2, 3]), len("abc" + str(len("x"))), [].append(1)


def characters(text):
    out = []
    for c in text:
        try:
            out.append(ord(c))
        except TypeError as e:
            out.append(str(e))
    return out


def from_codes(codes):
    out = []
    for i in codes:
        try:
            out.append(chr(i))
        except (TypeError, ValueError, OverflowError) as e:
            out.append(str(e))
    return "|".join(out), chr(65), chr(127) is chr(127)


def caesar(text, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if "a" <= c <= "z" else c for c in text)


def small_int_edges():
    out = []
    for a in range(-12, 12):
        out.append((a - 1, a * 3, a + 250, 260 - a, a // 2, a % 7))
    return out


items = ["", "abc", "é" * 3, [1] * 7, (1, 2), {1: 2}, MyList([1]), MyStr("xy"),
         MyTuple((1,)), 5, None, b"ab", {1, 2, 3}, range(4)]
for _ in range(3):
    print(lengths(items))
    print(instances(items, list), instances(items, str), instances(items, object))
    print(hierarchy([Base(), Derived(), 1, "s", 2.0, Quacker(), ClaimsBase(), MasksAsDerived(),
                     [], {}, None]))
    print(appends(1000))
    print(borrowed(), shadowed(), big(), bad_isinstance(), references(), temporaries())
    print(characters(["a", "z", "\x00", "\x7f", "é", "€", "ab", "", MyStr("q"), 7]))
    print(from_codes([0, 65, 127, 128, 255, 256, 0x10FFFF, -1, 0x110000, 2 ** 70, True, 3.0]))
    print(caesar("hello, world", 3), caesar(caesar("abc xyz", 13), 13), small_int_edges())

saved_len, saved_isinstance = builtins.len, builtins.isinstance
builtins.len = lambda x: 42
builtins.isinstance = lambda x, c: "patched"
saved_ord, saved_chr = builtins.ord, builtins.chr
builtins.ord = lambda c: -2
builtins.chr = lambda i: "?"
print(lengths(["abc", [1]]), instances([1], int), characters("ab"), from_codes([65]))
builtins.len, builtins.isinstance = saved_len, saved_isinstance
builtins.ord, builtins.chr = saved_ord, saved_chr
print(lengths(["abc", [1]]), instances([1], int), characters("ab"), from_codes([65]))
