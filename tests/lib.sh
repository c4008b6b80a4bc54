# What the shell tests share (sourced, not run): a temporary folder removed at exit, the counters
# of passed and failed checks, their one-line reports, and the closing count. One way to report a
# check, so that every suite's log reads the same ("ok      NAME" / "FAILED  NAME: WHY") and
# ctest's pass or fail follows the count.
# usage, at a test's top:  . "$(dirname "$0")/lib.sh"   ...   finish [LABEL]
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
# The system interpreter: it has Debian's numpy, which a python3 earlier on PATH may lack.
py=/usr/bin/python3
ok() { passed=$((passed + 1)); echo "ok      $1"; }
bad() { failed=$((failed + 1)); echo "FAILED  $1: $2"; }
# finish [LABEL]: the closing count; the script's status is 0 only when no check failed.
finish() {
	echo "${1:+$1: }$passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}
