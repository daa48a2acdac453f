# pydiff: all-compiled
# Calls: positional, keyword, defaults, keyword-only, *args/**kwargs receivers, bound and
# unbound methods, builtins with keywords, callables passed around.


def describe(a, b=2, *rest, c=3, **extra):
    return (a, b, rest, c, sorted(extra.items()))


class Counter:
    def __init__(self, start=0):
        self.n = start

    def bump(self, by=1):
        self.n += by
        return self.n


def caller():
    out = [describe(1), describe(1, 5), describe(1, 2, 3, 4), describe(1, c=9),
           describe(b=7, a=6), describe(1, z=26)]
    c = Counter(10)
    bump = c.bump
    out.append((bump(), bump(by=5), Counter.bump(c, 2), c.n))
    out.append(sorted([3, 1, 2], reverse=True))
    out.append(int("ff", base=16))
    return out


def apply(fn, x):
    return fn(x)


def square(x):
    return x * x


def bad_call():
    return describe(1, 2, c=3, c2=4, nope=5) + describe()


print(caller())
print(apply(square, 7), apply(len, "four"), apply(Counter, 3).n)
try:
    bad_call()
except TypeError as e:
    print("TypeError:", e)
