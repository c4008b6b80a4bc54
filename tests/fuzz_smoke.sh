#!/usr/bin/env bash
# ctest fuzz_smoke: builds the libFuzzer targets with clang in BUILD (incrementally after the
# first time) and runs each on its regression inputs (tests/fuzz_regressions/NAME/), its seeds and
# a few thousand mutations; fails on any crash, sanitizer report, hang or failed check.
# usage: fuzz_smoke.sh BUILD      (exit 77, a skip, without clang)
set -euo pipefail
if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
	echo "fuzz_smoke: clang not found (scripts/install-deps.sh installs it): skipped"
	exit 77
fi
exec bash "$(dirname "$0")/../scripts/fuzz.sh" --smoke "$1"
