# pydiff: threshold=40
# pydiff: all-compiled
# `a + b` and `obj.s += t` at sites 3.11 specialised to strs (BINARY_OP_ADD_UNICODE) before
# they compiled (after 40 calls), whose result no local takes back: two exact strs through
# PyUnicode_Concat (a64_str_concat). Then everything else at the same sites: a str subclass
# with __add__, a class whose __radd__ answers a str, lists, ints, bytes, a str and an int
# (TypeError), and a str whose own concatenation would overflow nothing but is empty.


class Box:
    def __init__(self):
        self.s = ""


class Loud(str):
    def __add__(self, other):
        return "LOUD:" + str.__add__(self, other)


class Suffix:
    def __radd__(self, other):
        return ("radd", other)


def joined(a, b):
    return a + b


def grown(box, t):
    box.s += t
    return len(box.s)


def keyed(d, k, t):
    d[k] += t
    return d[k]


def attempt(f, *args):
    try:
        return f(*args)
    except TypeError as e:
        return "TypeError", str(e)


def main():
    out = []
    box, d = Box(), {"k": ""}
    for i in range(50):  # quickened and specialised on strs, then compiled
        seen = (joined("ab", str(i)), grown(box, "x"), keyed(d, "k", "y"), joined("", ""))
        if i % 10 == 0:
            out.append(seen)
    out.append((joined(Loud("a"), "b"), joined("a", Loud("b")), joined("a", Suffix())))
    out.append((joined([1], [2]), joined(3, 4), joined(b"x", b"y"), joined((1,), (2,))))
    out.append((attempt(joined, "a", 1), attempt(joined, 1, "a"), attempt(grown, box, 5)))
    box.s = [1]
    out.append((grown(box, [2]), keyed({"k": 1}, "k", 2)))
    return out


for line in main():
    print(line)
