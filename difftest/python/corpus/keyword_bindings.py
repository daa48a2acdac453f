# pydiff: all-compiled
# Calls that bind by keyword or take defaults, which a compiled function binds through a plan
# kept per (code, positional count, keyword names) (jit/python/arguments.cc): the plan must
# follow what changes under it. Defaults replaced after the plan was made (__defaults__,
# __kwdefaults__ assigned, mutated or set to None), functions of one code with different
# defaults, keyword names built at run time (not the interned ones), keywords from C callers
# (functools.partial builds a new tuple of names per call), *args beside keywords, **kwargs
# receivers (a new dict each call, which the callee may change; a positional-only name that
# lands in it), more call
# shapes than the plan table holds (each evicting another), and the TypeErrors of calls that do
# not bind (unknown, duplicate, missing, positional-only by keyword), with their messages.
import functools


def area(w, h=2, *, scale=1, unit="m"):
    return "%d%s" % (w * h * scale, unit)


def spread(first, *rest, sep="-", end=""):
    return sep.join(str(x) for x in (first,) + rest) + end


def only_pos(a, b, /, c=0):
    return a + b + c


def options(path, /, mode="r", *args, strict=False, **extra):
    extra["seen"] = extra.get("seen", 0) + 1
    return (path, mode, args, strict, sorted(extra.items()))


def call_options():
    out = []
    for i in range(3):
        out.append(options("a", color=i))
        out.append(options("b", "w", 1, 2, strict=True, size=i, path="p"))
        out.append(options("c", mode="x", seen=10))
        out.append(options("d"))
    return out


def make_adder(n):
    def add(x, step=n, *, times=1):
        return x + step * times

    return add


def call_area():
    out = []
    for i in range(6):
        out.append(area(i, scale=2))
        out.append(area(w=i, h=3))
        out.append(area(i, 4, unit="cm"))
        out.append(area(unit="km", w=i))
    return out


def call_adders(adders):
    return [f(10, times=2) for f in adders] + [f(x=1) for f in adders]


def call_spread():
    return [spread(1, 2, 3, sep="+"), spread(4, end="!"), spread(5, 6, end=".", sep="/")]


def call_dynamic(name, value):
    return area(3, **{name: value})


def call_partials(p):
    return [p(i) for i in range(4)]


def errors():
    out = []
    for call in (
        lambda: area(1, size=2),
        lambda: area(1, w=2),
        lambda: area(h=2),
        lambda: only_pos(1, b=2),
        lambda: spread(sep=","),
        lambda: area(1, 2, 3),
    ):
        try:
            call()
            out.append("no error")
        except TypeError as e:
            out.append(str(e))
    return out


def many_shapes(fns):
    total = 0
    for k, f in enumerate(fns):
        total += f(k, b=1) + f(a=k) + f(k)
    return total


def main():
    print(call_area())
    print(call_area())
    area.__defaults__ = (5,)
    print(call_area())
    area.__kwdefaults__["unit"] = "ft"
    print(call_area())
    area.__kwdefaults__ = {"scale": 3, "unit": "in"}
    print(call_area())
    area.__kwdefaults__ = None
    try:
        print(call_area())
    except TypeError as e:
        print("TypeError", e)
    area.__kwdefaults__ = {"scale": 1, "unit": "m"}
    area.__defaults__ = None
    try:
        print(call_area())
    except TypeError as e:
        print("TypeError", e)
    area.__defaults__ = (2,)

    adders = [make_adder(n) for n in range(5)]
    print(call_adders(adders))
    adders[2].__defaults__ = (100,)
    adders[3].__kwdefaults__ = {"times": 7}
    print(call_adders(adders))

    print(call_spread())
    print(call_spread())
    print(call_options())
    print(call_options())
    for _ in range(3):
        print(call_dynamic("".join(["sc", "ale"]), 10), call_dynamic("un" + "it", "yd"))
    print(call_partials(functools.partial(area, scale=5)))
    print(call_partials(functools.partial(area, h=1, unit="mm")))
    for _ in range(2):
        print(errors())

    fns = []
    for k in range(700):
        ns = {}
        exec("def f(a, b=%d, *, c=%d):\n    return a + b + c\n" % (k, 2 * k), ns)
        fns.append(ns["f"])
    for _ in range(3):
        print(many_shapes(fns))


main()
