"""Inventory: records kept as dataclasses, as service and data-processing code keeps them.
Generated `__init__`, `__eq__` and `__repr__`, frozen (hashable) keys in dicts and sets,
`dataclasses.replace` for updated copies, `field(default_factory=...)`, and sorting by
`operator.attrgetter`."""
import dataclasses
import operator

import harness


@dataclasses.dataclass(frozen=True)
class Sku:
    family: str
    number: int


@dataclasses.dataclass
class Line:
    sku: Sku
    price: float
    quantity: int = 1
    tags: list = dataclasses.field(default_factory=list)

    def total(self):
        return self.price * self.quantity


@dataclasses.dataclass
class Warehouse:
    name: str
    lines: list = dataclasses.field(default_factory=list)

    def add(self, line):
        for i, old in enumerate(self.lines):
            if old.sku == line.sku:
                self.lines[i] = dataclasses.replace(old, quantity=old.quantity + line.quantity)
                return
        self.lines.append(line)

    def value(self):
        return sum(line.total() for line in self.lines)


FAMILIES = ("bolt", "nut", "gear", "belt", "pump")


def workload():
    houses = [Warehouse("w%d" % i) for i in range(4)]
    for i in range(360):
        sku = Sku(FAMILIES[i % 5], i % 9)
        line = Line(sku, 0.25 * (i % 17 + 1), i % 4 + 1)
        if i % 6 == 0:
            line.tags.append("promo")
        houses[i % 4].add(line)
    stock = {}
    for house in houses:
        for line in house.lines:
            stock[line.sku] = stock.get(line.sku, 0) + line.quantity
    biggest = sorted(houses[0].lines, key=operator.attrgetter("quantity", "price"))[-1]
    same = sum(1 for a in houses[1].lines for b in houses[2].lines if a.sku == b.sku)
    promos = sum(1 for h in houses for line in h.lines if line.tags)
    return (round(sum(h.value() for h in houses), 4), len(stock), repr(biggest.sku),
            biggest.quantity, same, promos)


WANT = (1979.0, 45, "Sku(family='gear', number=8)", 2, 45, 30)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("inventory", workload, check, calls=30)
