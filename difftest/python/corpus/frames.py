# pydiff: all-compiled
# Frame introspection from compiled code: sys._getframe, f_lineno, f_back, f_locals,
# traceback.extract_stack, a warning attributed to the right line, and the caller current
# again after a compiled call that made a generator.
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


def escaping_frame(a):
    b = a * 2
    return sys._getframe()


def caller_of_escaping(a):
    return escaping_frame(a + 1)


def failing(a):
    c = a + 1
    return c // 0


def keep_traceback(a):
    try:
        failing(a)
    except ZeroDivisionError as e:
        return e.__traceback__


f = caller_of_escaping(3)
print(f.f_code.co_name, f.f_lineno, sorted(f.f_locals.items()), f.f_back.f_code.co_name,
      f.f_back.f_lineno, f.f_back.f_back.f_code.co_name)
tb = keep_traceback(5)
while tb is not None:
    fr = tb.tb_frame
    print(fr.f_code.co_name, tb.tb_lineno, sorted([k for k in fr.f_locals if k != "e"]),
          fr.f_back.f_code.co_name if fr.f_back else None)
    tb = tb.tb_next


def numbers():
    yield 1


def callers_name():
    return sys._getframe(1).f_code.co_name


def makes_generator():
    g = numbers()  # the generator's frame must not stay the thread's current frame
    return callers_name(), next(g)


numbers()  # compiled before the calls below, which enter it through the call stub
callers_name()
print(makes_generator(), makes_generator())
