#!/usr/bin/python3.11
"""Names for a stripped shared library's static functions, from its PIC archive.

Debian strips libpython3.11.so of its static symbols, so a profile charges the instructions of
`unicode_subscript` or `list_dealloc` to whichever exported function comes before them
(`PyInit_itertools` took a sixth of one program). Debian also ships libpython3.11-pic.a, whose
objects keep those symbols and hold the same machine code, though the library's link put the
functions in another order. So each function of the archive is found in the library by its
bytes: the instructions its relocations patch are left out of the comparison, a window of
unpatched instructions finds the candidates, and a function is named only where its whole
masked body matches at exactly one place.

Writes a line naming the library, then `nm -S` lines (`address size t name`), that `report.py --symbols` reads beside the library's own.

  static_symbols.py LIBRARY ARCHIVE > FILE
  static_symbols.py /usr/lib/aarch64-linux-gnu/libpython3.11.so.1.0 \
      /usr/lib/python3.11/config-3.11-aarch64-linux-gnu/libpython3.11-pic.a > /tmp/libpython.syms
"""

import argparse
import os
import subprocess
import sys
import tempfile

READELF = os.environ.get("READELF", "aarch64-linux-gnu-readelf")
NM = os.environ.get("NM", "aarch64-linux-gnu-nm")


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, check=True).stdout


def exported_addresses(library):
    """The addresses of the library's exported functions."""
    found = set()
    for line in run(NM, "-D", "--defined-only", library).splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtWw":
            found.add(int(parts[0], 16))
    return found


def sections(path):
    """name -> (index, address, file offset, size) of a file's executable sections."""
    found = {}
    for line in run(READELF, "-SW", path).splitlines():
        parts = line.replace("[ ", "[").split()
        if len(parts) < 11 or not parts[0].startswith("[") or parts[2] != "PROGBITS":
            continue
        if "X" in parts[7] and int(parts[5], 16) > 0:
            found[parts[1]] = (int(parts[0].strip("[]")), int(parts[3], 16), int(parts[4], 16),
                               int(parts[5], 16))
    return found


def relocated_words(obj):
    """section name -> offsets of the instructions its relocations patch."""
    found = {}
    current = None
    for line in run(READELF, "-rW", obj).splitlines():
        if line.startswith("Relocation section"):
            name = line.split("'")[1]
            current = found.setdefault(name[len(".rela"):], set()) if name.startswith(
                ".rela.") else None
            continue
        parts = line.split()
        if current is not None and parts and all(c in "0123456789abcdef" for c in parts[0]):
            current.add(int(parts[0], 16) & ~3)
    return found


def functions(obj):
    """[(section index, offset, size, name)] of an object's functions."""
    rows = []
    for line in run(READELF, "-sW", obj).splitlines():
        parts = line.split()
        if len(parts) == 8 and parts[3] == "FUNC" and parts[6].isdigit() and int(parts[2]) > 0:
            rows.append((int(parts[6]), int(parts[1], 16), int(parts[2]), parts[7]))
    return rows


def direct_branches(code):
    """Offsets of B and BL instructions: a call of a function in the same section needs no
    relocation, and its distance changed when the library's link reordered the functions."""
    return {w for w in range(0, len(code) - 3, 4)
            if (int.from_bytes(code[w:w + 4], "little") >> 26) & 0x1F == 0b00101}


def longest_clean_run(size, patched, limit=64):
    """(start, length) of the longest stretch of the function's words no relocation patches."""
    best = (0, 0)
    start = 0
    for word in range(0, size + 4, 4):
        if word >= size or word in patched:
            if word - start > best[1]:
                best = (start, min(word - start, limit))
            start = word + 4
    return best


def find(text, code, patched):
    """Offsets in `text` where `code` matches, the patched words left out."""
    key_start, key_len = longest_clean_run(len(code), patched)
    if key_len < 16:
        return []
    key = code[key_start:key_start + key_len]
    clean = [(w, code[w:w + 4]) for w in range(0, len(code) - 3, 4) if w not in patched]
    hits = []
    at = text.find(key)
    while at >= 0:
        begin = at - key_start
        if begin >= 0 and begin % 4 == 0 and all(
                text[begin + w:begin + w + 4] == b for w, b in clean):
            hits.append(begin)
            if len(hits) > 1:
                break
        at = text.find(key, at + 1)
    return hits


def place(objects, library, exported_at):
    """Yields (address, size, name) of the static functions found once in the library."""
    lib_text = sections(library)[".text"]
    with open(library, "rb") as f:
        f.seek(lib_text[2])
        text = f.read(lib_text[3])
    named = ambiguous = 0
    for obj in objects:
        with open(obj, "rb") as f:
            data = f.read()
        by_index = {index: (name, offset) for name, (index, _, offset, _) in sections(obj).items()}
        patched = relocated_words(obj)
        for index, offset, size, name in functions(obj):
            if index not in by_index:
                continue
            section, file_offset = by_index[index]
            words = {w - offset for w in patched.get(section, ()) if offset <= w < offset + size}
            code = data[file_offset + offset:file_offset + offset + size]
            words |= direct_branches(code)
            hits = find(text, code, words)
            if len(hits) == 1:
                named += 1
                address = lib_text[1] + hits[0]
                if address not in exported_at:
                    yield address, size, name
            else:
                ambiguous += 1
    print("static_symbols: %d functions found once in the library, %d not placed" %
          (named, ambiguous), file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("library")
    parser.add_argument("archive")
    args = parser.parse_args()
    exported_at = exported_addresses(args.library)
    with tempfile.TemporaryDirectory() as tmp:
        members = run("ar", "t", args.archive).split()
        subprocess.run(["ar", "x", os.path.abspath(args.archive)], cwd=tmp, check=True)
        objects = [os.path.join(tmp, m) for m in members]
        print("# library %s" % os.path.basename(args.library))
        for address, size, name in sorted(set(place(objects, args.library, exported_at))):
            print("%016x %016x t %s" % (address, size, name))


if __name__ == "__main__":
    main()
