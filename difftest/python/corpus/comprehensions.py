# pydiff: all-compiled
# Comprehensions (in 3.11 each is a function of its own, <listcomp>, <setcomp>, <dictcomp>,
# <genexpr>, called with the first iterator): list, set and dict comprehensions and
# generator expressions, with several for clauses and conditions, nested comprehensions,
# comprehensions reading the enclosing function's locals and arguments (free variables),
# walrus (:=) binding in the enclosing scope, the comprehension variable not leaking, and
# exceptions raised inside. Sets are sorted before printing.


def basic(n):
    squares = [i * i for i in range(n)]
    evens = {i for i in range(n) if i % 2 == 0}
    table = {i: chr(97 + i) for i in range(n)}
    total = sum(i for i in range(n))
    return squares, sorted(evens), sorted(table.items()), total


def multiple_clauses(words):
    pairs = [(w, c) for w in words if len(w) > 2 for c in w if c in "aeiou"]
    grid = [[r * 3 + c for c in range(3)] for r in range(3)]
    flat = [x for row in grid for x in row if x % 2]
    transposed = [[row[i] for row in grid] for i in range(3)]
    letters = sorted({c for w in words for c in w})
    index = {w: {c: w.count(c) for c in sorted(set(w))} for w in words}
    return pairs, grid, flat, transposed, letters, sorted(index.items())


def reads_enclosing(base, scale=3):
    offset = base * 10
    names = ["x", "y", "z"]
    # Each comprehension reads locals of this function: they become cells.
    shifted = [v + offset for v in range(base)]
    scaled = {k: i * scale for i, k in enumerate(names)}
    nested = [[offset + i + j for j in range(i)] for i in range(3)]
    lazy = (v * scale for v in range(base))
    scale = 100  # the generator reads the cell when it runs, not when it was created
    return shifted, sorted(scaled.items()), nested, list(lazy)


def walrus(data):
    # := binds in the enclosing function, not the comprehension.
    filtered = [y for x in data if (y := x * 2) > 4]
    last = y
    running = 0
    sums = [running := running + x for x in data]
    found = any((hit := x) > 3 for x in data)
    return filtered, last, sums, running, found, hit


def no_leak():
    x = "outer"
    squares = [x * 2 for x in range(3)]
    return x, squares


def raises_inside(values):
    out = []
    try:
        out.append([10 // v for v in values])
    except ZeroDivisionError as e:
        out.append("list: " + str(e))
    try:
        out.append({k: int(k) for k in ["1", "two"]})
    except ValueError as e:
        out.append("dict: " + str(e))
    gen = (1 / v for v in values)
    out.append(next(gen))
    try:
        list(gen)
    except ZeroDivisionError as e:
        out.append("genexp: " + str(e))
    try:
        [undefined_name for _ in range(1)]
    except NameError as e:
        out.append("name: " + str(e))
    return out


def over_iterators():
    d = {"b": 2, "a": 1, "c": 3}
    inverted = {v: k for k, v in d.items()}
    zipped = [a + b for a, b in zip("abc", "xyz")]
    unpacked = [(first, rest) for first, *rest in [(1, 2, 3), (4, 5)]]
    enumerated = {i: c for i, c in enumerate("hey")}
    chars = sorted({c.upper() for c in "mississippi"})
    return sorted(inverted.items()), zipped, unpacked, sorted(enumerated.items()), chars


class Matrix:
    def __init__(self, rows):
        self.rows = [list(r) for r in rows]

    def scaled(self, k):
        return Matrix([[v * k for v in row] for row in self.rows])

    def column_sums(self):
        return [sum(row[i] for row in self.rows) for i in range(len(self.rows[0]))]


def methods():
    m = Matrix([[1, 2], [3, 4], [5, 6]])
    return m.scaled(2).rows, m.column_sums()


def main():
    print("basic", basic(6))
    for row in multiple_clauses(["tree", "an", "apple", "sky"]):
        print("clauses", row)
    print("enclosing", reads_enclosing(4))
    print("walrus", walrus([1, 2, 3, 4, 5]))
    print("no leak", no_leak())
    print("raises", raises_inside([5, 2, 0, 1]))
    print("iterators", over_iterators())
    print("methods", methods())


main()
