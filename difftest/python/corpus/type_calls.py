# pydiff: all-compiled
# Calls of builtin types from compiled code: the call stub caches a type with a vectorcall
# slot (range, list, tuple, dict, set, frozenset, float, bool, enumerate, map, filter,
# reversed, type) and calls the slot, as 3.11's PRECALL_BUILTIN_CLASS does; types without
# one (int, str, zip, user classes) and calls with keywords take the generic path. Errors
# raised by the slot, a site that sees several types, and the eval breaker after the call.


def ranges(n):
    total = 0
    for k in range(n):
        for i in range(k):
            total += i
        total += len(range(k, 2 * k, 3))
    return total


def containers(xs):
    out = []
    for x in xs:
        out.append((list(x), tuple(x), sorted(set(x)), sorted(frozenset(x)), dict.fromkeys(x)))
    return out


def conversions(items):
    out = []
    for item in items:
        try:
            out.append((float(item), bool(item), type(item).__name__))
        except (ValueError, TypeError) as e:
            out.append(type(e).__name__)
    return out


def iterators(xs):
    return (list(enumerate(xs)), list(map(abs, xs)), list(filter(None, xs)),
            list(reversed(xs)), list(zip(xs, xs)))


def one_site(kinds, arg):
    return [sorted(kind(arg)) for kind in kinds]  # one call site, many types


def keywords(n):
    return [dict(a=i, b=n) for i in range(3)] + [sorted([3, 1, 2], reverse=True)]


def errors():
    out = []
    for bad in ("a", 1.5, None):
        try:
            range(bad)
        except TypeError as e:
            out.append(str(e))
    return out


class Point:
    def __init__(self, x):
        self.x = x


def users(n):
    return [Point(i).x for i in range(n)] + [int("7"), str(8)]


for _ in range(3):
    print(ranges(20))
    print(containers([[3, 1, 2], "aba", (5,)]))
    print(conversions(["1.5", "x", 0, 2, None, [1]]))
    print(iterators([-1, 0, 2]))
    print(one_site([list, tuple, set, frozenset, sorted, reversed, list], "cab"))
    print(keywords(4), errors(), users(3))
