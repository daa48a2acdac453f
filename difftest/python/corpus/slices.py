# pydiff: all-compiled
# x[a:b] (BUILD_SLICE 2 then BINARY_SUBSCR), which the JIT makes one op: an exact str, list or
# tuple with None or exact-int bounds is sliced without a slice object (a64_get_slice), and
# anything else takes the slice object and PyObject_GetItem. Bounds negative, past either end,
# reversed, at an int's one-digit limit, beyond 64 bits, bool and __index__ objects (whose
# calls are printed in order); the identity of whole and empty results; non-ASCII and astral
# strs; subclasses and classes with __getitem__ of their own, dicts, bytes; errors raised with
# values on the stack below the slice, caught at two handler depths; and an uncaught one last,
# whose traceback's caret points at the subscript.

BIG = 1 << 70
DIGIT = 1 << 30  # 3.11's ints below it in magnitude have one digit


class Index:
    def __init__(self, v, log):
        self.v = v
        self.log = log

    def __index__(self):
        self.log.append(self.v)
        return self.v


class Text(str):
    pass


class Items(list):
    def __getitem__(self, key):
        return ("Items", key.start, key.stop, key.step) if isinstance(key, slice) else key


class Shows:
    def __getitem__(self, key):
        return repr(key)


def cuts(x, n):
    out = []
    for a in (None, 0, 1, 3, -1, -3, n, n + 5, -n - 5, BIG, -BIG, DIGIT - 1, -DIGIT):
        for b in (None, 0, 2, -2, n, n + 5, -n - 5, BIG, -BIG, DIGIT, 1 - DIGIT):
            out.append(x[a:b])
    return out


def identities(s, t, items):
    return [s[:] is s, s[0:] is s, s[:BIG] is s, t[:] is t, t[-BIG:] is t, items[:] is items,
            s[5:2] is s[9:1], t[4:1] is t[8:0], type(items[1:1]).__name__]


def odd_bounds(x):
    log = []
    out = [x[True:], x[:False], x[Index(1, log):Index(-1, log)], x[Index(2, log):]]
    return out, log


def others(d, b, shows, text, items):
    out = [b[1:3], b[-2:], shows[1:2], shows[:], shows["a":None], text[1:3], type(text[1:3]).__name__]
    out.append(items[1:4])
    try:
        d[1:2]
    except TypeError as e:
        out.append(str(e))
    return out


def keep(*values):
    return len(values)


def bad_bounds(x, a, b):
    try:
        return keep(1, 2, [3, keep(4, x[a:b])])
    except TypeError as e:
        return "TypeError: %s" % e


def nested_handlers(x, a):
    try:
        try:
            return [x[a:1], 1]
        except IndexError:
            return "inner"
    except TypeError as e:
        return "outer: %s" % e


def main():
    s = "abcdefghij"
    u = "\u00e9t\u00e9 \U0001f600 \u4e2d\u6587"
    t = tuple(range(10))
    items = list(range(10))
    for _ in range(2):
        print(cuts(s, len(s)))
        print(cuts(u, len(u)))
        print(cuts(t, len(t)))
        print(cuts(items, len(items)))
        print(identities(s, t, items))
        print(odd_bounds(s), odd_bounds(items), odd_bounds(t))
        print(others({}, b"bytes!", Shows(), Text("subclass"), Items([1, 2, 3, 4, 5])))
        print(bad_bounds(s, 1.5, 2), bad_bounds(items, 0, "x"), bad_bounds(5, 0, 1))
        print(bad_bounds(None, None, None), bad_bounds(t, 1, 2))
        print(nested_handlers(s, 0), nested_handlers(s, 0.5), nested_handlers(3, 0))
    data = None
    print(len(data[1:2]))


main()
