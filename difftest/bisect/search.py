"""The two searches of the bisector, apart from how a run is made (so they can be read, and
tested, on their own).

`red(...)` is a probe: True when the command fails in that configuration. Probes may be
wrong when the failure is flaky; the caller confirms the answers with repeated runs.
"""


def narrow_functions(items, red, assume_other_half=True):
    """The smallest subset M of `items` found such that red(M) holds, given red(items).

    Halves the set each step. With `assume_other_half`, a green first half is taken to mean
    the second half alone is red, without running it: one probe a step, ceil(log2 N) in all.
    That holds when one function is at fault; when the culprit is a pair split across the
    halves it does not, and the caller's confirmation of M fails, so it searches again with
    `assume_other_half=False`, which probes both halves and, when neither is red alone,
    narrows each half with the other kept compiled (the ddmin-style search for an
    interaction).
    """
    return _narrow(list(items), [], red, assume_other_half)


def _narrow(items, fixed, red, assume):
    if len(items) <= 1:
        return items
    half = len(items) // 2
    first, second = items[:half], items[half:]
    if red(first + fixed):
        return _narrow(first, fixed, red, assume)
    if assume or red(second + fixed):
        return _narrow(second, fixed, red, assume)
    from_first = _narrow(first, fixed + second, red, assume)
    from_second = _narrow(second, fixed + from_first, red, assume)
    return from_first + from_second


def first_red_limit(count, red):
    """The smallest limit L in 1..count with red(L), given red(count) and not red(0).

    Binary search: ceil(log2(count)) probes. Decisions are numbered so that limit L takes
    decisions 1..L, and the code at L-1 and L differs by decision L alone; the answer is the
    decision that turns the command red (if red is monotone in L, the only one).
    """
    green, red_at = 0, count
    while red_at - green > 1:
        mid = (green + red_at) // 2
        if red(mid):
            red_at = mid
        else:
            green = mid
    return red_at
