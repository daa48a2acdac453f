# Deeply nested data through the standard library's recursive code with a raised limit:
# copy.deepcopy (Python, recursing through the memo dispatch) and pickle (C, recursing in
# its own frames, called from compiled code).
# pydiff: threshold=0,100
import copy
import pickle
import sys

sys.setrecursionlimit(200000)


def nested(levels):
    x = []
    for _ in range(levels):
        x = [x]
    return x


def depth_of(x):
    d = 0
    while x:
        x = x[0]
        d += 1
    return d


original = nested(45000)
print(depth_of(copy.deepcopy(original)))
print(depth_of(pickle.loads(pickle.dumps(original))))
tree = {"leaf": 0}
for i in range(5000):
    tree = {"child": tree, "i": i}
print(len(pickle.dumps(copy.deepcopy(tree))) > 0)
