# pydiff: all-compiled
"""`module.attr` where the module is a global (lower.module-attr-of-global): the inline path
checks the globals' and the module's versions; anything else takes one helper call for both
loads (a64_module_attr_of_global). Every way out of that call must match the interpreter: a
missing global (NameError), a missing attribute (AttributeError, with the module released),
a module __getattr__ that looks at its caller's line, a global that is no longer a module,
LOAD_METHOD's pair from a module subclass' method, and no reference lost or kept."""

import sys
import types

tool = types.ModuleType("tool")
tool.scale = 3
tool.double = lambda x: 2 * x
ticks = 0


def tick():
    global ticks
    ticks += 1  # the globals' version changes: the next load takes the helper


def use_attr(x):
    tick()
    return tool.scale * x


def use_method(x):
    tick()
    return tool.double(x)


def attempt(f, x):
    try:
        return f(x)
    except (NameError, AttributeError) as e:
        tb = e.__traceback__.tb_next
        return f"{type(e).__name__}: {e} (line {tb.tb_lineno}, unit {tb.tb_lasti // 2})"


def lines_seen():
    def probe(name):
        caller = sys._getframe(1)
        seen = f"{name} asked by {caller.f_code.co_name} at {caller.f_lineno}:{caller.f_lasti}"
        return (lambda *args: (seen, args)) if name.endswith("either") else seen

    tool.__getattr__ = probe
    try:
        return [use_missing(), use_missing_method()]
    finally:
        del tool.__getattr__


def use_missing(x=0):
    tick()
    return tool.not_there


def use_missing_method(x=0):
    tick()
    return tool.not_there_either(x)


class Holder:
    scale = 10

    @staticmethod
    def double(x):
        return 20 * x


class ToolModule(types.ModuleType):
    def double(self, x):
        return ("bound", self.__name__, x)


def main():
    global tool
    out = [use_attr(2), use_method(2), use_attr(3)]
    before = sys.getrefcount(tool)
    for i in range(40):
        out.append(use_attr(i) + use_method(i))
        attempt(use_missing, 0)
    out.append(("module references", sys.getrefcount(tool) - before))
    out.append(lines_seen())
    out.append(attempt(use_missing, 0))
    out.append(attempt(use_missing_method, 0))
    saved = tool
    del tool
    out.append(attempt(use_attr, 1))
    out.append(attempt(use_method, 1))
    tool = Holder()  # no longer a module: the generic loads
    out.append((use_attr(4), use_method(4)))
    sub = ToolModule("sub")
    sub.scale = 7
    tool = sub
    out.append((use_attr(5), use_method(5)))
    tool = saved
    out.append((use_attr(6), use_method(6)))
    return out


for item in main():
    print(item)
