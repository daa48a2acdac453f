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

Usage:
  runner.py --out DIR --stock-cmd "python3.11 -m pytest" --jit-cmd "a64jit-run -m pytest" \
            [--jit-env A64JIT_THRESHOLD=0 ...] [--timeout 900] [--compare BIN] FILE...
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


def culprit_from_log(log_text):
    """The last test pytest -v started but did not report a result for."""
    last_started = None
    for line in log_text.splitlines():
        m = NODEID.match(line.strip())
        if m:
            last_started = m.group(1) if m.group(2) is None else None
    return last_started


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


def run_file(side, command, env_extra, test_file, out_dir, timeout, compiled_regex, extra_args):
    stem = os.path.splitext(os.path.basename(test_file))[0]
    file_dir = os.path.join(out_dir, side, stem)
    os.makedirs(file_dir, exist_ok=True)
    xml = os.path.join(file_dir, stem + ".xml")
    log_path = os.path.join(file_dir, stem + ".log")
    stats_path = os.path.join(file_dir, "jit-stats.json")
    for stale in (xml, stats_path):
        if os.path.exists(stale):
            os.remove(stale)
    argv = shlex.split(command) + [test_file, "-v", "-p", "no:cacheprovider",
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
    add_reruns_from_log(xml, log_text)
    compiled = None
    if os.path.exists(stats_path):
        try:
            with open(stats_path) as f:
                compiled = int(json.load(f)["compiled"])
        except (ValueError, KeyError, OSError):
            compiled = None
    if compiled is None and compiled_regex:
        matches = re.findall(compiled_regex, log_text)
        if matches:
            compiled = int(matches[-1])
    return {
        "file": test_file,
        "command": " ".join(shlex.quote(a) for a in argv),
        "exit_status": proc.returncode,
        "signal": sig,
        "duration_s": round(duration, 3),
        "culprit": culprit_from_log(log_text) if sig else None,
        "compiled_functions": compiled if side == "jit" else None,
        "xml": os.path.relpath(xml, out_dir) if os.path.exists(xml) else None,
        "log": os.path.relpath(log_path, out_dir),
    }


def run_alone(command, env_extra, nodeid, timeout):
    env = dict(os.environ)
    env.update(env_extra)
    argv = shlex.split(command) + [nodeid, "-p", "no:cacheprovider", "-q"]
    try:
        proc = subprocess.run(argv, env=env, capture_output=True, timeout=timeout)
        return proc.returncode == 0
    except subprocess.TimeoutExpired:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--stock-cmd", default="/usr/bin/python3.11 -m pytest")
    ap.add_argument("--jit-cmd", required=True)
    ap.add_argument("--stock-env", action="append", default=[], metavar="K=V")
    ap.add_argument("--jit-env", action="append", default=[], metavar="K=V")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--compiled-regex", default=None,
                    help="regex with one group: the compiled-function count in the JIT log")
    ap.add_argument("--pytest-arg", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=1, help="test processes at a time")
    ap.add_argument("--rerun-regressions", action="store_true")
    ap.add_argument("--compare", default=None,
                    help="junit_compare command, e.g. a path, or a QEMU prefix and a path")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args()

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
    # One process per (side, test file); --jobs of them at a time, results kept in order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {side: [pool.submit(run_file, side, command, env_extra, f, args.out, args.timeout,
                                      args.compiled_regex, args.pytest_arg) for f in args.files]
                   for side, (command, env_extra) in sides.items()}
        for side, (command, env_extra) in sides.items():
            runs = []
            for f, future in zip(args.files, futures[side]):
                r = future.result()
                print("%-5s %-40s exit %-4s %s %.1fs%s" % (
                    side, f, r["exit_status"], r["signal"] or "", r["duration_s"],
                    "" if r["compiled_functions"] is None else " compiled %d" % r["compiled_functions"]))
                runs.append(r)
            manifest = {"schema": "a64jit-run-manifest/1", "side": side, "command": command,
                        "env": env_extra, "files": runs}
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
                         if os.path.splitext(os.path.basename(f))[0] == module.split(".")[-1]), None)
            if path is None:
                continue
            nodeid = path + "::" + "::".join(test.split("::")[1:])
            if r.get("kind") == "crash" and r.get("culprit") and r["culprit"] != nodeid:
                labels[test] = "collateral"  # lost when another test killed the process
                continue
            if not run_alone(*sides["stock"], nodeid, args.timeout):
                labels[test] = "pre-existing"
            elif not run_alone(*sides["jit"], nodeid, args.timeout):
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
