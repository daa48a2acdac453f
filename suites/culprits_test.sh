#!/usr/bin/env bash
# suites/culprits.py end to end with a stand-in `bazel` on PATH: a confirmed regression's
# label must gain its culprit function, decision and reproducer, found by the real bisector
# on a planted miscompile (A64JIT_TEST_PLANT) of difftest/bisect/testdata/planted.py, both for
# a regression confirmed alone and for one `confirmed in module` (bisected on its module's
# whole run, whose test.xml says whether the test failed); an unconfirmed regression's label
# must stay as it was.
set -uo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
# bazel test ... //suites/fake:M_jit (a made-up target; doc-paths: ignore): the planted program with the JIT, exit 3 when it fails
# (bazel's status for a failed test); without --test_filter (the whole module) it also writes
# the module's test.xml, where test_module fails or passes with the program.
# bazel info ... bazel-testlogs: where. bazel run ... //jit/python:a64jit-run -- ARGS: the runner.
cat > "$tmp/bin/bazel" <<SH
#!/usr/bin/env bash
runner=(${A64JIT_TARGET_RUNNER:-} "$PWD/jit/python/a64jit-run")
if [ "\$1" = info ]; then echo "$tmp/testlogs"; exit 0; fi
if [ "\$1" = run ]; then
  while [ "\$1" != -- ]; do shift; done
  shift
  exec "\${runner[@]}" "\$@"
fi
status=0
"\${runner[@]}" --threshold=0 "$PWD/difftest/bisect/testdata/planted.py" > /dev/null 2>&1 || status=3
case " \$* " in
  *" --test_filter="*) ;;
  *) mkdir -p "$tmp/testlogs/suites/fake/planted_jit"
     outcome=""
     [ \$status = 3 ] && outcome='<failure message="planted"/>'
     echo "<testsuite><testcase name=\"test_module\">\$outcome</testcase></testsuite>" \
       > "$tmp/testlogs/suites/fake/planted_jit/test.xml" ;;
esac
exit \$status
SH
chmod +x "$tmp/bin/bazel"
cat > "$tmp/report.json" <<'JSON'
{"regressions": [{"test": "planted::test_count", "module": "planted", "kind": "fail"},
                 {"test": "planted::test_other", "module": "planted", "kind": "fail"},
                 {"test": "planted::test_module", "module": "planted", "kind": "fail"}]}
JSON
echo '{"planted::test_count": "confirmed", "planted::test_other": "flaky",
       "planted::test_module": "confirmed in module"}' > "$tmp/labels.json"
PATH="$tmp/bin:$PATH" A64JIT_TEST_PLANT=flip-branch:__main__:count_below \
  /usr/bin/python3.11 suites/culprits.py --suite fake --report "$tmp/report.json" \
  --labels "$tmp/labels.json" --out "$tmp/culprits" 2>&1 | grep "^culprits"
if /usr/bin/python3.11 - "$tmp/labels.json" <<'PY'
import json, re, sys
labels = json.load(open(sys.argv[1]))
print("label:", labels["planted::test_count"])
# The culprit is the planted decision, named by its kind and bytecode offset: its number and
# the function's count of decisions change with every new kind of optional decision before it.
want = (r"confirmed; culprit function: __main__:count_below; decision \d+ of \d+: "
        r"hir\.fuse-compare-truth at bytecode offset 9; reproducer ")
assert re.match(want, labels["planted::test_count"]), labels
assert "fails with the JIT" in labels["planted::test_count"], labels
assert labels["planted::test_other"] == "flaky", labels
print("label:", labels["planted::test_module"])
assert re.match(r"confirmed in module; culprit function: __main__:count_below; decision \d+ of \d+: "
                r"hir\.fuse-compare-truth at bytecode offset 9",
                labels["planted::test_module"]), labels
PY
then
  echo "PASS culprits.py labels the confirmed regression with its culprit"
else
  echo "FAIL culprits.py labels the confirmed regression with its culprit"
  tail -15 "$tmp/culprits/1.log"
  exit 1
fi
