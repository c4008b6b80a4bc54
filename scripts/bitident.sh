#!/usr/bin/env bash
# Proves that two drape binaries give bit-identical frames (docs/architecture.md): runs every
# shipped scene in scenes/ with both and compares, for each scene,
#   - every frame_NNNN.obj byte for byte,
#   - stats.csv without its timing columns (eval_ms, cg_ms, cc_ms, cs_ms, wall_ms): steps,
#     rejections, CG iterations, step sizes, kinetic energy, contacts per frame,
#   - the world's state in checkpoint.bin (from its "DRWSTAT" block on: x, v, the step control,
#     contacts, warm start, all in full double precision) byte for byte, except BDF2's history
#     (x_prev, v_prev) while its h_prev is 0 in both: unused then, and uninitialised in binaries
#     before the world split.
#
# usage: scripts/bitident.sh OLD_DRAPE NEW_DRAPE [FRAMES]
#   FRAMES   frames per scene (default 6); FULL_SCENES (default figure1_drape) lists scenes run
#            with their own frame count instead (empty: none). THREADS (default 1) per run.
# Exit status: 0 when every scene matched, 1 otherwise. Work dir: $BITIDENT_DIR or a temp dir.
set -u
old=${1:?usage: bitident.sh OLD_DRAPE NEW_DRAPE [FRAMES]}
new=${2:?usage: bitident.sh OLD_DRAPE NEW_DRAPE [FRAMES]}
frames=${3:-6}
full=${FULL_SCENES-figure1_drape}
threads=${THREADS:-1}
root=$(cd "$(dirname "$0")/.." && pwd)
work=${BITIDENT_DIR:-$(mktemp -d /tmp/bitident.XXXXXX)}
mkdir -p "$work"

# stats.csv without the columns that hold wall times
untimed() { cut -d, -f1-5,10-12,14- "$1"; }
# Whether the checkpoints' world states (the run header before them carries wall times) agree:
# byte for byte, except where a third checkpoint, of the old binary's second run, shows that the
# old binary does not reproduce itself either (uninitialised struct padding in the raw contact
# records: 4-byte runs), 4 bytes either side of such a byte.
same_state() {
	python3 - "$@" <<'PY'
import sys
import struct
def state(p):
    d = open(p, "rb").read()
    return d[d.find(b"DRWSTAT"):]
def unused_history(d):
    """The bytes of BDF2's history (x_prev, v_prev) while h_prev is 0: no BDF2 step has filled
    it, nothing reads it, and binaries before the world split wrote it uninitialised. The state's
    tail (world_state.c): dv_last h_last x_prev v_prev h_prev contacts intersections limit_moved
    [limit_from limit_to]."""
    n, prepared = struct.unpack("<i", d[8:12])[0], struct.unpack("<i", d[16:20])[0]
    if not prepared: return range(0)
    for moved in (0, 1):
        flag = len(d) - 1 - (48 * n if moved else 0)
        if flag >= 0 and d[flag] == moved: break
    else: return range(0)
    h_prev = flag - 4 - 144 * n - 8  # 144: sizeof(contact) (collide/contact.h)
    if h_prev < 48 * n or struct.unpack("<d", d[h_prev:h_prev + 8])[0] != 0.0: return range(0)
    return range(h_prev - 48 * n, h_prev)
a, b = state(sys.argv[1]), state(sys.argv[2])
r = unused_history(a) if len(a) == len(b) and unused_history(a) == unused_history(b) else range(0)
def cut(d): return d[:r.start] + d[r.stop:] if len(r) else d
a, b = cut(a), cut(b)
if a == b: sys.exit(0)
if len(sys.argv) < 4 or len(a) != len(b): sys.exit(1)
c = state(sys.argv[3])
if unused_history(c) != r: sys.exit(1)
c = cut(c)
if len(c) != len(a): sys.exit(1)
noise = set()
for i in range(len(a)):
    if a[i] != c[i]: noise.update(range(i - 4, i + 5))
sys.exit(0 if all(i in noise for i in range(len(a)) if a[i] != b[i]) else 1)
PY
}

failed=0
for scene in "$root"/scenes/*.json; do
	name=$(basename "$scene" .json)
	n=(-n "$frames")
	for f in $full; do [ "$f" = "$name" ] && n=(); done
	for side in old new; do
		bin=$old
		[ $side = new ] && bin=$new
		rm -rf "$work/$name.$side"
		"$bin" run "$scene" -o "$work/$name.$side" "${n[@]}" -j "$threads" -q --force >"$work/$name.$side.log" 2>&1
		echo $? >"$work/$name.$side.rc"
	done
	why=""
	cmp -s "$work/$name.old.rc" "$work/$name.new.rc" || why="exit status $(cat "$work/$name.old.rc") vs $(cat "$work/$name.new.rc")"
	objs=$(cd "$work/$name.old" 2>/dev/null && ls frame_*.obj 2>/dev/null | wc -l)
	objs_new=$(cd "$work/$name.new" 2>/dev/null && ls frame_*.obj 2>/dev/null | wc -l)
	[ -z "$why" ] && [ "$objs" != "$objs_new" ] && why="$objs vs $objs_new frames"
	if [ -z "$why" ]; then
		for o in "$work/$name.old"/frame_*.obj; do
			[ -e "$o" ] || continue
			cmp -s "$o" "$work/$name.new/$(basename "$o")" || { why="$(basename "$o") differs"; break; }
		done
	fi
	if [ -z "$why" ] && [ -f "$work/$name.old/stats.csv" ]; then
		cmp -s <(untimed "$work/$name.old/stats.csv") <(untimed "$work/$name.new/stats.csv") || why="stats.csv differs"
	fi
	if [ -z "$why" ] && [ -f "$work/$name.old/checkpoint.bin" ]; then
		ck=("$work/$name.old/checkpoint.bin" "$work/$name.new/checkpoint.bin")
		if ! same_state "${ck[@]}"; then
			rm -rf "$work/$name.old2"
			"$old" run "$scene" -o "$work/$name.old2" "${n[@]}" -j "$threads" -q --force >/dev/null 2>&1
			same_state "${ck[@]}" "$work/$name.old2/checkpoint.bin" || why="checkpoint state differs"
		fi
	fi
	steps=$(untimed "$work/$name.new/stats.csv" 2>/dev/null | awk -F, 'NR > 1 {s += $3; r += $4} END {print s + 0 " steps, " r + 0 " rejected"}')
	if [ -z "$why" ]; then
		echo "same     $name: $objs frames, $steps, exit $(cat "$work/$name.new.rc")"
	else
		echo "DIFFERS  $name: $why"
		failed=1
	fi
done
[ $failed = 0 ] && echo "bit-identical on every scene" || echo "some scenes differ (outputs in $work)"
exit $failed
