# Sourced by shell tests: `skip_test SUITE CASE REASON` reports one skipped case (a JUnit
# file Bazel keeps as test.xml, which ci/count_results.py counts as skipped), prints the
# reason, and ends the test with status 0.
skip_test() {
  if [ -n "${XML_OUTPUT_FILE:-}" ]; then
    local suite case reason
    suite=$(xml_escape "$1") case=$(xml_escape "$2") reason=$(xml_escape "$3")
    cat > "$XML_OUTPUT_FILE" <<XML
<?xml version="1.0"?><testsuites><testsuite name="$suite"><testcase classname="$suite" name="$case"><skipped message="$reason"/></testcase></testsuite></testsuites>
XML
  fi
  echo "SKIPPED: $3"
  exit 0
}

# `s` with XML's special characters as entities, fit for an attribute value: a reason such
# as "needs <torch> & a GPU" must not break the file.
xml_escape() {
  local s=$1
  # `\&`: in bash 5.2's replacement a bare & stands for the matched text.
  s=${s//&/\&amp;}
  s=${s//</\&lt;}
  s=${s//>/\&gt;}
  s=${s//\"/\&quot;}
  printf '%s' "$s"
}
