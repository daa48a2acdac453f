"""Statistics: the statistics module's mean, median, stdev, quantiles and linear regression
over samples, with exact Fraction sums inside, as a report over measurements computes them.
statistics and fractions are pure Python."""
import statistics
from fractions import Fraction

import harness

SAMPLES = [[(i * 37 + k * 11) % 97 / 4 + k for i in range(60)] for k in range(5)]


def workload():
    out = []
    for sample in SAMPLES:
        mean = statistics.fmean(sample)
        spread = statistics.stdev(sample)
        quartiles = statistics.quantiles(sample, n=4)
        middle = statistics.median(sample)
        out.append(round(mean + spread + sum(quartiles) + middle, 6))
    xs = list(range(len(SAMPLES[0])))
    slope, intercept = statistics.linear_regression(xs, SAMPLES[2])
    exact = statistics.mean([Fraction(int(x * 4), 4) for x in SAMPLES[1]])
    return out, round(slope, 6), round(intercept, 6), exact


def check(result):
    want = ([65.988155, 72.437968, 77.261934, 81.711764, 88.465778], 0.007509, 13.80765,
            Fraction(1573, 120))
    return None if result == want else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("stats_report", workload, check, calls=80)
