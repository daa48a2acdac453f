# pydiff: threshold=5
# pydiff: all-compiled
# Module globals read by compiled code while other globals are written between the reads (a
# counter bumped with `global`): each store changes the globals' version tag, so every site
# of the module misses and refills, from the entry where the name was. The refill must see
# a value replaced, a global deleted (NameError, or the builtin it shadowed), a global set
# again after a delete (a new entry), the dict grown past its size (new keys, entries moved)
# and a name stored under an equal string that is another object.

TICKS = 0
STEP = 3
SCALE = 10
len = lambda x: -1  # shadows the builtin until deleted below


def tick():
    global TICKS
    TICKS += 1


def read_all():
    tick()
    return STEP * SCALE + TICKS + len("ab")


def run(n):
    total = 0
    for _ in range(n):
        total += read_all()
    return total


print("start", run(20))
STEP = 4
print("replaced", run(20))
del len
print("builtin len again", run(20))
len = lambda x: 100
print("shadowed again", run(20))
del SCALE
try:
    run(3)
except NameError as e:
    print("deleted", e)
SCALE = 7
print("set again", run(20))
for i in range(300):
    globals()["filler_%d" % i] = i  # the globals' keys grow: entries move
print("grown", run(20), TICKS)
for i in range(0, 300, 2):
    del globals()["filler_%d" % i]
print("shrunk", run(20))
# The same name under another, equal string object: the dict keeps its original key.
key = "".join(["ST", "EP"])
globals()[key] = 9
print("equal key", run(20), STEP)
