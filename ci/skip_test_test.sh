#!/usr/bin/env bash
# skip_test (ci/skip_test.sh) writes a JUnit file that parses, with the suite, case and
# reason given back exactly, whatever XML's special characters they hold; it prints the
# reason and ends its test with status 0.
set -uo pipefail
source ci/check.sh
out=$(mktemp -d "${TEST_TMPDIR:-/tmp}/skip.XXXXXX")
reason='needs <torch> & a "GPU"'
( source ci/skip_test.sh
  XML_OUTPUT_FILE=$out/skip.xml skip_test 'suite "a"' 'case<1>' "$reason" ) >"$out/log" 2>&1
status=$?
check "skip_test ends its test with status 0" test "$status" = 0
check "it prints the reason" grep -qxF "SKIPPED: $reason" "$out/log"
read_back() {
  /usr/bin/python3.11 - "$out/skip.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
case = root.find("./testsuite/testcase")
print(root.find("./testsuite").get("name"), case.get("name"), case.find("skipped").get("message"),
      sep="|")
PY
}
check "the XML parses and gives back what was given" \
  test "$(read_back 2>&1)" = "suite \"a\"|case<1>|$reason"
check_summary
