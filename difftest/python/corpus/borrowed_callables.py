# pydiff: all-compiled
# C code may call a function it holds only a borrowed reference to: a module's __getattr__
# is called straight out of the module's dict (3.11's module_getattro), so a __getattr__
# that deletes itself drops the last reference to the function it is running. The frame's
# own reference to its function must keep it alive to the end (test_module's
# test_module_getattr_tricky crashed on exactly this), whether it returns or raises.
import sys
import types

SOURCE = """
def __getattr__(name):
    global __getattr__
    if name.startswith("keep"):
        return name.upper()
    del __getattr__
    if name == "raises":
        raise AttributeError(name)
    return [name] * 2
"""


def fresh_module():
    module = types.ModuleType("tricky")
    exec(SOURCE, module.__dict__)
    return module


def lookups():
    out = []
    for name in ("first", "raises"):
        module = fresh_module()
        out.append(module.keep)  # a first call, through the interpreter's way in
        out.append(module.keep_again)  # later ones straight into compiled code
        try:
            out.append(getattr(module, name))
        except AttributeError as e:
            out.append(("AttributeError", str(e)))
        out.append(hasattr(module, "__getattr__"))
        try:
            getattr(module, "again")
        except AttributeError as e:
            out.append(("AttributeError", str(e)))
    return out


for _ in range(3):
    print(lookups())
