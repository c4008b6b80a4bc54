#!/usr/bin/env bash
# `make test-blender`: drape's PC2 and GLB exports read back by a real reader. Installs Debian's
# Blender and python3-numpy when missing, runs three small scenes with --format obj,pc2,glb (a mesh
# with uv seams, two cloths, one with a name that needs sanitising, and a garment whose seams merge
# at frames 1 and 22, so that its caches start at frame 22), imports each export
# headless (rest OBJ + Mesh Cache modifier; glTF importer) and compares vertex positions at several
# frames with drape's OBJ frames (tests/blender_roundtrip.py). Takes a minute or two.
# usage: blender_roundtrip.sh path/to/drape repo_root [tolerance_m]
set -eu
drape=$1
root=$2
tol=${3:-1e-6}
if ! command -v blender >/dev/null || ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
	echo "installing blender and python3-numpy (Debian packages; a large download)"
	DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends blender python3-numpy
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/two.json" <<'JSON'
{
  "gravity": [0, 0, -9.81],
  "output": {"fps": 24, "frames": 20},
  "cloths": [
    {"name": "left panel", "grid": {"size": [0.4, 0.3], "resolution": [9, 7], "center": [-0.3, 0, 0.5]},
     "pins": [{"corner": "top_left"}, {"corner": "top_right"}]},
    {"name": "right", "grid": {"size": [0.3, 0.3], "resolution": [6, 6], "center": [0.3, 0, 0.5]},
     "pins": [{"corner": "top_left"}]}
  ]
}
JSON
status=0
for scene in "$root/scenes/sewn_panels.json:15" "$tmp/two.json:20" "$root/tests/scenes/tube_staggered.json:34"; do
	file=${scene%:*}
	frames=${scene##*:}
	out="$tmp/out_$(basename "$file" .json)"
	echo "== $(basename "$file"), $frames frames"
	"$drape" run "$file" --out "$out" --frames "$frames" --format obj,pc2,glb --quiet
	# OMP_NUM_THREADS: Blender's own OpenMP pool, kept small on shared machines.
	if OMP_NUM_THREADS=1 blender -b --factory-startup --python-exit-code 1 \
		--python "$root/tests/blender_roundtrip.py" -- "$out" "$tol" >"$tmp/log" 2>&1 &&
		grep -q "^blender round trip ok" "$tmp/log"; then
		grep -E "^(blender |largest|max )" "$tmp/log"
		echo "ok"
	else
		cat "$tmp/log"
		echo "FAILED"
		status=1
	fi
done
exit $status
