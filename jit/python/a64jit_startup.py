"""Switches the a64jit JIT on as Python starts, when asked to (see jit/python/README.md).

`bazel run //jit/python:install` puts this module and a64jit-startup.pth, whose one line
imports it, into a site directory, so that site.py runs it in every python3.11 process. It
does nothing unless asked:

  PYTHONJIT=1, A64JIT=1 or -X jit        functions compiled once they prove hot, within
                                         the compile budget (a64jit-run's --threshold=auto)
  PYTHONJITAUTO=N or -X jit-auto=N       a function compiled on its call N + 1 (0: every
                                         function on its first call)
  PYTHONJITLISTFILE=F or -X jit-list-file=F
                                         only the functions file F lists (a64jit-run's
                                         --jitlist-file format)
  PYTHONJITDISABLE=1                     never, whatever else is set

An A64JIT_* variable (a64jit-run --help) set as well takes precedence over these. If the JIT
cannot be switched on, the process goes on stock and says why on stderr.
"""

import os
import sys


def _on(value):
    return value is not None and value not in ("", "0")


def _setting(variable, xoption):
    """An -X option's value (True for a bare -X name, as "1"), else the variable's."""
    value = sys._xoptions.get(xoption)
    if value is not None:
        return "1" if value is True else value
    return os.environ.get(variable)


def _switch_on():
    if _on(os.environ.get("PYTHONJITDISABLE")):
        return
    auto = _setting("PYTHONJITAUTO", "jit-auto")
    list_file = _setting("PYTHONJITLISTFILE", "jit-list-file")
    asked = _on(_setting("PYTHONJIT", "jit")) or _on(os.environ.get("A64JIT"))
    if not (asked or auto or list_file):
        return
    # a64jit reads its A64JIT_* settings when imported, and switches itself on.
    # A list file alone compiles what it lists on the first call, as CinderX does.
    os.environ.setdefault("A64JIT_THRESHOLD", auto or ("0" if list_file and not asked else "auto"))
    if list_file:
        os.environ.setdefault("A64JIT_JITLIST_FILE", list_file)
    try:
        import a64jit  # noqa: F401
    except Exception as e:  # a bad setting or a missing library: stock, and say so
        print("a64jit: the JIT is not on: %s" % e, file=sys.stderr)


_switch_on()
