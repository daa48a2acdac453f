# pydiff: all-compiled
# Attributes of a global that held a module when the function compiled (threshold 0, no
# feedback yet): lowering guesses the module probe (the module, its type, its dict's version
# tag). Each case then changes what the guess relied on: the module's attribute, the global
# rebound to another module, to a module subclass, to an object that is no module at all.
import math
import types


def root(x):
    return math.sqrt(x)


def pi_times(x):
    return math.pi * x


def floor_of(x):
    return math.floor(x)


print(root(16.0), pi_times(2.0), floor_of(2.5))
saved_sqrt = math.sqrt
math.sqrt = lambda x: "patched"  # the module's dict changes: a new version tag
print(root(16.0))
math.sqrt = saved_sqrt
print(root(25.0))
del math.pi  # gone: AttributeError, as stock raises it
try:
    pi_times(1.0)
except AttributeError as e:
    print("AttributeError:", e)
math.pi = 3.0
print(pi_times(2.0))

real_math = math
other = types.ModuleType("other")
other.sqrt = lambda x: ("other", x)
other.pi = 10
other.floor = lambda x: "floored"
math = other  # another module under the same global
print(root(1.0), pi_times(2.0), floor_of(1.5))


class Sub(types.ModuleType):
    pi = 100


math = Sub("sub")  # a module subclass: not what the probe checks for
math.sqrt = lambda x: "sub"
math.floor = lambda x: "sub-floor"
print(root(1.0), pi_times(2.0), floor_of(1.5))
math = types.SimpleNamespace(sqrt=lambda x: "ns", pi=-1, floor=lambda x: "ns-floor")
print(root(1.0), pi_times(2.0), floor_of(1.5))
math = real_math
math.pi = 3.141592653589793
print(root(9.0), pi_times(1.0), floor_of(7.9))
