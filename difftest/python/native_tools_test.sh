#!/usr/bin/env bash
# perf support: a run with --perf-map and --jitdump leaves /tmp/perf-PID.map and
# DIR/jit-PID.dump for the process and for a child it forks, and check.py compares them with
# what the JIT reported. Then, where `perf` can record here, `perf inject --jit` reads the
# jitdump and must make one ELF per compiled function, named as the JIT names it. Samples
# cannot land in JIT code on this host: it runs under Unicorn (host config) or QEMU
# (--config=aarch64), never on the CPU perf samples; on an aarch64 host it does.
set -uo pipefail
run=(${A64JIT_TARGET_RUNNER:-} "$PWD/jit/python/a64jit-run" --threshold=0)
here=$PWD/difftest/python/native_tools
tmp=$(mktemp -d)
report=$tmp/report.json
cleanup() {
  for f in "$report" "$report.child" "$tmp/perf/report.json" "$tmp/perf/report.json.child"; do
    pid=$(/usr/bin/python3.11 -c 'import json,sys; print(json.load(open(sys.argv[1]))["pid"])' "$f" 2>/dev/null)
    [ -n "$pid" ] && rm -f "/tmp/perf-$pid.map"
  done
  rm -rf "$tmp"
}
trap cleanup EXIT
failed=0

out=$("${run[@]}" --perf-map --jitdump="$tmp" --jitlist='__main__:*' --stats "$here/prog.py" \
  "$report" 2>&1)
rc=$?
echo "$out" | grep -E "^(compiled|a64jit: compiled|a64jit: emulated)"
if [ $rc -ne 0 ] || ! grep -q "^compiled [1-9]" <<<"$out"; then
  echo "FAIL the program: status $rc"
  echo "$out" | tail -20
  exit 1
fi
/usr/bin/python3.11 "$here/check.py" "$report" "$tmp" || failed=1

# perf's own reader of the jitdump format.
if ! command -v perf >/dev/null; then
  echo "SKIP perf inject: no perf here (ci/setup.sh installs linux-perf)"
elif ! perf record -q -k 1 -o "$tmp/probe.data" -- true >/dev/null 2>&1; then
  echo "SKIP perf inject: perf cannot record in this environment (perf_event_paranoid" \
    "$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null))"
else
  mkdir -p "$tmp/perf"
  (
    cd "$tmp/perf" &&
      perf record -q -k 1 -o perf.data -- "${run[@]}" --jitdump="$tmp/perf" \
        --jitlist='__main__:*' "$here/prog.py" "$tmp/perf/report.json" &&
      perf inject --jit -i perf.data -o perf.jit.data
  ) >"$tmp/perf.log" 2>&1
  names=$(for so in "$tmp"/perf/jitted-*.so; do nm "$so" 2>/dev/null; done | awk '{print $3}' | sort)
  want=$(printf 'a64jit:__main__:%s\n' add both scale | sort)
  if [ -n "$names" ] && comm -13 <(echo "$names") <(echo "$want") | grep -q .; then
    echo "FAIL perf inject --jit: missing $(comm -13 <(echo "$names") <(echo "$want") | tr '\n' ' ')"
    failed=1
  elif [ -z "$names" ]; then
    # Under QEMU the jitdump file's executable mapping is the guest's: the host process maps
    # it without PROT_EXEC, so perf records no event for it and inject finds no file.
    if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
      echo "SKIP perf inject: under qemu-aarch64 perf sees no executable mapping of the jitdump"
    else
      echo "FAIL perf inject --jit made no jitted-*.so"
      tail -20 "$tmp/perf.log"
      failed=1
    fi
  else
    echo "PASS perf inject --jit names $(echo "$names" | grep -c a64jit:) JIT regions," \
      "every compiled function among them"
  fi
fi
exit $failed
