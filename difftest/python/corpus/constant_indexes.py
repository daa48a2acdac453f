# pydiff: all-compiled
# Indexing a list or tuple by a constant (`t[1]`) and by a variable. A constant index in
# range is the load's displacement, compared with the length as an immediate; a variable
# one is the load's scaled index register. Negative constants, constants past the end, and
# constants beyond the displacement's reach (index 511 and up) take the generic path, which
# must give the same items and the same IndexError.


def firsts(pairs):
    return [p[0] for p in pairs] + [p[1] for p in pairs]


def ends(seq):
    return seq[0], seq[-1], seq[-2], seq[len(seq) - 1]


def far(seq):
    out = []
    for k in (510, 511, 512, 600):
        try:
            out.append(seq[k])
        except IndexError as e:
            out.append(("IndexError", str(e)))
    return out


def constant_far(seq):
    return seq[510], seq[511], seq[512]


def past_end(t):
    try:
        return t[3]
    except IndexError as e:
        return "IndexError", str(e)


def store_constants(xs):
    xs[0] = "zero"
    xs[2] = xs[1]
    xs[1] = 11
    return xs


def store_past_end(xs):
    try:
        xs[5] = 1
    except IndexError as e:
        return "IndexError", str(e)


def by_variable(xs):
    total = 0
    for i in range(len(xs)):
        total += xs[i] * i
    xs[len(xs) - 1] = total
    return total, xs[-1]


def keyed(rows):
    return sorted(rows, key=lambda r: (r[1], r[0]))


def not_sequences():
    d = {0: "a", 1: "b"}
    s = "xyz"
    return d[1], s[1], s[0], range(5)[1]


pairs = [(i, i * i) for i in range(6)]
print(firsts(pairs))
print(ends([3, 1, 4, 1, 5]), ends((2, 7)))
long_list = list(range(700))
print(far(long_list), far(tuple(range(511))))
print(constant_far(long_list), constant_far(tuple(long_list)))
print(past_end((1, 2, 3)), past_end((1, 2, 3, 4)))
print(store_constants([0, 1, 2, 3]))
print(store_past_end([1, 2]), store_past_end([0] * 6))
print(by_variable([5, 6, 7, 8]))
print(keyed([(3, "b"), (1, "a"), (2, "b"), (0, "a")]))
print(not_sequences())
