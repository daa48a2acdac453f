"""A small interpreter: a tokenizer and recursive-descent parser for arithmetic with
variables and `let` bindings, an AST evaluator, and a compiler from the AST to a stack
machine with its own dispatch loop. Written for a64jit's benchmark set. Checked by
agreement: the tree evaluator and the stack machine must give the same value for every
generated program, and a fixed program has a value worked out by hand.

Usage: interp.py [PROGRAMS] [ROUNDS] (bench.py).
"""
import bench

FIXED = "let x = 3 in let y = x * (x + 4) in y - 10 / 2"  # 3 * 7 - 5 = 16


def tokenize(src):
    tokens, i = [], 0
    while i < len(src):
        c = src[i]
        if c.isspace():
            i += 1
        elif c.isdigit():
            j = i
            while j < len(src) and src[j].isdigit():
                j += 1
            tokens.append(("num", int(src[i:j])))
            i = j
        elif c.isalpha():
            j = i
            while j < len(src) and src[j].isalnum():
                j += 1
            word = src[i:j]
            tokens.append(("kw", word) if word in ("let", "in") else ("name", word))
            i = j
        else:
            tokens.append(("op", c))
            i += 1
    return tokens


class Parser:
    def __init__(self, tokens):
        self.tokens, self.pos = tokens, 0

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else ("end", None)

    def take(self):
        tok = self.peek()
        self.pos += 1
        return tok

    def expr(self):
        if self.peek() == ("kw", "let"):
            self.take()
            name = self.take()[1]
            self.take()  # =
            value = self.expr()
            self.take()  # in
            return ("let", name, value, self.expr())
        left = self.term()
        while self.peek() in (("op", "+"), ("op", "-")):
            left = (self.take()[1], left, self.term())
        return left

    def term(self):
        left = self.atom()
        while self.peek() in (("op", "*"), ("op", "/")):
            left = (self.take()[1], left, self.atom())
        return left

    def atom(self):
        kind, value = self.take()
        if kind == "num":
            return ("num", value)
        if kind == "name":
            return ("var", value)
        inner = self.expr()  # "(" expr ")"
        self.take()
        return inner


def evaluate(node, env):
    op = node[0]
    if op == "num":
        return node[1]
    if op == "var":
        return env[node[1]]
    if op == "let":
        return evaluate(node[3], {**env, node[1]: evaluate(node[2], env)})
    a, b = evaluate(node[1], env), evaluate(node[2], env)
    return a + b if op == "+" else a - b if op == "-" else a * b if op == "*" else a // b


def compile_node(node, code):
    op = node[0]
    if op in ("num", "var"):
        code.append(("push" if op == "num" else "load", node[1]))
    elif op == "let":
        compile_node(node[2], code)
        code.append(("bind", node[1]))
        compile_node(node[3], code)
        code.append(("unbind", node[1]))
    else:
        compile_node(node[1], code)
        compile_node(node[2], code)
        code.append(("binop", op))
    return code


def run_machine(code):
    stack, env = [], {}
    for op, arg in code:
        if op == "push":
            stack.append(arg)
        elif op == "load":
            stack.append(env[arg][-1])
        elif op == "bind":
            env.setdefault(arg, []).append(stack.pop())
        elif op == "unbind":
            env[arg].pop()
        else:
            b, a = stack.pop(), stack.pop()
            stack.append(a + b if arg == "+" else a - b if arg == "-" else
                         a * b if arg == "*" else a // b)
    return stack.pop()


def program(i):
    k = i % 17 + 1
    return f"let a = {k} in let b = a * {i % 5 + 2} + {i} in (b - a) * (a + 3) / {k} + b"


def workload(programs):
    agree = 0
    total = 0
    for i in range(programs):
        tree = Parser(tokenize(program(i))).expr()
        value = evaluate(tree, {})
        if value == run_machine(compile_node(tree, [])):
            agree += 1
        total += value
    fixed = Parser(tokenize(FIXED)).expr()
    return agree, evaluate(fixed, {}), run_machine(compile_node(fixed, []))


def check(programs, result):
    want = (programs, 16, 16)
    return None if result == want else f"got {result}, expected {want}"


if __name__ == "__main__":
    bench.main("interp", workload, check, n=2000, rounds=7)
