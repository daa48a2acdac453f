# pydiff: all-compiled
# C methods called on instances of subclasses of their type (`class Stack(list)`, then
# `s.append(x)`): the call stub's cached descriptor takes a self whose type has the
# descriptor's type among its bases (call_stub.cc bb52-bb56), at every depth, with a mixin
# first, and after the site ran on the base type itself; an override in the subclass is
# another callable, and a class that borrows a C method without inheriting its type
# (`append = list.append`) gets the descriptor's TypeError, as in stock Python.


class Stack(list):
    pass


class DeepStack(Stack):
    pass


class Mixin:
    def describe(self):
        return "mixin"


class MixedStack(Mixin, list):
    pass


class Counting(dict):
    pass


class Loud(list):
    def append(self, x):
        list.append(self, ("loud", x))


class Borrowed:
    append = list.append
    get = dict.get


class Name(str):
    pass


def push_pop(s, n):
    for i in range(n):
        s.append(i)
    total = 0
    while s:
        total += s.pop()
    return total


def count(d, words):
    for w in words:
        d[w] = d.get(w, 0) + 1
    return sorted(d.items())


def strip_all(names):
    # str.find goes through a trampoline (method_trampolines.h), which a subclass's self
    # does not take: the generic path.
    return [(n.strip().upper(), n.find("b")) for n in names]


def borrow():
    b = Borrowed()
    out = []
    for call in (lambda: b.append(1), lambda: b.get("k")):
        try:
            call()
        except TypeError as e:
            out.append(str(e))
    return out


def main():
    for kind in (list, Stack, DeepStack, MixedStack, Loud, Stack, list):
        s = kind()
        try:
            print(kind.__name__, push_pop(s, 50), len(s))
        except TypeError as e:
            print(kind.__name__, "TypeError", e)
    m = MixedStack()
    m.append("x")
    print(m.describe(), m, type(m).__name__)
    loud = Loud()
    loud.append(3)
    print(loud)
    words = "the cat and the hat and the bat".split()
    for kind in (dict, Counting, dict, Counting):
        print(kind.__name__, count(kind(), words))
    for _ in range(3):
        print(strip_all([" a ", Name(" b "), " b ", Name("c ")]))
    for _ in range(3):
        print(borrow())


main()
