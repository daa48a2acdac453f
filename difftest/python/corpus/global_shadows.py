# pydiff: all-compiled
# A LOAD_GLOBAL whose name is in the module's globals checks only the globals' version tag
# (its site caches only values found there). Each case moves the name between the globals
# and the builtins after the function was compiled, and changes the builtin while the name
# is not in the globals: a cache that kept a builtin's value behind a globals-only check
# would print a stale answer here.
import builtins


def len(x):  # shadows the builtin: in the globals when `measure` compiles
    return 100


def measure(xs):
    return len(xs)


def use_abs(x):
    return abs(x)  # not in the globals: the builtin, checked with both tags


def with_builtin_len(replacement):
    # Swaps the builtin without touching the globals (locals only): their tag stays.
    old = builtins.len
    builtins.len = replacement
    try:
        return measure([1, 2])
    finally:
        builtins.len = old


print(measure([1, 2]), measure("abc"))
del len  # now the builtin's
print(measure([1, 2]), measure("abc"))
print(with_builtin_len(lambda x: -7), with_builtin_len(lambda x: -8))
print(measure([1, 2, 3]))
len = lambda x: 55  # in the globals again
print(measure([1]))
del len

print(use_abs(-3))
abs = lambda x: "shadowed"  # appears in the globals
print(use_abs(-3))
del abs
print(use_abs(-4))


# One global rebound in a loop: the tag changes every round, the cache refills each time.
counter = 0


def bump():
    global counter
    counter = counter + 1
    return counter


print([bump() for _ in range(5)])
