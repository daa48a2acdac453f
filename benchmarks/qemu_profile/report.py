#!/usr/bin/python3.11
"""Guest instructions and indirect branches per function, from a tb_profile run.

  report.py PROFILE [--base PROFILE] [--per N] [--top K] [--by-object] [--footprint]

PROFILE is what `qemu-aarch64 -plugin tb_profile.so,out=PROFILE ...` wrote (PROFILE and
PROFILE.maps). With --base, the base run's counts are subtracted first: profile the same
program for 12 and for 2 iterations and report --per 10 to get exact figures per iteration
without start-up. Addresses are symbolised with aarch64-linux-gnu-nm against the ELF files
the maps name (guest address == host address under qemu-user here); anonymous memory (JIT
code) is reported per mapping, or per compiled function with --perf-map (the
/tmp/perf-PID.map that `a64jit-run --perf-map` wrote in the profiled run).
"""
import argparse
import bisect
import collections
import subprocess
import sys


def load_profile(path):
    """Runs of each translated block, by (vaddr, insns, last_insn); exits naming a bad line."""
    counts = collections.Counter()
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            parts = line.split()
            try:
                if len(parts) != 4:
                    raise ValueError
                key = (int(parts[0], 16), int(parts[1]), int(parts[3], 16))
                counts[key] += int(parts[2])
            except ValueError:
                sys.exit("%s:%d: not a profile line (vaddr insns count last_insn): %r" %
                         (path, lineno, line.rstrip()))
    return counts


def is_indirect_branch(word):
    # ret / br / blr Xn (and their pointer-authentication-free forms)
    return (word & 0xfffffc1f) in (0xd65f0000, 0xd61f0000, 0xd63f0000)


def direct_target(word, pc):
    """Where an unconditional direct branch or call (b, bl) at `pc` goes; None for others."""
    if word & 0x7c000000 != 0x14000000:
        return None
    offset = word & 0x3ffffff
    if offset & 0x2000000:
        offset -= 0x4000000
    return pc + 4 * offset


def goes_through_lookup(vaddr, insns, last):
    """Whether a block's exit goes through QEMU's block lookup: an indirect branch, or a direct
    branch or call to another 4 KiB page than the block's start (QEMU 7.2 chains a direct jump
    to its next block only within the page)."""
    if is_indirect_branch(last):
        return True
    target = direct_target(last, vaddr + 4 * (insns - 1))
    return target is not None and target >> 12 != vaddr >> 12


def load_perf_map(path):
    """[(start, end, name)] of a perf map file, sorted."""
    regions = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            try:
                start, size, name = line.rstrip("\n").split(" ", 2)
                regions.append((int(start, 16), int(start, 16) + int(size, 16), name))
            except ValueError:
                sys.exit("%s:%d: not a perf map line (start size name): %r" %
                         (path, lineno, line.rstrip()))
    return sorted(regions)


class Symbolizer:
    def __init__(self, maps_path, nm, perf_map=None, symbol_files=()):
        self.nm = nm
        self.jit = load_perf_map(perf_map) if perf_map else []
        self.jit_starts = [r[0] for r in self.jit]
        self.regions = []  # (start, end, path or None)
        self.bases = {}    # path -> address of its offset-0 mapping
        with open(maps_path) as f:
            for line in f:
                parts = line.split()
                if len(parts) < 5:
                    continue
                start, end = (int(x, 16) for x in parts[0].split("-"))
                path = parts[5] if len(parts) >= 6 else None
                if path is not None and path.startswith("["):
                    path = None
                if path is not None and int(parts[2], 16) == 0:
                    self.bases[path] = min(self.bases.get(path, start), start)
                self.regions.append((start, end, path))
        self.regions.sort()
        self.starts = [r[0] for r in self.regions]
        self.symbols = {}
        self.extra = {}  # file name -> [(address, size, name)] from static_symbols.py
        for path in symbol_files:
            self.load_symbol_file(path)

    def load_symbol_file(self, path):
        with open(path) as f:
            first = f.readline().split()
            if first[:2] != ["#", "library"] or len(first) != 3:
                sys.exit("%s:1: not a static_symbols.py file (its first line names the library)"
                         % path)
            rows = self.extra.setdefault(first[2], [])
            for lineno, line in enumerate(f, 2):
                parts = line.split()
                try:
                    rows.append((int(parts[0], 16), int(parts[1], 16), parts[3]))
                except (ValueError, IndexError):
                    sys.exit("%s:%d: not a symbol line (address size t name): %r" %
                             (path, lineno, line.rstrip()))

    def table(self, path):
        """(starts, ends, names) of a file's functions; an end of None: size unknown."""
        if path not in self.symbols:
            entries = {}
            for flags in (["-D"], []):
                try:
                    out = subprocess.run([self.nm, *flags, "-S", "-C", "--defined-only", path],
                                         capture_output=True, text=True, check=False).stdout
                except OSError:
                    out = ""
                for line in out.splitlines():
                    parts = line.split(None, 3)  # demangled names may hold spaces
                    try:
                        if len(parts) == 4 and parts[2] in "tTwW":
                            entries[int(parts[0], 16)] = (int(parts[1], 16), parts[3])
                        elif len(parts) == 3 and parts[1] in "tTwW":
                            entries.setdefault(int(parts[0], 16), (None, parts[2]))
                    except ValueError:
                        pass
            for address, size, name in self.extra.get(path.rsplit("/", 1)[-1], ()):
                entries.setdefault(address, (size, name))
            table = sorted(entries.items())
            self.symbols[path] = ([a for a, _ in table],
                                  [a + s if s else None for a, (s, _) in table],
                                  [n for _, (_, n) in table])
        return self.symbols[path]

    def load_bias(self, path, start):
        # A position-dependent executable (ET_EXEC) has its symbols at their run addresses;
        # a shared object or PIE is offset by where its first mapping landed.
        try:
            with open(path, "rb") as f:
                header = f.read(18)
            if len(header) == 18 and header[:4] == b"\x7fELF" and header[16] == 2:
                return 0
        except OSError:
            pass
        return self.bases.get(path, start)

    def name(self, address):
        i = bisect.bisect_right(self.starts, address) - 1
        if i < 0 or address >= self.regions[i][1]:
            return "[unmapped 0x%x]" % address
        start, end, path = self.regions[i]
        k = bisect.bisect_right(self.jit_starts, address) - 1
        if path is None and k >= 0 and address < self.jit[k][1]:
            return self.jit[k][2]
        if path is None:
            return "[anonymous 0x%x-0x%x]" % (start, end)
        short = path.rsplit("/", 1)[-1]
        addrs, ends, names = self.table(path)
        offset = address - self.load_bias(path, start)
        j = bisect.bisect_right(addrs, offset) - 1
        if j < 0:
            return "%s:?" % short
        if ends[j] is not None and offset >= ends[j]:
            # Past the function's end: a static function the file does not name (static_symbols.py
            # names many of libpython's).
            return "%s:?after:%s" % (short, names[j])
        return "%s:%s" % (short, names[j])


class Footprint:
    """The code that ran in one file: its bytes, blocks and 4 KiB pages, and how often control
    left one of its blocks through QEMU's lookup."""

    def __init__(self):
        self.bytes = 0
        self.blocks = 0
        self.pages = set()
        self.lookups = 0


def footprints(counts, sym):
    """Footprint per file (compiled code: "a64jit" with a perf map) of the blocks whose counts
    are positive: with a base subtracted, the code that ran in the window."""
    by_file = collections.defaultdict(Footprint)
    for (vaddr, n, last), c in counts.items():
        if c <= 0:
            continue
        f = by_file[sym.name(vaddr).split(":", 1)[0]]
        f.blocks += 1
        f.bytes += 4 * n
        f.pages.update(range(vaddr >> 12, ((vaddr + 4 * n - 1) >> 12) + 1))
        if goes_through_lookup(vaddr, n, last):
            f.lookups += c
    return by_file


def print_footprint(counts, sym, per, top):
    """What `--footprint` prints. Guest instructions do not show what a large footprint costs:
    more translated code for the host's caches, and more blocks competing for QEMU's
    4,096-entry jump cache."""
    by_file = footprints(counts, sym)
    files = sorted(by_file.items(), key=lambda kv: -kv[1].bytes)
    print("code that ran: %.1f KiB in %d blocks on %d pages; exits through QEMU's lookup %.0f "
          "(per %g)" % (sum(f.bytes for _, f in files) / 1024, sum(f.blocks for _, f in files),
                        sum(len(f.pages) for _, f in files),
                        sum(f.lookups for _, f in files) / per, per))
    print("%10s %8s %6s %12s  %s" % ("KiB", "blocks", "pages", "lookups", "object"))
    for name, f in files[:top]:
        print("%10.1f %8d %6d %12.0f  %s" % (f.bytes / 1024, f.blocks, len(f.pages),
                                           f.lookups / per, name))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("profile")
    ap.add_argument("--base", help="a profile of the same program doing less, subtracted")
    ap.add_argument("--per", type=float, default=1.0, help="divide the counts by this")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--nm", default="aarch64-linux-gnu-nm")
    ap.add_argument("--perf-map", help="name JIT code by this perf map (a64jit-run --perf-map)")
    ap.add_argument("--symbols", action="append", default=[],
                    help="more names for a stripped library, from static_symbols.py")
    ap.add_argument("--by-object", action="store_true",
                    help="one row per file (libpython, libc, the runner, a64jit: compiled code) "
                    "instead of per function")
    ap.add_argument("--footprint", action="store_true",
                    help="per file, the code that ran (its blocks, bytes and 4 KiB pages) and "
                    "the block exits that went through QEMU's lookup, instead of instructions")
    args = ap.parse_args(argv)
    try:
        counts = load_profile(args.profile)
        if args.base:
            counts.subtract(load_profile(args.base))
        sym = Symbolizer(args.profile + ".maps", args.nm, args.perf_map, args.symbols)
    except OSError as e:
        sys.exit("report.py: %s (a tb_profile run writes PROFILE and PROFILE.maps)" % e)
    if args.footprint:
        print_footprint(counts, sym, args.per, args.top)
        return 0
    insns = collections.Counter()
    blocks = collections.Counter()
    indirect = collections.Counter()
    for (vaddr, n, last), c in counts.items():
        if c == 0:
            continue
        name = sym.name(vaddr)
        if args.by_object:  # "file:function" -> "file"; compiled code is "a64jit:..."
            name = name.split(":", 1)[0]
        insns[name] += c * n
        blocks[name] += c
        if is_indirect_branch(last):
            indirect[name] += c
    total = sum(insns.values())
    print("guest instructions %.0f, blocks %.0f, indirect branches %.0f (per %g)" %
          (total / args.per, sum(blocks.values()) / args.per, sum(indirect.values()) / args.per,
           args.per))
    print("%14s %6s %12s %12s  %s" % ("instructions", "%", "blocks", "indirect", "function"))
    for name, n in insns.most_common(args.top):
        print("%14.0f %5.1f%% %12.0f %12.0f  %s" % (n / args.per, 100.0 * n / total if total else 0,
                                                    blocks[name] / args.per,
                                                    indirect[name] / args.per, name))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
