# pydiff: all-compiled
"""Code that a cache's slow path runs sees the frame at the site's own instruction.

Compiled code does not store prev_instr before calling an attribute, method or global
helper: the helper takes the instruction from its cache's header (jit/runtime/site_cache.h).
Each probe below runs Python code from inside such a helper (a property, __getattr__,
__setattr__, a metaclass __getattribute__, a module __getattr__) and records which
instruction its caller's frame is at: the line and the opcode's name at f_lasti. A site's
first call misses its cache, and a later call with another type misses it again."""

import dis
import sys
import types

seen = []


def where():
    caller = sys._getframe(2)
    op = dis.opname[caller.f_code.co_code[caller.f_lasti]]
    seen.append((caller.f_code.co_name, caller.f_lineno - caller.f_code.co_firstlineno, op))


class Probe:
    @property
    def value(self):
        where()
        return 7

    def __getattr__(self, name):
        where()
        return len(name)

    def __setattr__(self, name, value):
        where()
        object.__setattr__(self, name, value)


class Plain:
    value = 1
    size = 2

    def method(self):
        return 3


class Meta(type):
    def __getattribute__(cls, name):
        where()
        return type.__getattribute__(cls, name)


class Traced(metaclass=Meta):
    @staticmethod
    def method():
        return 4


tool = types.ModuleType("tool")


def tool_getattr(name):
    where()
    return (lambda: name) if name == "lower" else name.upper()


tool.__getattr__ = tool_getattr


def load_attr(obj):
    a = obj.value
    b = obj.size
    return a + b


def store_attr(obj):
    obj.count = 5
    return obj


def load_method(obj):
    return obj.method()


def module_attr():
    return tool.missing


def module_method():
    return tool.lower()


for obj in (Plain(), Probe(), Plain(), Probe()):
    load_attr(obj)
    store_attr(obj)
for cls in (Plain(), Traced, Traced):
    load_method(cls)
for _ in range(3):
    module_attr()
    module_method()

for entry in seen:
    print(*entry)
print(len(seen), "probes")
