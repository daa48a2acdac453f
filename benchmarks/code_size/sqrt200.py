"""The code-size probe of issue 16: one function of 200 lines of `s += math.sqrt(x)`.

The function is built as source text and compiled here, so this file stays short. It is
called CALLS times (`sqrt200.py [CALLS]`, default 1): once is what `--threshold=0` needs to
compile it; 10 let it run 9 times interpreted first, so that `--threshold=9` compiles it with
the types 3.11's interpreter saw (jit/hir/feedback.h).
"""

import math
import sys

LINES = 200


def make_function():
    body = "".join("    s += math.sqrt(x)\n" for _ in range(LINES))
    namespace = {"math": math, "__name__": "sqrt200"}
    exec("def f(x):\n    s = 0.0\n" + body + "    return s\n", namespace)
    return namespace["f"]


f = make_function()

if __name__ == "__main__":
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1
    expected = LINES * math.sqrt(2.0)
    for _ in range(calls):
        got = f(2.0)
        if abs(got - expected) > 1e-9:
            sys.exit(f"sqrt200: got {got}, expected {expected}")
    print(f"sqrt200: {got:.6f}")
