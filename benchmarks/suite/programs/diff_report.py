"""Diffs: difflib's SequenceMatcher, unified diffs and close matches over versions of a text,
as review tools and test frameworks (assertEqual's messages) compute them. difflib is pure
Python."""
import difflib

import harness

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "
         "rho sigma tau upsilon phi chi psi omega").split()


def version(seed, n=60):
    lines = []
    for i in range(n):
        k = (i * 7 + seed * (i % 5 == 0)) % len(WORDS)
        lines.append("%s %s %d\n" % (WORDS[k], WORDS[(k + 3) % len(WORDS)], i // 3))
    return lines


OLD = version(0)
NEWS = [version(s) for s in (1, 2, 3)]


def workload():
    changed = 0
    ratio = 0.0
    for new in NEWS:
        diff = list(difflib.unified_diff(OLD, new, "old", "new", n=2))
        changed += sum(1 for line in diff if line[:1] in "+-")
        ratio += difflib.SequenceMatcher(None, "".join(OLD), "".join(new)).quick_ratio()
    close = difflib.get_close_matches("sigmaa", WORDS, n=3)
    return changed, round(ratio, 4), close


def check(result):
    want = (78, 2.9514, ["sigma"])
    return None if result == want else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("diff_report", workload, check, calls=40)
