# pydiff: all-compiled
# Ordering a str against a one-character ASCII constant, decided inline by first characters
# (compares.cc StrOrderAgainstChar): every operator with the constant on either side, one and
# several characters, the constant's own character followed by more, the empty str, non-ASCII
# strs, a str subclass, and a non-str operand (TypeError), as a character class test in a
# loop, a comprehension and a generator expression.


def classes(text):
    return [("a" <= c <= "z", c < "m", "m" > c, c >= "z", "z" < c, "0" <= c <= "9", c <= "m",
             "m" >= c) for c in text]


def shifted(text, k):
    return "".join(chr((ord(c) - 97 + k) % 26 + 97) if "a" <= c <= "z" else c for c in text)


def count_lower(words):
    n = 0
    for w in words:
        if "a" <= w <= "z":
            n += 1
    return n


class Word(str):
    pass


WORDS = ["a", "z", "m", "", "ab", "za", "zz", "mm", "m", "l~", "é", "Zebra", "0", "9", "90",
         "~", "{", "`", "\x7f", "\x00", "ünïcode", "m\u20ac"]
for w in WORDS:
    print(repr(w), classes([w]), count_lower([w]))
print(classes("Hello, World 42!"))
print(shifted(shifted("the quick brown fox, 1234.", 7), 19))
print(count_lower(WORDS), count_lower([Word("b"), Word(""), Word("zz")]))
print(classes([Word("q"), Word("")]))
for bad in (1, None, 2.5):
    try:
        count_lower([bad])
    except TypeError as e:
        print(type(e).__name__, e)
