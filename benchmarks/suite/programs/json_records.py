"""Serialisation: records built as dataclasses, turned into dicts, written as JSON text and
read back, as a web service's handler does per request."""
import dataclasses
import json

import harness


@dataclasses.dataclass
class Item:
    sku: str
    quantity: int
    price: float
    tags: list


@dataclasses.dataclass
class Order:
    order_id: int
    customer: str
    items: list
    paid: bool


def make_orders(count):
    orders = []
    for i in range(count):
        items = [Item("sku-%d-%d" % (i, j), j + 1, 0.5 * (i % 7 + j), ["t%d" % (j % 3)])
                 for j in range(i % 5 + 1)]
        orders.append(Order(i, "customer %d" % (i % 13), items, i % 2 == 0))
    return orders


ORDERS = make_orders(60)


def workload():
    text = json.dumps([dataclasses.asdict(o) for o in ORDERS], sort_keys=True)
    back = json.loads(text)
    total = sum(it["quantity"] * it["price"] for o in back for it in o["items"])
    return len(text), round(total, 2), sum(o["paid"] for o in back)


def check(result):
    return None if result == (16022, 1032.5, 30) else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("json_records", workload, check)
