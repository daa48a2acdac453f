# pydiff: all-compiled
"""& | ^ of small ints inline (one-digit ints: two's complement in 64 bits gives Python's
results), and the truth of an exact int tested inline (true unless 0). Around them: digit
edges, negatives, big ints, bools (a subclass: the generic path keeps their bool results),
sets, and operands that raise."""

EDGE = (1 << 30) - 1
values = [0, 1, -1, 2, -2, 255, -256, EDGE, -EDGE, -EDGE - 1, EDGE + 1, 1 << 62, -(1 << 62),
          1 << 100, -(1 << 100), True, False]


def ops(a, b):
    return a & b, a | b, a ^ b


def in_place(a, b):
    x = a
    x &= b
    y = a
    y |= b
    z = a
    z ^= b
    return x, y, z


def truth(v):
    if v:
        return "true"
    return "false"


def count_odd(n):
    odd = 0
    for i in range(n):
        if i & 1:
            odd += 1
    return odd


def parity(bits):
    p = 0
    for b in bits:
        p ^= b
    return p


results = []
for a in values:
    for b in values:
        results.append((ops(a, b), in_place(a, b)))
print(len(results), hash(tuple(results)) == hash(tuple(results)))
for r in results[:40]:
    print(r)
print([type(x).__name__ for x in ops(True, False)], ops(True, 1))
print(ops({1, 2}, {2, 3}))
for a, b in [(1, 1.5), ("a", 1), (None, 0)]:
    try:
        ops(a, b)
    except TypeError as e:
        print("TypeError", e)
print([truth(v) for v in values + [0.0, "", "x", [], None, (1 << 100) - (1 << 100), -0]])
print(count_odd(1001), parity(range(100)), parity([EDGE, -EDGE - 1, 7]))
