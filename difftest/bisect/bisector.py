#!/usr/bin/python3.11
"""From a command that fails under the JIT to the compiled function, and then the compiler
decision, that makes it fail. See README.md.

  bazel run //difftest:bisect -- [options] -- COMMAND [ARGS...]

COMMAND runs a program with the JIT (`a64jit-run --threshold=0 prog.py`, or python3.11 with
the a64jit module enabled) and must not set the JIT list, log, A64JIT_OPT_LIMIT or
A64JIT_DUMP_DIR itself: the bisector sets them around it.
"""
import argparse
import json
import math
import os
import shlex
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import dumps  # noqa: E402
import reproducer  # noqa: E402
import runs  # noqa: E402
import search  # noqa: E402

# Exit statuses (2 is argparse's usage error).
EXIT = {"culprit": 0, "passes": 3, "fails-without-jit": 4, "flaky": 5, "unfinished": 6}


class Outcome(Exception):
    """The bisection's end when it stops early: a verdict and why."""

    def __init__(self, verdict, message):
        super().__init__(message)
        self.verdict = verdict
        self.message = message


class Bisection:
    def __init__(self, runner, repeats, say=print, repro_runner=None):
        self.runner = runner
        self.repeats = repeats
        self.say = say
        self.repro_runner = repro_runner  # an a64jit-run command line, or None
        self.diff_only = False
        self.result = {"verdict": None, "message": "", "functions": [], "decision": None,
                       "compiled": 0, "runs": 0}

    def verdict(self, label, **kw):
        """`repeats` runs of one configuration: (how many were red, the runs)."""
        done = [self.runner.run(f"{label} [{i + 1}/{self.repeats}]", **kw)
                for i in range(self.repeats)]
        reds = sum(r.red for r in done)
        self.say(f"verdict: {label}: red in {reds} of {self.repeats} runs")
        return reds, done

    def probe(self, total):
        return lambda subset: self.runner.run(f"{len(subset)} of {total} functions",
                                              jitlist=subset).red

    def functions(self):
        reds, done = self.verdict("every function compiled")
        compiled = []
        for r in done:
            compiled += [n for n in r.compiled if n not in compiled]
        self.result["compiled"] = len(compiled)
        if reds == 0:
            raise Outcome("passes", f"the command passes with the JIT (0 of {self.repeats} runs "
                                    "red): nothing to bisect")
        if reds < self.repeats:
            raise Outcome("flaky", f"red in {reds} of {self.repeats} runs with every "
                                   "function compiled; not bisected")
        self.result["failure"] = done[-1].status
        self.result["output"] = done[-1].output
        if not compiled:
            raise Outcome("fails-without-jit", "red, but the JIT compiled no function (is the "
                                               "JIT on in this command?)")
        reds, _ = self.verdict("no function compiled", jitlist=[])
        if reds == self.repeats:
            raise Outcome("fails-without-jit", f"red in {reds} of {reds} runs with no function "
                                               "compiled: not a failure of compiled code")
        if reds > 0:
            raise Outcome("flaky", f"red in {reds} of {self.repeats} runs with no function "
                                   "compiled")
        self.say(f"bisecting {len(compiled)} functions (log2 = "
                 f"{math.ceil(math.log2(len(compiled))) if len(compiled) > 1 else 0})")
        culprits = search.narrow_functions(compiled, self.probe(len(compiled)))
        reds, _ = self.verdict(f"only {', '.join(culprits)}", jitlist=culprits)
        if reds == 0:
            self.say("not red alone: searching again for functions that fail only together")
            culprits = search.narrow_functions(compiled, self.probe(len(compiled)), False)
            reds, _ = self.verdict(f"only {', '.join(culprits)}", jitlist=culprits)
        if reds < self.repeats:
            raise Outcome("flaky" if reds else "unfinished",
                          f"red in {reds} of {self.repeats} runs with only {', '.join(culprits)} "
                          "compiled" + ("" if reds else ": no subset reproduces the failure"))
        self.result["functions"] = culprits
        return culprits

    def decision(self, function):
        full = self.runner.run("culprit, every decision, dumped", jitlist=[function], dump=True)
        found = dumps.dumps_of(full.dump_dir, function)
        if not full.red or not found:
            raise Outcome("flaky" if not full.red else "unfinished",
                          f"{function}: the dumped run was {'green' if not full.red else 'red'}"
                          f"{'' if found else ' and wrote no dump'}")
        count = len(found[0]["decisions"])
        self.say(f"{function}: {count} optional decisions")
        reds, zero = self.verdict("culprit, no optional decision", jitlist=[function], opt_limit=0,
                                  dump=True)
        if reds == self.repeats:
            self.result["decision"] = {"number": 0, "count": count, "kind": "none", "bc": -1}
            self.say("red with no optional decision taken: the fault is in code the compiler "
                     "always emits")
            return
        if reds > 0:
            raise Outcome("flaky", f"red in {reds} of {self.repeats} runs of {function} "
                                   "with no optional decision")
        limit = search.first_red_limit(
            count, lambda l: self.runner.run(f"culprit, decisions 1..{l}", jitlist=[function],
                                             opt_limit=l).red)
        reds_before, before = self.verdict(f"decisions 1..{limit - 1}", jitlist=[function],
                                           opt_limit=limit - 1, dump=True)
        reds_after, after = self.verdict(f"decisions 1..{limit}", jitlist=[function],
                                         opt_limit=limit, dump=True)
        if reds_before or reds_after < self.repeats:
            raise Outcome("flaky", f"decision {limit} of {function}: red in {reds_before} of "
                                   f"{self.repeats} runs without it, {reds_after} with it")
        d_after = dumps.dumps_of(after[0].dump_dir, function)[0]
        d_before = dumps.dumps_of(before[0].dump_dir, function)[0]
        number, _, kind, bc = d_after["decisions"][limit - 1]
        self.result["decision"] = {"number": number, "count": count, "kind": kind, "bc": bc,
                                   "plant": d_after["plant"], "before": d_before["path"],
                                   "after": d_after["path"]}
        self.show(function, d_before, d_after, limit)

    def show(self, function, before, after, limit):
        without, with_ = f"(decisions 1..{limit - 1})", f"(decisions 1..{limit})"
        for section in ("hir", "lir", "asm"):
            diff = dumps.section_diff(before, after, section, without, with_)
            self.say(f"--- {function}: {section} diff, without and with decision {limit} ---")
            self.say(diff or "(no difference)")
        if not self.diff_only:
            for label, d in ((without, before), (with_, after)):
                for section in ("hir", "lir", "asm"):
                    self.say(f"--- {function}: {section} {label} ---")
                    self.say(d.get(section, ""))
        self.say(f"texts: {before['path']} (without), {after['path']} (with)")

    def reproduce(self, function):
        """A standalone script calling `function` with arguments captured in a run with no
        function compiled (reproducer.py), checked stock and with only it compiled."""
        captured = self.runner.run(f"capture calls of {function}", jitlist=[], capture=function)
        calls, why = reproducer.read_calls(captured.calls, function)
        if not calls:
            return {"verdict": "none", "why": why}
        path = os.path.join(self.runner.workdir, "reproducer.py")
        reproducer.write(calls, function, path)
        found = {"path": path, "calls": len(calls)}
        if not self.repro_runner:
            return dict(found, verdict="unchecked", why="no a64jit-run command to run it with "
                                                        "(--repro-runner)")
        stock_rc, _, stock_out = runs.run_script(self.repro_runner, path, None,
                                                 self.runner.workdir, self.runner.timeout)
        jit_rc, compiled, jit_out = runs.run_script(self.repro_runner, path, function,
                                                    self.runner.workdir, self.runner.timeout)
        self.say(f"reproducer {path}: stock exit {stock_rc}, with the JIT exit {jit_rc} "
                 f"({function} {'compiled' if compiled else 'NOT compiled'})\n{jit_out}")
        if stock_rc != 0:
            return dict(found, verdict="broken", why=f"fails stock (exit {stock_rc}): "
                                                     f"{stock_out.strip()[-200:]}")
        if jit_rc == 1 and compiled:
            return dict(found, verdict="reproduces", why="fails with the JIT, passes stock")
        return dict(found, verdict="does not reproduce",
                    why=f"with the JIT: exit {jit_rc}, {function} "
                        f"{'compiled' if compiled else 'not compiled'}: the failure needs "
                        "more than these calls (state, other functions, refcounts)")

    def run(self, decisions=True, reproduce=True):
        try:
            culprits = self.functions()
            if not decisions:
                pass
            elif len(culprits) == 1:
                self.decision(culprits[0])
            else:
                self.say("decision bisection skipped: it needs a single culprit function")
            if reproduce and len(culprits) == 1:
                self.result["reproducer"] = self.reproduce(culprits[0])
            self.result["verdict"] = "culprit"
            self.result["message"] = self.summary()
        except Outcome as o:
            self.result["verdict"], self.result["message"] = o.verdict, o.message
        except (runs.BudgetExceeded, runs.CannotRun) as e:
            self.result["verdict"] = "unfinished"
            self.result["message"] = f"bisection could not finish: {e}"
        self.result["runs"] = self.runner.count
        return self.result

    def summary(self):
        r = self.result
        text = f"culprit function: {', '.join(r['functions'])}"
        d = r["decision"]
        if d and d["number"] == 0:
            text += "; decision: none (red with no optional decision: mandatory code)"
        elif d:
            where = f" at bytecode offset {d['bc']}" if d["bc"] >= 0 else ""
            text += f"; decision {d['number']} of {d['count']}: {d['kind']}{where}"
        repro = r.get("reproducer")
        if repro and repro["verdict"] == "reproduces":
            calls = f"{repro['calls']} call{'s' if repro['calls'] != 1 else ''}"
            text += f"; reproducer {repro['path']} ({calls}) fails with the JIT"
        elif repro:
            text += f"; reproducer: {repro['verdict']}: {repro['why']}"
        return text


def parse(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeats", type=int, default=3,
                   help="runs per verdict (all, none, the culprit, the decision; default 3)")
    p.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    p.add_argument("--max-runs", type=int, default=80, help="run budget (default 80)")
    p.add_argument("--deadline", type=float, default=None, help="seconds for the whole bisection")
    p.add_argument("--workdir", default=None, help="keep the runs' files here (default: temp)")
    p.add_argument("--json", default=None, help="write the result as JSON to this file")
    p.add_argument("--red-exit", type=int, action="append", default=None, metavar="N",
                   help="only this exit status means the test failed (repeatable); any other "
                        "but 0 stops the bisection (for bazel test: --red-exit 3)")
    p.add_argument("--no-decisions", action="store_true", help="stop at the culprit function")
    p.add_argument("--no-reproducer", action="store_true",
                   help="do not write a reproducer script for the culprit")
    p.add_argument("--repro-runner", default=None,
                   help="the a64jit-run command line to check the reproducer with (default: "
                        "the command's words up to its a64jit-run)")
    p.add_argument("--diff-only", action="store_true",
                   help="print only the diffs of the culprit's HIR, LIR and asm, not both whole")
    p.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS...]")
    args = p.parse_args(argv)
    if args.command[:1] == ["--"]:
        args.command = args.command[1:]
    if not args.command:
        p.error("no command to bisect (give it after --)")
    if args.repeats < 1:
        p.error("--repeats must be at least 1")
    return args


def repro_runner(args):
    """The a64jit-run command line (with any wrapper before it) to run a reproducer with."""
    if args.repro_runner:
        return shlex.split(args.repro_runner)
    for i, word in enumerate(args.command):
        if os.path.basename(word) == "a64jit-run":
            return args.command[:i + 1]
    return None


def main(argv):
    args = parse(argv)
    workdir = args.workdir or tempfile.mkdtemp(prefix="a64jit-bisect-")
    os.makedirs(workdir, exist_ok=True)
    deadline = time.monotonic() + args.deadline if args.deadline else None
    cwd = os.environ.get("BUILD_WORKING_DIRECTORY")  # bazel run: the caller's directory
    runner = runs.Runner(args.command, workdir, args.timeout, args.max_runs, deadline, cwd,
                         say=lambda s: print(s, flush=True), red_statuses=args.red_exit)
    print(f"bisecting: {' '.join(args.command)}\nruns' files: {workdir}", flush=True)
    bisection = Bisection(runner, args.repeats, say=lambda s: print(s, flush=True),
                          repro_runner=repro_runner(args))
    bisection.diff_only = args.diff_only
    result = bisection.run(decisions=not args.no_decisions, reproduce=not args.no_reproducer)
    n = result["compiled"]
    log2 = math.ceil(math.log2(n)) if n > 1 else 0
    print(f"result: {result['verdict']}: {result['message']}")
    print(f"runs: {result['runs']} ({n} functions compiled, log2 = {log2})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(dict(result, log2=log2, workdir=workdir), f, indent=1)
    return EXIT[result["verdict"]]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
