"""A standalone script that replays the calls of a culprit function captured in a stock run
(A64JIT_CAPTURE, jit/python/call_capture.h) and compares each outcome with the one recorded:
it passes stock and should fail with the JIT compiling that function.

The script rebuilds the function from its source file (the code object with its qualname
and first line, over a fresh copy of its module's globals), so a name the module rebinds
later (`bisect.bisect_right` by `from _bisect import *`) still gives the Python function.
The copy's `__name__` is the original module's, so the JIT names it as it did in the
failing run and the same JIT list (and plant) applies.
"""
import json

TEMPLATE = '''#!/usr/bin/python3.11
"""Reproducer of {function}, written by difftest/bisect: {count} call(s) captured in a run
with no function compiled, replayed and compared with the outcomes recorded then.
  stock (passes):      a64jit-run --no-jit THIS_FILE
  with the JIT (fails): a64jit-run --threshold=0 --jitlist={function} THIS_FILE
"""
import importlib.util
import math
import sys
import types

FILENAME = {filename!r}
MODULE = {module!r}
QUALNAME = {qualname!r}
FIRSTLINENO = {firstlineno!r}
# (positional arguments, keyword-only arguments, *args, **kwargs, recorded outcome)
CALLS = [
{calls}]


def find_code(code):
    if code.co_qualname == QUALNAME and code.co_firstlineno == FIRSTLINENO:
        return code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            found = find_code(const)
            if found is not None:
                return found
    return None


def target():
    spec = importlib.util.spec_from_file_location("a64jit_repro_module", FILENAME)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with open(FILENAME, "rb") as f:
        code = find_code(compile(f.read(), FILENAME, "exec"))
    if code is None:
        sys.exit("reproducer: no function %s at line %d of %s" % (QUALNAME, FIRSTLINENO, FILENAME))
    module.__dict__["__name__"] = MODULE  # the JIT names the function MODULE:QUALNAME
    return types.FunctionType(code, module.__dict__, code.co_name)


def plain(v, depth=0):
    """As the capture decides it (jit/python/call_capture.h): repr() reads back."""
    if depth > 20:
        return False
    if v is None or type(v) in (bool, int, str, bytes):
        return True
    if type(v) is float:
        return math.isfinite(v)
    if type(v) in (tuple, list):
        return len(v) <= 10000 and all(plain(x, depth + 1) for x in v)
    if type(v) is dict:
        return len(v) <= 10000 and all(plain(k, depth + 1) and plain(x, depth + 1)
                                       for k, x in v.items())
    return False


def outcome(f, args, kwargs, varargs, varkw):
    try:
        result = f(*args, *varargs, **kwargs, **varkw)
    except Exception as e:
        return ("raised", type(e).__name__)
    if plain(result):
        return ("result", repr(result))
    return ("result_type", type(result).__name__)


def main():
    f = target()
    failed = 0
    for i, (args, kwargs, varargs, varkw, want) in enumerate(CALLS):
        got = outcome(f, args, kwargs, varargs, varkw)
        if got != want:
            failed += 1
            print("call %d: %s(*%r, **%r): %s %s, recorded %s %s" % (
                i, QUALNAME, args, kwargs, got[0], got[1], want[0], want[1]))
    print("%d of %d call(s) differ" % (failed, len(CALLS)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
'''


def read_calls(path, function, limit=50):
    """(calls, why none): the captured calls of `function` with an outcome."""
    calls, why = [], f"no call of {function} was captured"
    try:
        with open(path) as f:
            lines = f.readlines()
    except FileNotFoundError:
        return [], why
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if record.get("function") != function:
            continue
        if "not_plain" in record:
            why = f"no plain call of {function}: {record['not_plain']}"
            continue
        calls.append(record)
    return calls[:limit], why


def outcome_of(record):
    # call_capture.cc writes tp_name, which for a C type may carry its module
    if "raised" in record:
        return ("raised", record["raised"].rsplit(".", 1)[-1])
    if "result" in record:
        return ("result", record["result"])
    return ("result_type", record.get("result_type", "?").rsplit(".", 1)[-1])


def write(calls, function, path):
    first = calls[0]
    module, qualname = function.split(":", 1)
    rows = "".join(
        "    ({}, {{{}}}, {}, {}, {!r}),\n".format(
            "[" + ", ".join(c["args"]) + "]",
            ", ".join(f"{k!r}: {v}" for k, v in c["kwargs"].items()),
            c.get("varargs", "()"), c.get("varkw", "{}"), outcome_of(c))
        for c in calls)
    with open(path, "w") as f:
        f.write(TEMPLATE.format(function=function, count=len(calls), filename=first["filename"],
                                module=module, qualname=qualname,
                                firstlineno=first["firstlineno"], calls=rows))
