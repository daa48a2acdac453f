"""HTML parsing: html.parser over a generated document, counting tags, attributes and text,
as a scraper or a link checker does."""
from html.parser import HTMLParser

import harness


class Counter(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.attrs, self.text, self.links = {}, 0, 0, []

    def handle_starttag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        self.attrs += len(attrs)
        for name, value in attrs:
            if name == "href":
                self.links.append(value)

    def handle_data(self, data):
        self.text += len(data.strip())


DOCUMENT = "<html><body>" + "".join(
    '<div class="c%d" id="d%d"><p>Paragraph %d with <a href="/page/%d">a link</a> and '
    '<b>bold</b> text &amp; an entity.</p><ul>%s</ul></div>' %
    (i % 4, i, i, i, "".join("<li>item %d</li>" % j for j in range(i % 5)))
    for i in range(60)) + "</body></html>"


def workload():
    parser = Counter()
    parser.feed(DOCUMENT)
    parser.close()
    return sorted(parser.tags.items()), parser.attrs, parser.text, len(set(parser.links))


def check(result):
    return None if result == ([('a', 60), ('b', 60), ('body', 1), ('div', 60), ('html', 1), ('li', 120), ('p', 60), ('ul', 60)], 180, 3530, 60) else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("html_scan", workload, check)
