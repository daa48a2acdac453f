# pydiff: all-compiled
# str.startswith, endswith, find, rfind, index, rindex and count, which 3.11 defines METH_VARARGS
# (an argument tuple parsed by format): with a str and bounds that are None or exact ints the
# JIT's call site calls the public function the method ends in (str_search.h), and anything
# else takes the method itself. Bounds negative, past either end, reversed, at an int's
# one-digit limit, beyond 64 bits, bool and __index__ objects (their calls printed in order);
# empty, non-ASCII and astral strs on either side; tuples of prefixes, subclasses on either
# side, bytes; errors: a missing substring for index and rindex, an int substring, too many or
# no arguments, a float bound; the bound method held in a local. Each site runs several times,
# so the cache's entry serves all but the first call.

import zlib

BIG = 1 << 70
DIGIT = 1 << 30  # 3.11's ints below it in magnitude have one digit
BOUNDS = (None, 0, 1, 3, -1, -3, 9, 40, -40, BIG, -BIG, DIGIT - 1, -DIGIT, True, False)


class Index:
    def __init__(self, v, log):
        self.v = v
        self.log = log

    def __index__(self):
        self.log.append(self.v)
        return self.v


class Text(str):
    pass


def searches(s, sub):
    out = []
    for a in BOUNDS:
        out.append((s.startswith(sub, a), s.endswith(sub, a), s.find(sub, a), s.rfind(sub, a),
                    s.count(sub, a)))
        for b in BOUNDS:
            out.append((s.startswith(sub, a, b), s.endswith(sub, a, b), s.find(sub, a, b),
                        s.rfind(sub, a, b), s.count(sub, a, b)))
    out.append((s.startswith(sub), s.endswith(sub), s.find(sub), s.rfind(sub), s.count(sub)))
    return out


def indexes(s, sub, a, b):
    out = []
    for call in (lambda: s.index(sub), lambda: s.rindex(sub), lambda: s.index(sub, a),
                 lambda: s.rindex(sub, a, b)):
        try:
            out.append(call())
        except ValueError as e:
            out.append("ValueError: %s" % e)
    return out


def odd_arguments(s):
    log = []
    out = [s.startswith(("x", "ab")), s.endswith(("ij", "q"), 2), s.find(Text("c")),
           s.count(Text("a"), Index(0, log)), s.rfind("a", Index(-20, log), Index(5, log)),
           s.startswith("b", Index(1, log)), Text(s).find("c"), Text(s).startswith("ab"),
           b"bytes".find(b"t"), b"bytes".startswith(b"by", 0, 3), bytearray(b"xy").count(b"y")]
    return out, log


def bad_calls(s):
    out = []
    for call in (lambda: s.find(3), lambda: s.startswith(3), lambda: s.count(), lambda: s.find(),
                 lambda: s.rfind("a", 0, 1, 2), lambda: s.index("a", 1.5), lambda: s.endswith(
                     "a", None, "x"), lambda: s.count(None), lambda: s.rindex(b"a")):
        try:
            out.append(call())
        except (TypeError, ValueError) as e:
            out.append("%s: %s" % (type(e).__name__, e))
    return out


def held(s):
    find = s.find
    starts = s.startswith
    return [find("c"), find("c", 4), starts("abc"), starts("c", 2, 3), str.count(s, "a", 1)]


def run_all(texts, subs):
    lines = []
    for i, s in enumerate(texts):
        for j, sub in enumerate(subs):
            # 240 results a pair: a checksum of their repr keeps the output small and still
            # names the pair that differs.
            lines.append("%d %d %08x %s" % (i, j, zlib.crc32(repr(searches(s, sub)).encode()),
                                            indexes(s, sub, 1, -1)))
    lines.append(repr(odd_arguments("abcdefghij")))
    lines.append(repr(bad_calls("abcabc")))
    lines.append(repr(held("abcdefabc")))
    return lines


def main():
    texts = ["abcdefghij", "", "aaaa", "\u00e9t\u00e9 \u00e9t\u00e9", "\U0001f600a\U0001f600a",
             "\u4e2d\u6587abc\u4e2d"]
    subs = ["", "a", "ab", "ij", "\u00e9", "\U0001f600a", "\u4e2d", "zz", "abcdefghijk"]
    first = run_all(texts, subs)
    print("\n".join(first))
    print([run_all(texts, subs) == first for _ in range(2)])
    print(searches("abcdefghij", "c")[:20])


main()
