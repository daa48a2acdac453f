# pydiff: all-compiled
# pydiff: env=PYTHONMALLOC=pymalloc_debug
# A site's cache holds a class attribute's value borrowed, guarded by the class and its
# version. Here the classes die between calls (a class is in a reference cycle, so only the
# collector frees it, and its attributes with it), and the same sites then read classes made
# anew, often at the dead one's address. Under the debug allocator the dead values' memory is
# poisoned, so a stub that read a value before its guards would fault where the interpreter
# runs on. Values without __get__ (the stub's own hit) and with one (the helper's), read through
# the class and through an instance.
import gc


class Plain:
    pass


class Getter:
    def __get__(self, obj, owner):
        return ("got", obj is None, owner.__name__)


def make(label):
    class Holder:
        MARK = Plain()
        TAG = label
        VIA = Getter()

        def method(self):
            return label

    return Holder


def through_class(cls):
    return (type(cls.MARK).__name__, cls.TAG, cls.VIA, cls.method.__name__)


def through_instance(obj):
    return (type(obj.MARK).__name__, obj.TAG, obj.VIA, obj.method())


def churn(rounds):
    seen = []
    for i in range(rounds):
        cls = make("round%d" % i)
        for _ in range(3):
            seen.append(through_class(cls))
            seen.append(through_instance(cls()))
        del cls
        # Garbage of other shapes between, so that freed memory is reused as something else.
        junk = [[j] * 3 for j in range(50)]
        del junk
        gc.collect()
    return seen


def main():
    seen = churn(8)
    print(len(seen))
    for row in seen[:2] + seen[-2:]:
        print(row)


main()
