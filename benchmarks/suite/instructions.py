#!/usr/bin/python3.11
"""QEMU guest instructions of the suite's programs, stock and with the JIT, and how much of
a warm call the JIT could remove at all.

For each program, under `qemu-aarch64 -plugin tb_profile.so` (benchmarks/qemu_profile):

  warm      instructions per call once warm: a process doing B calls minus one doing A
            (A64JIT_SUITE_CALLS; default 2 and 7), divided by B - A; stock/JIT is the ratio;
  process   instructions of a whole process doing the program's own `calls`, start to exit;
  library   of the JIT's warm call, the instructions outside compiled code (anonymous
            memory), the runner (the JIT's helpers) and 3.11's eval loop (functions not
            compiled): C code in libpython, libc and extension modules, which runs the same
            with or without a JIT that calls it. Library code is attributed to the nearest
            exported symbol, so some static helpers of the eval loop count as library;
  bound     stock warm / library: the warm ratio if compiled code and helpers took no time
            at all. A program whose bound is under a target cannot reach it by compiling
            Python code better, only by doing less of that C work;
  code      KiB of code that ran in the warm window (report.py --footprint: the blocks whose
            counts grew from A to B calls), stock and JIT: under QEMU a larger footprint makes
            each instruction cost more, so time can gain less than instructions
            (docs/measurements/2026-12-04-code-footprint.md);
  compiles  functions the JIT compiled inside the warm window (the B-call process's
            `compiled` minus the A-call one's, from --stats-file). Their compiles count in
            the JIT's warm figure: such a row is not warm yet. With --threshold=N a function
            called once a call compiles at call N + 1, so take A past N.

Usage: instructions.py --runner A64JIT_RUN --plugin TB_PROFILE_SO [--jit-args ARGS]
                       [--calls A,B] [--no-process] [--json OUT] [PROGRAM...]
  --jit-args: the JIT side's runner options (default: none, the default policy; the bound
  wants --threshold=0, everything compiled).
"""
import argparse
import collections
import json
import os
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "qemu_profile"))
import report  # noqa: E402  (load_profile, Symbolizer)

QEMU = ["qemu-aarch64", "-cpu", "neoverse-n1"]


def profile(args, side_args, program, calls, out):
    """Runs one process under the plugin; its counts by object: a file, "jit" (compiled
    code), "runner" (the JIT's helpers) or "interpreter" (3.11's eval loop); its counts by
    block, with their symbolizer; and how many functions it compiled (0 for stock)."""
    env = dict(os.environ, A64JIT_SUITE_MODE="process",
               PYTHONPATH=HERE + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if calls is not None:
        env["A64JIT_SUITE_CALLS"] = str(calls)
    stats = out + ".stats.json"
    jit_side = "--no-jit" not in side_args
    argv = QEMU + ["-plugin", "%s,out=%s" % (args.plugin, out), args.runner] + side_args + (
        ["--stats-file=" + stats] if jit_side else []) + [
            os.path.join(HERE, "programs", program + ".py")]
    p = subprocess.run(argv, capture_output=True, text=True, env=env)
    if p.returncode != 0:
        sys.exit("instructions: %s failed (exit %d): %s" % (" ".join(argv), p.returncode,
                                                            p.stderr[-600:]))
    sym = report.Symbolizer(out + ".maps", "aarch64-linux-gnu-nm")
    runner = os.path.basename(args.runner)
    by_object = collections.Counter()
    blocks = report.load_profile(out)
    for (vaddr, n, _), c in blocks.items():
        full = sym.name(vaddr)
        name = full.split(":", 1)[0]
        # The eval loop and the code right after it that no symbol names (report.py calls it
        # ?after:, where it once charged it to the loop itself): ceval.c's static helpers.
        if full.endswith(":_PyEval_EvalFrameDefault") or full.endswith(
                ":?after:_PyEval_EvalFrameDefault"):
            name = "interpreter"
        elif name.startswith("[anonymous"):
            name = "jit"
        elif name == runner:
            name = "runner"
        by_object[name] += c * n
    compiled = 0
    if jit_side:
        with open(stats) as f:
            compiled = json.load(f)["compiled"]
    return by_object, blocks, sym, compiled


def measure(args, program, side_args, tmp):
    a, b = args.calls
    few, few_blocks, _, few_compiled = profile(args, side_args, program, a,
                                               os.path.join(tmp, "few"))
    many, window, sym, many_compiled = profile(args, side_args, program, b,
                                               os.path.join(tmp, "many"))
    whole = {} if args.no_process else profile(
        args, side_args, program, None, os.path.join(tmp, "whole"))[0]
    warm = {k: (many[k] - few[k]) / (b - a) for k in set(many) | set(few)}
    window.subtract(few_blocks)
    code_kib = sum(f.bytes for f in report.footprints(window, sym).values()) / 1024
    # No whole-process run: nan, which the table prints as such and the JSON keeps.
    return (sum(warm.values()), warm, sum(whole.values()) if whole else float("nan"), code_kib,
            many_compiled - few_compiled)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True, help="an aarch64 a64jit-run")
    ap.add_argument("--plugin", required=True, help="tb_profile.so (host build)")
    ap.add_argument("--jit-args", default="")
    ap.add_argument("--calls", default="2,7")
    ap.add_argument("--json", default=None)
    ap.add_argument("--no-process", action="store_true",
                    help="warm figures only (no whole-process runs)")
    ap.add_argument("programs", nargs="*")
    args = ap.parse_args()
    args.calls = [int(c) for c in args.calls.split(",")]
    if len(args.calls) != 2 or not 0 <= args.calls[0] < args.calls[1]:
        sys.exit("instructions: --calls wants A,B with 0 <= A < B")
    names = args.programs or sorted(
        f[:-3] for f in os.listdir(os.path.join(HERE, "programs")) if f.endswith(".py"))
    results = {}
    print("%-15s %10s %10s %6s %10s %10s %6s %8s %6s %11s %9s %8s" %
          ("program", "warm stock", "warm JIT", "ratio", "proc stock", "proc JIT", "ratio",
           "library", "bound", "code stock", "code JIT", "compiles"))
    for name in names:
        with tempfile.TemporaryDirectory() as tmp:
            stock_warm, _, stock_proc, stock_kib, _ = measure(args, name, ["--no-jit"], tmp)
            jit_warm, parts, jit_proc, jit_kib, compiles = measure(
                args, name, shlex.split(args.jit_args), tmp)
        library = jit_warm - sum(parts.get(k, 0) for k in ("jit", "runner", "interpreter"))
        r = {"warm_stock": stock_warm, "warm_jit": jit_warm, "warm_ratio": stock_warm / jit_warm,
             "process_stock": stock_proc, "process_jit": jit_proc,
             "process_ratio": stock_proc / jit_proc, "library": library,
             "library_share": library / jit_warm, "bound": stock_warm / library,
             "code_kib_stock": stock_kib, "code_kib_jit": jit_kib, "window_compiles": compiles}
        results[name] = r
        print(("%-15s %9.2fM %9.2fM %6.2f %9.1fM %9.1fM %6.2f %7.0f%% %6.2f %7.0f KiB "
               "%5.0f KiB %8d") %
              (name, stock_warm / 1e6, jit_warm / 1e6, r["warm_ratio"], stock_proc / 1e6,
               jit_proc / 1e6, r["process_ratio"], 100 * r["library_share"], r["bound"],
               stock_kib, jit_kib, compiles), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
