#!/usr/bin/env bash
# //jit/python:install into a scratch user site (HOME in the test's temp dir), then Debian's
# python3.11 as a user runs it: the hook does nothing unless asked; PYTHONJIT (the tiering
# policy: a function compiled once hot), PYTHONJITAUTO,
# -X jit and PYTHONJITLISTFILE switch the JIT on (proved by its statistics: functions
# compiled > 0, emulated instructions > 0); PYTHONJITDISABLE and a bad setting leave it off
# with the process running; a foreign file is not overwritten; uninstall leaves nothing.
set -euo pipefail
source ci/skip_test.sh
if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
  skip_test install_test extension "the aarch64 a64jit.so cannot load into the x86-64 python3.11"
fi
export HOME="$TEST_TMPDIR/home"
py=/usr/bin/python3.11
site=$("$py" -c 'import site; print(site.getusersitepackages())')
installer=jit/python/install
unset A64JIT_THRESHOLD A64JIT_JITLIST A64JIT_JITLIST_FILE PYTHONJIT PYTHONJITAUTO || true
fail() { echo "FAIL: $*" >&2; exit 1; }

echo "== install"
"$installer" > "$TEST_TMPDIR/install.out"
for f in a64jit.so a64jit_startup.py a64jit-startup.pth cinderjit.py a64jit-install.txt; do
  [ -f "$site/$f" ] || fail "$site/$f missing"
done
! grep -r "bazel-out\|runfiles" "$site"/*.pth "$site"/*.py "$site"/*.txt || fail "a path into Bazel's tree"

prog=$(cat <<'PY'
import json, os, sys
def work(n):
    return sum(i * i for i in range(n))
for _ in range(int(os.environ.get("CALLS", "20"))):
    work(50)
if "a64jit" in sys.modules:
    import a64jit
    print("on", a64jit.is_jit_compiled(work), json.dumps(a64jit.stats()))
else:
    print("off")
PY
)
compiled() {  # the statistics' compiled and guest-instruction counts, from the program's line
  "$py" -c 'import json, sys; s = json.loads(sys.stdin.read().split(" ", 2)[2]); print(s["compiled"], s["emulated_instructions"])'
}

echo "== not asked: stock"
[ "$("$py" -c "$prog")" = off ] || fail "the hook imported a64jit without being asked"

echo "== PYTHONJIT=1: the tiering policy, which compiles work once hot (1,000 calls)"
[ "$(PYTHONJIT=1 "$py" -c 'import a64jit; print(a64jit.get_threshold())')" = auto ] ||
  fail "PYTHONJIT=1: the threshold is not auto"
# Without a budget, so that only hotness decides (a budget may also hold a hot function back).
[[ "$(A64JIT_COMPILE_BUDGET=0 PYTHONJIT=1 "$py" -c "$prog")" == "on False "* ]] ||
  fail "PYTHONJIT=1: work compiled at 20 calls"
out=$(A64JIT_COMPILE_BUDGET=0 CALLS=1200 PYTHONJIT=1 "$py" -c "$prog")
read -r n g < <(compiled <<<"$out")
[[ "$out" == "on True "* ]] || fail "PYTHONJIT=1: $out"
[ "$n" -gt 0 ] && [ "$g" -gt 0 ] || fail "PYTHONJIT=1: compiled $n, emulated instructions $g"
echo "   compiled $n functions, $g emulated instructions"

echo "== -X jit"
[[ "$(A64JIT_COMPILE_BUDGET=0 CALLS=1200 "$py" -X jit -c "$prog")" == "on True "* ]] ||
  fail "-X jit"
[[ "$(PYTHONJITAUTO=0 "$py" -c "$prog")" == "on True "* ]] || fail "PYTHONJITAUTO=0"

echo "== PYTHONJITAUTO=100: work (20 calls) stays interpreted"
[[ "$(PYTHONJITAUTO=100 "$py" -c "$prog")" == "on False "* ]] || fail "PYTHONJITAUTO=100"
[[ "$(PYTHONJITAUTO=5 "$py" -c "$prog")" == "on True "* ]] || fail "PYTHONJITAUTO=5"

echo "== PYTHONJITLISTFILE: only what it lists"
printf '__main__:nothing_here\n' > "$TEST_TMPDIR/list"
[[ "$(PYTHONJITLISTFILE="$TEST_TMPDIR/list" "$py" -c "$prog")" == "on False "* ]] ||
  fail "PYTHONJITLISTFILE"
printf '__main__:work\n' > "$TEST_TMPDIR/list"
[[ "$(PYTHONJITLISTFILE="$TEST_TMPDIR/list" "$py" -c "$prog")" == "on True "* ]] ||
  fail "PYTHONJITLISTFILE with work listed"

echo "== PYTHONJITDISABLE=1 wins"
[ "$(PYTHONJITDISABLE=1 PYTHONJIT=1 "$py" -c "$prog")" = off ] || fail "PYTHONJITDISABLE"

echo "== a bad setting: stock, with the reason"
out=$(PYTHONJITAUTO=soon "$py" -c "$prog" 2> "$TEST_TMPDIR/err")
[ "$out" = off ] || fail "PYTHONJITAUTO=soon: $out"
grep -q "a64jit: the JIT is not on: .*A64JIT_THRESHOLD" "$TEST_TMPDIR/err" || {
  cat "$TEST_TMPDIR/err"; fail "no reason given"
}

echo "== a script written for cinderx.jit's API, through cinderjit"
cat > "$TEST_TMPDIR/cinderx_style.py" <<'PY'
import cinderjit as jit

jit.compile_after_n_calls(3)
assert jit.get_compile_after_n_calls() == 3

def hot(x):
    return x * 2 + 1

@jit.jit_suppress
def never(x):
    return x - 1

def forced(x):
    return -x

for i in range(10):
    hot(i)
    never(i)
assert jit.is_enabled()
assert jit.is_jit_compiled(hot), "called 10 times at threshold 3"
assert not jit.is_jit_compiled(never), "suppressed"
assert not jit.force_compile(never), "suppressed, even when forced"
assert jit.force_compile(forced) and jit.is_jit_compiled(forced)
compiled = jit.get_compiled_functions()
assert hot in compiled and forced in compiled and never not in compiled
assert jit.get_function_compilation_time(hot) > 0
assert jit.get_function_compilation_time(never) is None
assert jit.get_compilation_time() >= jit.get_function_compilation_time(hot)
assert jit.get_compiled_size(hot) > 0
jit.append_jit_list("__main__:later*")
assert "__main__:later*" in jit.get_jit_list()
with jit.pause():
    assert not jit.is_enabled()
assert jit.is_enabled() and jit.get_compile_after_n_calls() == 3
try:
    jit.append_jit_list("no colon")
    raise AssertionError("a malformed entry was taken")
except ValueError:
    pass
print("cinderx-style script OK:", len(compiled), "functions compiled")
PY
PYTHONJIT=1 "$py" "$TEST_TMPDIR/cinderx_style.py" || fail "the cinderx-style script"
"$py" -c 'import cinderjit, sys; assert not cinderjit.is_enabled()' || fail "cinderjit without the JIT"

echo "== usage and refusals"
set +e
"$installer" --frobnicate 2> /dev/null; [ $? -eq 64 ] || fail "an unknown option is not exit 64"
other="$TEST_TMPDIR/other-site"
mkdir -p "$other" && echo foreign > "$other/a64jit.so"
"$installer" --site "$other" 2> "$TEST_TMPDIR/err"; rc=$?
set -e
[ $rc -eq 1 ] && grep -q "was not installed by a64jit" "$TEST_TMPDIR/err" || fail "overwrote a foreign file"
[ "$(cat "$other/a64jit.so")" = foreign ] || fail "the foreign file changed"

echo "== a second install, then uninstall: nothing left"
"$installer" > /dev/null
"$installer" --uninstall > /dev/null
[ ! -e "$site" ] || { ls -la "$site"; fail "$site is left"; }
[ "$("$py" -c 'import importlib.util as u; print(u.find_spec("a64jit"))')" = None ] ||
  fail "a64jit still importable"
[ "$(PYTHONJIT=1 "$py" -c "$prog")" = off ] || fail "the hook is still there"
echo "PASS"
