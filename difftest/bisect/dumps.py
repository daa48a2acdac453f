"""Reading the files A64JIT_DUMP_DIR gets for each compiled function (jit/python/jit.cc
WriteDump): a header, the numbered decisions, then `=== hir ===`, `=== lir ===` and
`=== asm ===` sections made by that compile."""
import difflib
import glob
import os
import re

DECISION = re.compile(r"^(\d+) (taken|declined) (\S+)(?: bc (\d+))?$")
# Code and object addresses move run to run: hex in the disassembly, decimal in the LIR.
ADDRESS = re.compile(r"0x[0-9a-f]{6,}|\b\d{10,}\b")
# A disassembly line's offset: dropped, so that one inserted instruction is one diff line.
OFFSET = re.compile(r"^[0-9a-f]{4,}: ")


def read_dump(path):
    """{"function", "decisions": [(number, taken, kind, bc)], "plant", sections...}."""
    out = {"function": None, "decisions": [], "plant": None, "path": path}
    section = None
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^=== (\w+) ===$", line)
            if m:
                section = m.group(1)
                out.setdefault(section, "")
                continue
            if section is None and line.startswith("function: "):
                out["function"] = line[len("function: "):]
            elif section == "decisions":
                d = DECISION.match(line)
                if d:
                    bc = int(d.group(4)) if d.group(4) else -1
                    out["decisions"].append((int(d.group(1)), d.group(2) == "taken", d.group(3), bc))
                elif line.startswith("plant "):
                    out["plant"] = line
            elif section is not None:
                out[section] += line + "\n"
    return out


def dumps_of(dump_dir, function):
    """The dumps of `function` in `dump_dir`, oldest first (one per compile of that name)."""
    found = []
    for path in glob.glob(os.path.join(dump_dir, "*.txt")):
        d = read_dump(path)
        if d["function"] == function:
            found.append((os.path.getmtime(path), path, d))
    return [d for _, _, d in sorted(found)]


def section_diff(before, after, section, label_before, label_after):
    """A unified diff of one section, addresses and code offsets blanked."""
    def lines(d):
        return [OFFSET.sub("", ADDRESS.sub("<address>", l))
                for l in d.get(section, "").splitlines(keepends=True)]
    return "".join(difflib.unified_diff(lines(before), lines(after),
                                        f"{section} {label_before}", f"{section} {label_after}"))
