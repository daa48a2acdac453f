#!/usr/bin/python3.11
"""Random Python programs run by the interpreter and with the JIT, compared (pydiff.py).

Each program has a few classes (attributes, a method, an override) and functions built from
arithmetic (small and big ints, floor division and modulo of either sign), comparisons,
boolean logic, branches, bounded loops, calls of earlier functions, attribute loads and
stores, list indexing and method calls; a driver calls every function on fixed arguments and
prints each result or exception. A mismatch is shrunk (statements removed, branches and
loops replaced by their bodies, expressions replaced by an operand or a constant) to a small
program that still mismatches, written next to the original.

  pyfuzz.py --runner a64jit-run --seed 2026 --count 10 [--out DIR] [--no-shrink]
"""

import argparse
import ast
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pydiff  # noqa: E402

ARGS = [(0, 1), (3, -7), (-12, 5), (2 ** 65 + 3, -(2 ** 40)), (7, 7)]
BINOPS = ["+", "-", "*", "//", "%", "&", "|", "^"]
CMPOPS = ["<", "<=", "==", "!=", ">", ">="]


class Generator:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []

    def emit(self, depth, text):
        self.lines.append("    " * depth + text)

    def atom(self, names):
        r = self.r.random()
        if r < 0.45 and names:
            return self.r.choice(names)
        if r < 0.55:
            return str(self.r.choice([2 ** 64 + 1, -(2 ** 70), 10 ** 12]))
        return str(self.r.randint(-9, 9))

    def expr(self, names, funcs, depth=0):
        r = self.r.random()
        if depth > 2 or r < 0.3:
            return self.atom(names)
        if r < 0.55:
            return "(%s %s %s)" % (self.expr(names, funcs, depth + 1), self.r.choice(BINOPS),
                                   self.expr(names, funcs, depth + 1))
        if r < 0.62:
            return "(%s %s %s)" % (self.expr(names, funcs, depth + 1), self.r.choice(CMPOPS),
                                   self.expr(names, funcs, depth + 1))
        if r < 0.67:
            return "(%s << %d)" % (self.expr(names, funcs, depth + 1), self.r.randint(0, 70))
        if r < 0.72:
            return "(%s %s %s)" % (self.expr(names, funcs, depth + 1),
                                   self.r.choice(["and", "or"]),
                                   self.expr(names, funcs, depth + 1))
        if r < 0.76:
            return "(not %s)" % self.expr(names, funcs, depth + 1)
        if r < 0.80:
            return "(%s if %s else %s)" % (self.expr(names, funcs, depth + 1),
                                           self.expr(names, funcs, depth + 1),
                                           self.expr(names, funcs, depth + 1))
        if r < 0.86 and funcs:
            return "%s(%s, %s)" % (self.r.choice(funcs), self.expr(names, funcs, depth + 1),
                                   self.expr(names, funcs, depth + 1))
        if r < 0.91:
            return "%s(%s).%s" % (self.r.choice(["Box", "Crate"]),
                                  self.expr(names, funcs, depth + 1), self.r.choice(["x", "y"]))
        if r < 0.95:
            return "%s(%s).scaled(%s)" % (self.r.choice(["Box", "Crate"]),
                                          self.expr(names, funcs, depth + 1),
                                          self.expr(names, funcs, depth + 1))
        return "TABLE[%s %% 5]" % self.expr(names, funcs, depth + 1)

    def block(self, depth, names, funcs, budget):
        emitted = 0
        for _ in range(self.r.randint(1, 4)):
            if budget[0] <= 0:
                break
            budget[0] -= 1
            self.statement(depth, names, funcs, budget)
            emitted += 1
        if emitted == 0:
            self.emit(depth, "pass")

    def statement(self, depth, names, funcs, budget):
        r = self.r.random()
        # Stored values are clamped to 80 bits (still big ints) so loops cannot grow them
        # without bound.
        if r < 0.35:
            name = self.r.choice(["a", "b", "t"])
            self.emit(depth, "%s = clamp(%s)" % (name, self.expr(names, funcs)))
            if name not in names:
                names.append(name)
        elif r < 0.45:
            # Never a loop counter: `while n > 0` must terminate.
            name = self.r.choice([n for n in names if n in ("a", "b", "t")])
            self.emit(depth, "%s %s= %s" % (name, self.r.choice(BINOPS), self.expr(names, funcs)))
            self.emit(depth, "%s = clamp(%s)" % (name, name))
        elif r < 0.62:
            self.emit(depth, "if %s:" % self.expr(names, funcs))
            self.block(depth + 1, list(names), funcs, budget)
            if self.r.random() < 0.5:
                self.emit(depth, "else:")
                self.block(depth + 1, list(names), funcs, budget)
        elif r < 0.72:
            var = "i%d" % depth
            self.emit(depth, "for %s in range(%d):" % (var, self.r.randint(0, 4)))
            # No calls inside loops: nested call trees would grow exponentially.
            self.block(depth + 1, names + [var], [], budget)
        elif r < 0.78:
            var = "n%d" % depth
            self.emit(depth, "%s = %d" % (var, self.r.randint(0, 4)))
            self.emit(depth, "while %s > 0:" % var)
            self.emit(depth + 1, "%s -= 1" % var)
            self.block(depth + 1, names + [var], [], budget)
        elif r < 0.86:
            self.emit(depth, "o = Crate(%s)" % self.expr(names, funcs))
            self.emit(depth, "o.y = clamp(%s)" % self.expr(names, funcs))
            self.emit(depth, "t = o.x + o.y")
            if "t" not in names:
                names.append("t")
        elif r < 0.92:
            self.emit(depth, "if %s:" % self.expr(names, funcs))
            self.emit(depth + 1, "return %s" % self.expr(names, funcs))
        else:
            self.emit(depth, "t = [%s, %s][%s %% 2]" % (
                self.expr(names, funcs), self.expr(names, funcs), self.expr(names, funcs)))
            if "t" not in names:
                names.append("t")

    def program(self, nfuncs=6):
        self.lines = [
            "TABLE = [3, -1, 2 ** 64, 0, 7]",
            "",
            "def clamp(v):",
            "    return v % 1208925819614629174706176 - 604462909807314587353088",
            "",
            "class Box:",
            "    def __init__(self, v):",
            "        self.x = v",
            "        self.y = v * 2 - 1",
            "    def scaled(self, k):",
            "        return self.x * k - self.y",
            "",
            "class Crate(Box):",
            "    def scaled(self, k):",
            "        return Box.scaled(self, k) + self.x // 3",
            "",
        ]
        funcs = []
        for i in range(nfuncs):
            name = "f%d" % i
            self.emit(0, "def %s(a, b):" % name)
            self.emit(1, "t = 0")
            self.block(1, ["a", "b", "t"], list(funcs), [self.r.randint(3, 10)])
            self.emit(1, "return %s" % self.expr(["a", "b", "t"], list(funcs)))
            self.emit(0, "")
            funcs.append(name)
        self.lines += [
            "def main():",
            "    for args in %r:" % (ARGS,),
            "        for fn in [%s]:" % ", ".join(funcs),
            "            try:",
            "                print(fn.__name__, fn(*args))",
            "            except Exception as e:",
            "                print(fn.__name__, type(e).__name__, e)",
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
    if not isinstance(s, (ast.If, ast.For, ast.While)):
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
    args = ap.parse_args()
    passed = failed = 0
    with tempfile.TemporaryDirectory() as workdir:
        for n in range(args.count):
            seed = args.seed * 1000 + n
            source = Generator(seed).program()
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
