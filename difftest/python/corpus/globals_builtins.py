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


# One code object run with several globals (and builtins) dicts: a compiled LOAD_GLOBAL
# compares the dicts' version tags only, which no two dicts share.
import builtins
import types


def scaled(x):
    return x * LIMIT + len(names)


other_globals = {"LIMIT": 1000, "names": [1], "__builtins__": builtins}
twin = types.FunctionType(scaled.__code__, other_globals)
copied = types.FunctionType(scaled.__code__, dict(globals()))  # equal contents, another dict
odd_builtins = {"LIMIT": 5, "names": "ab", "__builtins__": {"len": lambda x: -1}}
odd = types.FunctionType(scaled.__code__, odd_builtins)
for _ in range(3):
    print(scaled(1), twin(1), copied(1), odd(1))
    LIMIT += 1
    other_globals["LIMIT"] += 10
print(scaled(2), twin(2), copied(2), odd(2))
