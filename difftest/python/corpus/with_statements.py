# pydiff: all-compiled
# `with`: context managers as classes and from contextlib.contextmanager, the value bound by
# `as`, exceptions raised inside (seen by __exit__ with type, value and traceback), __exit__
# suppressing them or not, exceptions raised by __enter__ and by __exit__, nested and
# multi-item with statements (exit order), return/break/continue leaving a with block,
# ExitStack, and the TypeError of an object that is not a context manager.
import contextlib

LOG = []


class Resource:
    def __init__(self, name, suppress=False, fail_enter=False, fail_exit=False):
        self.name = name
        self.suppress = suppress
        self.fail_enter = fail_enter
        self.fail_exit = fail_exit

    def __enter__(self):
        LOG.append("enter " + self.name)
        if self.fail_enter:
            raise RuntimeError("enter failed: " + self.name)
        return self.name.upper()

    def __exit__(self, exc_type, exc, tb):
        LOG.append("exit %s %s %s %s" % (self.name, exc_type.__name__ if exc_type else None,
                                         exc, tb is not None))
        if self.fail_exit:
            raise ValueError("exit failed: " + self.name)
        return self.suppress


def take_log():
    out = LOG[:]
    LOG.clear()
    return out


def plain():
    with Resource("a") as value:
        LOG.append("body " + value)
    return take_log()


def suppressed():
    with Resource("s", suppress=True):
        LOG.append("before raise")
        raise KeyError("swallowed")
    LOG.append("after with")
    return take_log()


def not_suppressed():
    try:
        with Resource("n"):
            raise KeyError("escapes")
    except KeyError as e:
        LOG.append("caught " + repr(e))
    return take_log()


def nested():
    with Resource("outer"):
        with Resource("middle", suppress=True):
            with Resource("inner"):
                raise ZeroDivisionError("deep")
        LOG.append("after middle")
    return take_log()


def multi_item():
    with Resource("x") as x, Resource("y") as y, Resource("z") as z:
        LOG.append("body " + x + y + z)
    try:
        with Resource("p"), Resource("q", fail_enter=True), Resource("r"):
            LOG.append("never")
    except RuntimeError as e:
        LOG.append("caught " + str(e))
    return take_log()


def exit_raises():
    try:
        with Resource("e", fail_exit=True):
            raise KeyError("original")
    except ValueError as e:
        LOG.append("caught %r, context %r" % (e, e.__context__))
    try:
        with Resource("f", fail_exit=True):
            LOG.append("clean body")
    except ValueError as e:
        LOG.append("caught %r, context %r" % (e, e.__context__))
    return take_log()


def leaving(kind):
    for i in range(3):
        with Resource("loop%d" % i):
            if kind == "break" and i == 1:
                break
            if kind == "continue" and i == 0:
                continue
            if kind == "return" and i == 1:
                # The return value is computed before __exit__ runs: that exit is logged
                # in the next test's list.
                return take_log() + ["returned"]
            LOG.append("end of body %d" % i)
    return take_log()


@contextlib.contextmanager
def tag(name, handle=False):
    LOG.append("<%s>" % name)
    try:
        yield name * 2
    except ArithmeticError as e:
        LOG.append("handled %s in %s" % (type(e).__name__, name))
        if not handle:
            raise
    finally:
        LOG.append("</%s>" % name)


def generator_based():
    with tag("b") as t:
        LOG.append("body " + t)
    with tag("h", handle=True):
        1 / 0
    try:
        with tag("r"):
            1 / 0
    except ZeroDivisionError:
        LOG.append("re-raised")
    try:
        with tag("k", handle=True):
            raise KeyError("not arithmetic")
    except KeyError:
        LOG.append("key error passed through")
    return take_log()


def exit_stack():
    with contextlib.ExitStack() as stack:
        names = [stack.enter_context(Resource("stack%d" % i)) for i in range(3)]
        stack.callback(LOG.append, "callback")
        LOG.append("body " + ",".join(names))
    with contextlib.suppress(IndexError):
        [][1]
    LOG.append("suppress worked")
    return take_log()


def not_a_manager():
    try:
        with 42:
            pass
    except TypeError as e:
        return str(e)


def with_value_in_expression(n):
    total = 0
    for i in range(n):
        with Resource("v"):
            total += i
    LOG.clear()
    return total


def main():
    print("plain", plain())
    print("suppressed", suppressed())
    print("not suppressed", not_suppressed())
    print("nested", nested())
    print("multi", multi_item())
    print("exit raises", exit_raises())
    for kind in ("break", "continue", "return"):
        print(kind, leaving(kind))
    print("contextmanager", generator_based())
    print("exit stack", exit_stack())
    print("not a manager", not_a_manager())
    print("sum", with_value_in_expression(10))


main()
