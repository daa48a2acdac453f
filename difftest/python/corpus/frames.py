# pydiff: all-compiled
# Frame introspection from compiled code: sys._getframe, f_lineno, f_back, f_locals,
# traceback.extract_stack, and a warning attributed to the right line.
import sys
import traceback
import warnings


def here():
    f = sys._getframe()
    return f.f_code.co_name, f.f_lineno, f.f_back.f_code.co_name, f.f_back.f_lineno


def locals_view(a, b):
    c = a + b
    return sorted(sys._getframe().f_locals.items())


def stack():
    return [(fs.name, fs.lineno, fs.line) for fs in traceback.extract_stack()[-3:]]


def outer():
    x = 1
    return stack(), x


def warn():
    warnings.warn("careful", UserWarning)
    return "warned"


print(here())
print(locals_view(2, 3))
print(outer())
warnings.simplefilter("always")
print(warn())
