"""cinderx.jit's names over a64jit, so that a script written for CinderX's JIT API runs here.

Installed beside a64jit by //jit/python:install; `import cinderjit` works whether the JIT is
on or not. jit/python/README.md lists what differs from cinderx.jit. Functions that CinderX
has and a64jit does not (force_uncompile, lazy_compile) are left out, so that a script
asking for them fails at once rather than seeming to work.
"""

import contextlib
import fnmatch
import gc
import types

import a64jit

__all__ = [
    "append_jit_list",
    "compile_after_n_calls",
    "disable",
    "enable",
    "force_compile",
    "get_compilation_time",
    "get_compile_after_n_calls",
    "get_compiled_functions",
    "get_compiled_size",
    "get_function_compilation_time",
    "get_jit_list",
    "is_enabled",
    "is_jit_compiled",
    "jit_suppress",
    "pause",
    "precompile_all",
    "read_jit_list",
    "set_max_code_size",
]

is_enabled = a64jit.is_enabled
disable = a64jit.disable
force_compile = a64jit.force_compile
is_jit_compiled = a64jit.is_jit_compiled
get_compiled_size = a64jit.get_compiled_size
set_max_code_size = a64jit.set_max_code_size
get_jit_list = a64jit.get_jitlist
append_jit_list = a64jit.append_jitlist
get_compile_after_n_calls = a64jit.get_threshold


def enable():
    """Switches the JIT on with the threshold in force (compile_after_n_calls)."""
    a64jit.enable(threshold=a64jit.get_threshold())


def compile_after_n_calls(n):
    """Compiles a function once it has been called n times (0: on its first call)."""
    a64jit.set_threshold(n)


def jit_suppress(func):
    """Never compiles `func`; returns it, so that it serves as a decorator."""
    a64jit.suppress(func)
    return func


def read_jit_list(path):
    """Appends the 'module:qualname' lines of file `path` (# starts a comment) to the list."""
    with open(path) as f:
        for line in f:
            entry = line.split("#", 1)[0].strip()
            if entry:
                a64jit.append_jitlist(entry)


def _functions():
    return [o for o in gc.get_objects() if isinstance(o, types.FunctionType)]


def get_compiled_functions():
    """The function objects whose code is compiled (a64jit's own returns their names)."""
    return [f for f in _functions() if a64jit.is_jit_compiled(f)]


def precompile_all():
    """Compiles every live function the JIT list admits (all, with no list) now; True if all
    of them compiled."""
    patterns = a64jit.get_jitlist()
    ok = True
    for f in _functions():
        name = "%s:%s" % (f.__module__, f.__qualname__)
        if patterns and not any(fnmatch.fnmatchcase(name, p) for p in patterns):
            continue
        ok = a64jit.force_compile(f) and ok
    return ok


def get_function_compilation_time(func):
    """Milliseconds compiling `func` took, or None when it is not compiled."""
    seconds = a64jit.get_compilation_time(func)
    return None if seconds is None else seconds * 1000.0


def get_compilation_time():
    """Milliseconds spent compiling in all."""
    return a64jit.stats()["compile_ns_total"] / 1e6


@contextlib.contextmanager
def pause():
    """Runs the block with the JIT off (compiled functions run interpreted meanwhile)."""
    was_on = a64jit.is_enabled()
    threshold = a64jit.get_threshold()
    a64jit.disable()
    try:
        yield
    finally:
        if was_on:
            a64jit.enable(threshold=threshold)
