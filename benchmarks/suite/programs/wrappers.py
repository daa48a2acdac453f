"""Decorators, closures and delegation: functools.wraps wrappers, lru_cache, partial,
properties, __getattr__ proxies and context managers, as framework code layers calls."""
import contextlib
import functools

import harness

CALLS = []


def counted(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        CALLS.append(fn.__name__)
        return fn(*args, **kwargs)
    return wrapper


def validated(kind):
    def deco(fn):
        @functools.wraps(fn)
        def wrapper(self, value):
            if not isinstance(value, kind):
                raise TypeError(value)
            return fn(self, value)
        return wrapper
    return deco


class Account:
    def __init__(self, name):
        self._name = name
        self._balance = 0

    @property
    def balance(self):
        return self._balance

    @counted
    @validated(int)
    def deposit(self, value):
        self._balance += value
        return self._balance

    @counted
    def describe(self, prefix="acct", sep=":"):
        return prefix + sep + self._name


class Audited:
    def __init__(self, target):
        self._target = target
        self.log = []

    def __getattr__(self, name):
        self.log.append(name)
        return getattr(self._target, name)


@contextlib.contextmanager
def batch(log):
    log.append("begin")
    try:
        yield log
    finally:
        log.append("end")


@functools.lru_cache(maxsize=64)
def fee(amount):
    return amount // 50 + 1


def workload():
    del CALLS[:]
    accounts = [Audited(Account("a%d" % i)) for i in range(12)]
    log = []
    tag = functools.partial(Account.describe, sep="/")
    total = 0
    for step in range(400):
        with batch(log):
            for acct in accounts:
                acct.deposit(step % 7 + 1)
                total += fee(acct.balance % 200)
        if step % 10 == 0:
            total += len(tag(accounts[step % 12]._target, "x"))
    return total, len(CALLS), len(log), sum(len(a.log) for a in accounts)


WANT = (12155, 4840, 800, 9600)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("wrappers", workload, check)
