#!/usr/bin/python3.11
"""Runs test files stock and with a JIT, one process per file, and records the evidence.

For each side (stock, jit) and each test file it runs `COMMAND FILE --junitxml=...` with a
timeout, and writes OUT/<side>/<file stem>/<file stem>.xml, a log, and OUT/<side>/manifest.json:
per file the command, exit status, signal (by name, or "timeout"), duration, the test that
was running when the process died (from pytest -v's log), and the JIT's compiled-function
count (read from the file named by $A64JIT_STATS_FILE, which the JIT side writes, or matched
in the log with --compiled-regex). With --rerun-regressions it then compares the two sides
(junit_compare) and re-runs each regression alone, stock then JIT, labelling it
pre-existing (fails alone stock), confirmed (passes stock, fails JIT) or flaky; a test lost
because another test crashed its process is "collateral".

With --regrtest the "files" are CPython regression-test modules (test_scope, test_with, ...)
run as `COMMAND MODULE -v --junit-xml F` (COMMAND: `python3.11 -m test`, `a64jit-run
--threshold=0 -m test`). regrtest's XML is made comparable: a test whose subTest failed is
written by regrtest as a <testcase> with no name and no outcome, so it gets its name from the
-v log and a <failure>; expected failures become xfail skips and unexpected successes
errors. The culprit of a crash is the last test -v started without a result.

The JIT side's statistics file (a64jit-run's JSON: "compiled", "failed", "failures") also
gives each file's failed-function count and the failure causes, counted per opcode
("unsupported opcode X at offset N" counts as X; other reasons without their offsets); both
go into the manifest and are printed per file with the compiled share,
compiled / (compiled + failed). Its "entries" and "interpreted_entries" (function entries
that ran compiled code, frames the interpreter ran) go into the manifest as
compiled_entries and interpreted_entries, printed as the entry share,
entries / (entries + interpreted_entries): a few hot functions left interpreted can cost
more than many cold ones, which the compiled share does not show.

--side stock|jit runs one side only (a suite target under suites/ runs each side on its own).

Usage:
  runner.py --out DIR --stock-cmd "python3.11 -m pytest" --jit-cmd "a64jit-run -m pytest" \
            [--jit-env A64JIT_THRESHOLD=0 ...] [--timeout 900] [--compare BIN] FILE...
  runner.py --regrtest --out DIR --jit-cmd "a64jit-run --threshold=0 -m test" MODULE...
"""

import argparse
import concurrent.futures
import json
import xml.etree.ElementTree as ET
import os
import re
import shlex
import signal
import subprocess
import sys
import time

NODEID = re.compile(r"^(\S+::\S+)(?: (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS|RERUN)\b)?")
# unittest -v (regrtest): "test_x (test.test_mod.Class.test_x) ... ok"; the result may come
# later on its own line when the test printed something. A failing subTest has a line of its
# own, "  test_x (test.test_mod.Class.test_x) (i=1) ... FAIL" (or [message]).
UNITTEST_STARTED = re.compile(r"^(\w+) \(([\w.]+)\)( \(.*\)| \[.*\])? \.\.\. ?(.*)$")
UNITTEST_RESULT = re.compile(r"^(ok|FAIL|ERROR|skipped\b|expected failure|unexpected success)")
OFFSET = re.compile(r"\s*\(?\bat offset \d+\)?|\s*\(offset \d+\)")
UNSUPPORTED = re.compile(r"^unsupported opcode (\w+)")


def culprit_from_log(log_text):
    """The last test pytest -v started but did not report a result for."""
    last_started = None
    for line in log_text.splitlines():
        m = NODEID.match(line.strip())
        if m:
            last_started = m.group(1) if m.group(2) is None else None
    return last_started


CLASS_AND_MODULE_FIXTURES = ("setUpClass", "tearDownClass", "setUpModule", "tearDownModule")


def unittest_started(log_text):
    """The test ids unittest -v started, in order, each with whether a result followed."""
    started = []
    for line in log_text.splitlines():
        m = UNITTEST_STARTED.match(line.strip())
        if m and m.group(1) in CLASS_AND_MODULE_FIXTURES:
            continue  # "setUpClass (mod.Class) ... skipped": no test started, no <testcase>
        if m:
            # 3.11 writes "name (id)"; a doctest "name (id without the name)".
            name, test_id = m.group(1), m.group(2)
            if not test_id.endswith("." + name):
                test_id += "." + name
        if m and m.group(3) and started and started[-1][0] == test_id:
            started[-1][1] = True  # a subTest's result: the test has reported
        elif m:
            started.append([test_id, bool(UNITTEST_RESULT.match(m.group(4)))])
        elif started and not started[-1][1] and UNITTEST_RESULT.match(line.strip()):
            started[-1][1] = True
    return started


def regrtest_culprit(module, log_text):
    """The last test regrtest -v started but did not report a result for, as a test key."""
    started = unittest_started(log_text)
    if started and not started[-1][1]:
        return module + "::" + started[-1][0]
    return None


def normalise_regrtest_xml(xml_path, log_text):
    """regrtest's --junit-xml, made to say what happened (see the module docstring)."""
    if not os.path.exists(xml_path):
        return
    try:
        tree = ET.parse(xml_path)
    except ET.ParseError:
        return  # a corrupt report stays as it is: the comparison will say so
    started = [test_id for test_id, _ in unittest_started(log_text)]
    changed = False
    for index, case in enumerate(tree.iter("testcase")):
        if not case.get("name"):
            # regrtest adds the <testcase> at startTest and fills it in at addSuccess,
            # addFailure...; a failing subTest calls none of them.
            case.set("name", started[index] if index < len(started) else "unnamed-%d" % index)
            ET.SubElement(case, "failure", {
                "message": "regrtest recorded no result (a failing subTest, or the test "
                           "was interrupted)"})
            changed = True
        for child in list(case):
            if child.tag == "output":  # addExpectedFailure
                case.remove(child)
                ET.SubElement(case, "skipped", {"type": "xfail", "message": "expected failure"})
                changed = True
            elif child.tag == "outcome" and (child.text or "") == "UNEXPECTED_SUCCESS":
                case.remove(child)
                ET.SubElement(case, "error", {"message": "unexpected success"})
                changed = True
    if changed:
        tree.write(xml_path, encoding="utf-8", xml_declaration=True)


def failure_cause(reason):
    """A JIT failure reason without its location: the opcode, or the reason's text."""
    m = UNSUPPORTED.match(reason)
    if m:
        return m.group(1)
    return OFFSET.sub("", reason).strip()[:80]


def read_jit_stats(stats_path):
    """(compiled, failed, {cause: functions}, entries, interpreted_entries) from a64jit-run's
    statistics file; each None when the file or the count is missing (older runners wrote
    neither entry count)."""
    try:
        with open(stats_path) as f:
            stats = json.load(f)
        compiled = int(stats["compiled"])
    except (ValueError, KeyError, TypeError, OSError):
        return None, None, None, None, None

    def count(key):
        n = stats.get(key)
        return n if isinstance(n, int) and not isinstance(n, bool) else None

    failed = count("failed")
    causes = {}
    for reason in (stats.get("failures") or {}).values():
        cause = failure_cause(str(reason))
        causes[cause] = causes.get(cause, 0) + 1
    # "failures" is keyed by module:qualname, so functions sharing one (redefinitions, the
    # same def run twice) keep one reason; "unsupported_opcodes" (newer runners) counts every
    # failure, so it is exact for opcodes, and what is still missing is named as such.
    opcodes = stats.get("unsupported_opcodes")
    if isinstance(opcodes, dict):
        causes.update({op: n for op, n in opcodes.items() if isinstance(n, int)})
    if failed is not None and failed > sum(causes.values()):
        causes["reason not kept (name shared with another failure)"] = (
            failed - sum(causes.values()))
    return compiled, failed, causes, count("entries"), count("interpreted_entries")


def compiled_share(compiled, failed):
    if compiled is None or failed is None or compiled + failed == 0:
        return None
    return compiled / (compiled + failed)


def entry_share(entries, interpreted_entries):
    """Of the function entries, the share that ran compiled code."""
    return compiled_share(entries, interpreted_entries)


def add_reruns_from_log(xml_path, log_text):
    """pytest-rerunfailures reports reruns only in the log ("nodeid RERUN"); record each as
    a <rerun> child of its <testcase>, the way PyTorch's reports do, so the comparison sees
    the earlier failed attempts."""
    reruns = {}
    for line in log_text.splitlines():
        m = NODEID.match(line.strip())
        if m and m.group(2) == "RERUN":
            reruns[m.group(1)] = reruns.get(m.group(1), 0) + 1
    if not reruns or not os.path.exists(xml_path):
        return
    try:
        tree = ET.parse(xml_path)
    except ET.ParseError:
        return  # a corrupt report stays as it is: the comparison will say so
    for nodeid, count in reruns.items():
        parts = nodeid.split("::")
        name, classes = parts[-1], parts[1:-1]
        for case in tree.iter("testcase"):
            cls = case.get("classname", "")
            if case.get("name") == name and (not classes or cls.endswith(".".join(classes))):
                for _ in range(count):
                    rerun = ET.Element("rerun", {"message": "failed, then rerun (from the pytest log)"})
                    case.insert(0, rerun)
                break
    tree.write(xml_path, encoding="utf-8", xml_declaration=True)


def signal_name(returncode):
    if returncode is not None and returncode < 0:
        try:
            return signal.Signals(-returncode).name
        except ValueError:
            return "signal %d" % -returncode
    return None


def stem_of(test_file, regrtest):
    """The directory (and junit_compare module) name of a test file or regrtest module."""
    if regrtest:
        return test_file[len("test."):] if test_file.startswith("test.") else test_file
    return os.path.splitext(os.path.basename(test_file))[0]


def run_file(side, command, env_extra, test_file, out_dir, timeout, compiled_regex, extra_args,
             regrtest=False, only=None):
    stem = stem_of(test_file, regrtest)
    file_dir = os.path.join(out_dir, side, stem)
    os.makedirs(file_dir, exist_ok=True)
    xml = os.path.join(file_dir, stem + ".xml")
    log_path = os.path.join(file_dir, stem + ".log")
    stats_path = os.path.join(file_dir, "jit-stats.json")
    for stale in (xml, stats_path):
        if os.path.exists(stale):
            os.remove(stale)
    if regrtest:
        selected = ["-m", only] if only else []
        argv = shlex.split(command) + [stem, "-v", "--junit-xml", xml] + selected + extra_args
    else:
        node = test_file + "::" + only if only else test_file
        argv = shlex.split(command) + [node, "-v", "-p", "no:cacheprovider",
                                       "--junitxml=" + xml] + extra_args
    env = dict(os.environ)
    env.update(env_extra)
    env["A64JIT_STATS_FILE"] = stats_path
    env.setdefault("PYTHONFAULTHANDLER", "1")
    start = time.monotonic()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, env=env,
                                start_new_session=True)
        timed_out = False
        try:
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    duration = time.monotonic() - start
    with open(log_path, "rb") as f:
        log_text = f.read().decode("utf-8", "replace")
    sig = "timeout" if timed_out else signal_name(proc.returncode)
    if regrtest:
        normalise_regrtest_xml(xml, log_text)
    else:
        add_reruns_from_log(xml, log_text)
    compiled, failed, causes, entries, interpreted_entries = read_jit_stats(stats_path)
    if compiled is None and compiled_regex:
        matches = re.findall(compiled_regex, log_text)
        if matches:
            compiled = int(matches[-1])
    return {
        "file": test_file,
        "command": " ".join(shlex.quote(a) for a in argv),
        "reproduce": reproducer(command, env_extra, test_file, stem, regrtest, extra_args),
        "exit_status": proc.returncode,
        "signal": sig,
        "duration_s": round(duration, 3),
        "culprit": (regrtest_culprit(stem, log_text) if regrtest else culprit_from_log(log_text))
                   if sig else None,
        "compiled_functions": compiled if side == "jit" else None,
        "failed_functions": failed if side == "jit" else None,
        "failure_causes": causes if side == "jit" else None,
        "compiled_entries": entries if side == "jit" else None,
        "interpreted_entries": interpreted_entries if side == "jit" else None,
        "xml": os.path.relpath(xml, out_dir) if os.path.exists(xml) else None,
        "log": os.path.relpath(log_path, out_dir),
    }


def reproducer(command, env_extra, test_file, stem, regrtest, extra_args):
    """The shell command that runs one test of the file alone, as this side ran it, with
    {id} (junit_compare fills in the test's id, quoted) to fill: regrtest -m, or a pytest
    node id."""
    env = ["%s=%s" % (k, shlex.quote(v)) for k, v in sorted(env_extra.items())]
    words = [shlex.quote(a) for a in shlex.split(command)]
    if regrtest:
        words += [shlex.quote(stem), "-m", "{id}"] + [shlex.quote(a) for a in extra_args]
    else:
        words += [shlex.quote(test_file) + "::{id}", "-p", "no:cacheprovider"]
    return "cd %s && %s" % (shlex.quote(os.getcwd()), " ".join((["env"] + env if env else []) + words))


def eta(elapsed, done, total):
    """ "about 3m10s left" from the pace so far, or "" before the first result."""
    if done == 0 or done >= total:
        return ""
    left = int(elapsed / done * (total - done))
    return "about %s left" % ("%dm%02ds" % divmod(left, 60) if left >= 60 else "%ds" % left)


def run_alone(command, env_extra, nodeid, timeout, regrtest_module=None, extra_args=()):
    """Whether one test passes alone: a pytest node id, or with regrtest_module a test id
    (with the run's extra arguments, e.g. --testdir)."""
    env = dict(os.environ)
    env.update(env_extra)
    if regrtest_module:
        argv = shlex.split(command) + [regrtest_module, "-m", nodeid] + list(extra_args)
    else:
        argv = shlex.split(command) + [nodeid, "-p", "no:cacheprovider", "-q"]
    try:
        proc = subprocess.run(argv, env=env, capture_output=True, timeout=timeout)
        return proc.returncode == 0
    except subprocess.TimeoutExpired:
        return False


def jit_summary(run):
    """ failed N (compiled share X%, compiled entries Y%): OP n, ... for the per-file line,
    each part only when the JIT's statistics gave it."""
    share = compiled_share(run["compiled_functions"], run["failed_functions"])
    entries = entry_share(run["compiled_entries"], run["interpreted_entries"])
    figures = []
    if share is not None:
        figures.append("compiled share %.1f%%" % (100 * share))
    if entries is not None:
        figures.append("compiled entries %.1f%%" % (100 * entries))
    if not figures:
        return ""
    causes = sorted((run["failure_causes"] or {}).items(), key=lambda kv: (-kv[1], kv[0]))
    return "%s (%s)%s" % (
        "" if share is None else " failed %d" % run["failed_functions"], ", ".join(figures),
        ": " + ", ".join("%s %d" % kv for kv in causes[:8]) if causes else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--stock-cmd", default=None,
                    help="default: /usr/bin/python3.11 -m pytest (-m test with --regrtest)")
    ap.add_argument("--regrtest", action="store_true",
                    help="the files are CPython regression-test modules (python -m test)")
    ap.add_argument("--jit-cmd", required=True)
    ap.add_argument("--stock-env", action="append", default=[], metavar="K=V")
    ap.add_argument("--jit-env", action="append", default=[], metavar="K=V")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--compiled-regex", default=None,
                    help="regex with one group: the compiled-function count in the JIT log")
    ap.add_argument("--pytest-arg", "--test-arg", action="append", default=[],
                    help="an extra argument for each test process (pytest or regrtest)")
    ap.add_argument("--jobs", type=int, default=1, help="test processes at a time")
    ap.add_argument("--side", choices=("both", "stock", "jit"), default="both",
                    help="run one side only (a suite target runs each side on its own)")
    ap.add_argument("--only", default=None, metavar="TEST",
                    help="run one test of each file: a regrtest test id (regrtest -m) or the "
                         "pytest node id after the file's path (Class::test_x)")
    ap.add_argument("--rerun-regressions", action="store_true")
    ap.add_argument("--compare", default=None,
                    help="junit_compare command, e.g. a path, or a QEMU prefix and a path")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()
    if args.stock_cmd is None:
        args.stock_cmd = "/usr/bin/python3.11 -m " + ("test" if args.regrtest else "pytest")
    if args.regrtest:
        for f in args.files:
            # A package's module (test_asyncio.test_locks) keeps its dotted name.
            if not re.fullmatch(r"test_\w+(\.test_\w+)*", stem_of(f, True)):
                ap.error("--regrtest takes test module names like test_scope or "
                         "test_asyncio.test_locks, got %r" % f)

    def env_of(pairs):
        out = {}
        for p in pairs:
            if "=" not in p:
                ap.error("environment entries are K=V, got %r" % p)
            k, v = p.split("=", 1)
            out[k] = v
        return out

    sides = {"stock": (args.stock_cmd, env_of(args.stock_env)),
             "jit": (args.jit_cmd, env_of(args.jit_env))}
    if args.side != "both":
        if args.rerun_regressions:
            ap.error("--rerun-regressions needs both sides")
        sides = {args.side: sides[args.side]}
    # One process per (side, test file); --jobs of them at a time. Each result is printed as
    # it comes, with N of M and the time left at the pace so far; manifests keep file order.
    total = len(sides) * len(args.files)
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {side: [pool.submit(run_file, side, command, env_extra, f, args.out, args.timeout,
                                      args.compiled_regex, args.pytest_arg, args.regrtest,
                                      args.only)
                          for f in args.files]
                   for side, (command, env_extra) in sides.items()}
        names = {fut: (side, f) for side in futures for f, fut in zip(args.files, futures[side])}
        for done, future in enumerate(concurrent.futures.as_completed(names), 1):
            side, f = names[future]
            r = future.result()
            compiled = r["compiled_functions"]
            print("[%*d/%d] %-5s %-40s exit %-4s %s %.1fs%s%s%s" % (
                len(str(total)), done, total, side, f, r["exit_status"], r["signal"] or "",
                r["duration_s"], "" if compiled is None else " compiled %d" % compiled,
                jit_summary(r), "  " + eta(time.monotonic() - start, done, total)
                if done < total else ""), flush=True)
        for side, (command, env_extra) in sides.items():
            manifest = {"schema": "a64jit-run-manifest/1", "side": side, "command": command,
                        "env": env_extra, "files": [fut.result() for fut in futures[side]]}
            with open(os.path.join(args.out, side, "manifest.json"), "w") as f:
                json.dump(manifest, f, indent=2)

    if args.rerun_regressions:
        if not args.compare:
            ap.error("--rerun-regressions needs --compare=PATH_TO_junit_compare")
        report_path = os.path.join(args.out, "report.json")
        subprocess.run(shlex.split(args.compare) + [os.path.join(args.out, "stock"),
                                                    os.path.join(args.out, "jit"),
                                                    "--json=" + report_path],
                       stdout=subprocess.DEVNULL)
        with open(report_path) as f:
            report = json.load(f)
        labels = {}
        for r in report["regressions"]:
            test = r["test"]
            module = r["module"]
            path = next((f for f in args.files
                         if stem_of(f, args.regrtest) in (module, module.split(".")[-1])),
                        None)
            if path is None:
                continue
            if args.regrtest:
                # The key is MODULE::test.MODULE.Class.test_x (also the culprit's form);
                # regrtest -m takes the id.
                nodeid = test.split("::", 1)[1]
                culprit_form = test
                alone = {"regrtest_module": stem_of(path, True), "extra_args": args.pytest_arg}
            else:
                nodeid = path + "::" + "::".join(test.split("::")[1:])
                culprit_form = nodeid
                alone = {}
            if r.get("kind") == "crash" and r.get("culprit") and r["culprit"] != culprit_form:
                labels[test] = "collateral"  # lost when another test killed the process
                continue
            if not run_alone(*sides["stock"], nodeid, args.timeout, **alone):
                labels[test] = "pre-existing"
            elif not run_alone(*sides["jit"], nodeid, args.timeout, **alone):
                labels[test] = "confirmed"
            else:
                labels[test] = "flaky"
        with open(os.path.join(args.out, "labels.json"), "w") as f:
            json.dump(labels, f, indent=2)
        print("re-ran %d regression(s): %s" % (len(labels), ", ".join(
            "%s=%d" % (k, list(labels.values()).count(k)) for k in ("confirmed", "flaky", "pre-existing", "collateral"))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
