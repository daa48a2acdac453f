"""Word statistics over text: Counter, str.split and strip, sorting by tuples, f-strings with
format specs, as a log or text report does."""
import collections
import string

import harness

WORDS = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi "
         "rho sigma tau upsilon phi chi psi omega").split()


def text(n):
    lines = []
    for i in range(n):
        ws = [WORDS[(i * 7 + j * 3) % len(WORDS)] for j in range(i % 9 + 3)]
        if i % 4 == 0:
            ws[0] = ws[0].capitalize()
        lines.append(" ".join(ws) + (", " if i % 3 else ". ") + ("(note)" if i % 5 == 0 else ""))
    return "\n".join(lines)


TEXT = text(5000)
STRIP = string.punctuation + " "


def report(source):
    counts = collections.Counter()
    lengths = collections.defaultdict(list)
    for lineno, line in enumerate(source.splitlines(), 1):
        for word in line.split():
            w = word.strip(STRIP).lower()
            if not w:
                continue
            counts[w] += 1
            lengths[len(w)].append(lineno)
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:10]
    rows = [f"{w:<10}|{n:>6d}|{n / sum(counts.values()):8.3%}" for w, n in top]
    spread = {k: (min(v), max(v), len(v)) for k, v in sorted(lengths.items())}
    return "\n".join(rows), spread


def workload():
    rows, spread = report(TEXT)
    return len(rows), rows.splitlines()[0], len(spread), spread[5]


WANT = (269, 'omicron   |  1667|  4.632%', 6, (1, 5000, 10208))


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("word_stats", workload, check)
