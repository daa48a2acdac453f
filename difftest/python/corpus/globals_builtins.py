# pydiff: all-compiled
# Globals and builtins: reads of module globals, builtins, shadowing, NameError.

LIMIT = 10
names = ["ant", "bee", "cat"]


def use_globals():
    return LIMIT * 2, len(names), names[LIMIT % 3]


def builtins_mix(xs):
    return len(xs), min(xs), max(xs), sum(xs), abs(-xs[0]), sorted(xs), isinstance(xs, list)


def shadow(len):
    return len + 1


def missing():
    return not_defined_anywhere + 1


def later():
    return defined_later * 2


print(use_globals())
print(builtins_mix([5, -3, 9, 1]))
print(shadow(41))
defined_later = 21
print(later())
try:
    missing()
except NameError as e:
    print("NameError:", e)
