#!/usr/bin/env bash
# a64jit-run's command line: bad input gets a clear error and exit status 64 (python3.11's own
# errors keep theirs), values as --opt=V or --opt V, -- ends its options, -c and -m work,
# --stats and --dump write to stderr only (the program's stdout is unchanged), and the
# environment variables mean what the options mean.
set -uo pipefail
# Threshold 0 unless a check says otherwise: the checks below need their functions compiled.
bare=(${A64JIT_TARGET_RUNNER:-} jit/python/a64jit-run)
run=("${bare[@]}" --threshold=0)
options_table=(${A64JIT_TARGET_RUNNER:-} jit/python/options_table)
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

expect() {  # name, expected status, grep pattern for the output, command...
  local name=$1 status=$2 pattern=$3
  shift 3
  local out rc
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" = "$status" ] && grep -qE -- "$pattern" <<<"$out"; then
    passed=$((passed + 1))
    echo "PASS $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name: status $rc (want $status), output:"
    echo "$out" | head -20
  fi
}

cat >"$tmp/prog.py" <<'PY'
import sys
def f(x):
    return x * 2
print(f(21), sys.argv[1:])
PY

expect "no program" 64 "nothing to run" "${run[@]}"
expect "unknown option" 64 "unknown option --bogus" "${run[@]}" --bogus "$tmp/prog.py"
expect "bad threshold" 64 "not a count: x" "${run[@]}" --threshold=x "$tmp/prog.py"
expect "the default threshold is auto" 0 "^auto$" env -u A64JIT_THRESHOLD "${bare[@]}" -c \
  "import a64jit; print(a64jit.get_threshold())"
expect "--threshold=auto" 0 "^auto 10$" "${run[@]}" --threshold=auto -c \
  "import a64jit, os; print(a64jit.get_threshold(), os.environ['A64JIT_COMPILE_BUDGET'])"
expect "bad compile budget" 64 "a percentage from 0 to 100, got 150" "${run[@]}" \
  --compile-budget=150 "$tmp/prog.py"
expect "bad exec mode" 64 "expected native or unicorn" "${run[@]}" --exec=fast "$tmp/prog.py"
expect "bad dump" 64 "hir, lir, asm" "${run[@]}" --dump=ir "$tmp/prog.py"
expect "value as the next argument" 0 "^42 \['x'\]$" "${run[@]}" --threshold 5 --stats-file "$tmp/v.json" \
  "$tmp/prog.py" x
expect "a value missing at the end" 64 "--stats-file needs a value" "${run[@]}" --stats-file
expect "-- ends the runner's options" 0 "^42 \[\]$" "${run[@]}" --threshold=0 -- "$tmp/prog.py"
expect "--dump of several kinds" 0 "^=== asm ===" "${run[@]}" --dump hir,asm "$tmp/prog.py"
expect "-h" 0 "usage: a64jit-run" "${run[@]}" -h
expect "--version is python's" 0 "^Python 3\.11" "${run[@]}" --version
expect "bad env threshold" 64 "A64JIT_THRESHOLD" env A64JIT_THRESHOLD=-3 "${run[@]}" "$tmp/prog.py"
# Every variable is read through the options' table: a flag's is 0 or 1, a bad one named.
expect "bad env flag" 64 "A64JIT_CHECKED: expected 0 or 1, got yes" env A64JIT_CHECKED=yes \
  "${run[@]}" "$tmp/prog.py"
expect "bad env plant" 64 "A64JIT_TEST_PLANT: unknown plant 'melt'" \
  env A64JIT_TEST_PLANT=melt:f "${run[@]}" "$tmp/prog.py"
# The JIT's stack (jit/python/jit_stack.h): a size below 64 MiB is refused; a recursion the
# stack cannot hold ends in RecursionError, natively and under Unicorn, never in a signal.
expect "bad A64JIT_STACK_MIB" 64 "A64JIT_STACK_MIB: a size in MiB from 64, got 12" \
  env A64JIT_STACK_MIB=12 "${run[@]}" "$tmp/prog.py"
cat >"$tmp/deep.py" <<'PY'
import sys
sys.setrecursionlimit(10**6)
def depth(n):
    return 0 if n == 0 else 1 + depth(n - 1)
try:
    print(depth(900000))
except RecursionError as e:
    print("RecursionError:", e)
PY
expect "a stack too small for the limit" 0 \
  "^RecursionError: maximum recursion depth exceeded: .* 64 MiB .*\(A64JIT_STACK_MIB\)$" \
  env A64JIT_STACK_MIB=64 "${run[@]}" --threshold=0 "$tmp/deep.py"
# The stack's first part (256 MiB) holds about 500,000 interpreted levels; deeper, the
# recursion goes on on the rest, mapped then, compiled code included (`leaf` at the bottom).
# C code below an entry keeps as much stack as stock's main thread has (8 MiB), also near the
# first part's end: the hash of a tuple nested 60,000 deep recurses in C (3 to 6 MiB; stock's
# limit is between 80,000 and 160,000), tried every 2,000 levels around where the first part
# ends. Where the rest is full too the answer is again RecursionError.
cat >"$tmp/rest.py" <<'PY'
import sys, a64jit
sys.setrecursionlimit(10**6)
nested = ()
for _ in range(60000):
    nested = (nested,)
def leaf(n):
    return n
def depth(n):
    if n == 0:
        return leaf(0)
    if n % 2000 == 0 and n < 250000:
        hash(nested)
    return 1 + depth(n - 1)
leaf(1)
try:
    r = depth(int(sys.argv[1]))
except RecursionError as e:
    r = "RecursionError: %s" % e
s = a64jit.stats()
print(r, "compiled", s["compiled"], "rests", s["jit_stack_rests_used"])
PY
expect "a recursion past the stack's first part" 0 "^600000 compiled 1 rests 1$" \
  "${run[@]}" --jitlist=__main__:leaf "$tmp/rest.py" 600000
expect "a recursion that fills the stack's rest" 0 \
  "^RecursionError: maximum recursion depth exceeded: .* 320 MiB .* compiled 1 rests 1$" \
  env A64JIT_STACK_MIB=320 "${run[@]}" --jitlist=__main__:leaf "$tmp/rest.py" 900000
expect "a flag with a value" 0 "^42" "${run[@]}" --no-jit=1 "$tmp/prog.py"
expect "a flag with a bad value" 64 "--stats: expected 0 or 1, got 2" "${run[@]}" --stats=2 \
  "$tmp/prog.py"
expect "missing script" 2 "can't open file" "${run[@]}" "$tmp/nope.py"
expect "script args" 0 "^42 \['a', '-b'\]$" "${run[@]}" "$tmp/prog.py" a -b
expect "-c" 0 "^7$" "${run[@]}" -c "print(3 + 4)"
expect "-m" 0 "^6$" "${run[@]}" -m json.tool <(echo 6)
# The first function compiled can be a __del__ that the last collection runs at shutdown (a
# -c program calls no function before): compiling then must not run Python code (importing
# would run importlib, whose compilation came back into the first one's set-up: abort).
expect "first compile at shutdown" 0 "^__del__ called$" "${run[@]}" --threshold=0 -c "if 1:
    class C:
        def __del__(self):
            print('__del__ called')
    l = [C()]
    l.append(l)"
expect "help" 0 "usage: a64jit-run" "${run[@]}" --help
# Interpreter options reach CPython (regrtest starts sys.executable with -E, -I, -X ...).
expect "python options" 0 "^1 True$" "${run[@]}" -E -X dev -c \
  "import sys; print(sys.flags.ignore_environment, sys.flags.dev_mode)"
# --stats and --dump go to stderr; stdout stays the program's.
out=$("${run[@]}" --stats --dump=hir "$tmp/prog.py" 2>"$tmp/err")
if [ "$out" = "42 []" ] && grep -q "^a64jit: compiled [1-9]" "$tmp/err" &&
  grep -q "==== __main__:f (hir) ====" "$tmp/err"; then
  passed=$((passed + 1))
  echo "PASS stats and dump on stderr only"
else
  failed=$((failed + 1))
  echo "FAIL stats and dump on stderr only: stdout '$out'"
  head -20 "$tmp/err"
fi
# A dump made on demand (a64jit.dump, after the program ran) is the text of what was
# compiled: the same as the text --dump keeps from the compile itself, site caches included.
cat >"$tmp/sites.py" <<'PY'
import a64jit, sys
class P:
    def __init__(self, x):
        self.x = x
def f(ps):
    return sum(p.x for p in ps) + len(ps)
f([P(1), P(2)])
print(a64jit.dump(f, sys.argv[1]), end="")
PY
same_text() {  # hir or lir
  "${run[@]}" --dump="$1" "$tmp/sites.py" "$1" >"$tmp/demand.$1" 2>"$tmp/kept.$1" || return 1
  awk -v h="==== __main__:f ($1) ====" '$0 == h {on = 1; next} /^==== / {on = 0} on' \
    "$tmp/kept.$1" >"$tmp/kept_f.$1"
  [ -s "$tmp/demand.$1" ] && cmp "$tmp/demand.$1" "$tmp/kept_f.$1"
}
for what in hir lir; do
  if same_text "$what"; then
    passed=$((passed + 1))
    echo "PASS $what made on demand is the compiled function's"
  else
    failed=$((failed + 1))
    echo "FAIL $what made on demand is the compiled function's:"
    diff "$tmp/demand.$what" "$tmp/kept_f.$what" | head -20
  fi
done
# The jitlist from the environment is honoured; functions off the list stay interpreted.
env A64JIT_JITLIST='__main__:g*' "${run[@]}" --stats-file="$tmp/s.json" "$tmp/prog.py" >/dev/null
if grep -q '"compiled": 0' "$tmp/s.json"; then
  passed=$((passed + 1))
  echo "PASS A64JIT_JITLIST excludes f"
else
  failed=$((failed + 1))
  echo "FAIL A64JIT_JITLIST excludes f: $(cat "$tmp/s.json")"
fi
# A crash of the process itself names the signal and gives the native stack; the request is
# not inherited by subprocesses (test suites compare the stderr of crashing children).
expect "native backtrace on a crash" 139 "fatal signal SEGV in the host process; native stack" \
  "${run[@]}" --native-backtrace -c "import ctypes; ctypes.string_at(0)"
expect "native backtrace not inherited" 0 "^None$" env A64JIT_NATIVE_BACKTRACE=1 "${run[@]}" -c \
  "import os; print(os.environ.get('A64JIT_NATIVE_BACKTRACE'))"
# Ctrl-C stops a compiled loop: a script ends with KeyboardInterrupt (status 130, as stock),
# and the REPL (-i) prints it and reads on. SIGINT goes to the runner (under qemu-user: to
# QEMU, which passes it to the guest); env --default-signal undoes the SIG_IGN that a
# background job of a non-interactive shell starts with.
cat >"$tmp/spin.py" <<'PY'
import a64jit, sys
def spin():
    n = 0
    while True:
        n += 1
        if n == 1000:
            print("looping", flush=True)
PY
wait_for() {  # file, pattern: up to 120 s
  for _ in $(seq 1200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.1; done
  return 1
}
interrupt_script() {
  env --default-signal=INT timeout 60 "${run[@]}" -c "exec(open('$tmp/spin.py').read())
try:
    spin()
except KeyboardInterrupt:
    print('compiled', a64jit.stats()['compiled'], file=sys.stderr)
    raise" >"$tmp/script.out" 2>&1 &
  local pid=$!
  wait_for "$tmp/script.out" looping && kill -INT "$pid"
  wait "$pid"
  local rc=$?
  cat "$tmp/script.out"
  grep -q "^KeyboardInterrupt" "$tmp/script.out" || return 98
  return "$rc"
}
expect "Ctrl-C ends a compiled loop in a script" 130 "^compiled [1-9]" interrupt_script
interrupt_repl() {
  mkfifo "$tmp/stdin"
  env --default-signal=INT timeout 60 "${run[@]}" -i "$tmp/spin.py" <"$tmp/stdin" >"$tmp/repl.out" 2>&1 &
  local pid=$!
  exec 3>"$tmp/stdin"
  echo "spin()" >&3
  wait_for "$tmp/repl.out" looping && kill -INT "$pid"
  wait_for "$tmp/repl.out" KeyboardInterrupt
  echo "print('after', a64jit.stats()['compiled'])" >&3
  exec 3>&-
  wait "$pid"
  local rc=$?
  cat "$tmp/repl.out"
  grep -q "^KeyboardInterrupt" "$tmp/repl.out" || return 98
  return "$rc"
}
expect "Ctrl-C at the REPL interrupts a compiled loop, the REPL reads on" 0 "after [1-9]" \
  interrupt_repl
# The execution mode this host cannot provide is a clear error, not a crash.
if [ -z "${A64JIT_TARGET_RUNNER:-}" ]; then
  # sys.executable is the runner, so a program can start itself again (numpy's tests do).
  # (Not under qemu-user: a child aarch64 process would need binfmt_misc.)
  expect "sys.executable restarts the runner" 0 "^a64jit-run 42$" "${run[@]}" -c \
    "import os, subprocess, sys; r = subprocess.run([sys.executable, '-c', 'print(6*7)'], capture_output=True, text=True); print(os.path.basename(sys.executable), r.stdout.strip())"
  # A program that starts sys.executable again gets its parent's JIT settings.
  cat >"$tmp/child.py" <<'PY'
import a64jit, sys
def f(): pass
for _ in range(int(sys.argv[1])): f()
print("child compiled", a64jit.stats()["compiled"])
PY
  spawn="import subprocess, sys; print(subprocess.run([sys.executable, '$tmp/child.py', sys.argv[1]], capture_output=True, text=True).stdout.strip())"
  expect "a child of --no-jit runs stock" 0 "^child compiled 0$" "${run[@]}" --no-jit -c "$spawn" 3
  expect "a child keeps --threshold (below it)" 0 "^child compiled 0$" \
    "${run[@]}" --threshold=5 -c "$spawn" 3
  expect "a child keeps --threshold (past it)" 0 "^child compiled 1$" \
    "${run[@]}" --threshold=5 -c "$spawn" 8
  expect "native on x86-64" 2 "native execution needs an aarch64 host" \
    "${run[@]}" --exec=native "$tmp/prog.py"
else
  expect "unicorn on aarch64" 2 "no Unicorn" "${run[@]}" --exec=unicorn "$tmp/prog.py"
  # Natively compiled code is called directly; A64JIT_CHECKED=1 goes through the executor.
  expect "checked native calls" 0 "^42 \[\]$" env A64JIT_CHECKED=1 "${run[@]}" "$tmp/prog.py"
fi
# JIT list files: patterns a line, # comments; a malformed line names the file and line.
cat >"$tmp/two.py" <<'PY'
import a64jit
def f(x): return x + 1
def g(x): return x + 2
print(f(1) + g(1), a64jit.get_compiled_functions())
PY
printf '# the hot one\n\n__main__:f   # f only\n' >"$tmp/list.txt"
: >"$tmp/empty.txt"
printf '__main__:f\n\n__main__ g\n' >"$tmp/bad.txt"
expect "--jitlist-file" 0 "^5 \['__main__:f'\]$" "${run[@]}" --jitlist-file="$tmp/list.txt" "$tmp/two.py"
expect "A64JIT_JITLIST_FILE" 0 "^5 \['__main__:f'\]$" env A64JIT_JITLIST_FILE="$tmp/list.txt" \
  "${run[@]}" "$tmp/two.py"
expect "an empty JIT list file compiles nothing" 0 "^5 \[\]$" \
  "${run[@]}" --jitlist-file="$tmp/empty.txt" "$tmp/two.py"
expect "a malformed JIT list line" 64 "bad.txt:3: malformed pattern '__main__ g'" \
  "${run[@]}" --jitlist-file="$tmp/bad.txt" "$tmp/two.py"
expect "a missing JIT list file" 64 "cannot read JIT list file .*nope.txt" \
  "${run[@]}" --jitlist-file="$tmp/nope.txt" "$tmp/two.py"
expect "bad A64JIT_PERFMAP" 64 "A64JIT_PERFMAP: expected 0 or 1, got yes" \
  env A64JIT_PERFMAP=yes "${run[@]}" "$tmp/prog.py"
expect "jitdump into a missing directory" 2 "cannot create $tmp/nodir/jit-[0-9]+.dump" \
  "${run[@]}" --jitdump="$tmp/nodir" "$tmp/prog.py"
expect "bad --max-code-size" 64 "not a byte count: 1k" "${run[@]}" --max-code-size=1k "$tmp/prog.py"
# The code-size cap: once reached, functions stay interpreted with the reason logged, and
# the program's results are unchanged.
cat >"$tmp/many.py" <<'PY'
import a64jit
def make(k):
    src = "def f%d(x):\n    return [x * %d + i for i in range(3)]\n" % (k, k)
    ns = {}
    exec(src, ns)
    return ns["f%d" % k]
total = sum(sum(make(k)(k)) for k in range(40))
s = a64jit.stats()
print(total, s["compiled"] > 0, s["refused_by_code_cap"] > 0,
      s["code_memory_used"] <= s["max_code_size"])
PY
expect "code-size cap" 0 "^61740 True True True$" "${run[@]}" --max-code-size=20000 "$tmp/many.py"
expect "code-size cap: stock's result" 0 "^61740 False False True$" "${run[@]}" --no-jit \
  "$tmp/many.py"
expect "code-size cap: the reason logged" 0 "not compiled .*code size cap reached \(A64JIT_MAX_CODE_SIZE=20000" \
  "${run[@]}" --log=stderr --max-code-size=20000 "$tmp/many.py"
# jit/python/README.md's table is the one options.h's table makes (as --help is), and lists every
# variable the sources read.
if /usr/bin/python3.11 difftest/python/options_doc_check.py <("${options_table[@]}") jit/python/README.md \
  $(find jit emulation -name '*.cc' -o -name '*.c'); then
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
