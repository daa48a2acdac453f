# pydiff: all-compiled
"""Module attributes (`math.sqrt`, `mod.value`) through the site's module entry (the value,
valid while the module's dict keeps its version tag): every change to the module must be
seen at once, and module-level __getattr__, module subclasses and type attributes
(`mod.__dict__`) must behave as in the interpreter."""

import math
import sys
import types

mod = types.ModuleType("mod")
mod.value = 1


def read_value():
    return mod.value


def call_sqrt(x):
    return math.sqrt(x)


def read_any(m, name):
    return getattr(m, name)


def read_dict_len(m):
    return len(m.__dict__) > 0


def read_missing(m):
    return m.missing


totals = []
for i in range(30):
    if i == 10:
        mod.value = 2  # the dict's version changes: the next read must see 2
    if i == 20:
        mod.other = "x"  # another key changes the version too
    if i == 25:
        del mod.value
        mod.value = 3
    totals.append(read_value())
print(totals)

print([call_sqrt(v) for v in (4.0, 9.0)])
saved = math.sqrt
math.sqrt = lambda v: -v
print(call_sqrt(16.0))
math.sqrt = saved
print(call_sqrt(16.0))


mod.__getattr__ = lambda name: "from __getattr__ " + name
print(read_missing(mod))
mod.missing = "set"
print(read_missing(mod))
del mod.missing
print(read_missing(mod))
del mod.__getattr__
try:
    read_missing(mod)
except AttributeError as e:
    print("AttributeError", e)


class SubModule(types.ModuleType):
    @property
    def value(self):
        return "property"


sub = SubModule("sub")
print(read_dict_len(sub), read_dict_len(mod))
for _ in range(3):
    print(read_any(sub, "value"), read_any(mod, "value"), read_any(sys.modules[__name__], "mod") is mod)


# A site's cache does not keep a module alive: once dropped, the module is collected (as
# CPython's test_struct checks for a fresh _struct).
import gc
import weakref


def read_and_call(m):
    return m.value, m.double(4)


def collected():
    m = types.ModuleType("temporary")
    m.value = 5
    m.double = lambda x: 2 * x
    result = read_and_call(m)
    ref = weakref.ref(m)
    del m
    gc.collect()
    return result, ref() is None


for _ in range(3):
    print(collected())
