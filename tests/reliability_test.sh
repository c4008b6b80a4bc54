#!/usr/bin/env bash
# Runs that must not grind (docs/reliability.md): every scene in tests/scenes/hangs (the corpus of
# scenes that once stalled drape, and more of their kinds) ends within 5 s for two frames with exit
# 0, 2 or 3 and, where it is refused, a message naming the limit; the limits themselves; SIGTERM
# honoured in the middle of one long step.
# usage: reliability_test.sh path/to/drape repo_root [SANITIZED: ON under ASan/UBSan, shorter runs]
set -u
drape=$1
root=$2
# Under the sanitizers runs are about ten times slower: fewer frames, and the long step of
# sigterm_mid_step is reached later (its setup alone takes seconds).
sanitized=OFF
# The interrupt latency promised is a second (docs/reliability.md); the sanitizers' tenfold slowdown
# on a shared two-core machine stretches it, so their bound is three.
case "${3:-OFF}" in ON | on | 1 | TRUE | true) resume_frames=10 step_wait=10 sanitized=ON latency=3.0 ;; *) resume_frames=30 step_wait=2 latency=1.0 ;; esac
. "$(dirname "$0")/lib.sh"

# NAME -> what the refusal (or stop) must say; exit 2 for a refusal.
declare -A expect=(
	[hang_1ab0ba9cb7]="moves at 200.* beyond drape's range of 20 m/s"
	[hang_2fa724db8c]="gravity: \|gravity\| = 1e\+10 m/s\^2 is beyond"
	[hang_41d1f7924c]="grid u_axis and v_axis are parallel"
	[hang_7017384f75]="wind.velocity: \|velocity\| \+ \|gust_amplitude\| = 1e\+19 m/s is beyond"
	[hang_7cf39a575a]="times longer than wide, beyond drape's limit of 100"
	[hang_80981b6dca]="solver.max_dt: one output frame .* would take 6.67e\+06 steps"
	[hang_8880f75638]="vertex 0 is at 9.22337e\+18 m from the origin along z"
	[hang_8fdb6d3a75]="1025 times longer than wide"
	[hang_957095c321]="edges are 1e-08 times their rest \(uv\) lengths"
	[hang_a1873e2652]="\|gravity\| = 1e\+09 m/s\^2 is beyond"
	[hang_b33865d767]="\|gust_amplitude\| = 1e\+10 m/s is beyond"
	[hang_e5631d8b41]="1000000 times longer than wide"
	[hang_ec7f599991]="9.22337e\+18 m from the origin along x"
	[hang_fc47b913cf]="\|gravity\| = 2.14748e\+09 m/s\^2 is beyond"
	[kind_thick_cloth]="cloth_contact.thickness: 1 m is beyond drape's range \(0.05 m\)"
	[kind_long_panel]="panel 'front' spans 0.5 m x 436 m, beyond drape's limit of 10 m"
	[kind_wind330]="= 330 m/s is beyond drape's range \(100 m/s"
	[kind_shear_1e12]="material.shear: 1e\+12 N/m is beyond drape's range \(1e\+06 N/m"
	[kind_damping_1e5]="material.shear_damping: 100000 N\*s/m is beyond drape's range \(1000 N\*s/m"
	[kind_contact_1e9]="cloth_contact.stiffness: 1e\+09 N/m is beyond drape's range \(1e\+06 N/m"
	[kind_bend_19]="material.bend: 19.22.* N\*m is beyond drape's range \(0.1 N\*m"
	[kind_bend_damping_92]="material.bend_damping: 91.78.* N\*m\*s is beyond drape's range \(0.01 N\*m\*s"
	[kind_explicit_damping]="the explicit part of symplectic_euler diverged at steps of .* drape allows 50 steps per max_dt"
	[kind_explicit_swing]="the explicit part of symplectic_euler diverged at steps of .*the energy more than doubled in one step"
	[kind_bend_damping_0p19]="material.bend_damping: 0.1867.* N\*m\*s is beyond drape's range \(0.01 N\*m\*s"
	[kind_bend_0p1]="the explicit part of imex_bend_shear diverged at steps of .*the energy more than doubled in one step with nothing but gravity"
	[kind_crushed_ball]="the cloth is crushed onto or flung through itself: its contact search found more than 100"
)
# Two frames of any of them end within 5 s (a kind that steps before it stops takes about ten
# times longer under the sanitizers).
hang_limit=5
[ "$sanitized" = ON ] && hang_limit=50
for f in "$root"/tests/scenes/hangs/*.json; do
	name=$(basename "$f" .json)
	t0=$(date +%s.%N)
	timeout -s KILL 30 "$drape" run "$f" --out "$tmp/$name" --frames 2 --quiet --threads 1 >"$tmp/$name.out" 2>"$tmp/$name.err"
	rc=$?
	t1=$(date +%s.%N)
	secs=$($py -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$t0" "$t1")
	pattern=${expect[$name]:-}
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 2 ] && [ "$rc" -ne 3 ]; then
		bad "$name" "exit $rc after $secs s; $(tail -c 300 "$tmp/$name.err")"
	elif $py -c "import sys; sys.exit(0 if float(sys.argv[1]) > float(sys.argv[2]) else 1)" "$secs" "$hang_limit"; then
		bad "$name" "took $secs s (limit $hang_limit s) with exit $rc"
	elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$tmp/$name.err"; then
		bad "$name" "exit $rc; stderr does not match /$pattern/: $(cat "$tmp/$name.err")"
	elif [ "$rc" -eq 2 ] && [ -e "$tmp/$name" ]; then
		bad "$name" "a refused scene left an output folder"
	else
		ok "$name ($secs s, exit $rc)"
	fi
done

# Energy made a share at a time (docs/reliability.md): kind_bend_0p1 at a tenth of its max_dt
# takes steps that each pass the one-step energy rule while the sheet gains 1.2 times a step; it
# ran 8 CPU s to a 3,100 J sheet and exit 0. Now it stops within the 5 s with exit 3, the cause in
# stderr and summary.json, frame 0 kept.
"$drape" run "$root/tests/scenes/hangs/kind_bend_0p1.json" --set solver.max_dt=5.208333333333333e-05 --frames 2 --quiet \
	--threads 1 --out "$tmp/runaway" >/dev/null 2>"$tmp/runaway.err"
rc=$?
runaway="simulation diverged at t = .* the explicit part of imex_bend_shear made .* J out of nothing since t = 0 s .* more than the whole cloth carries at 1 m/s; set solver.max_dt to at most"
if [ "$rc" -eq 3 ] && grep -Eq -- "$runaway" "$tmp/runaway.err" &&
	$py -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['status']=='failed' and d['exit_status']==3 and d['frames_written']==1 and 'out of nothing' in d['error']" "$tmp/runaway/summary.json"; then
	ok energy_runaway_stops
else
	bad energy_runaway_stops "exit $rc: $(cat "$tmp/runaway.err")"
fi

elapsed() { $py -c "import sys; print(float(sys.argv[2]) - float(sys.argv[1]))" "$1" "$2"; }
scene() { # scene NAME JSON: writes $tmp/NAME.json
	printf '%s\n' "$2" >"$tmp/$1.json"
	echo "$tmp/$1.json"
}
# refuse NAME PATTERN JSON: exit 2 with the message, nothing written
refuse() {
	"$drape" run "$(scene "$1" "$3")" --out "$tmp/out_$1" --quiet >/dev/null 2>"$tmp/$1.err"
	local rc=$?
	if [ "$rc" -eq 2 ] && grep -Eq -- "$2" "$tmp/$1.err" && [ ! -e "$tmp/out_$1" ]; then ok "$1"; else
		bad "$1" "exit $rc: $(cat "$tmp/$1.err")"; fi
}
grid='"grid": {"size": [1, 1], "resolution": [11, 11]}'
refuse limit_memory "particles need at least [0-9.]+ GB .* more than this machine's" \
	'{"cloths": [{"grid": {"size": [1, 1], "resolution": [7000, 7000]}}]}'
refuse limit_mean_edge "mean rest edge .* is below drape's limit of 0.0001 m" \
	'{"cloths": [{"grid": {"size": [0.0005, 0.0005], "resolution": [11, 11]}}]}'
refuse limit_pin_keyframes "keyframe 1 is beyond drape's range .* here 200 m/s" \
	'{"cloths": [{'"$grid"', "pins": [{"corner": "top_left", "keyframes": [{"time": 0, "position": [0, 0, 1]}, {"time": 0.01, "position": [2, 0, 1]}]}]}]}'
refuse limit_solid_poses "solid 'ball': pose 1 is beyond drape's range .* here 150 m/s" \
	'{"cloths": [{'"$grid"'}], "solids": [{"name": "ball", "shape": "sphere", "radius": 0.1, "poses": [{"time": 0, "position": [0, 0, 0]}, {"time": 0.02, "position": [3, 0, 0]}]}]}'
refuse limit_solid_far "solid 'ball': pose 0 is beyond drape's range" \
	'{"cloths": [{'"$grid"'}], "solids": [{"name": "ball", "shape": "sphere", "radius": 0.1, "poses": [{"time": 0, "position": [0, 0, 20000]}]}]}'

# SIGTERM inside one step: a CG solve that cannot converge (tolerance 1e-300, 1e9 iterations)
# makes the first step endless; the interrupt is seen inside CG, the run ends within a second with
# frame 0 kept, exit 130 and "interrupted" in summary.json, no step completed but CG iterations
# counted (so it was inside the step, not between two).
"$drape" run "$(scene longstep '{"output": {"frames": 1}, "solver": {"cg_tolerance": 1e-300, "cg_max_iterations": 1000000000}, "cloths": [{"grid": {"size": [1, 1], "resolution": [101, 101]}, "pins": [{"corner": "top_left"}]}]}')" \
	--out "$tmp/longstep" --quiet --threads 1 2>"$tmp/longstep.err" &
pid=$!
sleep $step_wait
kill -TERM $pid
t0=$(date +%s.%N)
wait $pid
rc=$?
t1=$(date +%s.%N)
if [ "$rc" -eq 130 ] &&
	$py -c "import json,sys; d=json.load(open(sys.argv[1])); t=d['totals']; assert d['status']=='interrupted' and d['frames_written']==1 and t['steps']==0 and t['cg_iterations']>0" "$tmp/longstep/summary.json" &&
	[ -f "$tmp/longstep/frame_0000.obj" ] && $py -c "import sys; sys.exit(0 if float(sys.argv[2])-float(sys.argv[1]) < float(sys.argv[3]) else 1)" "$t0" "$t1" "$latency"; then
	ok sigterm_mid_step
else
	bad sigterm_mid_step "exit $rc after SIGTERM ($(cat "$tmp/longstep.err")); summary: $(head -c 300 "$tmp/longstep/summary.json" 2>/dev/null)"
fi

# SIGTERM while a large scene is being set up (90,601 particles: building the cloth/cloth rest
# neighbourhoods alone takes about 30 s): the run ends within a second (three under the sanitizers), exit 130.
"$drape" run "$root/scenes/figure2_sheet.json" --set cloths.0.grid.resolution.0=301 --set cloths.0.grid.resolution.1=301 \
	--frames 1 --out "$tmp/bigsetup" --quiet --threads 1 2>/dev/null &
pid=$!
sleep 3
kill -TERM $pid
t0=$(date +%s.%N)
wait $pid
rc=$?
t1=$(date +%s.%N)
if [ "$rc" -eq 130 ] && $py -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['status']=='interrupted' and d['totals']['steps']==0" "$tmp/bigsetup/summary.json" &&
	$py -c "import sys; sys.exit(0 if float(sys.argv[2])-float(sys.argv[1]) < float(sys.argv[3]) else 1)" "$t0" "$t1" "$latency"; then
	ok sigterm_during_setup
else
	bad sigterm_during_setup "exit $rc, $(elapsed "$t0" "$t1") s after SIGTERM"
fi
rm -rf "$tmp/bigsetup"

# drape resume (docs/reliability.md, "Resume"): a run killed with SIGKILL at a random moment (and its
# resumption killed again), then resumed, has the same files as an uninterrupted run and every
# frame is byte-identical, and so are the flag's point cache, glTF and USD layer (rebuilt from the
# positions kept beside the checkpoint); stats.csv has the same rows.
declare -A formats=([flag]=obj,pc2,glb,usda [tablecloth_pull]=obj)
for sc in flag tablecloth_pull; do
	t0=$(date +%s.%N)
	"$drape" run "$root/scenes/$sc.json" --frames $resume_frames --format ${formats[$sc]} --out "$tmp/ref_$sc" --quiet \
		--threads 1 2>/dev/null
	T=$(elapsed "$t0" "$(date +%s.%N)")
	for k in 1 2; do
		d="$tmp/killed_${sc}_$k"
		"$drape" run "$root/scenes/$sc.json" --frames $resume_frames --format ${formats[$sc]} --out "$d" --quiet \
			--threads 1 2>/dev/null &
		pid=$!
		# a kill before frame 0's checkpoint leaves nothing to resume: wait for it, then a random time
		for _ in $(seq 300); do [ -e "$d/checkpoint.bin" ] && break; sleep 0.1; done
		sleep "$($py -c "import random,sys; print(float(sys.argv[1]) * random.uniform(0.0, 0.7))" "$T")"
		kill -KILL $pid 2>/dev/null
		wait $pid 2>/dev/null
		at=$(ls "$d" | grep -c '^frame_')
		if [ "$k" = 2 ]; then # kill the resumed run too
			"$drape" resume "$d" --quiet --threads 1 2>/dev/null &
			pid=$!
			sleep "$($py -c "import random,sys; print(float(sys.argv[1]) * random.uniform(0.1, 0.5))" "$T")"
			kill -KILL $pid 2>/dev/null
			wait $pid 2>/dev/null
		fi
		"$drape" resume "$d" --quiet --threads 1 >"$tmp/resume.out" 2>"$tmp/resume.err"
		rc=$?
		# the killed resumption may have finished first: then there is nothing left to resume
		[ "$rc" -eq 2 ] && grep -q "is complete" "$tmp/resume.err" && grep -q '"status":[[:space:]]*"ok"' "$d/summary.json" && rc=0
		diffs=""
		for f in "$tmp/ref_$sc"/{frame_,cache_,animation.}*; do
			[ -e "$f" ] || continue
			cmp -s "$f" "$d/$(basename "$f")" || diffs="$diffs $(basename "$f")"
		done
		if [ "$rc" -ne 0 ]; then
			bad "resume_${sc}_$k" "resume exit $rc: $(cat "$tmp/resume.err")"
		elif [ "$(ls "$tmp/ref_$sc")" != "$(ls "$d")" ]; then
			bad "resume_${sc}_$k" "files differ: $(diff <(ls "$tmp/ref_$sc") <(ls "$d") | tr '\n' ' ')"
		elif [ -n "$diffs" ]; then
			bad "resume_${sc}_$k" "frames differ from the uninterrupted run's:$diffs"
		elif ! diff -q <(cut -d, -f1-5 "$tmp/ref_$sc/stats.csv") <(cut -d, -f1-5 "$d/stats.csv") >/dev/null; then
			bad "resume_${sc}_$k" "stats.csv rows differ"
		else
			ok "resume_${sc}_$k (killed with $at frames written)"
		fi
	done
done
# Garments resume too: a run killed mid-sewing (some seams merged, others open) and again once the
# body moves, then resumed, writes the same cloth and body frames and the same sewing record as an
# uninterrupted run. Release: the coarse pants, whose body waits until they have relaxed (seams
# merge at frames 2-4, the body starts at frame 8); sanitizers: the coarse skirt (merges at frame
# 3, a fixed hold of 0.4 s), which is quicker.
if [ "$sanitized" = ON ]; then garment=skirt_moving_coarse gframes=16 kills="1 13"; else
	garment=pants_moving_coarse gframes=14 kills="2 10"; fi
# Waits for frame F + 1's file (so F's checkpoint is written), then SIGKILLs the run.
kill_after() {
	local pid=$1 file
	file=$(printf '%s/frame_%04d.obj' "$2" $(($3 + 1)))
	while kill -0 "$pid" 2>/dev/null && [ ! -e "$file" ]; do sleep 0.05; done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}
g="$root/tests/scenes/$garment.json"
"$drape" run "$g" --frames $gframes --out "$tmp/gref" --quiet --threads 1 2>/dev/null
d="$tmp/gkilled"
first=1
for at in $kills; do
	if ((first)); then "$drape" run "$g" --frames $gframes --out "$d" --quiet --threads 1 2>/dev/null &
	else "$drape" resume "$d" --quiet --threads 1 2>/dev/null &
	fi
	kill_after $! "$d" "$at"
	first=0
done
"$drape" resume "$d" --quiet --threads 1 >"$tmp/resume.out" 2>"$tmp/resume.err"
rc=$?
diffs=""
for f in "$tmp/gref"/*.obj; do cmp -s "$f" "$d/$(basename "$f")" || diffs="$diffs $(basename "$f")"; done
sewing() { $py -c "import json,sys; print(json.load(open(sys.argv[1]))['sewing'])" "$1/summary.json"; }
if [ "$rc" -ne 0 ]; then
	bad "resume_$garment" "resume exit $rc: $(cat "$tmp/resume.err")"
elif [ "$(ls "$tmp/gref")" != "$(ls "$d")" ]; then
	bad "resume_$garment" "files differ: $(diff <(ls "$tmp/gref") <(ls "$d") | tr '\n' ' ')"
elif [ -n "$diffs" ]; then
	bad "resume_$garment" "frames differ from the uninterrupted run's:$diffs"
elif [ "$(sewing "$tmp/gref")" != "$(sewing "$d")" ]; then
	bad "resume_$garment" "sewing records differ: $(sewing "$tmp/gref") against $(sewing "$d")"
elif ! diff -q <(cut -d, -f1-5 "$tmp/gref/stats.csv") <(cut -d, -f1-5 "$d/stats.csv") >/dev/null; then
	bad "resume_$garment" "stats.csv rows differ"
else
	ok "resume_$garment (killed after frames $kills)"
fi

# Refusals: a scene that changed, a complete run, a folder without a checkpoint.
cp "$root/scenes/flag.json" "$tmp/flag_copy.json"
"$drape" run "$tmp/flag_copy.json" --frames 4 --out "$tmp/changed" --quiet --threads 1 2>/dev/null
sed -i 's/"fps": 30/"fps": 25/' "$tmp/flag_copy.json"
"$drape" resume "$tmp/changed" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "the scene changed since the run" "$tmp/err"; then ok resume_changed_scene; else
	bad resume_changed_scene "exit $rc: $(cat "$tmp/err")"; fi
sed -i 's/"fps": 25/"fps": 30/' "$tmp/flag_copy.json"
"$drape" resume "$tmp/changed" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "is complete (frame 4 of 4)" "$tmp/err"; then ok resume_complete; else
	bad resume_complete "exit $rc: $(cat "$tmp/err")"; fi
mkdir -p "$tmp/empty"
"$drape" resume "$tmp/empty" 2>"$tmp/err"
rc=$?
if [ "$rc" -eq 2 ] && grep -q "checkpoint.bin" "$tmp/err"; then ok resume_no_checkpoint; else
	bad resume_no_checkpoint "exit $rc: $(cat "$tmp/err")"; fi

finish
