"""Checks the perf map and jitdump files a run of prog.py left against what the JIT reported
(its JSON): every compiled function once, at its address and size, its code bytes in the
jitdump, both files per process (the forked child has its own with its parent's code), and
the jitdump's structure as perf's jitdump format has it (docs/native_tools.md).
Usage: check.py REPORT.json JITDUMP_DIR. Prints PASS/FAIL lines; exit 1 on any failure."""

import hashlib
import json
import struct
import sys

failures = 0


def check(name, ok, detail=""):
    global failures
    print(("PASS " if ok else "FAIL ") + name + ("" if ok else ": " + str(detail)))
    failures += 0 if ok else 1


def read_perf_map(pid):
    regions = {}
    with open("/tmp/perf-%d.map" % pid) as f:
        for n, line in enumerate(f, 1):
            start, size, name = line.rstrip("\n").split(" ", 2)
            assert name not in regions, "line %d: %s listed twice" % (n, name)
            regions[name] = (int(start, 16), int(size, 16))
    return regions


MAGIC, VERSION, HEADER_SIZE, EM_AARCH64 = 0x4A695444, 1, 40, 183
CODE_LOAD, CODE_CLOSE = 0, 3


def read_jitdump(path, pid):
    """(name -> (vma, size, sha256), whether it ends with JIT_CODE_CLOSE); asserts the format."""
    data = open(path, "rb").read()
    magic, version, size, mach, _pad, file_pid, _ts, flags = struct.unpack_from("<6IQQ", data)
    assert (magic, version, size, mach, file_pid, flags) == (
        MAGIC, VERSION, HEADER_SIZE, EM_AARCH64, pid, 0), "header %r" % (
        (magic, version, size, mach, file_pid, flags),)
    at, loads, closed, index = HEADER_SIZE, {}, False, 0
    while at < len(data):
        assert not closed, "a record after JIT_CODE_CLOSE at %d" % at
        rid, total, _ts = struct.unpack_from("<IIQ", data, at)
        assert at + total <= len(data), "record at %d runs past the end" % at
        if rid == CODE_CLOSE:
            assert total == 16, "JIT_CODE_CLOSE of %d bytes" % total
            closed = True
        else:
            assert rid == CODE_LOAD, "record id %d at %d" % (rid, at)
            rpid, _tid, vma, addr, csize, cindex = struct.unpack_from("<IIQQQQ", data, at + 16)
            name_end = data.index(b"\0", at + 56)
            name = data[at + 56:name_end].decode()
            code = data[name_end + 1:at + total]
            assert rpid == pid and vma == addr and len(code) == csize and cindex == index, name
            loads[name] = (vma, csize, hashlib.sha256(code).hexdigest())
            index += 1
        at += total
    assert at == len(data), "trailing bytes"
    return loads, closed


def check_process(report, jitdump_dir, who, parent=None, parent_report=None, exits=True):
    pid = report["pid"]
    try:
        regions = read_perf_map(pid)
    except (OSError, AssertionError, ValueError) as e:
        check(who + " perf map readable", False, e)
        return
    for name, f in report["functions"].items():
        check("%s perf map lists %s at its address and size" % (who, name),
              regions.get("a64jit:" + name) == (f["address"], f["size"]),
              regions.get("a64jit:" + name))
        check("%s compile time of %s reported" % (who, name), 0 < f["compile_s"] < 5,
              f["compile_s"])
    check(who + " perf map lists the stubs",
          "a64jit:stub:executor_entry" in regions and "a64jit:stub:call" in regions,
          sorted(regions))
    spans = sorted(regions.values())
    check(who + " perf map regions do not overlap",
          all(a[0] + a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans)
    if parent is not None:  # what the parent had before the fork: its report's functions, stubs
        before = [k for k in parent if k.startswith("a64jit:stub:")] + [
            "a64jit:" + name for name in parent_report["functions"]]
        check(who + " perf map keeps its parent's code",
              all(parent[k] == regions.get(k) for k in before), parent)
    try:
        loads, closed = read_jitdump("%s/jit-%d.dump" % (jitdump_dir, pid), pid)
    except (OSError, AssertionError, ValueError, struct.error) as e:
        check(who + " jitdump follows the format", False, e)
        return regions
    # JIT_CODE_CLOSE is written at exit: not by a child that leaves through os._exit.
    check(who + " jitdump follows the format" + (" and ends with JIT_CODE_CLOSE" if exits else ""),
          closed or not exits)
    check(who + " jitdump loads what the perf map lists",
          {k: v[:2] for k, v in loads.items()} == regions, (sorted(loads), sorted(regions)))
    for name, f in report["functions"].items():
        check("%s jitdump holds %s's code bytes" % (who, name),
              loads.get("a64jit:" + name, (0, 0, ""))[2] == f["sha256"])
    return regions


def main():
    report_path, jitdump_dir = sys.argv[1:3]
    parent = json.load(open(report_path))
    child = json.load(open(report_path + ".child"))
    check("the child is another process", parent["pid"] != child["pid"])
    parent_regions = check_process(parent, jitdump_dir, "parent")
    check_process(child, jitdump_dir, "child", parent_regions, parent, exits=False)
    print("%d failed" % failures)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
