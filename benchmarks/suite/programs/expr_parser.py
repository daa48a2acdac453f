"""Parsing and evaluating: a regular-expression tokenizer and a recursive-descent parser for
arithmetic with variables, evaluated with big integers, as a configuration language or a
calculator does."""
import re

import harness

TOKEN = re.compile(r"\s*(?:(\d+)|([A-Za-z_]\w*)|(\*\*|//|[-+*%()]))")


def tokenize(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if m is None:
            raise SyntaxError("bad input at %d" % pos)
        pos = m.end()
        out.append(("num", int(m.group(1))) if m.group(1) else
                   ("name", m.group(2)) if m.group(2) else ("op", m.group(3)))
    return out


class Parser:
    def __init__(self, tokens, env):
        self.tokens, self.i, self.env = tokens, 0, env

    def peek(self):
        return self.tokens[self.i] if self.i < len(self.tokens) else ("end", None)

    def take(self):
        self.i += 1
        return self.tokens[self.i - 1]

    def expr(self):
        value = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            value = value + self.term() if self.take()[1] == "+" else value - self.term()
        return value

    def term(self):
        value = self.power()
        while self.peek()[0] == "op" and self.peek()[1] in ("*", "//", "%"):
            op = self.take()[1]
            rhs = self.power()
            value = value * rhs if op == "*" else value // rhs if op == "//" else value % rhs
        return value

    def power(self):
        base = self.atom()
        if self.peek() == ("op", "**"):
            self.take()
            return base ** self.power()
        return base

    def atom(self):
        kind, value = self.take()
        if kind == "num":
            return value
        if kind == "name":
            return self.env[value]
        if value == "(":
            inner = self.expr()
            self.take()
            return inner
        if value == "-":
            return -self.atom()
        raise SyntaxError("unexpected %r" % (value,))


SOURCES = ["(a + %d) ** 7 %% 1000003 * b - (c // (%d + 1))" % (k, k) for k in range(40)] + \
          ["2 ** (a %% 61) * (b + %d) - 3 ** 40 // (c + %d)" % (k, k + 1) for k in range(40)]


def workload():
    env = {"a": 12345678901234567, "b": 987654321, "c": 31337}
    return sum(Parser(tokenize(s), env).expr() for s in SOURCES) % (10 ** 12)


def check(result):
    return None if result == 442144153304 else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("expr_parser", workload, check)
