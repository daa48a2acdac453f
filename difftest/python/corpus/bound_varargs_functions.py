# pydiff: threshold=5
# pydiff: all-compiled
# C functions of the METH_VARARGS convention held in a local and called at a compiled site: a
# method bound from its object (`startswith = s.startswith`, as html.parser does; a new bound
# object on every call of the function that makes it) and another module's function
# (time.strftime, _elementtree.SubElement). The site's cache holds their PyMethodDef and calls
# them through a trampoline with each callable's own self: str's search methods through their
# own entries, any other through an argument tuple. Their errors with tracebacks, keyword
# arguments (the generic path), a str subclass's bound method, two methods of one convention
# taking turns at one site, and the references of the objects they are bound to.
import sys
import time
import traceback
import xml.etree.ElementTree as ET


class Text(str):
    pass


def prefixes(s, n):
    startswith = s.startswith
    endswith = s.endswith
    out = 0
    for i in range(n):
        if startswith("<", i):
            out += 1
        if startswith(("ab", "<a"), i, i + 5):
            out += 10
        if endswith(">", 0, len(s) - i):
            out += 100
    return out


def searches(s, n):
    find, rfind, count, index = s.find, s.rfind, s.count, s.index
    out = []
    for i in range(n):
        out.append((find("a", i), rfind("a", None, i + 1), count("a", i, None), find("a", -3)))
        try:
            out.append(index("z", i))
        except ValueError:
            out.append("no z at %d" % i)
    return out


def bad_calls(s):
    startswith = s.startswith
    out = []
    for arg in [1, None, ("<", 2)]:
        try:
            out.append(startswith(arg))
        except TypeError as e:
            line = traceback.extract_tb(e.__traceback__)[-1].lineno
            out.append("line %d: %s" % (line, e))
    # a bound that is no int; no argument at all (each a plain call of the held method)
    for call in (lambda: startswith("<", "x"), lambda: startswith()):
        try:
            out.append(call())
        except TypeError as e:
            out.append("TypeError: %s" % e)
    return out


def others(n):
    out = []
    fmt = "{}-{}".format
    tail = b"abc".startswith
    for i in range(n):
        m = ("k%d" % i).startswith
        out.append((fmt(i, i * 2), tail(b"ab", 0, i), m("k"), m("k", 1)))
        try:
            out.append(tail("a"))  # bytes' own method, not str's of the same name
        except TypeError as e:
            out.append("TypeError: %s" % e)
    return out


def groups(n):
    import re
    out = []
    for i in range(n):
        group = re.match(r"(\w)(\d+)", "x%d" % i).group
        out.append((group(0), group(1, 2), group(2)))
        try:
            group(3)
        except IndexError as e:
            out.append(str(e))
    return out


def module_functions(n):
    strftime = time.strftime
    sub = ET.SubElement
    root = ET.Element("root")
    out = []
    stamp = time.gmtime(86400 * 365)
    for i in range(n):
        out.append(strftime("%Y-%m-%d", stamp))
        sub(root, "item", {"i": str(i)})
    try:
        sub(root)
    except TypeError as e:
        out.append("TypeError: %s" % e)
    return out, len(root), root[-1].get("i")


def keyword_calls(n):
    sub = ET.SubElement
    root = ET.Element("root")
    for i in range(n):
        sub(root, "k", attrib={"i": str(i)}, extra="yes")
    return [e.attrib for e in root[-2:]]


def taking_turns(n):
    out = []
    for i in range(n):
        f = "abc".startswith if i % 2 else "abc".endswith
        out.append(f("a" if i % 2 else "c"))
    return out


def on_subclass(n):
    t = Text("<tag>")
    startswith = t.startswith
    return [startswith("<", i) for i in range(n)]


for _ in range(8):  # warm every function past the threshold, then use them
    prefixes("<ab>", 3)
    searches("banana", 2)
    bad_calls("<x")
    others(2)
    groups(2)
    module_functions(2)
    keyword_calls(2)
    taking_turns(2)
    on_subclass(2)

print(prefixes("<ab><abc>" * 3, 20))
print(searches("banana", 8))
print(bad_calls("<x>"))
print(others(4))
print(groups(4))
print(module_functions(5))
print(keyword_calls(4))
print(taking_turns(6))
print(on_subclass(4))
s = "<held>" * 3
before = sys.getrefcount(s)
print(prefixes(s, 10), "references of the str after:", sys.getrefcount(s) - before)
