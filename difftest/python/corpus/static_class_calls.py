# pydiff: all-compiled
# pydiff: threshold=0,10
"""Calls of builtin classes that have no vectorcall slot in 3.11 (bytes, bytearray, zip,
exception classes, object): compiled code's call site caches them and the call stub calls
PyObject_Vectorcall, which makes the type call (jit/python/helpers.cc CacheableEntry), instead
of the generic helper on every call. Values, the constructors' errors with their tracebacks, a
site that sees another callable too, exceptions made and raised, reference counts."""
import sys


def pack(v):
    return bytes((v & 0xFF, (v >> 8) & 0xFF))


def make(kind, arg):
    return kind(arg)


def pairs(a, b):
    return list(zip(a, b))


def fail(n):
    raise KeyError(n)


def error_of(cls, *args):
    return cls(*args)


def show(f, *args):
    try:
        print(f.__name__, "->", repr(f(*args))[:70])
    except Exception as e:
        print(f.__name__, "raises", type(e).__name__, str(e)[:70])


for i in range(12):
    pack(i * 257)
    make(bytes, 3)
    make(bytearray, b"ab")
    pairs("ab", [1, 2])
    try:
        fail(i)
    except KeyError:
        pass
    error_of(ValueError, "v")
show(pack, 0x1234)
show(pack, 2**40 + 5)
show(pack, -1)  # a negative byte value: ValueError
show(make, bytes, 4)
show(make, bytes, -1)
show(make, bytes, "str")  # a str without an encoding: TypeError
show(make, bytes, [256])
show(make, bytearray, [1, 2])
show(make, bytearray, 2.5)
show(make, len, "abc")  # another callable at the same site
show(make, object, None)  # object() takes no arguments
show(pairs, "abc", range(10))
show(pairs, 1, 2)
show(error_of, KeyError, "k")
show(error_of, OSError, 2, "no such file")
show(error_of, UnicodeDecodeError, "utf-8", b"\xff", 0, 1, "invalid")
show(error_of, UnicodeDecodeError, "too few")
show(fail, "missing")

item = object()
seq = [item, item]
before = sys.getrefcount(item), sys.getrefcount(seq)
n = 0
for i in range(2000):
    n += len(pairs(seq, seq)) + len(pack(i))
print(n, before == (sys.getrefcount(item), sys.getrefcount(seq)))
fail("at the end")
