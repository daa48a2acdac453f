# pydiff: all-compiled
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# A local passed to a call is lent, not given a reference (hir::Instr::borrowed): the inline
# C calls (len, isinstance, ord, chr, int/str/tuple/type, list.append, method descriptors)
# neither take nor release one, and every path that keeps or passes on the argument (the
# call stub to a Python callee, a C function that stores it, a rebound builtin, a full list,
# a self of another type, keywords) takes its own first. An f-string's constant parts are
# lent to its BUILD_STRING the same way, and a local's object to the known C method it calls
# (`s.startswith(p)`, `out.append(x)`) as self, on every shape LOAD_METHOD can give: the
# method, or [NULL, attribute] for an attribute of the instance or a module's function. Each function counts the references of its locals
# (or constants) before and after, so a missing or extra reference on any path shows here.
import sys

kept = []


def keep(*args, **kwargs):
    kept.extend(args)
    kept.extend(kwargs.values())
    return -1


def keep_one(obj):
    kept.append(obj)
    return -2


class Getter:
    # named as dict's method, so `obj.get(k)` is made a method-descriptor site by its name
    def get(self, key):
        kept.append(key)
        return key

    def startswith(self, prefix):
        kept.append(prefix)
        return True


class Text(str):
    pass


def counts(*objs):
    return [sys.getrefcount(o) for o in objs]


def inline_forms(x, s, n):
    before = counts(x, s, n)
    total = 0
    for _ in range(50):
        total += len(x) + len(s)
        total += isinstance(x, list) + isinstance(s, str)
        total += ord(s[0]) + len(chr(n))
        total += int(n) + len(str(s)) + len(tuple(x)) + (type(x) is list)
        total += s.startswith(s) + len(s.upper())
    return total, [a - b for a, b in zip(counts(x, s, n), before)]


def kept_by_callees(x, s):
    del kept[:]
    before = counts(x, s)
    keep(x, s)           # a Python callee's frame takes them
    keep(x, key=s)       # keywords: a64_call takes them
    d = {}
    d.setdefault(s, x)   # a C method that stores both
    box = []
    for _ in range(40):  # a list filling up: its full appends take the generic call
        box.append(x)
    grown = [a - b for a, b in zip(counts(x, s), before)]
    del kept[:]
    d.clear()
    box.clear()
    return grown, [a - b for a, b in zip(counts(x, s), before)]


def other_selves(getter, text, key):
    before = counts(getter, key)
    hits = 0
    for obj in (getter, {key: 1}, getter):
        hits += obj.get(key) is not None   # a dict's get, then Getter.get through the stub
    for t in (text, Text(text), getter):
        hits += t.startswith(key)          # str's, a subclass's (another type), Getter's
    grown = [a - b for a, b in zip(counts(getter, key), before)]
    del kept[:]
    return hits, grown, [a - b for a, b in zip(counts(getter, key), before)]


def rebound(x):
    global len
    before = counts(x)
    first = len(x)
    len = keep_one          # the site's callable is no longer the builtin
    second = len(x)
    del len
    third = len(x)
    del kept[:]
    return first, second, third, [a - b for a, b in zip(counts(x), before)]


def temporaries(n):
    # operands that are not locals still move their references in
    return len([n] * n), isinstance(object(), object), str(n * 1000)


def replaced_while_lent(x):
    # the local is stored to after the call: the loan ends at the call
    y = len(x)
    x = [y]
    return len(x), x


def tagged(name, n):
    return f"<{name} n={n}>"


def fstring_constants():
    parts = [c for c in tagged.__code__.co_consts if isinstance(c, str)]
    before = counts(*parts)
    out = [tagged("b", i) for i in range(50)]
    return out[-1], len(parts), [a - b for a, b in zip(counts(*parts), before)]


class Shadowed:
    def __init__(self):
        self.get = keep_one  # an instance attribute: LOAD_METHOD gives [NULL, attribute]


def lent_selves(s, key):
    import types
    module = types.ModuleType("lent")
    module.get = keep_one
    out, d = [], {key: 1}
    objs = (d, Getter(), Shadowed(), module, d, Text(s), s)
    before = counts(out, d, s, *objs)
    hits = 0
    for _ in range(30):
        out.append(s)                  # a list filling up: some appends take the generic call
        hits += s.startswith(key) + s.endswith(key) + len(s.upper())
        for obj in objs:
            hits += obj.get(key) is not None if hasattr(obj, "get") else obj.startswith(key)
    grown = [a - b for a, b in zip(counts(out, d, s, *objs), before)]
    del kept[:]
    out.clear()
    return hits, grown, [a - b for a, b in zip(counts(out, d, s, *objs), before)]


def main():
    counts(object())  # compiled first: a function's first call, compiling, holds its arguments
    x, s, n = [1, 2, 3], "text", 65
    for _ in range(3):
        print(inline_forms(x, s, n))
        print(kept_by_callees(x, s))
        print(other_selves(Getter(), "textual", "te"))
        print(rebound(x))
        print(temporaries(3), replaced_while_lent([1, 2]))
        print(fstring_constants())
        print(lent_selves("text", "te"))


main()
