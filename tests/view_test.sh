#!/usr/bin/env bash
# Tests of `drape view`, the interactive viewer: without a display it says so in one sentence
# and exits 2; under a virtual X server (Xvfb, Mesa llvmpipe) a real mouse drag made with
# xdotool pulls the cloth toward the cursor (the paper's user force, sec. 4.4), a very stiff
# pull far out of the cloth's reach stays stable, and a screenshot shows the cloth.
# usage: view_test.sh path/to/drape path/to/png_probe repo_root
set -u
drape=$1
probe=$2
root=$3

if [ "${VIEW_TEST_INNER:-}" != 1 ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	passed=0
	failed=0
	ok() { passed=$((passed + 1)); echo "ok      $1"; }
	bad() { failed=$((failed + 1)); echo "FAILED  $1: $2"; }

	# --- no display: one sentence, exit 2, no crash
	env -u DISPLAY -u WAYLAND_DISPLAY "$drape" view >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ $got -ne 2 ]; then bad no_display "exit $got, want 2; stderr: $(cat "$tmp/err")"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "no display found" "$tmp/err"; then
		bad no_display "want one line naming the missing display, got: $(cat "$tmp/err")"
	else ok no_display; fi
	# a display that is set but not there
	env -u WAYLAND_DISPLAY DISPLAY=:1999 "$drape" view >"$tmp/out" 2>"$tmp/err"
	got=$?
	if [ $got -ne 2 ]; then bad dead_display "exit $got, want 2; stderr: $(cat "$tmp/err")"
	elif [ "$(wc -l <"$tmp/err")" -ne 1 ] || ! grep -q "cannot open display ':1999'" "$tmp/err"; then
		bad dead_display "want one line naming the display, got: $(cat "$tmp/err")"
	else ok dead_display; fi

	# --- bad options and scenes are reported before any window opens
	bad_arg() { # NAME PATTERN ARGS...
		local name=$1 pattern=$2
		shift 2
		env -u DISPLAY -u WAYLAND_DISPLAY "$drape" view "$@" >"$tmp/out" 2>"$tmp/err"
		local got=$?
		if [ $got -ne 2 ]; then bad "$name" "exit $got, want 2"
		elif ! grep -Eq -- "$pattern" "$tmp/err"; then bad "$name" "stderr does not match /$pattern/: $(cat "$tmp/err")"
		else ok "$name"; fi
	}
	bad_arg bad_exit_after "--exit-after needs" --exit-after 0
	bad_arg bad_stiffness "--mouse-stiffness needs" --mouse-stiffness -3
	bad_arg bad_size "--size needs" --size 10x10
	bad_arg bad_size_gnu "--size needs WIDTHxHEIGHT.*got '10x10'" --size=10x10
	bad_arg bad_threads_short "--threads needs a whole number from 1 to 1024, got '0'" -j 0
	bad_arg bad_track "no such cloth vertex" --track 0:999999
	bad_arg bad_track_syntax "--track needs" --track 7
	bad_arg missing_scene "no_such_scene.json" "$tmp/no_such_scene.json"
	"$drape" view --help | grep -q -- "--mouse-stiffness" && ok view_help || bad view_help "no options listed"

	# --- the live viewer under Xvfb (everything below runs inside one virtual X server)
	for tool in xvfb-run xdotool; do
		if ! command -v $tool >/dev/null; then
			bad xvfb "$tool is missing (scripts/install-deps.sh installs it)"
			echo "$passed passed, $failed failed"
			exit 1
		fi
	done
	VIEW_TEST_INNER=1 VIEW_TEST_TMP="$tmp" xvfb-run -a -s "-screen 0 1280x1024x24" \
		bash "$0" "$drape" "$probe" "$root" >"$tmp/inner" 2>&1
	inner=$?
	cat "$tmp/inner"
	passed=$((passed + $(grep -c '^ok ' "$tmp/inner")))
	failed=$((failed + $(grep -c '^FAILED ' "$tmp/inner")))
	if [ $inner -ne 0 ] && ! grep -q '^FAILED ' "$tmp/inner"; then
		failed=$((failed + 1))
		echo "FAILED  xvfb: the X server or the tests under it failed (exit $inner)"
	fi
	echo "$passed passed, $failed failed"
	[ $failed -eq 0 ]
	exit
fi

# ---------------------------------------------------------------------------------------------
# Inside Xvfb.
tmp=$VIEW_TEST_TMP
ok() { echo "ok      $1"; }
bad() { echo "FAILED  $1: $2"; }

# A 0.6 m square sheet hanging from its top edge in the x-z plane (at rest from the start, so
# a particle stays where the ready file says it is); vertex 6 is the middle of the free edge.
cat >"$tmp/hang.json" <<'EOF'
{
  "name": "hang",
  "gravity": [0, 0, -9.81],
  "output": {"fps": 30, "frames": 100},
  "cloths": [{
    "grid": {"size": [0.6, 0.6], "resolution": [13, 13], "center": [0, 0, 1],
             "u_axis": [1, 0, 0], "v_axis": [0, 0, 1]},
    "material": {"density": 0.1},
    "pins": [{"edge": "top"}]
  }]
}
EOF
V=6

# wait_for FILE SECONDS: polls until FILE exists.
wait_for() {
	local i
	for ((i = 0; i < $2 * 10; ++i)); do
		[ -s "$1" ] && return 0
		sleep 0.1
	done
	return 1
}

# Ends the watchdog started with a viewer: its sleep is killed, so the kill after it never runs.
stop_watchdog() { pkill -P "$watchdog" 2>/dev/null; }

# start_viewer NAME [VIEWER OPTIONS...]: starts the viewer on the sheet (paused, tracking vertex
# V) in the background, waits for its ready file and window, and sets pid, px, py (the tracked
# particle's window position) and wid. The report lands in $tmp/NAME.json.
start_viewer() {
	local name=$1
	shift
	rm -f "$tmp/$name.ready"
	"$drape" view "$tmp/${scene:-hang}.json" --threads 1 --size 800x600 --track 0:$V --ready "$tmp/$name.ready" \
		--report "$tmp/$name.json" --paused "$@" 2>"$tmp/$name.err" &
	pid=$!
	# a watchdog, in case the viewer never exits
	(sleep 90 && kill "$pid" 2>/dev/null) >/dev/null 2>&1 &
	watchdog=$!
	px= py= wid=
	if wait_for "$tmp/$name.ready" 60; then
		read -r px py < <(sed -nE 's/.*"pixel": \[([0-9-]+), ([0-9-]+)\].*/\1 \2/p' "$tmp/$name.ready")
		# this viewer's own window (GLFW sets _NET_WM_PID), not one a previous viewer is closing
		wid=$(timeout 20 xdotool search --sync --onlyvisible --pid "$pid" --name '^drape view' | head -1)
	fi
	if [ -z "$px" ] || [ -z "$wid" ]; then
		bad "$name" "no ready file, particle pixel or window: $(cat "$tmp/$name.ready" "$tmp/$name.err" 2>/dev/null)"
		kill "$pid" 2>/dev/null
		stop_watchdog
		wait "$pid" 2>/dev/null
		return 1
	fi
	return 0
}

# finish_viewer NAME: waits for the viewer to exit by itself and checks its status.
finish_viewer() {
	wait "$pid"
	local got=$?
	stop_watchdog
	if [ $got -ne 0 ]; then
		bad "$1" "viewer exit $got: $(cat "$tmp/$1.err")"
		return 1
	fi
	return 0
}

# drag NAME DX DY [VIEWER OPTIONS...]: with the simulation paused, presses the left button on
# the tracked particle and moves the cursor by (DX, DY) pixels in 10 steps; then space starts
# the simulation, which runs with the button held until frame $F, where the viewer exits.
# Pausing makes the pull independent of timing: the same frames see the same target.
F=45
drag() {
	local name=$1 dx=$2 dy=$3
	shift 3
	start_viewer "$name" --exit-after $F "$@" || return 1
	xdotool mousemove --window "$wid" "$px" "$py"
	sleep 0.2
	xdotool mousedown 1
	local k
	for k in 1 2 3 4 5 6 7 8 9 10; do
		xdotool mousemove --window "$wid" $((px + dx * k / 10)) $((py + dy * k / 10))
		sleep 0.03
	done
	xdotool key space
	finish_viewer "$name"
	local status=$?
	xdotool mouseup 1
	return $status
}

# Samples of the report as "frame x y z [tx ty tz]" lines: tracked (no target) or dragged.
tracked_samples() { sed -nE '/"target"/d; s/.*"frame": ([0-9]+), "time": [^,]*, "position": \[([^]]*)\].*/\1 \2/p' "$1" | tr -d ','; }
drag_samples() { sed -nE 's/.*"frame": ([0-9]+), "time": [^,]*, "position": \[([^]]*)\], "target": \[([^]]*)\].*/\1 \2 \3/p' "$1" | tr -d ','; }

# --- a drag with the default stiffness pulls the particle toward the cursor
if drag soft 250 -60; then
	rep=$tmp/soft.json
	grabbed=$(sed -nE 's/.*"drags".*//; s/^ *\{"cloth": 0, "vertex": ([0-9]+), "stiffness".*/\1/p' "$rep")
	last=$(drag_samples "$rep" | tail -1)
	first=$(drag_samples "$rep" | head -1)
	frame=${last%% *}
	if ! grep -q '"status": "ok"' "$rep"; then bad soft_drag "status not ok: $(head -3 "$rep")"
	elif [ "$grabbed" != "$V" ]; then bad soft_drag "picked vertex '$grabbed', want $V (the particle under the cursor)"
	elif [ "$frame" != "$F" ] || [ "$(drag_samples "$rep" | wc -l)" -ne $((F + 1)) ]; then
		bad soft_drag "want the drag held from frame 0 to $F, got $(drag_samples "$rep" | wc -l) samples to frame '$frame'"
	else
		# The same scene without a drag, to the frame the drag ended on (the run is
		# deterministic, so any difference is the mouse force).
		timeout 90 "$drape" view "$tmp/hang.json" --threads 1 --size 800x600 --track 0:$V \
			--report "$tmp/still.json" --exit-after "$frame" 2>"$tmp/still.err"
		base=$(tracked_samples "$tmp/still.json" | awk -v f="$frame" '$1 == f')
		if [ -z "$base" ]; then bad soft_drag "the run without a drag has no frame $frame: $(cat "$tmp/still.err")"
		else
			# Displacement from the undragged run along the direction the cursor was dragged.
			echo "$first|$last|$base" | awk -F'|' '{
				split($1, a, " "); split($2, b, " "); split($3, c, " ");
				dx = b[5] - a[5]; dy = b[6] - a[6]; dz = b[7] - a[7]; n = sqrt(dx*dx + dy*dy + dz*dz);
				m = ((b[2] - c[2]) * dx + (b[3] - c[3]) * dy + (b[4] - c[4]) * dz) / n;
				printf "%.4f %.4f\n", m, n }' >"$tmp/soft.out"
			read -r moved reach <"$tmp/soft.out"
			if awk -v m="$moved" 'BEGIN { exit !(m > 0.05) }'; then
				ok "soft_drag (followed the cursor by $moved m of $reach m, vs. no drag)"
			else
				bad soft_drag "the particle moved only $moved m toward the cursor (target $reach m away)"
			fi
		fi
	fi
fi

# --- press, drag, step, release: with the simulation paused, ten presses of '.' step frames 1-10
# with the spring; the release removes it, and five more steps (11-15) run without it. Single
# steps happen in event order, so this is exact however the events are batched. The particle
# follows the cursor while held and swings back once released.
if [ -s "$tmp/still.json" ] && start_viewer release; then
	xdotool mousemove --window "$wid" "$px" "$py"
	sleep 0.2
	xdotool mousedown 1
	for k in 1 2 3 4 5 6 7 8 9 10; do xdotool mousemove --window "$wid" $((px + 25 * k)) $((py - 6 * k)); done
	xdotool key --delay 20 period period period period period period period period period period
	xdotool mouseup 1
	xdotool key --delay 20 period period period period period
	sleep 0.3
	xdotool key q
	if finish_viewer release; then
		rep=$tmp/release.json
		held=$(drag_samples "$rep" | awk '{print $1}' | tr '\n' ' ')
		frames=$(tracked_samples "$rep" | awk '{print $1}' | tr '\n' ' ')
		# Offsets from the undragged run along the drag direction, at frames 10 and 15.
		read -r at10 at15 < <({ drag_samples "$rep" | sed -n '1p;$p'; tracked_samples "$rep"; echo "still"; tracked_samples "$tmp/still.json"; } | awk '
			NR == 1 { g[1] = $5; g[2] = $6; g[3] = $7; next }
			NR == 2 { n = 0; for (i = 1; i <= 3; ++i) { d[i] = $(i + 4) - g[i]; n += d[i] * d[i] }; n = sqrt(n); next }
			$1 == "still" { s = 1; next }
			!s { p[$1] = $2 " " $3 " " $4; next }
			s && ($1 == 10 || $1 == 15) { split(p[$1], q, " "); m[$1] = ((q[1] - $2) * d[1] + (q[2] - $3) * d[2] + (q[3] - $4) * d[3]) / n }
			END { printf "%.4f %.4f\n", m[10], m[15] }')
		if [ "$held" != "0 1 2 3 4 5 6 7 8 9 10 " ]; then bad release "want the spring on frames 0-10, got '$held'"
		elif [ "$frames" != "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 " ]; then bad release "want frames 1-15, got '$frames'"
		elif ! awk -v a="$at10" -v b="$at15" 'BEGIN { exit !(a > 0.03 && b < a) }'; then
			bad release "offset toward the cursor $at10 m at frame 10 (want > 0.03), $at15 m at 15 (want less)"
		else ok "release (toward the cursor by $at10 m while held, $at15 m five frames after release)"; fi
	fi
fi

# --- pause, single step and reset: started paused, three presses of '.' advance exactly three
# frames; r rebuilds the world at frame 0 (still paused), and two more steps give frames 1, 2
# with the same positions as before the reset.
if start_viewer step; then
	xdotool mousemove --window "$wid" 5 300 # keyboard focus follows the pointer without a window manager
	# a left drag that starts off the cloth turns the camera and adds no spring
	xdotool mousedown 1 mousemove --window "$wid" 60 320 mousemove --window "$wid" 120 340 mouseup 1
	xdotool key --delay 20 period period period r period period q # handled in order, steps at once
	if finish_viewer step; then
		frames=$(tracked_samples "$tmp/step.json" | awk '{print $1}' | tr '\n' ' ')
		same=$(tracked_samples "$tmp/step.json" | awk '{ p = $2 " " $3 " " $4; if ($1 in seen) { n++; if (seen[$1] != p) d++ } else seen[$1] = p }
			END { print n + 0, d + 0 }')
		if [ "$frames" != "1 2 3 1 2 " ]; then bad pause_step_reset "want frames 1 2 3 1 2 recorded, got '$frames'"
		elif ! grep -q '"resets": 1' "$tmp/step.json"; then bad pause_step_reset "the report counts no reset"
		elif [ "$same" != "2 0" ]; then bad pause_step_reset "frames after the reset differ from before (repeated, differing: $same)"
		elif ! grep -q '"drags": \[\]' "$tmp/step.json"; then bad pause_step_reset "a drag off the cloth grabbed a particle"
		else ok "pause_step_reset (frames $frames)"; fi
	fi
fi

# --- Ctrl-C (SIGINT) ends the viewer like `drape run`: exit 130, and the report is still written
if start_viewer interrupt; then
	kill -INT "$pid"
	wait "$pid"
	got=$?
	stop_watchdog
	if [ $got -ne 130 ]; then bad interrupt "exit $got, want 130: $(cat "$tmp/interrupt.err")"
	elif ! grep -q '"status": "ok"' "$tmp/interrupt.json"; then bad interrupt "no report written"
	else ok interrupt; fi
fi

# --- a simulation that cannot continue stops (the window stays, r would reset), says why once,
# and the viewer exits 3 as `drape run` does
cat >"$tmp/diverge.json" <<'EOF'
{"solver": {"min_dt": 0.03, "stretch_change_limit": 1e-12},
 "cloths": [{"grid": {"size": [0.5, 0.5], "resolution": [6, 6]}, "pins": [{"corner": "top_left"}]}]}
EOF
"$drape" view "$tmp/diverge.json" --threads 1 --size 400x300 --report "$tmp/diverge_report.json" 2>"$tmp/diverge.err" &
pid=$!
(sleep 90 && kill "$pid" 2>/dev/null) >/dev/null 2>&1 &
watchdog=$!
for ((i = 0; i < 600; ++i)); do
	grep -q "press r to reset" "$tmp/diverge.err" && break
	sleep 0.1
done
wid=$(timeout 20 xdotool search --sync --onlyvisible --pid "$pid" --name '^drape view' | head -1)
[ -n "$wid" ] && xdotool mousemove --window "$wid" 100 100 && sleep 0.2 && xdotool key q
wait "$pid"
got=$?
stop_watchdog
if [ $got -ne 3 ]; then bad diverged_exit_3 "exit $got, want 3: $(cat "$tmp/diverge.err")"
elif [ "$(grep -c 'cannot continue' "$tmp/diverge.err")" -ne 1 ]; then bad diverged_exit_3 "want one message, got: $(cat "$tmp/diverge.err")"
elif ! grep -q '"status": "diverged"' "$tmp/diverge_report.json"; then bad diverged_exit_3 "the report does not say so"
else ok diverged_exit_3; fi

# --- a very stiff pull (10^5 N/m, about 10^6 times the particle's weight per metre) far beyond
# the cloth's reach stays stable: no failed step, finite positions, the particle at the target.
# Without strain limiting, which would hold the sheet to 1 % (tests/test_world.c,
# stiff_spring_beyond_reach, covers that case and its cost).
sed 's/"name": "hang",/"name": "hang", "solver": {"strain_limit": 0},/' "$tmp/hang.json" >"$tmp/hang_free.json"
if scene=hang_free drag hard 330 300 --mouse-stiffness 1e5; then
	rep=$tmp/hard.json
	last=$(drag_samples "$rep" | tail -1)
	if ! grep -q '"status": "ok"' "$rep"; then bad hard_pull "the simulation failed: $(grep '"error"' "$rep")"
	elif grep -Eq '"(position|target)": (null|\[[^]]*null)' "$rep"; then bad hard_pull "non-finite positions in the report"
	elif [ "${last%% *}" != "$F" ]; then bad hard_pull "the drag did not last to frame $F"
	else
		echo "$last" | awk '{
			d = sqrt(($2-$5)^2 + ($3-$6)^2 + ($4-$7)^2);
			cx = $5 < -0.3 ? -0.3 : ($5 > 0.3 ? 0.3 : $5);  # nearest point of the pinned edge
			r = sqrt(($5-cx)^2 + ($6)^2 + ($7-1.3)^2);
			printf "%.4f %.4f\n", d, r }' >"$tmp/hard.out"
		read -r gap reach <"$tmp/hard.out"
		if awk -v g="$gap" -v r="$reach" 'BEGIN { exit !(g < 0.02 && r > 0.6) }'; then
			ok "hard_pull (stable; particle $gap m from a target $reach m from the pinned edge)"
		else
			bad hard_pull "particle $gap m from the target (want < 0.02), target $reach m from the pinned edge (want > 0.6, out of reach)"
		fi
	fi
fi

# --- a garment sews in the viewer as in a run: its seams merge, and the garment relaxes at the same
# moment `drape run` reports (docs/garments.md)
timeout 120 "$drape" view "$root/scenes/garment_tube.json" --threads 1 --size 400x300 --exit-after 15 \
	--report "$tmp/sew.json" 2>"$tmp/sew.err"
got=$?
"$drape" run "$root/scenes/garment_tube.json" --frames 15 --threads 1 --quiet --out "$tmp/sew_run" 2>>"$tmp/sew.err"
want=$(/usr/bin/python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['sewing']['motion_start'])" "$tmp/sew_run/summary.json" 2>/dev/null)
seen=$(/usr/bin/python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['seams'], r['seams_open'], r['motion_start'])" "$tmp/sew.json" 2>/dev/null)
if [ $got -ne 0 ]; then bad view_sews "viewer exit $got: $(cat "$tmp/sew.err")"
elif [ -z "$want" ] || [ "$want" = None ] || [ "$seen" != "2 0 $want" ]; then
	bad view_sews "the viewer's seams, open seams, motion start: '$seen'; the run's motion start: '$want'"
else ok "view_sews (both seams merged; relaxed at $want s, as in the run)"; fi

# --- a screenshot of the default scene (figure 1) shows the cloth and the HUD
timeout 120 "$drape" view --threads 1 --size 640x480 --exit-after 2 --screenshot "$tmp/shot.png" 2>"$tmp/shot.err"
got=$?
if [ $got -ne 0 ]; then bad screenshot "viewer exit $got: $(cat "$tmp/shot.err")"
else
	read -r w h warm cool < <("$probe" "$tmp/shot.png")
	if [ "${w:-0}" -ne 640 ] || [ "${h:-0}" -ne 480 ]; then bad screenshot "size ${w}x$h, want 640x480"
	elif [ $((warm * 100)) -lt $((w * h * 3)) ] || [ $((warm * 100)) -gt $((w * h * 60)) ]; then
		bad screenshot "$warm cloth-coloured pixels of $((w * h)), want 3% to 60%"
	else ok "screenshot ($warm cloth pixels of $((w * h)))"; fi
fi
exit 0
