#!/usr/bin/env bash
# Runs ctest in each build folder given and ends with one line counting the tests that passed and
# failed over all of them (`make test`, `make check`). Extra ctest arguments after `--`.
# usage: run-tests.sh BUILD_DIR... [-- CTEST_ARGS...]
set -u
dirs=()
while (($#)) && [ "$1" != -- ]; do dirs+=("$1"); shift; done
[ "${1:-}" = -- ] && shift
passed=0
failed=0
failures=()
for dir in "${dirs[@]}"; do
	log=$(mktemp)
	(cd "$dir" && ctest --output-on-failure "$@") 2>&1 | tee "$log"
	# "100% tests passed, 0 tests failed out of 21"
	line=$(grep -E '[0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
	if [ -z "$line" ]; then
		failed=$((failed + 1))
		failures+=("$dir: ctest did not run")
	else
		f=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1/')
		t=$(echo "$line" | sed -E 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\2/')
		passed=$((passed + t - f))
		failed=$((failed + f))
		while read -r name; do failures+=("$dir: $name"); done < <(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (.*/\1/p' "$log")
	fi
	rm -f "$log"
done
((${#failures[@]})) && printf 'failed: %s\n' "${failures[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
