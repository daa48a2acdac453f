"""Deep copies of nested objects: a graph of small class instances holding lists, dicts
and tuples (with shared and cyclic references) cloned by a hand-written recursive copier
with a memo, then compared structurally. Written for a64jit's benchmark set. Checked by
structure: the clone equals the original, shares nothing with it, and keeps its sharing
and its cycles.

Usage: deep_copy.py [NODES] [ROUNDS] (bench.py).
"""
import bench


class Node:
    def __init__(self, ident, tags, attrs):
        self.ident = ident
        self.tags = tags
        self.attrs = attrs
        self.children = []
        self.parent = None


def build(n):
    shared = {"kind": "shared", "weights": [1.5, 2.5]}
    nodes = [Node(i, ["t%d" % (i % 5), ("pair", i)], {"w": i * 0.5, "meta": shared})
             for i in range(n)]
    for i in range(1, n):
        parent = nodes[(i - 1) // 3]
        parent.children.append(nodes[i])
        nodes[i].parent = parent  # a cycle through every parent
    return nodes[0]


def clone(x, memo):
    key = id(x)
    if key in memo:
        return memo[key]
    if isinstance(x, Node):
        y = Node.__new__(Node)
        memo[key] = y
        y.ident = x.ident
        y.tags = clone(x.tags, memo)
        y.attrs = clone(x.attrs, memo)
        y.children = clone(x.children, memo)
        y.parent = clone(x.parent, memo)
        return y
    if isinstance(x, list):
        y = []
        memo[key] = y
        y.extend(clone(v, memo) for v in x)
        return y
    if isinstance(x, dict):
        y = {}
        memo[key] = y
        for k, v in x.items():
            y[k] = clone(v, memo)
        return y
    if isinstance(x, tuple):
        return tuple(clone(v, memo) for v in x)
    return x  # immutable leaves


def walk(root):
    out, stack = [], [root]
    while stack:
        node = stack.pop()
        out.append(node)
        stack.extend(reversed(node.children))
    return out


def workload(n):
    root = build(n)
    copy = clone(root, {})
    a, b = walk(root), walk(copy)
    same = all(x.ident == y.ident and x.tags == y.tags and x.attrs["w"] == y.attrs["w"]
               for x, y in zip(a, b))
    disjoint = all(x is not y and x.attrs is not y.attrs for x, y in zip(a, b))
    sharing = all(y.attrs["meta"] is b[0].attrs["meta"] for y in b)
    cycles = all(c.parent is y for y in b for c in y.children)
    return len(b), same, disjoint, sharing, cycles, b[0].attrs["meta"] is not a[0].attrs["meta"]


def check(n, result):
    want = (n, True, True, True, True, True)
    return None if result == want else f"got {result}, expected {want}"


if __name__ == "__main__":
    bench.main("deep_copy", workload, check, n=3000, rounds=7)
