#!/usr/bin/python3.11
"""Oracle 2: a Python program run by CPython's interpreter and with the JIT, compared.

Both runs use the same a64jit-run binary (same libpython, same architecture): the reference
with --no-jit, the JIT run with --threshold=0 (every function compiled on its first call)
unless the program asks for another threshold (below).
Compared: stdout, stderr (tracebacks with line numbers and carets), and the exit status.
A JIT run must prove the JIT was active: compiled functions > 0, entries into compiled code
> 0 and, under Unicorn, emulated instructions > 0. Under A64JIT_TEST_FAIL (fault injection)
the program's compile directives are not checked; failed compiles > 0 is. A death by signal is a failure that names
the signal.

Under --config=aarch64 the runner is an aarch64 binary: A64JIT_TARGET_RUNNER (set by
third_party/toolchains/aarch64/qemu_run.sh) is the qemu command to put before it.

Directives in a program's leading comments:
  # pydiff: all-compiled        every function defined in __main__ must be compiled
  # pydiff: min-compiled=N      at least N __main__ functions compiled
  # pydiff: min-STAT=N          the JIT statistic STAT is at least N (for example
                                min-breaker_calls=1, min-other_thread_entries=1)
  # pydiff: max-STAT=N          the JIT statistic STAT is at most N (max-deopts=0)
  # pydiff: threshold=N         the JIT run compiles a function on call N + 1 instead of
                                the first (after 8 interpreted runs, 3.11 has quickened it:
                                type feedback, jit/hir/feedback.h); N,M,...: one JIT run at
                                each (threshold=0,100: every function at once, and as the
                                default policy would); `auto`: the tiering policy itself
  # pydiff: jit-args=A,B        more runner arguments for the JIT runs (jit-args=--start-delay=1)
  # pydiff: env=V=X,W=Y         environment variables for every run, the reference's and the
                                stock one's too (env=PYTHONMALLOC=pymalloc_debug: freed
                                memory is poisoned, so a read of a dead object faults)
"""

import argparse
import dataclasses
import difflib
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile

TIMEOUT_SECONDS = 600


@dataclasses.dataclass
class Run:
    stdout: str
    stderr: str
    status: int
    stats: dict
    command: str


def target_prefix():
    return shlex.split(os.environ.get("A64JIT_TARGET_RUNNER", ""))


def describe_status(status):
    if status < 0:
        try:
            return "killed by " + signal.Signals(-status).name
        except ValueError:
            return "killed by signal %d" % -status
    return "exit status %d" % status


def program_env(script):
    """The `env=` directive's variables, as a dict."""
    d = directives(script) if os.path.exists(script) else {}
    if "env" not in d:
        return {}
    pairs = [item.split("=", 1) for item in str(d["env"]).split(",")]
    bad = [p[0] for p in pairs if len(p) != 2 or not p[0]]
    if bad:
        raise ValueError("%s: malformed env directive item %r (want NAME=VALUE)" % (script, bad[0]))
    return dict(pairs)


def run(runner, script, jit, extra_args=(), cwd=None, threshold=0):
    """Runs `script` with a64jit-run, JIT on (compiling on call threshold + 1) or off."""
    env = dict(os.environ)
    env.update(program_env(os.path.join(cwd or ".", script)))
    env["PYTHONHASHSEED"] = "0"
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    for k in ("A64JIT_THRESHOLD", "A64JIT_JITLIST", "A64JIT_LOG", "A64JIT_STATS_FILE"):
        env.pop(k, None)
    with tempfile.TemporaryDirectory() as tmp:
        stats_file = os.path.join(tmp, "stats.json")
        cmd = target_prefix() + [runner]
        if jit:
            cmd += ["--threshold=%s" % threshold, "--stats-file=" + stats_file]
        else:
            cmd += ["--no-jit"]
        cmd += list(extra_args) + [script]
        try:
            p = subprocess.run(cmd, capture_output=True, env=env, cwd=cwd,
                               timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired as e:
            return Run("", "timeout after %ds" % TIMEOUT_SECONDS, -signal.SIGKILL, {},
                       " ".join(cmd))
        stats = {}
        if jit and os.path.exists(stats_file):
            with open(stats_file) as f:
                stats = json.load(f)
        return Run(p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"),
                   p.returncode, stats, " ".join(cmd))


def run_stock(python, script, cwd=None):
    env = dict(os.environ, PYTHONHASHSEED="0", PYTHONDONTWRITEBYTECODE="1")
    env.update(program_env(os.path.join(cwd or ".", script)))
    p = subprocess.run([python, script], capture_output=True, env=env, cwd=cwd,
                       timeout=TIMEOUT_SECONDS)
    return Run(p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"),
               p.returncode, {}, python + " " + script)


def diff(name, a, b):
    return "".join(difflib.unified_diff(a.splitlines(True), b.splitlines(True),
                                        "reference/" + name, "jit/" + name))


def compare(reference, candidate):
    """Differences between two runs, as text ('' when they match)."""
    problems = []
    if reference.status != candidate.status:
        problems.append("%s: reference %s, jit %s" % (
            "status", describe_status(reference.status), describe_status(candidate.status)))
    if reference.stdout != candidate.stdout:
        problems.append(diff("stdout", reference.stdout, candidate.stdout))
    if reference.stderr != candidate.stderr:
        problems.append(diff("stderr", reference.stderr, candidate.stderr))
    return "\n".join(problems)


def directives(script):
    found = {}
    with open(script) as f:
        for line in f:
            if not line.startswith("#"):
                break
            m = re.match(r"#\s*pydiff:\s*([\w-]+)(?:=(\S+))?", line)
            if m:
                found[m.group(1)] = m.group(2) or True
    return found


def activity_problems(jit_run, script):
    """Proof the JIT ran, and the program's own compile requirements."""
    s = jit_run.stats
    if not s:
        return ["no JIT statistics were written (did the runner start?)"]
    problems = []
    if s.get("compiled", 0) <= 0:
        problems.append("no function was compiled")
    if s.get("entries", 0) <= 0:
        problems.append("compiled code was never entered")
    if s.get("exec_mode") == "unicorn" and s.get("emulated_instructions", 0) <= 0:
        problems.append("no instruction was emulated")
    injected = os.environ.get("A64JIT_TEST_FAIL")
    if injected:
        # Fault injection (jit/python/options.h): every Nth compile fails, so the program's
        # own compile requirements cannot hold; the failures must show instead.
        every = int(injected.split(":")[1]) if ":" in injected else 1
        if s.get("compiled", 0) + s.get("failed", 0) >= every and s.get("failed", 0) <= 0:
            problems.append("A64JIT_TEST_FAIL=%s made no compile fail" % injected)
        return problems
    main_compiled = [n for n in s.get("functions", {}) if n.startswith("__main__:")]
    main_failed = {n: why for n, why in s.get("failures", {}).items()
                   if n.startswith("__main__:")}
    d = directives(script) if os.path.exists(script) else {}
    if d.get("all-compiled") and main_failed:
        problems.append("not compiled, but the program requires all: " +
                        "; ".join("%s (%s)" % kv for kv in sorted(main_failed.items())))
    if "min-compiled" in d and len(main_compiled) < int(d["min-compiled"]):
        problems.append("%d __main__ functions compiled, the program requires %s" %
                        (len(main_compiled), d["min-compiled"]))
    for key, value in sorted(d.items()):
        stat = key[len("min-"):]
        if key.startswith("min-") and key != "min-compiled" and s.get(stat, 0) < int(value):
            problems.append("statistic %s is %s, the program requires at least %s" %
                            (stat, s.get(stat, 0), value))
        if key.startswith("max-") and s.get(key[len("max-"):], 0) > int(value):
            problems.append("statistic %s is %s, the program allows at most %s" %
                            (key[len("max-"):], s.get(key[len("max-"):], 0), value))
    return problems


def check_at(runner, name, cwd, reference, threshold, jit_args=()):
    """One JIT run at `threshold` against the reference; returns (report lines, summary)."""
    jit_run = run(runner, name, jit=True, extra_args=jit_args, cwd=cwd, threshold=threshold)
    report = []
    mismatch = compare(reference, jit_run)
    if mismatch:
        report.append("JIT differs from the interpreter:\n" + mismatch)
    report += activity_problems(jit_run, os.path.join(cwd, name))
    s = jit_run.stats
    # compiled/reached: of the functions that reached the threshold, how many compiled.
    reached = s.get("compiled", 0) + s.get("failed", 0)
    summary = "%s%s: compiled %s/%s, entries %s, deopts %s, emulated %s, %s" % (
        name, " (threshold %s)" % threshold if threshold else "", s.get("compiled"), reached,
        s.get("entries"), s.get("deopts"), s.get("emulated_instructions"),
        describe_status(jit_run.status))
    return report, summary


def check(runner, script, stock_python=None):
    """Runs one program both ways; returns (ok, report)."""
    # Run from the program's directory under its base name: tracebacks then read the same
    # wherever the tree is.
    name = os.path.basename(script)
    cwd = os.path.dirname(os.path.abspath(script))
    runner = os.path.abspath(runner)
    found = directives(script)
    thresholds = [t if t == "auto" else int(t)
                  for t in str(found.get("threshold", 0)).split(",")]
    jit_args = str(found["jit-args"]).split(",") if "jit-args" in found else []
    reference = run(runner, name, jit=False, cwd=cwd)
    report, summaries = [], []
    for threshold in thresholds:
        lines, summary = check_at(runner, name, cwd, reference, threshold, jit_args)
        report += lines
        summaries.append(summary)
    if stock_python:
        stock = run_stock(stock_python, name, cwd=cwd)
        m = compare(stock, reference)
        if m:
            report.append("a64jit-run --no-jit differs from %s:\n%s" % (stock_python, m))
    summary = "; ".join(summaries)
    if report:
        return False, summary + "\n" + "\n".join(report)
    return True, summary


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runner", required=True, help="path to a64jit-run")
    ap.add_argument("--stock", help="also compare --no-jit against this python3.11")
    ap.add_argument("scripts", nargs="+")
    args = ap.parse_args()
    passed = failed = 0
    for script in args.scripts:
        ok, report = check(args.runner, script, args.stock)
        print(("PASS " if ok else "FAIL ") + report, flush=True)
        passed += ok
        failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
