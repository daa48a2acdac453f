# pydiff: all-compiled
# Methods of instances that have neither inline values nor a dict yet: subclasses of list and
# dict, whose builtin tp_new does not set up inline values (a64_load_method_cached takes the
# type's method for them: WithoutDict). An instance attribute set later shadows the method at
# the same site, a dict made by reading __dict__ holds nothing, and a plain class's instance
# whose inline values hold the name (its class's shared keys grew) is not taken for one
# without values.


class Stack(list):
    def push(self, x):
        self.append(x)

    def top(self):
        return self[-1]


class Registry(dict):
    def register(self, key, value):
        self[key] = value
        return self.lookup(key)

    def lookup(self, key):
        return self.get(key)


class Plain:
    def push(self, x):
        return ("plain", x)


def use_stack(s, n):
    for i in range(n):
        s.push(i)
    return s.top(), len(s)


def use_registry(r, n):
    return [r.register("k%d" % i, i) for i in range(n)]


def push_all(items):
    return [p.push(i) for i, p in enumerate(items)]


def main():
    stacks = [Stack() for _ in range(3)]
    for s in stacks:
        print(use_stack(s, 30))
    stacks[1].__dict__  # a dict, empty: still the type's methods
    print(use_stack(stacks[1], 5))
    stacks[2].push = lambda x: print("shadowed push", x)  # an own attribute shadows it
    stacks[2].top = lambda: "shadowed top"
    print(use_stack(stacks[2], 2))
    print(use_stack(Stack(), 3))
    for _ in range(3):
        print(use_registry(Registry(), 4))
    r = Registry()
    r.lookup = lambda key: "own lookup of " + key
    print(use_registry(r, 2))
    plains = [Plain() for _ in range(3)]
    print(push_all(plains))
    # An own attribute in inline values: the class's shared keys grow, and the site must look.
    plains[1].push = lambda x: ("own push", x)
    print(push_all(plains))


main()
