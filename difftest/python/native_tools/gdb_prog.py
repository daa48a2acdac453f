"""gdb_jit_test.sh's program: `outer` (compiled) calls `inner` (compiled), where gdb breaks."""


def inner(x):
    return x + 1


def outer(x):
    return inner(x) * 2


print(outer(20))
