#!/usr/bin/env bash
# The command is a user of the public API (issue 30 item 4): a file in app/ includes the public
# headers of include/ (drape.h, drape_stability.h) and app/ headers, and no header from src/. The
# build says the same (the command has no src/ on its include path); this says it by name.
# usage: app_includes_test.sh repo_root
set -u
root=$1
status=0
count=0
cd "$root" || exit 1
for f in app/*.c app/*.h; do
	while read -r h; do
		[ -z "$h" ] && continue
		[ -f "include/$h" ] && continue
		[ -f "app/$h" ] && continue
		echo "FAILED  $f includes the library's private $h: use the public headers of include/"
		status=1
		count=$((count + 1))
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
[ $status = 0 ] && echo "ok      app/ includes only include/'s public headers and its own ($count private)"
exit $status
