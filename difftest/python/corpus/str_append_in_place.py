# pydiff: threshold=20
# pydiff: all-compiled
# pydiff: min-str_appends_in_place=1000
# `s += t` and `s = s + t` of strs stored back into s's local, which 3.11 specialises to
# BINARY_OP_INPLACE_ADD_UNICODE: compiled code appends t to s's own object when the local
# holds s's only reference, as stock does. What must not change where it cannot be seen: a
# second name for s, a str used as a dict key (hashed) or interned, `s += s`, strs of wider
# kinds (Latin-1, UCS-2, UCS-4) on either side, str subclasses, the other operand order,
# errors with their tracebacks, and the references of the pieces.
import sys
import traceback

PIECES = ["ab", "c", "", "def", "g" * 40]


def build(pieces, rounds):
    s = ""
    for _ in range(rounds):
        for p in pieces:
            s += p
    return s


def build_plus(pieces, rounds):
    s = "start:"
    for _ in range(rounds):
        for p in pieces:
            s = s + p
    return s


def build_front(pieces):
    s = ""
    for p in pieces:
        s = p + s  # s is the right operand: a new str each time
    return s


def keep_second_name(pieces):
    s = "x" * 3
    names = []
    for p in pieces:
        t = s
        s += p
        names.append(t)
    return s, names


def hashed(pieces):
    s = "key-" + "k" * 5
    table = {s: 1}
    for p in pieces:
        s += p
        table[s] = len(table)
    return s, sorted(table.items())


def interned(pieces):
    s = sys.intern("interned-" + "i" * 3)
    first = s
    for p in pieces:
        s += p
    return s, first, first is sys.intern("interned-iii")


def doubled(n):
    s = "ab" + str(n)
    for _ in range(n):
        s += s
    return s


def mixed_kinds(pieces):
    s = "a" + str(len(pieces))
    for p in pieces:
        s += p
    return s, len(s)


class Tagged(str):
    pass


def subclass_left(pieces):
    s = Tagged("t")
    for p in pieces:
        s += p
    return s, type(s).__name__


def subclass_right(pieces):
    s = "r"
    for p in pieces:
        s += Tagged(p)
    return s, type(s).__name__


def bad_operand(pieces):
    s = "e"
    for p in pieces:
        s += p
    return s


def main():
    for _ in range(25):  # quickened, then compiled with the sites' feedback
        build(PIECES, 3)
        build_plus(PIECES, 3)
        build_front(PIECES)
        keep_second_name(PIECES)
        hashed(PIECES)
        interned(PIECES)
        doubled(3)
        mixed_kinds(PIECES)
        subclass_left(PIECES)
        subclass_right(PIECES)
        bad_operand(PIECES)
    s = build(PIECES, 200)
    print(len(s), s[:20], s[-20:], s.count("def"))
    print(build_plus(PIECES, 50)[-30:])
    print(build_front(PIECES))
    print(keep_second_name(PIECES))
    print(hashed(PIECES))
    print(interned(PIECES))
    print(doubled(5))
    for kinds in (["é", "ab"], ["ab", "€"], ["€", "😀", "x"], ["😀", "ü"], ["ü", "ÿ"]):
        print(mixed_kinds(kinds * 3))
    print(subclass_left(PIECES))
    print(subclass_right(PIECES))
    for bad in (["a", 5], ["a", None, "b"], [b"x"]):
        try:
            bad_operand(bad)
        except TypeError:
            traceback.print_exc(file=sys.stdout)
    counts = [sys.getrefcount(p) for p in PIECES]
    build(PIECES, 10)
    print(counts == [sys.getrefcount(p) for p in PIECES])
    piece = "zz" + str(len(PIECES))
    before = sys.getrefcount(piece)
    build([piece], 30)
    print(sys.getrefcount(piece) - before)


main()
