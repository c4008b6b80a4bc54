#!/usr/bin/env bash
# Makes the images in docs/images/: a still of every scene in scenes/ (docs/gallery.md) and the
# README's still and clip of the default scene. Each scene runs for at most LIMIT frames (default
# 60; some scenes take minutes on a small machine); the still is the last frame simulated unless
# another shows the scene better (listed below).
# usage: scripts/render-gallery.sh [path/to/drape] [LIMIT]     (make gallery)
set -euo pipefail
drape=${1:-build/drape}
limit=${2:-60}
work=${WORK:-out/gallery}
images=docs/images
mkdir -p "$images/gallery" "$work"
export OMP_WAIT_POLICY=passive
for scene in scenes/*.json; do
	name=$(basename "$scene" .json)
	frames=$(grep -o '"frames": *[0-9]*' "$scene" | grep -o '[0-9]*$' || echo 90)
	n=$((frames < limit ? frames : limit))
	start=$(date +%s)
	status=0
	"$drape" run "$scene" --out "$work/$name" --frames "$n" --force --quiet || status=$?
	last=$(ls "$work/$name"/frame_*.obj | sed 's/.*frame_0*\([0-9][0-9]*\)\.obj/\1/; s/^$/0/' | sort -n | tail -1)
	# the moment that shows the scene best, where that is not the end
	case $name in
	fast_sphere) still=8 ;; # the sphere hitting the sheet
	tablecloth_pull) still=48 ;; # the cloth sliding over the table's edge
	mass_spring_sheet) still=30 ;; # mid-swing
	*) still=$last ;;
	esac
	# all frames, so the camera frames the whole run (a slide shows as a move across the view)
	"$drape" render "$work/$name" --size 640x480 --video none --out "$work/$name/still" --quiet
	cp "$work/$name/still/frame_$(printf %04d "$still").png" "$images/gallery/$name.png"
	echo "$name: frame $still of $last simulated (run exit $status, $(($(date +%s) - start)) s)"
done
# The README: the default scene's drape mid-fall and at rest, and a short clip.
"$drape" run --out "$work/default" --force --quiet
"$drape" render "$work/default" --size 800x600 --video none --quiet
cp "$work/default/render/frame_0006.png" "$images/figure1_drape.png"
cp "$work/default/render/frame_0090.png" "$images/figure1_drape_rest.png"
"$drape" render "$work/default" --size 400x300 --video gif --frames 0:45 --out "$work/default/clip" --quiet
cp "$work/default/clip.gif" "$images/figure1_drape.gif"
echo "README images: $images/figure1_drape.png, figure1_drape_rest.png, figure1_drape.gif"
