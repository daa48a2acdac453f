# pydiff: all-compiled
# Sites whose caches hold a class's attribute (read through the class, or through an instance
# of a class whose instances keep inline values) then get objects of other kinds: a large str
# and bytes (the bytes in a mapping of its own, with nothing mapped below it), a bytearray and
# a small str. The attribute names are ones those objects have too, so the loads succeed both
# ways. Code that read the words below an instance before checking what the object is would
# fault on the large bytes.


class Counter:
    upper = "class upper"
    count = "class count"

    def __init__(self):
        self.n = 1


def through_instance(o):
    return o.upper


def through_count(o):
    return o.count


def through_class(c):
    return c.upper


def main():
    seen = []
    plain = Counter()
    for _ in range(4):
        seen.append(through_instance(plain))
        seen.append(through_count(plain))
        seen.append(through_class(Counter))
    big_str = "x" * (1 << 20)
    # Past glibc's largest mmap threshold (32 MiB), so the allocation has a mapping of its own
    # with a gap below it, natively and under QEMU. Each site sees it first (after a miss, a
    # site's entry may change to the newcomer's type).
    big_bytes = b"y" * (64 << 20)
    for o in (big_bytes, big_str, bytearray(b"z"), "small"):
        seen.append(through_instance(o).__qualname__)
        seen.append(through_count(o).__qualname__)
        seen.append(through_class(o).__qualname__)
    for _ in range(2):
        seen.append(through_instance(plain))
        seen.append(through_class(Counter))
    print(len(seen))
    for row in seen:
        print(row)


main()
