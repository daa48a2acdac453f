"""Markdown to HTML: block splitting, regular expressions with callables, escaping."""
import html
import re

import harness

INLINE = [(re.compile(r"\*\*(.+?)\*\*"), r"<b>\1</b>"), (re.compile(r"\*(.+?)\*"), r"<i>\1</i>"),
          (re.compile(r"`([^`]+)`"), r"<code>\1</code>")]
LINK = re.compile(r"\[([^\]]+)\]\(([^)]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*)$")


def inline(text):
    text = html.escape(text, quote=False)
    for pattern, repl in INLINE:
        text = pattern.sub(repl, text)
    return LINK.sub(lambda m: '<a href="%s">%s</a>' % (m.group(2), m.group(1)), text)


def render(source):
    out = []
    para = []
    items = []

    def flush():
        if para:
            out.append("<p>%s</p>" % inline(" ".join(para)))
            para.clear()
        if items:
            out.append("<ul>%s</ul>" % "".join("<li>%s</li>" % inline(i) for i in items))
            items.clear()

    for line in source.splitlines():
        line = line.rstrip()
        m = HEADING.match(line)
        if m:
            flush()
            level = len(m.group(1))
            out.append("<h%d>%s</h%d>" % (level, inline(m.group(2)), level))
        elif line.startswith(("- ", "* ")):
            if para:
                flush()
            items.append(line[2:])
        elif not line:
            flush()
        else:
            if items:
                flush()
            para.append(line.strip())
    flush()
    return "\n".join(out)


def document(n):
    parts = []
    for i in range(n):
        parts.append("## Section %d\n" % i)
        parts.append("Some *emphasis* and **strong text** with `code %d` and a [link](http://x/%d)." % (i, i))
        parts.append("More text & <angle> brackets on line %d\n" % i)
        parts.append("- item **%d**\n- item *%d*\n- plain item\n" % (i, i + 1))
    return "\n".join(parts)


DOC = document(400)


def workload():
    page = render(DOC)
    return len(page), page.count("<li>"), page.count("<a ")


WANT = (105741, 1200, 400)


def check(result):
    return None if result == WANT else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("markdown", workload, check)
