# pydiff: all-compiled
# str[i] (sequences.cc StrCharAt): ASCII strings inline, and everything the inline path must leave
# to str's own item lookup: non-ASCII text (Latin-1, BMP, astral), negative and out-of-range
# indexes, a bool index, a str subclass with its own __getitem__, and a non-int index.


class Shouting(str):
    def __getitem__(self, i):
        return str.__getitem__(self, i).upper()


def chars(s):
    return [s[i] for i in range(len(s))]


def pick(s, i):
    try:
        return s[i]
    except IndexError as e:
        return "IndexError: " + str(e)
    except TypeError as e:
        return "TypeError: " + str(e)


def main():
    samples = ["hello", "", "x", "caf\u00e9", "\u20ac10", "a\U0001f600b", "tab\there"]
    for s in samples:
        print(repr(s), chars(s))
        print([pick(s, i) for i in (0, 1, -1, len(s), -len(s) - 1, True, 2 ** 40)])
    print(pick(Shouting("quiet"), 2), pick("abc", "1"), pick("abc", 1.0))
    word = "tokenize"
    out = []
    i = 0
    while i < len(word):
        c = word[i]
        out.append(c is chr(ord(c)))  # one-character ASCII strs are shared singletons
        i += 1
    print(out)


main()
