#!/usr/bin/python3.11
"""Random Python programs run by the interpreter and with the JIT, compared (pydiff.py).

Each program has a few classes (attributes, a method, an override), a context manager class
(Guard: records entries and exits in TRACE, optionally suppresses an Exception), a function
taking *args, keyword-only and **kwargs (spread), generator functions and functions built
from arithmetic (small and big ints, floor division and modulo of either sign), comparisons,
boolean logic, branches, bounded loops, calls of earlier functions (also with *args, **kwargs
and keywords), attribute loads and stores, list indexing and method calls, `with` blocks,
closures (a nested def writing the enclosing `t` through nonlocal, lambdas reading enclosing
locals), list/set/dict comprehensions and generator expressions, and generators consumed by
for loops, list(), sum() and next(); generators also `yield from` ranges, genexps and earlier
generators (keeping the return value). A driver calls every function on fixed arguments and
prints each result or exception and the tail of TRACE. A mismatch is shrunk (statements
removed, branches, loops and with blocks replaced by their bodies, expressions replaced by an
operand or a constant) to a small program that still mismatches, written next to the
original.

Programs stay deterministic (no ids, sets reduced by len/sum) and terminating: loops are
bounded, loop bodies and closures call no generated function, and functions and generators
only call earlier ones.

  pyfuzz.py --runner a64jit-run --seed 2026 --count 10 [--out DIR] [--no-shrink]
            [--features closures,generators,comprehensions,with,star-calls]
"""

import argparse
import ast
import collections
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pydiff  # noqa: E402

ARGS = [(0, 1), (3, -7), (-12, 5), (2 ** 65 + 3, -(2 ** 40)), (7, 7)]
BINOPS = ["+", "-", "*", "//", "%", "&", "|", "^"]
CMPOPS = ["<", "<=", "==", "!=", ">", ">="]
# The language features added to the original arithmetic-and-classes programs; --features
# picks a subset (a disabled feature's draw falls back to an assignment or an operand).
FEATURES = ("closures", "generators", "comprehensions", "with", "star-calls")

# What an expression may call: generated functions (funcs) and generators (gens). Loop
# bodies, comprehensions and closures get NO_CALLS, so call trees cannot grow exponentially.
Env = collections.namedtuple("Env", "funcs gens")
NO_CALLS = Env([], [])

PRELUDE = """\
TABLE = [3, -1, 2 ** 64, 0, 7]
TRACE = []

def clamp(v):
    return v % 1208925819614629174706176 - 604462909807314587353088

class Box:
    def __init__(self, v):
        self.x = v
        self.y = v * 2 - 1
    def scaled(self, k):
        return self.x * k - self.y

class Crate(Box):
    def scaled(self, k):
        return Box.scaled(self, k) + self.x // 3

class Guard:
    def __init__(self, tag, value, suppress=False):
        self.tag = tag
        self.value = value
        self.suppress = suppress
    def __enter__(self):
        TRACE.append(self.tag)
        return self.value
    def __exit__(self, kind, exc, tb):
        TRACE.append(-self.tag if kind is None else kind.__name__)
        # Never GeneratorExit: a closed generator that yields again is an error report
        # carrying the generator's address.
        return self.suppress and kind is not None and issubclass(kind, Exception)

def spread(a, b=1, *rest, k=2, **kw):
    return clamp(a * 3 + b - k + sum(rest) + 7 * sum(kw.values()) + len(kw))
"""


class Generator:
    def __init__(self, seed, features=FEATURES):
        self.r = random.Random(seed)
        self.features = set(features)
        self.lines = []
        self.in_gen = False  # generating a generator function's body (yield allowed)
        self.tags = 0  # Guard tags, unique per with statement

    def emit(self, depth, text):
        self.lines.append("    " * depth + text)

    def atom(self, names):
        r = self.r.random()
        if r < 0.45 and names:
            return self.r.choice(names)
        if r < 0.55:
            return str(self.r.choice([2 ** 64 + 1, -(2 ** 70), 10 ** 12]))
        return str(self.r.randint(-9, 9))

    def expr(self, names, env, depth=0):
        r = self.r.random()
        sub = lambda: self.expr(names, env, depth + 1)  # noqa: E731
        if depth > 2 or r < 0.28:
            return self.atom(names)
        if r < 0.50:
            return "(%s %s %s)" % (sub(), self.r.choice(BINOPS), sub())
        if r < 0.56:
            return "(%s %s %s)" % (sub(), self.r.choice(CMPOPS), sub())
        if r < 0.60:
            return "(%s << %d)" % (sub(), self.r.randint(0, 70))
        if r < 0.64:
            return "(%s %s %s)" % (sub(), self.r.choice(["and", "or"]), sub())
        if r < 0.67:
            return "(not %s)" % sub()
        if r < 0.70:
            return "(%s if %s else %s)" % (sub(), sub(), sub())
        if r < 0.75 and env.funcs:
            return "%s(%s, %s)" % (self.r.choice(env.funcs), sub(), sub())
        if r < 0.79:
            return "%s(%s).%s" % (self.r.choice(["Box", "Crate"]), sub(),
                                  self.r.choice(["x", "y"]))
        if r < 0.82:
            return "%s(%s).scaled(%s)" % (self.r.choice(["Box", "Crate"]), sub(), sub())
        if r < 0.85:
            return "TABLE[%s %% 5]" % sub()
        if r < 0.92 and "comprehensions" in self.features:
            return self.comprehension(names, depth + 1)
        if r < 0.97 and "star-calls" in self.features:
            return self.star_call(names, env, depth + 1)
        if env.gens and "generators" in self.features:
            return self.consume(names, env, depth + 1)
        return self.atom(names)

    def comprehension(self, names, depth):
        """One of each kind; the element reads enclosing locals (free variables)."""
        k = self.r.randint(0, 5)
        inner = names + ["c"]
        e = lambda: self.expr(inner, NO_CALLS, depth + 1)  # noqa: E731
        kind = self.r.randrange(7)
        if kind == 0:
            return "sum([%s for c in range(%d)])" % (e(), k)
        if kind == 1:
            # A set of ints is summed or counted, never printed.
            return "len({%s %% 7 for c in range(%d)})" % (e(), k)
        if kind == 2:
            return "sum({c: %s for c in range(%d)}.values())" % (e(), k)
        if kind == 3:
            return "sum(%s for c in range(%d))" % (e(), k)
        if kind == 4:
            return "max([%s for c in range(%d) if %s], default=-1)" % (e(), k, e())
        if kind == 5:
            nested = inner + ["d"]
            return "sum([%s for c in range(%d) for d in range(c)])" % (
                self.expr(nested, NO_CALLS, depth + 1), k)
        return "len([[%s for d in range(c)] for c in range(%d)][-1:])" % (
            self.expr(inner + ["d"], NO_CALLS, depth + 1), k)

    def star_call(self, names, env, depth):
        """spread() or a generated function called with *args, **kwargs or keywords."""
        e = lambda: self.expr(names, env, depth + 1)  # noqa: E731
        if env.funcs and self.r.random() < 0.4:
            f = self.r.choice(env.funcs)
            shape = self.r.choice(["%s(b=%s, a=%s)", "%s(*[%s], **{'b': %s})",
                                   "%s(**{'a': %s, 'b': %s})", "%s(*(%s, %s))"])
            return shape % (f, e(), e())
        shape = self.r.randrange(5)
        if shape == 0:
            return "spread(*[%s, %s, %s])" % (e(), e(), e())
        if shape == 1:
            return "spread(%s, **{'k': %s, 'z': %s})" % (e(), e(), e())
        if shape == 2:
            return "spread(*(%s,), b=%s, k=%s)" % (e(), e(), e())
        if shape == 3:
            return "spread(%s, %s, *[%s], k=%s, **{'w': %s})" % (e(), e(), e(), e(), e())
        return "spread(%s)" % e()

    def consume(self, names, env, depth):
        """A generator of env.gens, consumed by sum(), list(), next() or a genexp."""
        g = "%s(%s, %s)" % (self.r.choice(env.gens), self.expr(names, env, depth + 1),
                            self.expr(names, env, depth + 1))
        shape = self.r.choice(["sum(%s)", "len(list(%s))", "next(%s, -1)",
                               "sum(x for x in %s if x %% 2)"])
        return shape % g

    def block(self, depth, names, env, budget):
        emitted = 0
        for _ in range(self.r.randint(1, 4)):
            if budget[0] <= 0:
                break
            budget[0] -= 1
            self.statement(depth, names, env, budget)
            emitted += 1
        if emitted == 0:
            self.emit(depth, "pass")

    def assign(self, depth, names, env):
        # Stored values are clamped to 80 bits (still big ints) so loops cannot grow them
        # without bound.
        name = self.r.choice(["a", "b", "t"])
        self.emit(depth, "%s = clamp(%s)" % (name, self.expr(names, env)))
        if name not in names:
            names.append(name)

    def statement(self, depth, names, env, budget):
        if self.in_gen and "generators" in self.features and self.r.random() < 0.25:
            self.yield_statement(depth, names, env)
            return
        r = self.r.random()
        if r < 0.27:
            self.assign(depth, names, env)
        elif r < 0.35:
            # Never a loop counter: `while n > 0` must terminate.
            name = self.r.choice([n for n in names if n in ("a", "b", "t")])
            self.emit(depth, "%s %s= %s" % (name, self.r.choice(BINOPS), self.expr(names, env)))
            self.emit(depth, "%s = clamp(%s)" % (name, name))
        elif r < 0.48:
            self.emit(depth, "if %s:" % self.expr(names, env))
            self.block(depth + 1, list(names), env, budget)
            if self.r.random() < 0.5:
                self.emit(depth, "else:")
                self.block(depth + 1, list(names), env, budget)
        elif r < 0.56:
            var = "i%d" % depth
            self.emit(depth, "for %s in range(%d):" % (var, self.r.randint(0, 4)))
            # No calls inside loops: nested call trees would grow exponentially.
            self.block(depth + 1, names + [var], NO_CALLS, budget)
        elif r < 0.61:
            var = "n%d" % depth
            self.emit(depth, "%s = %d" % (var, self.r.randint(0, 4)))
            self.emit(depth, "while %s > 0:" % var)
            self.emit(depth + 1, "%s -= 1" % var)
            self.block(depth + 1, names + [var], NO_CALLS, budget)
        elif r < 0.67:
            self.emit(depth, "o = Crate(%s)" % self.expr(names, env))
            self.emit(depth, "o.y = clamp(%s)" % self.expr(names, env))
            self.emit(depth, "t = o.x + o.y")
            if "t" not in names:
                names.append("t")
        elif r < 0.72:
            self.emit(depth, "if %s:" % self.expr(names, env))
            self.emit(depth + 1, "return %s" % self.expr(names, env))
        elif r < 0.77:
            self.emit(depth, "t = [%s, %s][%s %% 2]" % (
                self.expr(names, env), self.expr(names, env), self.expr(names, env)))
            if "t" not in names:
                names.append("t")
        elif r < 0.86 and "with" in self.features:
            self.with_block(depth, names, env, budget, suppress=r >= 0.82)
        elif r < 0.90 and "closures" in self.features:
            self.closure(depth, names)
        elif r < 0.92 and "closures" in self.features:
            self.emit(depth, "t = clamp((lambda k: %s)(%s))" % (
                self.expr(names + ["k"], NO_CALLS), self.expr(names, env)))
        elif r < 0.96 and env.gens and "generators" in self.features:
            self.emit(depth, "for v in %s(%s, %s):" % (
                self.r.choice(env.gens), self.expr(names, env), self.expr(names, env)))
            self.block(depth + 1, names + ["v"], NO_CALLS, budget)
        else:
            self.assign(depth, names, env)

    def with_block(self, depth, names, env, budget, suppress):
        self.tags += 1
        self.emit(depth, "with Guard(%d, %s%s) as w:" % (
            self.tags, self.expr(names, env), ", True" if suppress else ""))
        self.block(depth + 1, names + ["w"], env, budget)
        if suppress:
            # Raised sometimes, swallowed by __exit__ (as is whatever the block raised).
            self.emit(depth + 1, "if %s:" % self.expr(names + ["w"], env))
            self.emit(depth + 2, "raise ValueError(%s)" % self.expr(names + ["w"], env))

    def closure(self, depth, names):
        """A nested def reading the enclosing variables and writing `t` through nonlocal."""
        inner = names + ["k"]
        self.emit(depth, "def inner(k):")
        self.emit(depth + 1, "nonlocal t")
        self.emit(depth + 1, "t = clamp(%s)" % self.expr(inner, NO_CALLS))
        self.emit(depth + 1, "return clamp(%s)" % self.expr(inner, NO_CALLS))
        calls = " + ".join("inner(%s)" % self.expr(names, NO_CALLS)
                           for _ in range(self.r.randint(1, 2)))
        self.emit(depth, "t = clamp(%s)" % calls)

    def yield_statement(self, depth, names, env):
        r = self.r.random()
        if r < 0.5:
            self.emit(depth, "yield %s" % self.expr(names, env))
        elif r < 0.65:
            self.emit(depth, "yield from range(%d)" % self.r.randint(0, 4))
        elif r < 0.8:
            self.emit(depth, "yield from (%s for c in range(%d))" % (
                self.expr(names + ["c"], NO_CALLS), self.r.randint(0, 4)))
        elif env.gens:
            # The earlier generator's return value (every generator returns an int).
            self.emit(depth, "t = clamp((yield from %s(%s, %s)))" % (
                self.r.choice(env.gens), self.expr(names, env), self.expr(names, env)))
        else:
            self.emit(depth, "yield from [%s, %s]" % (self.expr(names, env),
                                                      self.expr(names, env)))

    def function(self, name, env, generator):
        self.in_gen = generator
        self.emit(0, "def %s(a, b):" % name)
        self.emit(1, "t = 0")
        self.block(1, ["a", "b", "t"], env, [self.r.randint(3, 10)])
        if generator:
            self.emit(1, "yield %s" % self.expr(["a", "b", "t"], env))
        self.emit(1, "return %s" % self.expr(["a", "b", "t"], env))
        self.emit(0, "")
        self.in_gen = False

    def program(self, nfuncs=6):
        self.lines = PRELUDE.splitlines() + [""]
        gens = []
        if "generators" in self.features:
            # Generators use earlier generators only (and no generated function).
            for i in range(self.r.randint(1, 3)):
                self.function("g%d" % i, Env([], list(gens)), generator=True)
                gens.append("g%d" % i)
        funcs = []
        for i in range(nfuncs):
            name = "f%d" % i
            self.function(name, Env(list(funcs), list(gens)), generator=False)
            funcs.append(name)
        self.lines += [
            "def main():",
            "    for args in %r:" % (ARGS,),
            "        for fn in [%s]:" % ", ".join(funcs + gens),
            "            TRACE.clear()",
            "            try:",
            "                result = fn(*args)",
            "                if fn.__name__.startswith('g'):",
            "                    result = list(result)",
            "                print(fn.__name__, result, TRACE[-6:], len(TRACE))",
            "            except Exception as e:",
            "                print(fn.__name__, type(e).__name__, e, TRACE[-6:], len(TRACE))",
            "",
            "main()",
        ]
        text = "\n".join(self.lines) + "\n"
        compile(text, "generated", "exec")  # a generator bug, not a JIT bug, if this fails
        return text


def check(runner, source, workdir):
    """(ok, report) for `source` (pydiff.check)."""
    path = os.path.join(workdir, "prog.py")
    with open(path, "w") as f:
        f.write(source)
    return pydiff.check(runner, path)


def mismatch(runner, source, workdir):
    """The mismatch report for `source`, '' when the runs agree."""
    ok, report = check(runner, source, workdir)
    return "" if ok else report


# ---- shrinking ----

def candidates(tree):
    """Smaller variants of `tree`, most aggressive first."""
    nodes = list(ast.walk(tree))
    for index, node in enumerate(nodes):
        for field in ("body", "orelse"):
            stmts = getattr(node, field, None)
            if not isinstance(stmts, list):
                continue
            for i in range(len(stmts)):
                yield lambda t, index=index, field=field, i=i: _drop_stmt(t, index, field, i)
                yield lambda t, index=index, field=field, i=i: _inline_stmt(t, index, field, i)
    for index, node in enumerate(nodes):
        if isinstance(node, ast.expr) and not isinstance(node, (ast.Constant, ast.Name)):
            yield lambda t, index=index: _replace_expr(t, index, "left")
            yield lambda t, index=index: _replace_expr(t, index, "right")
            yield lambda t, index=index: _replace_expr(t, index, "const")


def _node(tree, index):
    return list(ast.walk(tree))[index]


def _drop_stmt(tree, index, field, i):
    stmts = getattr(_node(tree, index), field)
    del stmts[i]
    if not stmts and field == "body":
        stmts.append(ast.Pass())


def _inline_stmt(tree, index, field, i):
    stmts = getattr(_node(tree, index), field)
    s = stmts[i]
    if not isinstance(s, (ast.If, ast.For, ast.While, ast.With)):
        raise ValueError("nothing to inline")
    stmts[i:i + 1] = s.body + (s.orelse if isinstance(s, ast.If) else [])


def _replace_expr(tree, index, how):
    target = _node(tree, index)
    for parent in ast.walk(tree):
        for field, value in ast.iter_fields(parent):
            if value is target:
                replacement = _pick(target, how)
                setattr(parent, field, replacement)
                return
            if isinstance(value, list) and any(v is target for v in value):
                value[[id(v) for v in value].index(id(target))] = _pick(target, how)
                return
    raise ValueError("no parent")


def _pick(node, how):
    if how == "const":
        return ast.Constant(1)
    if isinstance(node, ast.BinOp):
        return node.left if how == "left" else node.right
    if isinstance(node, ast.BoolOp):
        return node.values[0] if how == "left" else node.values[-1]
    if isinstance(node, ast.Compare):
        return node.left if how == "left" else node.comparators[0]
    if isinstance(node, ast.IfExp):
        return node.body if how == "left" else node.orelse
    if isinstance(node, ast.UnaryOp):
        return node.operand
    raise ValueError("no operand")


def shrink(runner, source, workdir, budget=400):
    tree = ast.parse(source)
    best = source
    progress = True
    while progress and budget > 0:
        progress = False
        for make in candidates(ast.parse(best)):
            if budget <= 0:
                break
            t = ast.parse(best)
            try:
                make(t)
                text = ast.unparse(ast.fix_missing_locations(t)) + "\n"
                compile(text, "prog.py", "exec")
            except (ValueError, SyntaxError, IndexError):
                continue
            if text == best:
                continue
            budget -= 1
            if mismatch(runner, text, workdir):
                best = text
                progress = True
                break
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--count", type=int, default=10)
    ap.add_argument("--out", default=os.environ.get("TEST_UNDECLARED_OUTPUTS_DIR",
                                                    tempfile.gettempdir()))
    ap.add_argument("--no-shrink", action="store_true")
    ap.add_argument("--features", default=",".join(FEATURES),
                    help="comma-separated subset of: %s ('' for the original programs)" %
                    ", ".join(FEATURES))
    args = ap.parse_args()
    features = [f for f in args.features.split(",") if f]
    unknown = sorted(set(features) - set(FEATURES))
    if unknown:
        ap.error("unknown feature(s): " + ", ".join(unknown))
    passed = failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for n in range(args.count):
            seed = args.seed * 1000 + n
            source = Generator(seed, features).program()
            ok, report = check(args.runner, source, workdir)
            if ok and "exit status 0" not in report:
                ok, report = False, report + "\nthe program must exit normally (generator bug?)"
            if ok:
                passed += 1
                print("PASS program %d (seed %d): %s" % (n, seed, report), flush=True)
                continue
            failed += 1
            original = os.path.join(args.out, "pyfuzz_%d.py" % seed)
            with open(original, "w") as f:
                f.write(source)
            print("FAIL program %d (seed %d), saved as %s\n%s" % (n, seed, original, report),
                  flush=True)
            if not args.no_shrink:
                small = shrink(args.runner, source, workdir)
                path = os.path.join(args.out, "pyfuzz_%d.min.py" % seed)
                with open(path, "w") as f:
                    f.write(small)
                print("shrunk to %d lines: %s\n%s" % (small.count("\n"), path, small),
                      flush=True)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
