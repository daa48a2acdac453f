# pydiff: all-compiled
# One call site, one function, two shapes: the call stub caches a compiled callee with the
# argument count of the call that cached it, and a site can call the same function with one
# argument more or fewer. A LOAD_METHOD site gets [method, self] from an instance and
# [NULL, function] from the class; a plain site gets a bound method (unbound into [function,
# self]) and then the function itself. Each shape must bind its own arguments: too few is
# stock's TypeError, never a frame with a missing parameter.


class Base:
    def describe(self, x):
        return "describe(%r)" % (x,)

    def pair(self, x, y=7):
        return "pair(%r, %r)" % (x, y)


def method_site(o):
    return o.describe(5)


def method_site_pair(o):
    return o.pair(5)


def plain_site(f):
    return f(5)


def attempt(fn, arg):
    try:
        return fn(arg)
    except TypeError as e:
        return "TypeError: %s" % e


def main():
    b = Base()
    for site, good, odd in ((method_site, b, Base), (method_site_pair, b, Base),
                            (plain_site, b.describe, Base.describe),
                            (plain_site, b.pair, Base.pair)):
        out = [attempt(site, good) for _ in range(4)]
        out += [attempt(site, odd) for _ in range(2)]
        out.append(attempt(site, good))
        print(site.__name__, out)


main()
