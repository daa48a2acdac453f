"""Run by native_tools_test.sh under a64jit-run with --perf-map and --jitdump: compiles a few
functions, forks a child that compiles one more, and writes what the JIT says about each
(address, size, a hash of its code bytes) as JSON to argv[1] (the child to argv[1] + ".child")
for check.py to compare with the files."""

import ctypes
import hashlib
import json
import os
import sys

import a64jit


def add(a, b):
    return a + b


def scale(a, b):
    return a * b


def both(x):
    return add(x, 1) + scale(x, 2)


def describe(functions):
    out = {"pid": os.getpid(), "functions": {}}
    for f in functions:
        address, size = a64jit.get_code_address(f), a64jit.get_compiled_size(f)
        assert address and size, f.__qualname__
        code = ctypes.string_at(address, size)
        out["functions"]["__main__:" + f.__qualname__] = {
            "address": address, "size": size, "sha256": hashlib.sha256(code).hexdigest(),
            "compile_s": a64jit.get_compilation_time(f)}
    return out


assert both(5) == 16
listed = [add, scale, both]
pid = os.fork()
if pid == 0:
    def child_only(x):
        return x - 1
    assert child_only(1) == 0
    with open(sys.argv[1] + ".child", "w") as f:
        json.dump(describe(listed + [child_only]), f)
    os._exit(0)
_, status = os.waitpid(pid, 0)
assert status == 0, status
with open(sys.argv[1], "w") as f:
    json.dump(describe(listed), f)
print("compiled", len(a64jit.get_compiled_functions()))
