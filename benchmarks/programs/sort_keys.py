"""Sorting with key functions: records (instances with attributes, tuples and dicts)
sorted by lambdas, by attribute and item getters, by multi-field tuple keys and in
reverse, plus `min`/`max` with keys and a stable two-pass sort. Written for a64jit's
benchmark set. Checked by order, not by a stored answer: every output is verified to be
sorted by its key, and stability is verified on ties.

Usage: sort_keys.py [RECORDS] [ROUNDS] (bench.py).
"""
import operator

import bench


class Employee:
    def __init__(self, ident, dept, salary, name):
        self.ident = ident
        self.dept = dept
        self.salary = salary
        self.name = name


def records(n):
    state = 2024
    out = []
    for i in range(n):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2 ** 64
        out.append(Employee(i, "dept%d" % (state % 7), 1000 + state % 5000,
                            "n%05d" % (state % 99991)))
    return out


def is_sorted(items, key, reverse=False):
    keys = [key(x) for x in items]
    pairs = zip(keys, keys[1:])
    return all(a >= b for a, b in pairs) if reverse else all(a <= b for a, b in pairs)


def workload(n):
    people = records(n)
    by_salary = sorted(people, key=lambda e: e.salary)
    by_dept_salary = sorted(people, key=lambda e: (e.dept, -e.salary, e.name))
    by_name = sorted(people, key=operator.attrgetter("name"), reverse=True)
    rows = [(e.dept, e.salary, e.ident) for e in people]
    rows.sort(key=operator.itemgetter(1))
    stable = sorted(sorted(people, key=lambda e: e.ident), key=lambda e: e.dept)
    dicts = sorted(({"k": e.salary % 97, "i": e.ident} for e in people), key=lambda d: d["k"])
    richest = max(people, key=lambda e: (e.salary, -e.ident))
    return (is_sorted(by_salary, lambda e: e.salary),
            is_sorted(by_dept_salary, lambda e: (e.dept, -e.salary, e.name)),
            is_sorted(by_name, lambda e: e.name, reverse=True),
            is_sorted(rows, lambda r: r[1]),
            is_sorted(stable, lambda e: (e.dept, e.ident)),
            is_sorted(dicts, lambda d: (d["k"])),
            richest.salary == max(e.salary for e in people), len(by_name))


def check(n, result):
    return None if result == (True,) * 7 + (n,) else f"not sorted as asked: {result}"


if __name__ == "__main__":
    bench.main("sort_keys", workload, check, n=20000, rounds=7)
