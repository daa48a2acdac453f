# pydiff: all-compiled
# Loops: while, for over range/list/tuple/str/dict, break, continue, nested, else.


def count(n):
    total = 0
    i = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        if i > 50:
            break
        total += i
    return total


def nested(n):
    pairs = 0
    for i in range(n):
        for j in range(i):
            if (i + j) % 4 == 0:
                pairs += 1
    return pairs


def iterate(things):
    out = []
    for t in things:
        out.append(t)
    for k in {"b": 1, "a": 2}:
        out.append(k)
    for ch in "xyz":
        out.append(ch)
    return out


def search(xs, target):
    for x in xs:
        if x == target:
            return "found"
    return "missing"


def countdown(n):
    steps = 0
    while n:
        n -= 1
        steps += 1
    return steps


print(count(100), nested(20), iterate((1, 2)), search([1, 2, 3], 2), search([], 0))
print(countdown(1000))
