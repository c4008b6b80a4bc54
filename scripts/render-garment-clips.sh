#!/usr/bin/env bash
# Renders a garment run (drape run scenes/garment_NAME.json -o DIR) for docs/gallery.md: a clip
# and a still from the front and from three-quarters (the scene's output.camera), at 480x360.
# The body stands near the origin facing -y (the garment scenes' "position").
# usage: scripts/render-garment-clips.sh path/to/drape DIR NAME [STILL_FRAME]
set -euo pipefail
drape=$1
dir=$2
name=$3
still=${4:-150}
images=docs/images/garments
mkdir -p "$images"
target=$(/usr/bin/python3 -c 'import json,sys; s=json.load(open(json.load(open(sys.argv[1]+"/summary.json"))["scene_file"])); print(",".join(map(str, s["output"]["camera"]["target"])))' "$dir")
"$drape" render "$dir" --size 480x360 --video mp4 --out "$dir/three_quarter" --quiet
"$drape" render "$dir" --size 480x360 --video mp4 --eye 0,-3.2,1.1 --target "$target" --out "$dir/front" --quiet
cp "$dir/three_quarter.mp4" "$images/${name}_three_quarter.mp4"
cp "$dir/front.mp4" "$images/${name}_front.mp4"
cp "$dir/three_quarter/frame_$(printf %04d "$still").png" "$images/${name}_three_quarter.png"
cp "$dir/front/frame_$(printf %04d "$still").png" "$images/${name}_front.png"
echo "$images/${name}_{front,three_quarter}.{mp4,png}"
