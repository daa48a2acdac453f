# pydiff: all-compiled
# Ints of two digits (2**30 <= |v| < 2**60) in BINARY_OP: compiled code's inline forms take one
# digit, and its generic path (a64_number_add and its kin) computes two-digit operands in
# 64 bits when the result fits, boxing it from a free list of dead two-digit ints. Covered:
# every operator, plain and in place, at the digit bounds and past 2**60 (products, shifts and
# sums that need three digits), signs for // and % (Python rounds toward -inf), zero divisors,
# negative and huge shift counts, bool and an int subclass (never taken), and the loops real
# code has: an accumulator past 2**30, a linear congruential generator, a string hash masked to
# 32 bits, `i * i % m`, and a value kept alive while its local is rebound. Products of
# one-digit ints kept unboxed for a consumer that reads up to 2**60 (every form but `*`).
# Operators read int objects of two digits inline too (a cold read past one digit), and `>>`
# and `<<` by a constant count are inline forms: counts at and past 63 and 64, results at
# INT64_MIN, 2**62 and past, and the loops of a CRC, xorshift and FNV, whose masked 32-bit
# state is always of two digits. Products take operands past one digit while the product
# keeps a bit to spare (31 bits a side, or 62 less a constant's bits).

EDGES = [0, 1, -1, 7, -7, 2**30 - 1, -(2**30 - 1), 2**30, -2**30, 2**31 + 5, -(2**31 + 5),
         2**45 - 3, 2**59 + 3, 2**60 - 1, -(2**60 - 1), 2**60, -2**60, 2**64 + 9]


class Counted(int):
    pass


def plain(a, b):
    out = []
    for f in (lambda x, y: x + y, lambda x, y: x - y, lambda x, y: x * y,
              lambda x, y: x // y, lambda x, y: x % y, lambda x, y: x & y,
              lambda x, y: x | y, lambda x, y: x ^ y, lambda x, y: x >> y):
        try:
            r = f(a, b)
            out.append((type(r).__name__, r))
        except (ZeroDivisionError, ValueError, TypeError) as e:
            out.append(type(e).__name__ + ": " + str(e))
    return out


def in_place(a, b):
    out = []
    x = a
    x += b
    out.append(x)
    x = a
    x -= b
    out.append(x)
    x = a
    x *= b
    out.append(x)
    x = a
    try:
        x //= b
        out.append(x)
        x = a
        x %= b
        out.append(x)
    except ZeroDivisionError as e:
        out.append(str(e))
    x = a
    x &= b
    x |= 5
    x ^= b
    out.append(x)
    return out


def shifts(a):
    out = []
    for n in (0, 1, 3, 29, 30, 31, 33, 62, 63, 64, 100, -1):
        try:
            out.append((a << n, a >> n))
        except ValueError as e:
            out.append(str(e))
    return out


def constant_shifts(a):
    # Each count a constant: the inline forms (>> any count, << up to 62 with an overflow test).
    return [a >> 0, a >> 1, a >> 17, a >> 29, a >> 30, a >> 31, a >> 59, a >> 60, a >> 63,
            a >> 64, a >> 200, a << 0, a << 1, a << 5, a << 13, a << 29, a << 30, a << 31,
            a << 33, a << 58, a << 61, a << 62, a << 63, a << 64, a << 100]


def constant_operands(a):
    # One operand a constant, the other a boxed int of any size: the one-operand reads.
    return [a + 1, a - 3, 5 - a, a & 0xFF, a | 0x100, a ^ 0x55, a // 7, a % 1000, -3 + a,
            a + 0x7FFFFFFF, a & 0xFFFFFFFF, a ^ 0xEDB88320]


def products(a, b):
    # `*` takes values past one digit while the product keeps a bit to spare: 31 bits a side,
    # or 62 less the constant's bits; anything larger goes to int's slot.
    return [a * 3, a * -7, a * 0, a * 1, a * 0x01000193, a * 1103515245, -a * 1103515245,
            (a & 0xFFFFFFFF) * 0x01000193, (a % 2147483647) * (b % 2147483647),
            ((a ^ b) & 0x7FFFFFFF) * ((a + b) & 0x7FFFFFFF), (a >> 29) * (b >> 29), a * b]


def lcg_and_rolling(seed, data):
    acc = 0
    for _ in range(200):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        acc = (acc * 257 + seed) % 2147483647
    h = 0
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return seed, acc, h


def shift_chains(a, b):
    # Shifts kept unboxed for the next operator, with a two-digit operand on the other side.
    mask = 0xFFFFFFFF
    return [((a << 13) & mask) ^ a, (a >> 17) ^ a, ((a << 5) & mask) + (b >> 3),
            (a << 20) - (b << 20), (a >> 1) + (b >> 1) > a, ((a ^ b) << 7) % 1000003,
            (a << 40) >> 40, (b - 2**59) << 4, (b - 2**59 - 1) << 4, (b + 2**59 - 1) << 4]


def in_place_shifts(a):
    x = a
    x >>= 3
    y = a
    y <<= 9
    z = a
    z <<= 62
    return x, y, z


def crc(data, c):
    c ^= 0xFFFFFFFF
    for b in data:
        c = TABLE[(c ^ b) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def xorshift(x, n):
    out = []
    for _ in range(n):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        out.append(x)
    return out[-3:], x


def fnv(data):
    h = 0x811C9DC5
    for b in data:
        h = ((h ^ b) * 0x01000193) & 0xFFFFFFFF
    return h


TABLE = [(i * 0x9E3779B1) & 0xFFFFFFFF for i in range(256)]


def accumulate(n):
    total = 0
    for i in range(n):
        total += i * i % 7 + i * 40000
    return total


def lcg(n):
    seed = 12345
    acc = 0
    for _ in range(n):
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        acc ^= seed >> 16
    return seed, acc


def string_hash(s):
    h = 0
    for c in s:
        h = (h * 31 + ord(c)) & 0xFFFFFFFF
    return h


def kept_alive(n):
    # The old value is still referenced when the local is rebound: no block may be reused
    # under it.
    kept = []
    x = 2**40
    for i in range(n):
        kept.append(x)
        x = x * 3 + i
        x %= 2**55
    return kept[-3:], x


def temporaries(values, m):
    # Products of one-digit ints stay unboxed for the next operation (% // + - & | ^ and
    # compares take them up to 2**60): modular arithmetic, sums of squares that pass 2**60
    # and 2**63 (an unboxed operand past 2**60 is boxed first), and negative products.
    out = []
    for a in values:
        for b in values:
            out.append((a * b % m, a * b // m, (a * b + b) % m, a * b - a, a * b & 0xFFFF,
                        a * b | 1, a * b ^ b, a * b > m, a * b <= -m, a * b == b * a))
        out.append((a * a + a * a) + (a * a + a * a) + (a * a + a * a) + (a * a + a * a) +
                   (a * a + a * a) + (a * a + a * a))  # twelve squares: past 2**63
    return out


def mod_pow_sum(n, mod):
    acc = 0
    x = 1
    for i in range(1, n):
        x = x * 31 % mod
        acc = (acc + x * i) % mod
    return acc


rows = []
for a in EDGES:
    for b in EDGES:
        rows.append((a, b, plain(a, b), in_place(a, b)))
    rows.append((a, shifts(a)))
    rows.append((a, constant_shifts(a), constant_operands(a), in_place_shifts(a)))
    for b in (0, 3, -2**31, 2**33 + 1, 2**59 - 7, -1):
        rows.append((a, b, shift_chains(a, b), products(a, b)))
for a, b in ((True, 2**40), (2**40, False), (Counted(2**40), 3), (3, Counted(2**40))):
    rows.append(plain(a, b))
for a in (True, False, Counted(2**40), Counted(-5)):
    rows.append((constant_shifts(a), constant_operands(a)))
for a, b in ((2**40, 1.5), (2**40, ""), ("", 2**40), (None, 2**40)):
    rows.append(plain(a, b))
for row in rows:
    print(repr(row))
print(accumulate(3000), lcg(3000), string_hash("two digits and more " * 50), kept_alive(500))
SMALL = [0, 1, -1, 7, -7, 46341, -46341, 2**30 - 1, -(2**30 - 1), 2**29 + 11]
for m in (1, 7, 1000000007, 2**30 - 1):
    print(m, temporaries(SMALL, m))
print(mod_pow_sum(5000, 1000000007), mod_pow_sum(5000, 65521))
data = bytes(range(256)) * 3
print(crc(data, 0), crc(data[::-1], 7), xorshift(2463534242, 2000), xorshift(1, 50), fnv(data))
print(lcg_and_rolling(12345, data), lcg_and_rolling(2**31 - 1, data[:100]))
