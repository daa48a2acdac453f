"""Linear algebra on lists of floats: Gaussian elimination with pivoting, matrix products,
a power iteration, as numeric code without numpy is written."""
import harness


def matmul(a, b):
    bt = list(zip(*b))
    return [[sum(x * y for x, y in zip(row, col)) for col in bt] for row in a]


def solve(a, rhs):
    n = len(a)
    m = [row[:] + [v] for row, v in zip(a, rhs)]
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(m[i][k]))
        m[k], m[p] = m[p], m[k]
        pivot = m[k][k]
        for i in range(k + 1, n):
            f = m[i][k] / pivot
            if f:
                row, top = m[i], m[k]
                for j in range(k, n + 1):
                    row[j] -= f * top[j]
    x = [0.0] * n
    for i in range(n - 1, -1, -1):
        s = m[i][n]
        for j in range(i + 1, n):
            s -= m[i][j] * x[j]
        x[i] = s / m[i][i]
    return x


def power(a, steps):
    v = [1.0] * len(a)
    lam = 0.0
    for _ in range(steps):
        w = [sum(x * y for x, y in zip(row, v)) for row in a]
        lam = max(abs(x) for x in w)
        v = [x / lam for x in w]
    return lam


def matrix(n, seed):
    return [[((i * 7 + j * 13 + seed) % 17) / 4.0 + (5.0 if i == j else 0.0) for j in range(n)]
            for i in range(n)]


def workload():
    a = matrix(40, 1)
    b = matrix(40, 5)
    c = matmul(a, b)
    x = solve(a, [float(i) for i in range(40)])
    return round(sum(x), 6), round(power(c, 20), 3), round(c[3][7], 6)


WANT = (9.152963, 7221.961, 202.375)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("matrix", workload, check)
