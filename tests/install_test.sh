#!/usr/bin/env bash
# make install into a temporary prefix, then build the examples against the installed tree the way
# users would: through pkg-config and through CMake's find_package(drape) (docs/install.md).
# Usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$1
src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "install_test: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
p=$tmp/prefix
libdir=$(cd "$p" && ls -d lib*/pkgconfig | head -1 | xargs dirname)
for f in bin/drape include/drape.h include/drape_stability.h "$libdir/libdrape.a" "$libdir/libdrape.so" "$libdir/libdrape.so.0" \
	"$libdir/pkgconfig/drape.pc" "$libdir/cmake/drape/drapeConfig.cmake" \
	"$libdir/cmake/drape/drapeConfigVersion.cmake" "$libdir/cmake/drape/drapeTargets.cmake"; do
	[ -e "$p/$f" ] || fail "missing $f after install"
done
soname=$(readelf -d "$p/$libdir/libdrape.so" | sed -n 's/.*soname: \[\(.*\)\]/\1/p')
[ "$soname" = libdrape.so.0 ] || fail "soname is '$soname', expected libdrape.so.0"
"$p/bin/drape" --help >/dev/null 2>&1 || true

# The shared library exports exactly the functions the headers declare (drape.h, and
# drape_stability.h for the ADI research API).
declared=$(cat "$p/include/drape.h" "$p/include/drape_stability.h" | grep -v '^typedef' | grep -oE '\bdrape_[a-z0-9_]+\(' | tr -d '(' | sort -u)
exported=$(nm -D --defined-only "$p/$libdir/libdrape.so" | awk '$2 == "T" {print $3}' | sort -u)
if [ "$declared" != "$exported" ]; then
	diff <(echo "$declared") <(echo "$exported") >&2 || true
	fail "exported symbols differ from the installed headers (< header only, > library only)"
fi

# docs/api.md lists every exported function.
for fn in $exported; do
	grep -q "\b$fn\b" "$src/docs/api.md" || fail "docs/api.md does not list $fn"
done

# pkg-config, against the installed .pc only.
export PKG_CONFIG_PATH=$p/$libdir/pkgconfig
[ "$(pkg-config --modversion drape)" = "$(sed -n 's/^project(drape VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")" ] ||
	fail "pkg-config --modversion drape does not match project()"
# grep -q would close the pipe early; under pipefail the writer's SIGPIPE reads as a failure.
[[ "$(pkg-config --print-requires-private drape)" == *libcjson* ]] || fail "drape.pc lacks Requires.private: libcjson"
mkdir -p "$tmp/pc" "$tmp/out"
for ex in sheet_on_sphere mouse_pull scene_steps; do
	# shellcheck disable=SC2046
	cc -std=c11 -Wall -Wextra -Werror -o "$tmp/pc/$ex" "$src/examples/$ex.c" $(pkg-config --cflags --libs drape) \
		-Wl,-rpath,"$p/$libdir"
done
"$tmp/pc/sheet_on_sphere" "$tmp/out" >"$tmp/sheet.txt"
[ -s "$tmp/out/sheet_0060.obj" ] || fail "sheet_on_sphere wrote no sheet_0060.obj"
[ "$(grep -c '^v ' "$tmp/out/sheet_0060.obj")" = 441 ] || fail "sheet_0060.obj should have 21x21 vertices"
# The sheet comes to rest on the sphere (radius 0.3 m): its centre sits just above z = 0.3.
python3 - "$tmp/sheet.txt" <<'PY'
import re, sys
z = float(re.search(r"centre z = ([-0-9.]+)", open(sys.argv[1]).read()).group(1))
assert 0.29 < z < 0.36, f"sheet centre at z = {z}, expected on the sphere's top (0.3 m)"
PY
"$tmp/pc/mouse_pull" >"$tmp/pull.txt"
python3 - "$tmp/pull.txt" <<'PY'
import re, sys
t = open(sys.argv[1]).read()
y, target = map(float, re.search(r"y = ([-0-9.]+) m \(target ([-0-9.]+)", t).groups())
released = float(re.search(r"released: y = ([-0-9.]+)", t).group(1))
assert y < -0.15, f"pulled particle at y = {y}, the spring should have dragged it towards {target}"
assert released > y + 0.05, f"released particle at y = {released} did not swing back from {y}"
PY
"$tmp/pc/scene_steps" "$src/scenes/figure2_sheet.json" "$tmp/run" >"$tmp/steps.txt"
grep -q "^step 3: cloth" "$tmp/steps.txt" || fail "scene_steps did not step the scene's world"
[ "$(grep -c '^frame ' "$tmp/steps.txt")" = 6 ] || fail "scene_steps: expected 6 progress lines (frames 0..5)"
for f in frame_0000.obj frame_0005.obj stats.csv summary.json; do
	[ -s "$tmp/run/$f" ] || fail "scene_steps: drape_run wrote no $f"
done
[ ! -e "$tmp/run/frame_0006.obj" ] || fail "scene_steps: drape_run wrote past frames = 5"
# A second run into the same, now non-empty, folder is refused without touching it.
if "$tmp/pc/scene_steps" "$src/scenes/figure2_sheet.json" "$tmp/run" >/dev/null 2>"$tmp/err.txt"; then
	fail "drape_run reused a non-empty folder without force"
fi
grep -q "already exists" "$tmp/err.txt" || fail "drape_run's refusal does not say why: $(cat "$tmp/err.txt")"

# The documented static line (docs/install.md) links libdrape.a in: no libdrape.so at run time,
# and the program runs without an rpath.
# shellcheck disable=SC2046
cc -std=c11 -Wall -Wextra -Werror -o "$tmp/pc/static_sheet" "$src/examples/sheet_on_sphere.c" \
	$(pkg-config --static --cflags --libs drape-static)
[[ "$(ldd "$tmp/pc/static_sheet")" != *libdrape* ]] || fail "the pkg-config --static line links libdrape.so, not libdrape.a"
mkdir -p "$tmp/static_out"
"$tmp/pc/static_sheet" "$tmp/static_out" >"$tmp/static.txt" || fail "the statically linked example does not run"
cmp -s "$tmp/out/sheet_0060.obj" "$tmp/static_out/sheet_0060.obj" || fail "the static and shared examples' sheets differ"

# CMake find_package(drape), shared (drape::drape).
cmake -S "$src/examples" -B "$tmp/cm" -DCMAKE_PREFIX_PATH="$p" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/cm" >/dev/null
"$tmp/cm/sheet_on_sphere" "$tmp/out" >/dev/null
"$tmp/cm/mouse_pull" >/dev/null
"$tmp/cm/scene_steps" "$src/scenes/figure2_sheet.json" "$tmp/run2" >/dev/null
[[ "$(ldd "$tmp/cm/mouse_pull")" == *"libdrape.so.0 => $p"* ]] || fail "find_package example does not use the installed libdrape.so.0"

# The installed Python package finds the installed library by itself (no DRAPE_LIBRARY).
env -u DRAPE_LIBRARY PYTHONPATH="$p/lib/python3/dist-packages" PYTHONDONTWRITEBYTECODE=1 /usr/bin/python3 -c '
import sys, drape
assert drape._lib._name.startswith(sys.argv[1]), drape._lib._name
w = drape.load_scene(sys.argv[2], threads=1)
w.step(0.05)
assert w.positions(0).shape == (2601, 3)
' "$p" "$src/scenes/figure2_sheet.json" || fail "the installed Python package does not load the installed library"
# The shipped scenes, meshes and patterns are installed, and the docs' Python examples
# (docs/python.md, run by tests/python/test_docs.py) run from the install: the installed package,
# its library and its scenes, with the source tree only for the text of the docs.
for f in figure1_drape.json figure2_sheet.json cylinder.obj garment_tube.json patterns/skirt.json; do
	[ -s "$p/share/drape/scenes/$f" ] || fail "missing share/drape/scenes/$f after install"
done
installed_py() {
	env -u DRAPE_LIBRARY PYTHONPATH="$p/lib/python3/dist-packages" DRAPE_SOURCE_DIR="$src" PYTHONDONTWRITEBYTECODE=1 \
		OMP_WAIT_POLICY=PASSIVE /usr/bin/python3 "$@"
}
installed_py -c '
import sys, drape
assert drape.__file__.startswith(sys.argv[1]), drape.__file__
assert drape.scene_path().startswith(sys.argv[1] + "/share/drape/scenes"), drape.scene_path()
assert drape.__version__ == sys.argv[2], drape.__version__
' "$p" "$(sed -n 's/^project(drape VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")" ||
	fail "the installed Python package does not find its scenes or version"
(cd "$tmp" && installed_py -m unittest discover -s "$src/tests/python" -p test_docs.py) ||
	fail "the docs' Python examples do not run from the install"
echo "install_test: ok"
