#!/usr/bin/env bash
# gdb's JIT interface: gdb-multiarch attached to `qemu-aarch64 -g` sets a pending breakpoint
# on a compiled function by its name, stops inside it once the JIT has compiled and announced
# it, and `bt` names the JIT frame, the JIT frame of its compiled caller, and the C frames
# below them down to _PyEval_EvalFrameDefault (unwinding through the JIT frames' call-frame
# information). Only in --config=aarch64: under Unicorn (the host config) compiled code runs
# inside the emulator and no debugger sees it.
set -uo pipefail
source ci/skip_test.sh
if [ -z "${A64JIT_TARGET_RUNNER:-}" ]; then
  skip_test gdb_jit backtrace "under Unicorn compiled code runs inside the emulator, where no debugger sees it; the gdb JIT interface is tested in --config=aarch64"
fi
if ! command -v gdb-multiarch >/dev/null; then
  skip_test gdb_jit backtrace "gdb-multiarch is not installed (ci/setup.sh installs it)"
fi
tmp=$(mktemp -d)
trap 'kill $qemu 2>/dev/null; rm -rf "$tmp"' EXIT
port=$(/usr/bin/python3.11 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
runner=$PWD/jit/python/a64jit-run
$A64JIT_TARGET_RUNNER -g "$port" "$runner" --jitlist='__main__:*' \
  difftest/python/native_tools/gdb_prog.py >"$tmp/prog.out" 2>&1 &
qemu=$!
# Until QEMU listens (read from /proc: a probe connection would be the one QEMU accepts).
hexport=$(printf ':%04X' "$port")
for _ in $(seq 200); do
  awk -v p="$hexport" '$4 == "0A" && substr($2, length($2) - 4) == p {found = 1} END {exit !found}' \
    /proc/net/tcp /proc/net/tcp6 2>/dev/null && break
  sleep 0.1
done
timeout 300 gdb-multiarch -batch -nx -ex 'set pagination off' -ex 'set sysroot /' \
  -ex 'set breakpoint pending on' -ex "file $runner" -ex "target remote 127.0.0.1:$port" \
  -ex 'break -function a64jit:__main__:inner[JIT]' -ex continue -ex 'bt 30' -ex continue \
  >"$tmp/gdb.out" 2>&1
wait $qemu
qemu_rc=$?
qemu=
cat "$tmp/gdb.out" | grep -E "^(Breakpoint|#)" | head -20
failed=0
expect() {  # name, pattern (in the backtrace)
  if grep -qE -- "$2" "$tmp/bt"; then
    echo "PASS $1"
  else
    echo "FAIL $1"
    failed=1
  fi
}
sed -n '/^#0 /,$p' "$tmp/gdb.out" | grep '^#' >"$tmp/bt"
expect "gdb stops inside the compiled function" '^#0 .* in a64jit:__main__:inner\[JIT\] \(\)'
expect "bt names its compiled caller" '^#[0-9]+ .* in a64jit:__main__:outer\[JIT\] \(\)'
expect "bt unwinds past JIT frames into the runtime's C frames" \
  '^#[0-9]+ .* in a64jit::python::.*EvalFrameHook'
expect "bt reaches the interpreter below them" '^#[0-9]+ .* in _PyEval_EvalFrameDefault'
if [ $qemu_rc -eq 0 ] && grep -qx 42 "$tmp/prog.out"; then
  echo "PASS the program ran on to its end under the debugger"
else
  echo "FAIL the program under the debugger: status $qemu_rc"
  cat "$tmp/prog.out" | tail -5
  failed=1
fi
[ $failed -eq 0 ] || tail -30 "$tmp/gdb.out"
exit $failed
