# pydiff: all-compiled
# A call site's cache of a compiled callee (jit/runtime/site_cache.h CCallCache, the call
# stub's cached path): the same site calling one function, then another, then one whose
# __code__ was replaced; closures made and dropped in a loop, so a new function can take a
# dead one's address with the same code or with another code; a method called through
# LOAD_METHOD; and a site that also sees a C function.


def call1(f, x):
    return f(x)


def add_one(x):
    return x + 1


def double(x):
    return x * 2


def make_adder(k):
    def adder(x):
        return x + k

    return adder


def make_scaler(k):
    def scaler(x):
        return x * k

    return scaler


class Box:
    def __init__(self, v):
        self.v = v

    def plus(self, x):
        return self.v + x


def method_site(boxes, x):
    return [b.plus(x) for b in boxes]


def main():
    out = []
    for _ in range(3):
        out.append(call1(add_one, 10))
    for _ in range(3):
        out.append(call1(double, 10))
    out.append(call1(add_one, 5))
    # The cached function's code replaced: the next call must run the new code.
    saved = add_one.__code__
    add_one.__code__ = double.__code__
    out.append(call1(add_one, 7))
    add_one.__code__ = saved
    out.append(call1(add_one, 7))
    # Closures made and dropped one by one: addresses come back with either code.
    total = 0
    for i in range(200):
        f = make_adder(i) if i % 3 else make_scaler(i)
        total += call1(f, 3)
        del f
    out.append(total)
    # A C function at the same site, and a bound method object.
    out.append(call1(abs, -4))
    out.append(call1(Box(2).plus, 5))
    out.append(call1(len, "abc"))
    out.append(call1(add_one, 1))
    out.append(method_site([Box(i) for i in range(5)], 10))
    print(out)


main()
