#!/usr/bin/python3.11
"""search.py's algorithms against made-up culprits, with the probe counts they promise."""
import math
import sys
import unittest

sys.path.insert(0, __file__.rsplit("/", 1)[0])
import search  # noqa: E402


class Probe:
    """red(subset) is true when the subset holds every culprit; counts the calls."""

    def __init__(self, culprits):
        self.culprits = set(culprits)
        self.calls = 0

    def __call__(self, subset):
        self.calls += 1
        return self.culprits <= set(subset)


class NarrowFunctionsTest(unittest.TestCase):
    def test_one_culprit_anywhere_in_log2_probes(self):
        for n in (1, 2, 3, 7, 64, 1000):
            for culprit in {0, n // 3, n - 1}:
                probe = Probe([culprit])
                self.assertEqual(search.narrow_functions(range(n), probe), [culprit])
                self.assertLessEqual(probe.calls, math.ceil(math.log2(n)) if n > 1 else 0)

    def test_pair_needs_the_careful_search(self):
        probe = Probe([3, 12])
        self.assertEqual(sorted(search.narrow_functions(range(16), probe, False)), [3, 12])
        # the quick search assumes one culprit and returns a set that is not red alone
        quick = search.narrow_functions(range(16), Probe([3, 12]))
        self.assertFalse(Probe([3, 12])(quick))


class FirstRedLimitTest(unittest.TestCase):
    def test_finds_the_decision_in_log2_probes(self):
        for count in (1, 2, 5, 100, 4097):
            for bad in {1, count // 2 or 1, count}:
                calls = []
                found = search.first_red_limit(count, lambda l: calls.append(l) or l >= bad)
                self.assertEqual(found, bad)
                self.assertLessEqual(len(calls), math.ceil(math.log2(count)))


if __name__ == "__main__":
    unittest.main()
