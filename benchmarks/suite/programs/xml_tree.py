"""XML: an inventory built as an ElementTree, serialised, parsed back and queried with
ElementPath, as a service exchanging XML documents does. ElementTree's tree building, its
serialiser and its path queries are Python code around the C parser."""
import xml.etree.ElementTree as ET

import harness

SIZES = ("S", "M", "L", "XL")


def build(n):
    root = ET.Element("inventory", version="2")
    for i in range(n):
        item = ET.SubElement(root, "item", id="i%04d" % i, size=SIZES[i % 4])
        ET.SubElement(item, "name").text = "part-%d" % (i * 7 % 101)
        ET.SubElement(item, "price").text = "%d.%02d" % (i % 50 + 1, i * 13 % 100)
        tags = ET.SubElement(item, "tags")
        for t in range(i % 3):
            ET.SubElement(tags, "tag").text = "t%d" % ((i + t) % 5)
    return root


def workload():
    text = ET.tostring(build(120), encoding="unicode")
    root = ET.fromstring(text)
    large = root.findall("./item[@size='L']")
    total = sum(float(item.findtext("price")) for item in root.iter("item"))
    tagged = sum(1 for tag in root.iterfind(".//tag") if tag.text == "t1")
    return len(text), len(large), round(total, 2), tagged


def check(result):
    return None if result == (11706, 30, 2818.2, 24) else "got %r" % (result,)


if __name__ == "__main__":
    harness.run("xml_tree", workload, check, calls=40)
