# fork() from compiled code, several frames deep: the child goes on running the same compiled
# code (its stack, the JIT's stack and code memory copied), returns through every frame and
# exits with a status its parent reads; the parent goes on as before.
# pydiff: min-compiled=3
import os
import sys


def leaf(depth):
    pid = os.fork()
    if pid == 0:
        return "child", depth
    _, status = os.waitpid(pid, 0)
    return "parent", os.waitstatus_to_exitcode(status)


def down(n):
    return leaf(n) if n == 0 else down(n - 1)


def run():
    who, value = down(40)
    if who == "child":
        sys.stdout.write("child returned through %d frames\n" % (40 - value))
        sys.stdout.flush()
        os._exit(7)
    return value


print("parent saw exit status", run())


def total(n):
    return 0 if n == 0 else n + total(n - 1)


print("parent goes on:", total(100))
