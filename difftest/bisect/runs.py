"""Running the command under test in one JIT configuration, and its verdict.

The bisector never changes the command; it sets the JIT's variables around it (jit/README.md):
A64JIT_JITLIST_FILE (which functions may be compiled; an empty file: none), A64JIT_LOG (to
learn which were), A64JIT_OPT_LIMIT (how many optional decisions each takes) and
A64JIT_DUMP_DIR (their decisions, HIR, LIR and disassembly). A run is red when the command
exits with a status other than 0, dies of a signal, or passes the time limit.
"""
import os
import re
import signal
import subprocess
import time
from dataclasses import dataclass, field

COMPILED_LINE = re.compile(r"^a64jit: compiled (\S+) \(\d+ bytes\)$")
# Variables the bisector owns: inherited values would change what a run compiles.
OWNED = ("A64JIT_JITLIST", "A64JIT_JITLIST_FILE", "A64JIT_LOG", "A64JIT_OPT_LIMIT",
         "A64JIT_DUMP_DIR", "A64JIT_NO_JIT", "A64JIT_CAPTURE", "A64JIT_CAPTURE_FILE")


def environment():
    """This process's environment without the variables the bisector owns."""
    return {k: v for k, v in os.environ.items() if k not in OWNED}


class BudgetExceeded(Exception):
    """More runs were needed than --max-runs allows, or the time ran out."""


class CannotRun(Exception):
    """The command ended with a status that is neither a pass nor a failure of the test."""


@dataclass
class Run:
    number: int
    red: bool
    status: str  # "exit 0", "exit 1", "signal SIGSEGV", "timeout after 600 s"
    seconds: float
    compiled: list = field(default_factory=list)  # names, in the order first compiled
    dump_dir: str = ""
    output: str = ""  # the output's last lines
    calls: str = ""  # the capture file, when asked for


def describe_status(returncode):
    if returncode < 0:
        try:
            return "signal " + signal.Signals(-returncode).name
        except ValueError:
            return f"signal {-returncode}"
    return f"exit {returncode}"


class Runner:
    def __init__(self, command, workdir, timeout, max_runs, deadline=None, cwd=None, say=print,
                 red_statuses=None):
        self.command = command
        # Exit statuses that mean "the test failed"; others but 0 mean the command could not
        # run (bazel test: 3 is a failed test, 1 a build error). None: any status but 0.
        self.red_statuses = red_statuses
        self.deadline = deadline  # time.monotonic() after which no run starts
        self.workdir = workdir
        self.timeout = timeout
        self.max_runs = max_runs
        self.cwd = cwd
        self.say = say
        self.count = 0

    def run(self, label, jitlist=None, opt_limit=None, dump=False, capture=None):
        """One run; `jitlist` None compiles every function, [] none. `capture`: a function
        whose calls are recorded in the run's .calls file (Run.calls)."""
        if self.count >= self.max_runs:
            raise BudgetExceeded(f"run budget of {self.max_runs} runs spent")
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise BudgetExceeded(f"time budget spent after {self.count} runs")
        self.count += 1
        n = self.count
        base = os.path.join(self.workdir, f"run{n:03d}")
        env = environment()
        env["A64JIT_LOG"] = base + ".log"
        if jitlist is not None:
            with open(base + ".jitlist", "w") as f:
                f.write("".join(name + "\n" for name in jitlist))
            env["A64JIT_JITLIST_FILE"] = base + ".jitlist"
        if opt_limit is not None:
            env["A64JIT_OPT_LIMIT"] = str(opt_limit)
        if capture is not None:
            env["A64JIT_CAPTURE"] = capture
            env["A64JIT_CAPTURE_FILE"] = base + ".calls"
        dump_dir = ""
        if dump:
            dump_dir = base + ".dump"
            os.makedirs(dump_dir, exist_ok=True)
            env["A64JIT_DUMP_DIR"] = dump_dir
        start = time.monotonic()
        with open(base + ".out", "wb") as out:
            proc = subprocess.Popen(self.command, stdout=out, stderr=subprocess.STDOUT, env=env,
                                    cwd=self.cwd, start_new_session=True)
            try:
                status = describe_status(proc.wait(timeout=self.timeout))
                red = proc.returncode != 0
                if red and self.red_statuses and proc.returncode not in self.red_statuses:
                    raise CannotRun(f"run {n} ({label}): {status} is neither a pass (exit 0) nor "
                                    f"a failure (exit {', '.join(map(str, self.red_statuses))}); "
                                    f"output in {base}.out")
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                status, red = f"timeout after {self.timeout:g} s", True
        seconds = time.monotonic() - start
        run = Run(n, red, status, seconds, read_compiled(base + ".log"), dump_dir,
                  tail(base + ".out"), base + ".calls")
        self.say(f"  run {n:3d}  {label:<44} {'RED  ' if red else 'green'}  {status}, "
                 f"{len(run.compiled)} compiled, {seconds:.1f} s")
        return run


def run_script(runner_cmd, script, jit_function, workdir, timeout):
    """Runs `script` with `runner_cmd` (an a64jit-run command line): stock (jit_function
    None, --no-jit) or compiling only jit_function at threshold 0. (exit status, whether
    the function was compiled, output tail)."""
    side = "jit" if jit_function else "stock"
    env = environment()
    args = ["--no-jit"]
    if jit_function:
        env["A64JIT_JITLIST"] = jit_function
        env["A64JIT_LOG"] = os.path.join(workdir, "repro-jit.log")
        args = ["--threshold=0"]
    out_path = os.path.join(workdir, f"repro-{side}.out")
    with open(out_path, "wb") as out:
        try:
            rc = subprocess.run(runner_cmd + args + [script], stdout=out, stderr=subprocess.STDOUT,
                                env=env, timeout=timeout).returncode
        except subprocess.TimeoutExpired:
            rc = None
    compiled = bool(jit_function) and jit_function in read_compiled(env.get("A64JIT_LOG", ""))
    return rc, compiled, tail(out_path, 6)


def read_compiled(log_path):
    names, seen = [], set()
    try:
        with open(log_path, errors="replace") as f:
            for line in f:
                m = COMPILED_LINE.match(line.rstrip("\n"))
                if m and m.group(1) not in seen:
                    seen.add(m.group(1))
                    names.append(m.group(1))
    except FileNotFoundError:
        pass
    return names


def tail(path, lines=12):
    try:
        with open(path, errors="replace") as f:
            return "".join(f.readlines()[-lines:])
    except FileNotFoundError:
        return ""
