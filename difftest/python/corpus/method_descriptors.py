# pydiff: all-compiled
# Calls of C methods of builtin types through LOAD_METHOD's pair, which compiled code makes
# inline for the descriptor its site cached (jit/hir/known_calls.h kMethodDescriptor):
# METH_NOARGS, METH_O and METH_FASTCALL with none, one and two arguments; errors raised by
# the method; receivers the guard sends to the call stub (a subclass, another builtin type
# at the same site, a class of our own with a method of the same name); and the references
# of self, the arguments and the result, counted on marker objects.
import sys


class Registry:
    def get(self, key, default=None):
        return ("registry", key, default)

    def setdefault(self, key, value):
        return ("registry setdefault", key, value)


class Words(list):
    pass


def reads(d, key, marker):
    total = 0
    for _ in range(50):
        if d.get(key) is marker:  # METH_FASTCALL, one argument
            total += 1
        if d.get("absent", marker) is marker:  # two arguments
            total += 1
        total += len(d.items())  # METH_NOARGS
    return total


def edits(items, marker):
    for _ in range(50):
        items.insert(0, marker)  # METH_FASTCALL, two arguments
        items.remove(marker)  # METH_O
        items.extend((marker, marker))
        items.pop()
        items.pop()
    return len(items)


def errors(items, d):
    caught = []
    for key in ("x", "y"):
        try:
            items.remove(key)  # ValueError from the C method
        except ValueError as e:
            caught.append(str(e))
        try:
            d.pop(key)
        except KeyError as e:
            caught.append(repr(e))
    try:
        "abc".index("z")
    except ValueError as e:
        caught.append(str(e))
    return caught


def text(s):
    return s.isdigit(), s.strip().upper(), s.split(",", 1), s.startswith("1"), s.zfill(6)


def any_receiver(obj):
    return obj.get("k", 0), obj.setdefault("n", len(obj) if isinstance(obj, dict) else -1)


def main():
    marker = object()
    d = {"key": marker}
    items = [1, 2]
    before = (sys.getrefcount(marker), sys.getrefcount(d), sys.getrefcount(items))
    print(reads(d, "key", marker), edits(items, marker), items)
    after = (sys.getrefcount(marker), sys.getrefcount(d), sys.getrefcount(items))
    print("leaked references:", [a - b for a, b in zip(after, before)])
    print(errors([1, 2], {"a": 1}))
    for s in ("12", " a,b ", "123,4", b"12".decode()):
        print(text(s))
    for obj in (Words([1, 2]), [4, 5], Words([3])):
        print(type(obj).__name__, obj.pop(), obj)
    for obj in ({"k": 1, "z": 9}, Registry(), {"z": 2, "k": 0}):
        print(any_receiver(obj))


main()
