#!/usr/bin/env bash
# Soak test (docs/reliability.md, "Soak"; issue 31, item 5), outside the default run: a garment on
# the moving body for FRAMES frames with the clip looped, once uninterrupted and once killed with
# SIGKILL at KILLS random moments and resumed each time (drape resume). Passes when
#   - the uninterrupted run's resident memory (VmRSS) while it simulates its last frame is within
#     RSS_TOLERANCE of that at frame RSS_FRAME, and
#   - the killed-and-resumed run's files are those of the uninterrupted run, every frame
#     byte-identical, stats.csv's rows equal (the timing columns aside).
# usage: tests/soak.sh [path/to/drape]     (default build/drape), settings from the environment:
#   FRAMES=9000 (5 minutes at 30 fps)  RSS_FRAME=300  RSS_TOLERANCE=0.05  KILLS=5  SEED=random
#   SCENE=tests/scenes/skirt_moving_coarse.json  SETS="--set ..." (more overrides)  KEEP=DIR
#   (which keeps both runs' folders and rss.log: the frame and VmRSS in kB of every sample)
# The full run is tests/soak.sh build/drape (about 25 minutes of two cores, 1.6 GB of frames);
# a short one: FRAMES=300 RSS_FRAME=60 tests/soak.sh build/drape.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
drape=${1:-$root/build/drape}
frames=${FRAMES:-9000}
rss_frame=${RSS_FRAME:-300}
tolerance=${RSS_TOLERANCE:-0.05}
kills=${KILLS:-5}
seed=${SEED:-$RANDOM}
scene=${SCENE:-$root/tests/scenes/skirt_moving_coarse.json}
py=/usr/bin/python3
if ((rss_frame >= frames)); then
	echo "soak: RSS_FRAME ($rss_frame) must be below FRAMES ($frames)" >&2
	exit 2
fi
if [ -n "${KEEP:-}" ]; then
	tmp=$KEEP
	mkdir -p "$tmp"
else
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
fi
# The clip loops, so the body keeps moving however long the run; the overrides are part of the
# scene's identity in the checkpoint, so resume applies them again.
# shellcheck disable=SC2206
args=(--frames "$frames" --quiet --threads 1 --set solids.0.character.loop=true ${SETS:-})
frame_file() { printf '%s/frame_%04d.obj' "$1" "$2"; }
rss_kb() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null; }

echo "soak: $frames frames of $(basename "$scene"), memory at frame $rss_frame and at the end, $kills kills (seed $seed)"

# 1. The uninterrupted run, its memory sampled as it goes (sample_ref, in the background): at frame
#    rss_frame's file, then every 0.2 s until the last frame's file appears, keeping the last sample
#    (the last frame being simulated). It runs beside the killed run (2.): two cores, half the wall
#    time.
sample_ref() {
	local t0 pid next=1 r
	t0=$(date +%s)
	"$drape" run "$scene" "${args[@]}" --out "$tmp/ref" 2>"$tmp/ref.err" &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		while [ -e "$(frame_file "$tmp/ref" "$next")" ]; do next=$((next + 1)); done
		r=$(rss_kb "$pid")
		# Until the last frame's file: after it drape writes summary.json, whose manifest lists
		# every file of the run (18,000 for 9,000 frames: 2.5 MB more resident while it is built),
		# which is the run's end, not its memory over the motion.
		[ -n "$r" ] && ((next - 1 < frames)) && echo "$((next - 1)) $r" >>"$tmp/rss.log"
		sleep 0.2
	done
	wait "$pid"
	echo "$? $(($(date +%s) - t0))" >"$tmp/ref.rc"
}
: >"$tmp/rss.log"
sample_ref &
sampler=$!

# 2. The same run killed with SIGKILL at kills random moments, each inside a random frame (the
#    kill lands a random fraction of a frame's time, as this run has taken so far, after that
#    frame's file appears), resumed each time, then resumed to the end.
mapfile -t at < <($py -c "
import random, sys
n, k, seed = map(int, sys.argv[1:])
r = random.Random(seed)
for f in sorted(r.sample(range(1, n - 1), min(k, n - 2))):
    print(f, round(r.uniform(0.0, 1.0), 3))" "$frames" "$kills" "$seed")
d="$tmp/killed"
first=1
killed_at=""
t1=$(date +%s.%N)
for entry in "${at[@]}"; do
	read -r f frac <<<"$entry"
	if ((first)); then "$drape" run "$scene" "${args[@]}" --out "$d" 2>>"$tmp/killed.err" &
	else "$drape" resume "$d" --quiet --threads 1 2>>"$tmp/killed.err" &
	fi
	pid=$!
	first=0
	while kill -0 "$pid" 2>/dev/null && [ ! -e "$(frame_file "$d" "$f")" ]; do sleep 0.05; done
	per_frame=$($py -c "import sys, time; print(max((time.time() - float(sys.argv[1])) / max(int(sys.argv[2]), 1), 0.01))" "$t1" "$f")
	sleep "$($py -c "import sys; print(float(sys.argv[1]) * float(sys.argv[2]))" "$per_frame" "$frac")"
	if kill -KILL "$pid" 2>/dev/null; then
		killed_at="$killed_at $(ls "$d" | grep -c '^frame_')"
	else
		killed_at="$killed_at (finished before frame $f)"
	fi
	wait "$pid" 2>/dev/null
done
"$drape" resume "$d" --quiet --threads 1 >"$tmp/resume.out" 2>"$tmp/resume.err"
rc_resume=$?
wait "$sampler"
read -r rc elapsed <"$tmp/ref.rc"
rss_at=$(awk -v f="$rss_frame" '$1 >= f {print $2; exit}' "$tmp/rss.log")
read -r end_frame rss_end < <(tail -n 1 "$tmp/rss.log")
if [ "$rc" -ne 0 ]; then
	echo "FAILED  soak: the uninterrupted run exited $rc: $(tail -n 3 "$tmp/ref.err")"
	exit 1
fi
echo "soak: uninterrupted run: $elapsed s; VmRSS $rss_at kB at frame $rss_frame, $rss_end kB at frame $end_frame"
failed=0
if [ -z "$rss_at" ] || ! $py -c "import sys; a, b, t = map(float, sys.argv[1:]); sys.exit(0 if abs(b - a) <= t * a else 1)" \
	"$rss_at" "$rss_end" "$tolerance"; then
	echo "FAILED  soak_memory: VmRSS ${rss_at:-unsampled} kB at frame $rss_frame, $rss_end kB at frame $end_frame (tolerance $tolerance);" \
		"the largest rise between two samples from frame $rss_frame on: $(awk -v from="$rss_frame" '
			$1 < from {next} n++ && $2 - r > best {best = $2 - r; at = $1} {r = $2}
			END {print best + 0 " kB, at frame " at + 0}' "$tmp/rss.log")"
	failed=1
else
	echo "ok      soak_memory"
fi

rc=$rc_resume
# a run the last kill missed has nothing left to resume
[ "$rc" -eq 2 ] && grep -q "is complete" "$tmp/resume.err" && rc=0
diffs=0
first_diff=""
for f in "$tmp/ref"/frame_*.obj; do
	if ! cmp -s "$f" "$d/$(basename "$f")"; then
		diffs=$((diffs + 1))
		[ -z "$first_diff" ] && first_diff=$(basename "$f")
	fi
done
if [ "$rc" -ne 0 ]; then
	echo "FAILED  soak_resume: resume exit $rc: $(cat "$tmp/resume.err")"
	failed=1
elif [ "$(ls "$tmp/ref")" != "$(ls "$d")" ]; then
	echo "FAILED  soak_resume: files differ: $(diff <(ls "$tmp/ref") <(ls "$d") | head -n 5 | tr '\n' ' ')"
	failed=1
elif ((diffs)); then
	echo "FAILED  soak_resume: $diffs frames differ from the uninterrupted run's, the first $first_diff"
	failed=1
elif ! diff -q <(cut -d, -f1-5 "$tmp/ref/stats.csv") <(cut -d, -f1-5 "$d/stats.csv") >/dev/null; then
	echo "FAILED  soak_resume: stats.csv rows differ"
	failed=1
else
	echo "ok      soak_resume: killed with${killed_at} frames written, $(ls "$d" | grep -c '^frame_') frames byte-identical"
fi
exit $failed
