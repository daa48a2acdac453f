"""Compile time per function over real code: every Python function of some stdlib modules.

Run under the JIT with compiling on calls switched off, so that only this script compiles:

    a64jit-run --jitlist=-:- benchmarks/compile_time/compile_time.py [--modules M,M...]
        [--percentiles LO:HI] [--require-all] [--json FILE]

(the JIT list `-:-` matches no function, so calls compile nothing).

It imports the modules below, collects every function defined in them (module level,
methods, static and class methods, property accessors; each code object once), compiles
each with `a64jit.force_compile`, and prints how many compiled and the compile time per
function (median, 90th percentile, maximum) with the time per stage, from
`a64jit.stats()`. The times are what `compiler::Compile` measures: building HIR, its
passes, lowering, register allocation, encoding and copying into code memory.

--percentiles LO:HI compiles only the functions between those percentiles of bytecode
length (40:60: the fifth around the median), for profiling what the median function costs.
"""

import importlib
import json
import sys
import types

import a64jit

MODULES = [
    "argparse", "ast", "base64", "bisect", "calendar", "collections", "configparser",
    "copy", "csv", "dataclasses", "datetime", "difflib", "email.message", "email.parser",
    "enum", "fnmatch", "fractions", "functools", "gettext", "glob", "heapq", "html.parser",
    "inspect", "ipaddress", "json.decoder", "json.encoder", "logging", "optparse", "pathlib",
    "pprint", "queue", "random", "re._compiler", "re._parser", "shlex", "statistics",
    "string", "tarfile", "textwrap", "tokenize", "typing", "urllib.parse", "uuid",
    "zipfile",
]


def functions_of(value, seen_classes):
    """Python functions reachable from a module-level value: itself, or a class's members."""
    if isinstance(value, types.FunctionType):
        yield value
    elif isinstance(value, (staticmethod, classmethod)):
        yield from functions_of(value.__func__, seen_classes)
    elif isinstance(value, property):
        for accessor in (value.fget, value.fset, value.fdel):
            if accessor is not None:
                yield from functions_of(accessor, seen_classes)
    elif isinstance(value, type) and value not in seen_classes:
        seen_classes.add(value)
        for member in list(vars(value).values()):
            yield from functions_of(member, seen_classes)


def collect(module_names):
    functions, codes, seen_classes = [], set(), set()
    for name in module_names:
        module = importlib.import_module(name)
        for value in list(vars(module).values()):
            for f in functions_of(value, seen_classes):
                if f.__module__ == module.__name__ and f.__code__ not in codes:
                    codes.add(f.__code__)
                    functions.append(f)
    return functions


def by_percentiles(functions, spec):
    """The functions from percentile LO to HI of bytecode length (spec "LO:HI")."""
    lo, hi = (float(x) for x in spec.split(":"))
    if not 0 <= lo < hi <= 100:
        raise SystemExit(f"compile_time: --percentiles wants LO:HI with 0 <= LO < HI <= 100, "
                         f"not {spec!r}")
    ordered = sorted(functions, key=lambda f: len(f.__code__.co_code))
    n = len(ordered)
    return ordered[int(n * lo / 100):int(n * hi / 100)]


def option(argv, name, default=None):
    return argv[argv.index(name) + 1] if name in argv else default


def main(argv):
    modules = option(argv, "--modules")
    functions = collect(modules.split(",") if modules else MODULES)
    if "--percentiles" in argv:
        functions = by_percentiles(functions, option(argv, "--percentiles"))
    failed = [f for f in functions if not a64jit.force_compile(f)]
    compiled = len(functions) - len(failed)
    s = a64jit.stats()
    figures = {
        "functions": len(functions),
        "compiled": compiled,
        "compile_us_median": s["compile_us_median"],
        "compile_us_p90": s["compile_us_p90"],
        "compile_us_max": s["compile_us_max"],
        "hir_ms": s["compile_hir_ns"] / 1e6,
        "lower_ms": s["compile_lower_ns"] / 1e6,
        "emit_ms": s["compile_emit_ns"] / 1e6,
    }
    print(f"compile_time: {compiled}/{len(functions)} functions compiled; per function: "
          f"median {figures['compile_us_median']} us, p90 {figures['compile_us_p90']} us, "
          f"max {figures['compile_us_max']} us; totals: hir {figures['hir_ms']:.1f} ms, "
          f"lower {figures['lower_ms']:.1f} ms, emit {figures['emit_ms']:.1f} ms")
    if "--json" in argv:
        with open(option(argv, "--json"), "w") as out:
            json.dump(figures, out)
    for f in failed:
        name = f"{f.__module__}:{f.__qualname__}"
        reason = s["failures"].get(name, "no reason recorded")
        print(f"compile_time: not compiled: {name} ({f.__code__.co_filename}:"
              f"{f.__code__.co_firstlineno}): {reason}", file=sys.stderr)
    if compiled == 0:
        print("compile_time: nothing compiled", file=sys.stderr)
        return 1
    return 1 if failed and "--require-all" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
