# pydiff: threshold=5
# The JIT disabled while C code iterates a generator: list(), sum() and str.join read the
# type's tp_iternext once, before the loop, so they go on calling the JIT's stand-in
# (jit.cc JitGenIterNext) after a64jit.disable() put 3.11's own back. The stand-in must still
# hand an interpreted generator to 3.11's gen_iternext (it crashed, SIGSEGV, when disabling
# forgot the saved function). Then enabled again, and disabled again inside a `yield from`
# and an `await` chain. The generators here run once each, below the threshold: interpreted.
import asyncio

try:
    import a64jit
except ImportError:  # plain python3.11, which the corpus test runs too

    class a64jit:
        enable = disable = staticmethod(lambda: None)



def square(x):
    return x * x


def warm():
    # Called past the threshold: compiled, as pydiff asks of a JIT run.
    return sum(square(i) for i in range(3))


def disabling(n, at):
    for i in range(n):
        if i == at:
            a64jit.disable()
        yield square(i)


def words(n):
    for i in range(n):
        if i == 2:
            a64jit.disable()
        yield "w%d" % i


def inner(n):
    for i in range(n):
        if i == 1:
            a64jit.disable()
        got = yield i
    return "inner done"


def outer(n):
    result = yield from inner(n)
    yield result


async def leaf(x):
    if x == 2:
        a64jit.disable()
    await asyncio.sleep(0)
    return x


async def chain(n):
    total = 0
    for i in range(n):
        total += await leaf(i)
    return total


print([warm() for _ in range(12)][-1])
print(list(disabling(8, 3)))
a64jit.enable()
print(sum(disabling(6, 2)))
a64jit.enable()
print(",".join(words(5)))
a64jit.enable()
print(list(outer(4)))
a64jit.enable()
print(asyncio.run(chain(5)))
