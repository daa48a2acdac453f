"""Templating: a page rendered from nested data with string.Template, str.format_map and
html.escape, as a small site generator renders each page."""
import html
import string

import harness

ROW = string.Template('<tr class="$cls"><td>$name</td><td>$qty</td><td>$price</td></tr>')
PAGE = "<html><head><title>{title}</title></head><body><h1>{title}</h1>{intro}" \
       "<table>{rows}</table><p>{footer}</p></body></html>"
PRODUCTS = [{"name": "Item <%d> & co" % i, "qty": i % 9, "price": "%.2f" % (i * 1.25)}
            for i in range(80)]


def render(title, products):
    rows = "".join(ROW.substitute(cls="odd" if i % 2 else "even", name=html.escape(p["name"]),
                                  qty=p["qty"], price=p["price"])
                   for i, p in enumerate(products) if p["qty"])
    return PAGE.format_map({"title": html.escape(title), "intro": "<p>%d products</p>" % len(products),
                            "rows": rows, "footer": "&copy; the suite"})


def workload():
    pages = [render("Page %d" % k, PRODUCTS[k:] + PRODUCTS[:k]) for k in range(0, 80, 8)]
    return sum(map(len, pages)), pages[3].count("<tr")


def check(result):
    return None if result == (56906, 71) else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("templating", workload, check)
