"""Exception-heavy control flow: parsing mixed input where bad items raise and are
caught, a custom exception hierarchy with handlers chosen by type, `finally` clauses
counting clean-ups, re-raise with `from`, and loops left by exceptions. Written for
a64jit's benchmark set. Checked by counting: every item ends in exactly one outcome, and
the counts follow from the input's construction.

Usage: exceptions.py [ITEMS] [ROUNDS] (bench.py).
"""
import bench


class ValidationError(Exception):
    pass


class TooBig(ValidationError):
    pass


class Negative(ValidationError):
    pass


def parse(item):
    try:
        value = int(item)
    except ValueError as e:
        raise ValidationError(f"not a number: {item!r}") from e
    if value < 0:
        raise Negative(value)
    if value > 900:
        raise TooBig(value)
    return value


def item_of(i):
    if i % 13 == 0:
        return "x%d" % i  # not a number
    if i % 7 == 0:
        return str(-i)
    return str(i % 1000)


def first_over(values, limit):
    try:
        for v in values:
            if v > limit:
                raise StopIteration(v)
    except StopIteration as stop:
        return stop.value
    return None


def workload(items):
    ok = too_big = negative = invalid = cleanups = 0
    total = 0
    for i in range(items):
        try:
            total += parse(item_of(i))
            ok += 1
        except TooBig:
            too_big += 1
        except Negative:
            negative += 1
        except ValidationError as e:
            if not isinstance(e.__cause__, ValueError):
                raise
            invalid += 1
        finally:
            cleanups += 1
    found = sum(first_over(range(j, j + 50), j + 40) for j in range(items // 10))
    return ok, too_big, negative, invalid, cleanups, total, found


def expected(items):
    ok = too_big = negative = invalid = total = 0
    for i in range(items):
        if i % 13 == 0:
            invalid += 1
        elif i % 7 == 0:
            negative += 1
        elif i % 1000 > 900:
            too_big += 1
        else:
            ok += 1
            total += i % 1000
    found = sum(j + 41 for j in range(items // 10))
    return ok, too_big, negative, invalid, items, total, found


def check(items, result):
    want = expected(items)
    return None if result == want else f"got {result}, expected {want}"


if __name__ == "__main__":
    bench.main("exceptions", workload, check, n=30000, rounds=7)
