"""Tree walks with generators: recursive `yield from`, generator expressions, itertools."""
import itertools

import harness


class Node:
    __slots__ = ("key", "children")

    def __init__(self, key, children=()):
        self.key = key
        self.children = list(children)


def build(depth, key=0):
    if depth == 0:
        return Node(key)
    return Node(key, [build(depth - 1, key * 3 + i + 1) for i in range(3)])


def preorder(node):
    yield node.key
    for child in node.children:
        yield from preorder(child)


def leaves(node):
    if not node.children:
        yield node
    else:
        for child in node.children:
            yield from leaves(child)


def paths(node, prefix=()):
    here = prefix + (node.key,)
    if not node.children:
        yield here
    for child in node.children:
        yield from paths(child, here)


def workload():
    tree = build(8)
    total = sum(k for k in preorder(tree) if k % 2)
    evens = sum(1 for leaf in leaves(tree) if leaf.key % 2 == 0)
    longest = max(paths(tree), key=lambda p: sum(p))
    pairs = sum(a * b for a, b in zip(preorder(tree), itertools.islice(preorder(tree), 1, None)))
    chunks = [sum(c) for c in itertools.zip_longest(*[iter(preorder(tree))] * 7, fillvalue=0)]
    return total, evens, longest[-1], pairs % 1000003, len(chunks), max(chunks)


WANT = (24206400, 3281, 9840, 32404, 1406, 62247)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("tree_walks", workload, check)
