"""Sudoku by constraint propagation: dicts of strings, sets, recursion with copies."""
import harness

DIGITS = "123456789"
ROWS = "ABCDEFGHI"
SQUARES = [r + c for r in ROWS for c in DIGITS]
UNITS = ([[r + c for c in DIGITS] for r in ROWS] + [[r + c for r in ROWS] for c in DIGITS] +
         [[r + c for r in rs for c in cs] for rs in ("ABC", "DEF", "GHI") for cs in ("123", "456", "789")])
UNITS_OF = {s: [u for u in UNITS if s in u] for s in SQUARES}
PEERS = {s: set(x for u in UNITS_OF[s] for x in u) - {s} for s in SQUARES}


def assign(values, s, d):
    for other in values[s].replace(d, ""):
        if not eliminate(values, s, other):
            return False
    return True


def eliminate(values, s, d):
    if d not in values[s]:
        return True
    values[s] = values[s].replace(d, "")
    if not values[s]:
        return False
    if len(values[s]) == 1:
        d2 = values[s]
        for p in PEERS[s]:
            if not eliminate(values, p, d2):
                return False
    for u in UNITS_OF[s]:
        places = [q for q in u if d in values[q]]
        if not places:
            return False
        if len(places) == 1 and not assign(values, places[0], d):
            return False
    return True


def parse(grid):
    values = {s: DIGITS for s in SQUARES}
    for s, d in zip(SQUARES, grid):
        if d in DIGITS and not assign(values, s, d):
            return None
    return values


def search(values):
    if values is None:
        return None
    if all(len(values[s]) == 1 for s in SQUARES):
        return values
    _, s = min((len(values[s]), s) for s in SQUARES if len(values[s]) > 1)
    for d in values[s]:
        copy = dict(values)
        if assign(copy, s, d):
            found = search(copy)
            if found:
                return found
    return None


PUZZLES = ["4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
           "52...6.........7.13...........4..8..6......5...........418.........3..2...87....."]


def workload():
    out = []
    for p in PUZZLES:
        v = search(parse(p))
        out.append("".join(v[s] for s in SQUARES[:18]))
    return tuple(out)


WANT = ('417369825632158947', '527316489896542731')


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("sudoku", workload, check)
