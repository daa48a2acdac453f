# pydiff: all-compiled
# Reference counting: compiled code must neither leak nor drop references. Counts of a
# marker object are compared before and after many calls; __del__ runs at the same points.
import sys


class Noisy:
    def __init__(self, name):
        self.name = name

    def __del__(self):
        events.append("del " + self.name)


def touch(x):
    a = x
    b = [x, x, (x, a)]
    c = b[2][0]
    return a is c


def store_and_drop(x):
    holder = Noisy("tmp")
    holder.value = x
    holder = None
    events.append("after drop")
    return x


def on_error(x):
    try:
        return [x, x][5]
    except IndexError:
        return x


def loop_refs(x, n):
    keep = []
    for i in range(n):
        keep.append(x)
    return len(keep)


events = []
marker = object()
before = sys.getrefcount(marker)
for i in range(500):
    touch(marker)
    on_error(marker)
    loop_refs(marker, 3)
print("leaked references:", sys.getrefcount(marker) - before)
store_and_drop(marker)
print(events)
print("leaked references:", sys.getrefcount(marker) - before)
