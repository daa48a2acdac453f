# pydiff: all-compiled
# Integer arithmetic: small and big ints, negative floor division and modulo, powers,
# shifts and bit operations, in-place operators.


def arith(a, b):
    return (a + b, a - b, a * b, a // b, a % b, -a // b, -a % b, a // -b, a % -b,
            a ** 2, a << 3, a >> 1, a & b, a | b, a ^ b, ~a, -a, +a)


def big(n):
    x = 1
    i = 0
    while i < n:
        x = x * 3 + i
        i += 1
    return x, x // 7, x % 1000003, -x // 11, x >> 40, x.bit_length()


def inplace(a):
    a += 5
    a -= 2
    a *= 3
    a //= 2
    a %= 1000
    a **= 2
    a <<= 2
    a >>= 1
    a &= 0xFFFF
    a |= 1
    a ^= 0x55
    return a


def mixed(a):
    return a / 3, a * 1.5, a == 3.0, a < 2.5, True + a, a - False


for a, b in [(7, 3), (-7, 3), (7, -3), (-7, -3), (0, 5), (10 ** 20, 7), (-(2 ** 70), 13)]:
    print(arith(a, b))
print(big(60))
print(inplace(17), inplace(-4))
print(mixed(3), mixed(-8))
try:
    arith(1, 0)
except ZeroDivisionError as e:
    print("ZeroDivisionError:", e)
