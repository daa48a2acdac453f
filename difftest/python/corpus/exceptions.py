# pydiff: all-compiled
# Exceptions raised in compiled code and in what it calls: try/except/else/finally, re-raise,
# chaining, tracebacks with line numbers (printed by the traceback module), and an uncaught
# exception at the end (exit status 1, traceback on stderr).
import traceback


class AppError(Exception):
    pass


def inner(x):
    if x > 2:
        raise AppError("too big: " + str(x))
    return 10 // x


def middle(x):
    y = x * 2
    return inner(y // 2) + y


def guarded(x):
    try:
        r = middle(x)
    except ZeroDivisionError:
        r = "zero"
    except AppError as e:
        r = "app " + str(e)
    else:
        r = ("ok", r)
    finally:
        log.append(x)
    return r


def reraise(x):
    try:
        return middle(x)
    except AppError:
        log.append("reraise")
        raise


def chained(x):
    try:
        return middle(x)
    except ZeroDivisionError as e:
        raise ValueError("wrapped") from e


def format_tb(fn, x):
    try:
        fn(x)
    except Exception:
        return traceback.format_exc()
    return "no exception"


log = []
print(guarded(1), guarded(0), guarded(5), log)
print(format_tb(reraise, 9))
print(format_tb(chained, 0))
print(format_tb(middle, "text"))
middle(7)
