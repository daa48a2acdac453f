# pydiff: all-compiled
# C functions of the METH_FASTCALL | METH_KEYWORDS convention called without keywords: the
# call site's cache calls their C entry with NULL keyword names (jit/python/helpers.cc
# CEntryOf), as 3.11's PRECALL_*_FAST_WITH_KEYWORDS do. Method descriptors through
# LOAD_METHOD (str.split, bytes.decode, int.to_bytes, list.sort, a compiled pattern's sub
# with a compiled callback), builtins (sorted, round), a site that sees a str subclass (the
# cached type no longer matches), one that sees two methods of one name, errors raised by
# the C function itself, and keyword calls at sites of their own. Then METH_VARARGS method
# descriptors, which the cache calls through a64_varargs_method with the descriptor as its
# context: str.startswith, find, count, a match's group, str.format (METH_KEYWORDS too), the
# inline path of known method names and the call stub's, a subclass receiver, and errors. And
# METH_METHOD methods (re.Pattern.match, search, sub, fullmatch), which take their defining
# class: through a64_defining_class_method.
import re


def split_all(lines):
    return [s.split(",") for s in lines]


def split_twice(s):
    return s.split(",", 1)


def decode_all(blobs):
    return [b.decode("utf-8") for b in blobs]


def to_bytes_all(values):
    return [v.to_bytes(2, "big") for v in values]


def sort_in_place(rows):
    for r in rows:
        r.sort()
    return rows


def sorted_all(rows):
    return [sorted(r) for r in rows]


def round_all(values):
    return [round(v) for v in values]


WORD = re.compile(r"[a-z]+")


def shout(m):
    return m.group(0).upper()


def shout_words(texts):
    return [WORD.sub(shout, t) for t in texts]


def count_words(pattern, texts):
    return [len(pattern.findall(t)) for t in texts]


class Text(str):
    def split(self, sep=None, maxsplit=-1):
        return ["sub"] + str.split(self, sep, maxsplit)


def join_calls(objs):
    # One site, two receivers whose `split` differ: str's C method, then a Python override.
    return [o.split(",") for o in objs]


def errors(values):
    out = []
    for v in values:
        try:
            out.append(v.to_bytes(1, "big"))
        except OverflowError as e:
            out.append("OverflowError: %s" % e)
    for s in ("a,b", "c"):
        try:
            out.append(s.split(",", "x"))
        except TypeError as e:
            out.append("TypeError: %s" % e)
    return out


def keyword_sites(lines):
    return [s.split(sep=",", maxsplit=1) for s in lines] + [sorted([3, 1, 2], reverse=True)]


def scan(texts):
    out = []
    for t in texts:
        out.append((t.startswith("ab"), t.endswith(("z", "c")), t.find("b"), t.rfind("b", 1)))
        out.append((t.count("b"), t.count("b", 1, 3), t.startswith("b", 1)))
    return out


def groups(texts):
    out = []
    for t in texts:
        m = WORD.search(t)
        out.append(m.group(0) if m is not None else None)
        if m is not None:
            out.append(m.span())
    return out


def formats(values):
    return ["{}-{}".format(v, v * 2) for v in values] + ["{0!r:>6}".format(v) for v in values]


class Line(str):
    def startswith(self, prefix, *rest):
        return "sub:" + str(str.startswith(self, prefix, *rest))


def varargs_errors(texts):
    out = []
    for t in texts:
        try:
            out.append(t.startswith())
        except TypeError as e:
            out.append("TypeError: %s" % e)
        try:
            out.append(t.find("a", "x"))
        except TypeError as e:
            out.append("TypeError: %s" % e)
        try:
            out.append("{} {}".format(t))
        except IndexError as e:
            out.append("IndexError: %s" % e)
    return out


NUMBER = re.compile(r"[0-9]+")


def patterns(texts):
    out = []
    for t in texts:
        m = NUMBER.match(t)
        out.append((m.group(0) if m else None, bool(NUMBER.search(t)), NUMBER.sub("#", t)))
        out.append((NUMBER.fullmatch(t) is not None, NUMBER.findall(t), NUMBER.split(t)))
    for p in (WORD, NUMBER, WORD):
        out.append([p.match(t) is not None for t in texts])
    try:
        NUMBER.match(5)
    except TypeError as e:
        out.append("TypeError: %s" % e)
    return out


def main():
    lines = ["a,b,c", "d,e", "f"] * 4
    print(split_all(lines))
    print([split_twice(s) for s in lines])
    print(decode_all([b"x", "\u00e9t\u00e9".encode(), b""] * 3))
    print(to_bytes_all([1, 258, 65535] * 3))
    print(sort_in_place([[3, 1, 2], ["b", "a"], []] * 3))
    print(sorted_all([[3, 1, 2], (9, 8), "cba"] * 3))
    print(round_all([1.5, 2.5, -0.4, 7] * 3))
    print(shout_words(["hello world", "a1b2", ""] * 3))
    print(count_words(WORD, ["one two", "x", "3 4"] * 3))
    print(join_calls(["a,b"] * 3 + [Text("c,d")] * 3 + ["e,f"] * 3))
    print(errors([1, 255, 256, -1]))
    print(keyword_sites(lines))
    texts = ["abc", "bbb", "", "xbz"] * 3
    print(scan(texts))
    print(scan([Line("abc"), "abc", Line("bz")] * 2))
    print(groups(["hello world", "123", "x"] * 3))
    print(formats([1, "a", 2.5] * 3))
    print(varargs_errors(["ab", "c"] * 2))
    print(patterns(["12ab", "x9", "", "007"] * 3))


main()
