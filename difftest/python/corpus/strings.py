# pydiff: all-compiled
# Strings and formatting: f-strings with conversions and specs, concatenation, unpacking,
# slicing, methods.


def fmt(name, value):
    return f"{name!r}: {value:>8.3f} | {value!s} | {name.upper()}"


def split_pair(text):
    head, tail = text.split(":", 1)
    a, (b, c) = head, (tail, len(tail))
    return a.strip(), b.strip(), c


def slices(s):
    return s[1:], s[:-1], s[::2], s[1:4:2], s[-3:]


def build(parts):
    out = ""
    for p in parts:
        out += p + ","
    return out


def unpack_errors(x):
    a, b = x
    return a, b


print(fmt("pi", 3.14159), fmt("e", -1))
print(split_pair(" key : some value "))
print(slices("abcdefgh"), build(["x", "y", "z"]))
for bad in [(1, 2, 3), (1,), 5]:
    try:
        unpack_errors(bad)
    except (ValueError, TypeError) as e:
        print(type(e).__name__ + ":", e)
