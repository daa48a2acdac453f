"""Data wrangling: CSV written and read through io.StringIO, rows grouped with defaultdict and
Counter, sorted with keys and summarised, as a reporting script does."""
import collections
import csv
import io

import harness

REGIONS = ["north", "south", "east", "west", "centre"]


def make_csv():
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(["id", "region", "product", "units", "price"])
    for i in range(400):
        w.writerow([i, REGIONS[i % 5], "p%d" % (i * 7 % 23), i % 17 + 1, "%.2f" % (3 + i % 11 * 0.75)])
    return out.getvalue()


TEXT = make_csv()


def workload():
    by_region = collections.defaultdict(float)
    products = collections.Counter()
    for row in csv.DictReader(io.StringIO(TEXT)):
        amount = int(row["units"]) * float(row["price"])
        by_region[row["region"]] += amount
        products[row["product"]] += int(row["units"])
    ranking = sorted(by_region.items(), key=lambda kv: (-kv[1], kv[0]))
    out = io.StringIO()
    w = csv.writer(out)
    for region, total in ranking:
        w.writerow([region, "%.2f" % total])
    return out.getvalue(), products.most_common(3)


def check(result):
    want = ("centre,4824.75\r\nnorth,4819.50\r\nwest,4812.00\r\nsouth,4763.25\r\n"
            "east,4736.25\r\n", [("p10", 162), ("p3", 161), ("p19", 160)])
    return None if result == want else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("csv_report", workload, check)
