# pydiff: all-compiled
# Compiled functions called by C code (map, sorted's key), whose frames the runtime pushes
# with borrowed references to the function and its code: every way such a frame may end (a
# value, an error, a deopt to the interpreter, a frame object that outlives the call, an
# f_locals dict, a traceback kept) leaves the function's reference count as it was, and a
# kept frame still shows its code and locals.
import sys

kept = []


def plain(x):
    return x + 1


def raises(x):
    if x % 2:
        raise ValueError(x)
    return x


def keeps_frame(x):
    kept.append(sys._getframe())
    return x


def deopts(x):
    if x % 2:
        y = x
    try:
        return y  # unbound for even x: the interpreter raises it
    except UnboundLocalError:
        return -x


def with_locals(x):
    return len(locals())


def keeps_traceback(x):
    try:
        raise KeyError(x)
    except KeyError as e:
        kept.append(e.__traceback__)
        return x


def through_c(f, n):
    out = []
    for i in range(n):
        try:
            out.append(sum(map(f, [i, i + 1])))
        except ValueError as e:
            out.append(("error", e.args))
    return out


functions = [plain, raises, keeps_frame, deopts, with_locals, keeps_traceback]
before = [sys.getrefcount(f) for f in functions]
results = [through_c(f, 30) for f in functions]
keys = sorted(range(20), key=deopts)
for f, result in zip(functions, results):
    print(f.__name__, result[:6])
print(keys)
frame = kept[0]
print(frame.f_code.co_name, frame.f_locals, frame.f_lineno)
print(kept[-1].tb_frame.f_code.co_name, kept[-1].tb_frame.f_locals["x"])
kept.clear()
frame = None
print("reference changes:", [sys.getrefcount(f) - b for f, b in zip(functions, before)])
