# pydiff: all-compiled
# Comparisons of variables against int constants, on either side: a constant of at most one
# digit is compared as an immediate, so the variable side must still be checked (bigger
# ints, negative ints, bools, floats, int subclasses, and types that refuse to compare).


class MyInt(int):
    def __lt__(self, other):
        return "MyInt.__lt__"


def against_constants(x):
    # Each comparison feeds a branch (the form compiled inline).
    return [1 if x < 0 else 0, 1 if x <= -1 else 0, 1 if x == 1 else 0, 1 if x != 7 else 0,
            1 if x > 1000 else 0, 1 if x >= -1000 else 0, 1 if 3 < x else 0,
            1 if -5 >= x else 0, 1 if 0 == x else 0, 1 if x < 2 ** 40 else 0,
            1 if x > -(2 ** 40) else 0, 1 if 1 > x else 0]


def branch_on(x):
    if x > 26:
        return "big"
    if 0 >= x:
        return "not positive"
    if x == 13:
        return "thirteen"
    return "small"


def loop_to(n):
    i = 0
    total = 0
    while i < 40:
        if i >= n:
            break
        total += i
        i += 1
    return total


values = [0, 1, -1, 7, 26, 27, 13, 1000, -1000, 1001, 2 ** 30, -(2 ** 30), 2 ** 40, 2 ** 64,
          -(2 ** 64), True, False, 0.5, -0.0, 26.5, MyInt(5)]
for v in values:
    print(repr(v), against_constants(v), branch_on(v), loop_to(v))
for bad in ("text", None, [1]):
    try:
        branch_on(bad)
    except TypeError as e:
        print("TypeError:", e)
