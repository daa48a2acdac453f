#!/usr/bin/env bash
# One module (regrtest) or test file (pytest) of a real suite, run on one side: stock, or
# with the JIT (a64jit-run at threshold $A64JIT_SUITE_THRESHOLD, default 0). The body of
# every //suites/... test target (suites/suite.bzl).
#
# Writes, for the nightly's comparison (suites/collect.py):
#   $XML_OUTPUT_FILE (Bazel's test.xml)   the module's own JUnit XML
#   $TEST_UNDECLARED_OUTPUTS_DIR/SIDE/    runner.py's manifest.json, the XML, the -v log
#                                         and (JIT side) a64jit-run's statistics
# Passes when every test of the module passed (skips allowed) and, on the JIT side, when
# the JIT compiled at least one function: a JIT run without evidence is not a pass. A
# crash fails with its signal and the test that was running. With A64JIT_SUITE_RECORD=1
# (the nightly, ci/nightly.sh) a module that ran its tests to the end passes even where
# some failed: the nightly judges failures by comparing the sides, and a passing target is
# cached, so a resumed night does not run it again. Crashes, timeouts, a module that ran
# no test and a JIT side without evidence still fail.
#
# Host config: stock is /usr/bin/python3.11, the JIT side runs its code under Unicorn.
# --config=aarch64 (A64JIT_TARGET_RUNNER set by qemu_run.sh): both sides are the aarch64
# a64jit-run under QEMU, stock with --no-jit, so emulation affects both alike.
#
# Usage: suite_test.sh regrtest|pytest|numpy|pytorch stock|jit NAME RUNNER_PY A64JIT_RUN
#          [--qemu-ignore=TEST | --host-only=REASON | --arm64-torch | TEST_ARG]...
set -euo pipefail
kind=$1 side=$2 name=$3 runner=$(pwd)/$4 a64jit=$(pwd)/$5
shift 5
tmp=${TEST_TMPDIR:-$(mktemp -d)}
out=${TEST_UNDECLARED_OUTPUTS_DIR:-$tmp/out}
threshold=${A64JIT_SUITE_THRESHOLD:-0}
mkdir -p "$out"
# regrtest and pytest work in a temporary directory; HOME keeps caches out of the real one.
# TMPDIR is a short path of its own: an AF_UNIX socket path holds at most 107 bytes, and
# sockets under Bazel's test tmpdir do not fit (50 test_concurrent_futures and 31
# test_asyncio tests failed on both sides with "AF_UNIX path too long").
work=$(mktemp -d /tmp/a64jit-suite.XXXXXX)
trap 'rm -rf "$work"' EXIT
export TMPDIR=$work HOME=$tmp

# PyTorch's tests, and any test given --arm64-torch, import the arm64 torch under QEMU.
arm64_torch=""
[ "$kind" = pytorch ] && arm64_torch=1
for a in "$@"; do [ "$a" = --arm64-torch ] && arm64_torch=1; done

if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
  # Children (sys.executable) start through a wrapper, on the same side as their parent.
  # Python rather than sh: dash drops environment variables whose names are not shell
  # identifiers (test_os passes one named by a UUID), and tests may clear PATH.
  read -r qemu qemu_args <<< "$A64JIT_TARGET_RUNNER"
  if [ -n "$arm64_torch" ]; then
    # python3-torch:arm64 cannot be installed beside the amd64 one; ci/setup_pytorch.sh
    # unpacks it, with python3.11 and everything it needs, into a sysroot that QEMU searches
    # first.
    sysroot=${A64JIT_ARM64_TORCH:-/opt/a64jit/arm64-torch}
    if [ ! -f "$sysroot/version" ]; then
      echo "FAIL: $sysroot holds no arm64 torch: run ci/setup_pytorch.sh"
      exit 1
    fi
    qemu_args="$qemu_args -L $sysroot"
  fi
  qemu=$(command -v "$qemu")
  for side_name in stock jit; do
    extra=""
    [ "$side_name" = stock ] && extra='"--no-jit", '
    cat > "$tmp/python-$side_name" <<PY
#!/usr/bin/python3.11 -S
import os, sys
argv = ["$qemu"] + "$qemu_args".split() + ["$a64jit", ${extra}*sys.argv[1:]]
os.execv(argv[0], argv)
PY
  done
  chmod +x "$tmp/python-stock" "$tmp/python-jit"
  stock=("$tmp/python-stock") stock_env=(--stock-env "A64JIT_EXECUTABLE=$tmp/python-stock")
  jit=("$tmp/python-jit") jit_env=(--jit-env "A64JIT_EXECUTABLE=$tmp/python-jit")
else
  stock=(/usr/bin/python3.11) stock_env=()
  jit=("$a64jit") jit_env=()
fi
# A subprocess runs as its parent: a64jit-run passes --no-jit or its threshold on in the
# environment, and under QEMU each side's wrapper starts a64jit-run as that side.
test_args=()
case $kind in
  regrtest) mode=(--regrtest) module=test ;;
  pytest) mode=() module=pytest test_args=(--test-arg=-p --test-arg=no:cacheprovider) ;;
  numpy)
    # NAME is a test file of Debian's numpy, relative to the package. Under QEMU both sides
    # use the arm64 build ci/setup.sh unpacks, first on PYTHONPATH.
    mode=() module=pytest test_args=(--test-arg=-p --test-arg=no:cacheprovider)
    numpy_root=/usr/lib/python3/dist-packages
    if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
      numpy_root=/opt/a64jit/arm64-numpy/usr/lib/python3/dist-packages
      if [ ! -d "$numpy_root/numpy" ]; then
        echo "FAIL: $numpy_root/numpy is missing: run ci/setup.sh (it unpacks python3-numpy:arm64)"
        exit 1
      fi
      stock_env+=(--stock-env "PYTHONPATH=$numpy_root")
      jit_env+=(--jit-env "PYTHONPATH=$numpy_root")
    fi
    name=$numpy_root/numpy/$name ;;
  pytorch)
    # NAME is a test file's stem in PyTorch's test/ folder: $A64JIT_PYTORCH_TESTS (bazel test
    # --test_env=A64JIT_PYTORCH_TESTS=/path/to/pytorch/test), by default the 1.13.1 one
    # ci/setup_pytorch.sh unpacks. suites/pytorch/python (the expecttest stand-in and the
    # shard plugin) goes first on PYTHONPATH. Under QEMU both sides run with the arm64
    # torch's sysroot as QEMU's -L.
    mode=() module=pytest
    tests_dir=${A64JIT_PYTORCH_TESTS:-/opt/a64jit/pytorch-tests/test}
    # --rootdir: node ids (and the XML's class names) read test_nn.py::TestNN::test_x,
    # wherever the folder is.
    test_args=(--test-arg=-p --test-arg=no:cacheprovider --test-arg=-p --test-arg=a64jit_suite
      --test-arg=--rootdir="$tests_dir")
    if [ ! -f "$tests_dir/$name.py" ]; then
      echo "FAIL: $tests_dir/$name.py is missing: run ci/setup_pytorch.sh, or set" \
        "A64JIT_PYTORCH_TESTS to a PyTorch checkout's test/ folder"
      exit 1
    fi
    echo "suite_test: $tests_dir/$name.py"
    export PYTHONPATH=$(pwd)/suites/pytorch/python${PYTHONPATH:+:$PYTHONPATH}
    name=$tests_dir/$name.py ;;
  *) echo "suite_test: kind is regrtest, pytest, numpy or pytorch, got $kind" >&2; exit 2 ;;
esac
# --qemu-ignore=TEST: a test that fails under QEMU for the emulator's sake (modules.bzl says
# why) is left out there, on both sides (regrtest's --ignore; pytest's --deselect of the
# node id FILE::TEST); elsewhere it runs. --host-only=REASON: a skip, with its reason,
# under QEMU. --arm64-torch: handled above.
for a in "$@"; do
  case $a in
    --qemu-ignore=*)
      if [ -n "${A64JIT_TARGET_RUNNER:-}" ] && [ "$kind" = pytorch ]; then
        test_args+=(--test-arg=--deselect --test-arg="${name##*/}::${a#--qemu-ignore=}")
      elif [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
        test_args+=(--test-arg=--ignore --test-arg="${a#--qemu-ignore=}")
      fi ;;
    --host-only=*)
      if [ -n "${A64JIT_TARGET_RUNNER:-}" ]; then
        source ci/skip_test.sh
        skip_test "$name" "$side" "${a#--host-only=}"
      fi ;;
    --arm64-torch) ;;
    *) test_args+=(--test-arg="$a") ;;
  esac
done
# `bazel test --test_filter=TEST` (the nightly's re-run of one regression, suites/rerun.py)
# runs that one test: a regrtest test id, or a pytest node id after the file's path.
only=()
if [ -n "${TESTBRIDGE_TEST_ONLY:-}" ]; then only=(--only "$TESTBRIDGE_TEST_ONLY"); fi
# Leave Bazel's own timeout (TEST_TIMEOUT) a margin, so a hang is recorded as a timeout
# with its culprit instead of the whole target being killed without a report.
timeout=$(( ${TEST_TIMEOUT:-900} - 30 ))

/usr/bin/python3.11 "$runner" "${mode[@]}" --side "$side" --out "$out" --timeout "$timeout" \
  --stock-cmd "${stock[*]} -m $module" "${stock_env[@]}" \
  --jit-cmd "${jit[*]} --threshold=$threshold -m $module" "${jit_env[@]}" \
  "${only[@]}" "${test_args[@]}" "$name"

stem=${name##*/}
stem=${stem%.py}
xml="$out/$side/$stem/$stem.xml"
if [ -n "${XML_OUTPUT_FILE:-}" ] && [ -s "$xml" ]; then cp "$xml" "$XML_OUTPUT_FILE"; fi
rm -rf "$work"
exec /usr/bin/python3.11 - "$out/$side/manifest.json" "$side" "$name" \
  "$out/$side/$stem/jit-stats.json" "$xml" "${TESTBRIDGE_TEST_ONLY:-}" <<'PY'
import json, os, sys
import xml.etree.ElementTree as ET
manifest, side, name, stats_path, xml, only = sys.argv[1:]
record = os.environ.get("A64JIT_SUITE_RECORD") == "1"

def xml_cases(path):
    """The test cases in the module's XML; 0 when it is missing or truncated."""
    try:
        return sum(1 for _ in ET.parse(path).iter("testcase"))
    except (OSError, ET.ParseError):
        return 0

run = json.load(open(manifest))["files"][0]
stats = json.load(open(stats_path)) if os.path.exists(stats_path) else {}
problems = []
if run["signal"]:
    problems.append("crashed: %s%s" % (run["signal"], " in " + run["culprit"] if run["culprit"] else ""))
elif run["exit_status"] != 0 and not (record and xml_cases(xml) > 0):
    problems.append("exit status %d (a test failed, or none ran)" % run["exit_status"])
elif run["exit_status"] != 0:
    print("%s (%s): exit status %d, recorded for the nightly's comparison"
          % (name, side, run["exit_status"]))
compiled = run.get("compiled_functions")
if side == "jit":
    share = ""
    if compiled is not None and run.get("failed_functions") is not None:
        total = compiled + run["failed_functions"]
        share = ", compiled share %d/%d" % (compiled, total)
    emulated = ""
    if stats.get("exec_mode") == "unicorn":
        emulated = ", emulated instructions %d" % stats.get("emulated_instructions", 0)
        if not stats.get("emulated_instructions"):
            problems.append("no JIT evidence: Unicorn emulated no instruction")
    print("%s (jit): compiled %s%s%s, %.1f s" % (name, compiled, share, emulated,
                                                run["duration_s"]))
    # A JIT list file may rightly compile nothing (the bisector's runs, difftest/bisect).
    if not compiled and not os.environ.get("A64JIT_JITLIST_FILE"):
        problems.append("no JIT evidence: compiled %s function(s)" % compiled)
else:
    print("%s (stock): %.1f s" % (name, run["duration_s"]))
if only:
    # A filtered run passes only if the test ran: a filter that matches nothing runs no test.
    if xml_cases(xml) == 0:
        problems.append("--test_filter=%s ran no test" % only)
if problems:
    print("FAIL: %s (%s): %s" % (name, side, "; ".join(problems)))
    sys.exit(1)
PY
