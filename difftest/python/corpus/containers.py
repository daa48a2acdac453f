# pydiff: all-compiled
# Lists, tuples, dicts: indexing, slicing, stores, membership, iteration, errors.


def lists(n):
    xs = [0, 1, 2, 3]
    xs[1] = n
    xs.append(n * 2)
    xs[-1] += 1
    return xs, xs[1:3], xs[-2], n in xs, 99 not in xs, len(xs)


def tuples(a, b):
    t = (a, b, (a, b))
    return t[0] + t[1], t[2][1], t + (1,), t * 2 if a < 3 else ()


def dicts(keys):
    d = dict()
    for k in keys:
        d[k] = d.get(k, 0) + 1
    d["z"] = 26
    return sorted(d.items()), "z" in d, d["z"]


def errors(xs):
    try:
        return xs[10]
    except IndexError as e:
        return "IndexError: " + str(e)


def key_error(d):
    return d["nope"]


print(lists(7))
print(tuples(1, 2), tuples(5, 6))
print(dicts("abracadabra"))
print(errors([1]))
try:
    key_error(dict())
except KeyError as e:
    print("KeyError:", e)
