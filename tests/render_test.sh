#!/usr/bin/env bash
# Tests of `drape render` (and `drape run --render`): PNG frames of the right size that show the
# cloth, both its sides' colours and its motion; the MP4/GIF frame count (ffprobe); the scene's
# camera; and bad input: not a drape folder, frames that do not match the scene, bad options,
# a bad output.camera, ffmpeg missing from PATH (one sentence, non-zero exit, no crash).
# usage: render_test.sh path/to/drape path/to/png_probe repo_root
set -u
drape=$1
probe=$2
root=$3
. "$(dirname "$0")/lib.sh"

# video_frames FILE: the number of frames ffprobe counts in FILE's video stream.
video_frames() {
	ffprobe -v error -count_frames -select_streams v:0 -show_entries stream=nb_read_frames -of csv=p=0 "$1" 2>/dev/null
}

# expect_fail NAME STATUS PATTERN -- ARGS...: exit STATUS with exactly one line on stderr that
# matches PATTERN (no crash, no sanitizer report).
expect_fail() {
	local name=$1 want=$2 pattern=$3
	shift 4
	"$@" >"$tmp/stdout" 2>"$tmp/stderr"
	local got=$?
	if [ "$got" -ne "$want" ]; then
		bad "$name" "exit $got, want $want; stderr: $(cat "$tmp/stderr")"
	elif [ "$(wc -l <"$tmp/stderr")" -ne 1 ]; then
		bad "$name" "want one line on stderr, got: $(cat "$tmp/stderr")"
	elif ! grep -Eq -- "$pattern" "$tmp/stderr"; then
		bad "$name" "stderr does not match /$pattern/: $(cat "$tmp/stderr")"
	else
		ok "$name"
	fi
}

# --- a cloth falling over a rod, seen along the rod from below its top (output.camera): the
# outside of one flap (front, red) and the inside of the other (back, blue) are both in view.
tent="$root/tests/scenes/render_tent.json"
run="$tmp/tent"
if ! "$drape" run "$tent" --out "$run" --quiet; then
	bad tent_run "drape run failed"
else
	"$drape" render "$run" --size 160x120 --quiet 2>"$tmp/stderr"
	status=$?
	pngs=$(ls "$run"/render/frame_*.png 2>/dev/null | wc -l)
	if [ $status -ne 0 ]; then bad render_status "exit $status: $(cat "$tmp/stderr")"
	elif [ "$pngs" -ne 13 ]; then bad render_pngs "$pngs images, want 13 (frames 0-12)"
	elif ls "$run"/render/*.tmp >/dev/null 2>&1; then bad render_tmp "temporary files left behind"
	else ok render_pngs; fi

	read -r w h warm cool < <("$probe" "$run/render/frame_0012.png")
	[ "${w:-0}x${h:-0}" = "160x120" ] && ok render_size || bad render_size "got ${w:-?}x${h:-?}, want 160x120"
	# 160x120 = 19200 pixels; each side covers several hundred of them (about 700 and 800)
	[ "${warm:-0}" -gt 300 ] && ok render_front_colour || bad render_front_colour "$warm front-coloured pixels"
	[ "${cool:-0}" -gt 300 ] && ok render_back_colour || bad render_back_colour "$cool back-coloured pixels"
	# frame 0: the flat cloth above the rod, seen from below it: its back only
	read -r _ _ warm0 cool0 < <("$probe" "$run/render/frame_0000.png")
	[ "${cool0:-0}" -gt 100 ] && [ "${warm0:-1}" -lt "${cool0:-0}" ] && ok render_underside ||
		bad render_underside "frame 0: $warm0 front, $cool0 back pixels; the camera sees its underside"
	differ=$("$probe" "$run/render/frame_0000.png" "$run/render/frame_0012.png")
	[ "${differ:-0}" -gt 500 ] && ok render_motion || bad render_motion "frames 0 and 12 differ in $differ pixels"
	same=$("$probe" "$run/render/frame_0006.png" "$run/render/frame_0006.png")
	[ "$same" = "0" ] && ok probe_self || bad probe_self "an image differs from itself in $same pixels"

	if [ -f "$run/render.mp4" ] && [ "$(video_frames "$run/render.mp4")" = "13" ]; then ok render_mp4
	else bad render_mp4 "render.mp4 missing or not 13 frames ($(video_frames "$run/render.mp4" 2>&1))"; fi

	# --eye/--target replace the scene's camera: looking away from the cloth shows none of its front, and
	# frame 0 seen from above (not from below, as output.camera has it) shows its front
	"$drape" render "$run" --size 160x120 --frames 0 --video none --target 0,50,0 --out "$tmp/away" --quiet
	read -r _ _ warm_a cool_a < <("$probe" "$tmp/away/frame_0000.png")
	"$drape" render "$run" --size 160x120 --frames 0 --video none --eye 0.3,-0.2,3 --target 0,0,0.5 --out "$tmp/above" --quiet
	read -r _ _ warm_b cool_b < <("$probe" "$tmp/above/frame_0000.png")
	[ "${warm_a:-1}" -eq 0 ] && [ "${warm_b:-0}" -gt 100 ] && [ "${cool_b:-1}" -lt "${warm_b:-0}" ] &&
		ok render_eye_target || bad render_eye_target "away: $warm_a/$cool_a, above: $warm_b front/$cool_b back pixels"
	expect_fail render_bad_eye 2 "--eye needs three numbers X,Y,Z" -- "$drape" render "$run" --eye 1,2 --quiet

	# --frames, --out and a GIF
	"$drape" render "$run" --size 96x64 --frames 2:4 --video gif --out "$tmp/part" --quiet
	n=$(ls "$tmp"/part/frame_*.png 2>/dev/null | tr '\n' ' ')
	if [ "$n" != "$tmp/part/frame_0002.png $tmp/part/frame_0003.png $tmp/part/frame_0004.png " ]; then
		bad render_range "images: $n"
	elif [ "$(video_frames "$tmp/part.gif")" != "3" ]; then bad render_gif "part.gif: $(video_frames "$tmp/part.gif") frames, want 3"
	else ok render_range_gif; fi
	# GNU forms: --opt=VALUE and the short options -o, -n, -q
	"$drape" render "$run" --size=96x64 -n 5 --video=none -o "$tmp/gnu" -q
	[ "$(ls "$tmp"/gnu/ 2>/dev/null | tr '\n' ' ')" = "frame_0005.png " ] && ok render_gnu_options ||
		bad render_gnu_options "images: $(ls "$tmp"/gnu/ 2>&1 | tr '\n' ' ')"

	# A --frames render into the default folder replaces its own images and keeps the others an
	# earlier render made (13 PNGs stay 13); a refused render changes nothing in the run's folder.
	before=$(md5sum "$run"/render/frame_0004.png)
	"$drape" render "$run" --size 96x64 --frames 5 --video none --quiet
	if [ "$(ls "$run"/render/frame_*.png | wc -l)" -eq 13 ] && [ "$(md5sum "$run"/render/frame_0004.png)" = "$before" ] &&
		[ "$("$probe" "$run/render/frame_0005.png" | cut -d' ' -f1-2)" = "96 64" ]; then
		ok render_range_keeps_others
	else
		bad render_range_keeps_others "$(ls "$run/render" | tr '\n' ' ')"
	fi
	sums() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 md5sum); }
	snapshot=$(sums "$run")
	for args in "--frames 50:60" "--size 10x10" "--fps 0"; do
		# shellcheck disable=SC2086
		"$drape" render "$run" $args --quiet 2>/dev/null
		rc=$?
		[ $rc -eq 2 ] && [ "$(sums "$run")" = "$snapshot" ] && ok "render_refusal_changes_nothing ($args)" ||
			bad "render_refusal_changes_nothing ($args)" "exit $rc, or the folder changed"
	done

	# ffmpeg missing: the PNGs are still made, then one sentence and exit 1; --video none is fine
	rm -rf "$run/render" "$run/render.mp4"
	expect_fail no_ffmpeg 1 "ffmpeg is not installed" -- env PATH=/nonexistent "$drape" render "$run" --size 64x48 --quiet
	[ "$(ls "$run"/render/frame_*.png 2>/dev/null | wc -l)" -eq 13 ] && [ ! -e "$run/render.mp4" ] && ok no_ffmpeg_pngs ||
		bad no_ffmpeg_pngs "want 13 PNGs and no video"
	env PATH=/nonexistent "$drape" render "$run" --size 64x48 --video none --quiet && ok video_none || bad video_none "exit $?"

	# a frame that does not fit the scene: refused before any image is written
	cp -r "$run" "$tmp/broken"
	rm -rf "$tmp/broken/render"
	printf 'v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n' >"$tmp/broken/frame_0003.obj"
	expect_fail mismatch 2 "frame_0003.obj.* 3 vertices" -- "$drape" render "$tmp/broken" --quiet
	[ ! -e "$tmp/broken/render/frame_0000.png" ] && ok mismatch_no_images || bad mismatch_no_images "images were written"
fi

# --- a run with --set: render rebuilds the scene with the run's overrides (summary.json), so a
# cloth made finer by --set still matches its frames (without them: "frames do not match")
if "$drape" run "$tent" --out "$tmp/set" --frames 2 --quiet --set cloths.0.grid.resolution=[9,9]; then
	"$drape" render "$tmp/set" --size 80x60 --video none --quiet 2>"$tmp/stderr"
	status=$?
	pngs=$(ls "$tmp/set"/render/frame_*.png 2>/dev/null | wc -l)
	[ $status -eq 0 ] && [ "$pngs" -eq 3 ] && ok render_run_overrides ||
		bad render_run_overrides "exit $status, $pngs images: $(cat "$tmp/stderr")"
else
	bad render_run_overrides "drape run --set failed"
fi

# --- the built-in default scene (figure 1), its automatic camera, and run --render
def="$tmp/default"
if "$drape" run --out "$def" --frames 2 --quiet --render; then
	if [ "$(ls "$def"/render/frame_*.png | wc -l)" -eq 3 ] && [ "$(video_frames "$def/render.mp4")" = "3" ]; then
		ok run_render
	else bad run_render "want 3 images and a 3-frame render.mp4"; fi
	read -r w h warm cool < <("$probe" "$def/render/frame_0002.png")
	[ "$w" = 800 ] && [ "$h" = 600 ] && [ "$warm" -gt 5000 ] && ok default_camera ||
		bad default_camera "${w}x${h}, $warm front pixels: the framed cloth should fill much of the image"
else
	bad run_render "drape run --render failed"
fi

# --- run --render with --json keeps stdout to the run's one JSON object; without OBJ frames it is refused
"$drape" run "$tent" --out "$tmp/json" --frames 2 --render --json >"$tmp/json.out" 2>"$tmp/json.err"
if [ $? -eq 0 ] && [ "$(wc -l <"$tmp/json.out")" -eq 1 ] && grep -q '"status":"ok"' "$tmp/json.out" && [ -f "$tmp/json/render.mp4" ]; then
	ok run_render_json
else bad run_render_json "stdout: $(cat "$tmp/json.out") stderr: $(cat "$tmp/json.err")"; fi
expect_fail run_render_no_obj 2 "--render draws the OBJ frames" -- "$drape" run "$tent" --out "$tmp/noobj" --format pc2 --render --quiet
[ ! -e "$tmp/noobj" ] && ok run_render_no_obj_nothing || bad run_render_no_obj_nothing "made $tmp/noobj"

# --- bad input
mkdir -p "$tmp/empty"
expect_fail not_drape_folder 2 "not a drape output folder" -- "$drape" render "$tmp/empty"
[ ! -e "$tmp/empty/render" ] && ok not_drape_no_output || bad not_drape_no_output "made $tmp/empty/render"
expect_fail no_such_folder 2 "not a drape output folder" -- "$drape" render "$tmp/nowhere"
mkdir -p "$tmp/garbage" && echo '{"drape_version": ' >"$tmp/garbage/summary.json"
expect_fail garbage_summary 2 "not a drape output folder" -- "$drape" render "$tmp/garbage"
expect_fail no_folder 2 "which folder" -- "$drape" render
expect_fail bad_size 2 "--size" -- "$drape" render "$tmp/empty" --size 0x10
expect_fail bad_range 2 "--frames" -- "$drape" render "$tmp/empty" --frames 5:2
expect_fail bad_video 2 "--video" -- "$drape" render "$tmp/empty" --video avi
expect_fail bad_fps 2 "--fps" -- "$drape" render "$tmp/empty" --fps -3

cam() { # a scene with output.camera set to $1
	printf '{"output": {"frames": 1, "camera": %s},\n "cloths": [{"grid": {"size": [0.5, 0.5], "resolution": [4, 4]}}]}\n' "$1" >"$tmp/cam.json"
}
cam '{"eye": [1, 1, 1], "target": [1, 1, 1]}'
expect_fail camera_eye_target 2 'cam.json:1: output.camera: eye and target must differ' -- "$drape" run "$tmp/cam.json" --out "$tmp/c1" --quiet
cam '{"eye": [0, 0, 3], "target": [0, 0, 0]}'
expect_fail camera_up 2 'output.camera: up must not be zero or parallel' -- "$drape" run "$tmp/cam.json" --out "$tmp/c2" --quiet
cam '{"eye": [0, 2, 3], "target": [0, 0, 0], "fov": 190}'
expect_fail camera_fov 2 'output.camera.fov: must be' -- "$drape" run "$tmp/cam.json" --out "$tmp/c3" --quiet
cam '{"target": [0, 0, 0]}'
expect_fail camera_eye 2 "missing required key 'eye'" -- "$drape" run "$tmp/cam.json" --out "$tmp/c4" --quiet
cam '{"eye": [0, 2, 3], "target": [0, 0, 0], "zoom": 2}'
expect_fail camera_key 2 'zoom' -- "$drape" run "$tmp/cam.json" --out "$tmp/c5" --quiet

finish "render tests"
