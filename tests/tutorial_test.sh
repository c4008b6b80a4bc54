#!/usr/bin/env bash
# docs/tutorial-dress.md, run as a reader would: every ```sh block in order, in one empty folder,
# with `drape` on the PATH. A ```text block that follows a ```sh block is that block's output
# (stdout and stderr) and must match it line for line; then the files the tutorial promises are
# checked: a skirt sewn on the moving body with nothing penetrating or crossing, the rendered
# clip, and caches that start at the frame the last seam merged.
# usage: tutorial_test.sh path/to/drape repo_root
set -u
drape=$1
root=$2
doc=$root/docs/tutorial-dress.md
py=/usr/bin/python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "tutorial_test: $*" >&2; exit 1; }
[ -r /usr/share/assimp/models/BVH/01_01.bvh ] ||
	fail "no /usr/share/assimp/models/BVH/01_01.bvh (Debian package assimp-testmodels)"
mkdir "$tmp/bin" "$tmp/work"
ln -s "$(readlink -f "$drape")" "$tmp/bin/drape"

# Split the tutorial into its blocks: block_NN.sh to run, block_NN.txt the output expected of the
# sh block before it.
$py - "$doc" "$tmp/blocks" <<'PY' || fail "could not read $doc"
import os, sys
os.makedirs(sys.argv[2])
kind, lines, n, last = None, [], 0, None
for line in open(sys.argv[1]):
    fence = line.rstrip("\n")
    if kind is None and fence.startswith("```"):
        kind, lines = fence[3:].strip(), []
    elif kind is not None and fence == "```":
        if kind == "sh":
            n += 1
            open("%s/block_%02d.sh" % (sys.argv[2], n), "w").write("".join(lines))
        elif kind == "text" and last == "sh":
            open("%s/block_%02d.txt" % (sys.argv[2], n), "w").write("".join(lines))
        last, kind = kind, None
    elif kind is not None:
        lines.append(line)
assert kind is None, "unclosed code block"
assert n >= 6, "only %d sh blocks" % n
PY

for block in "$tmp"/blocks/block_*.sh; do
	name=$(basename "$block" .sh)
	(cd "$tmp/work" && PATH="$tmp/bin:$PATH" OMP_NUM_THREADS=1 bash -e "$block") >"$tmp/$name.out" 2>&1 ||
		fail "$name failed:
$(cat "$block")
$(cat "$tmp/$name.out")"
	if [ -f "${block%.sh}.txt" ]; then
		diff -u "${block%.sh}.txt" "$tmp/$name.out" ||
			fail "$name printed something else than the tutorial shows (diff above)"
	fi
	echo "ok      $name"
done

# What the tutorial promises of the run, beyond what it prints.
$py - "$tmp/work" <<'PY' || fail "the tutorial's results (above)"
import csv, json, struct, sys, os
w = sys.argv[1]
scene = json.load(open(w + "/dress.json"))
# step 1's measurement: the skirt's axis passes within 2.5 cm of the body's centre at hips and waist
body = [tuple(map(float, l.split()[1:4])) for l in open(w + "/body/solid_body_0000.obj") if l.startswith("v ")]
(a, b) = scene["cloths"][0]["garment"]["panels"][0]["around"]["axis"]
for z in (0.80, 1.07):
    s = [p for p in body if abs(p[2] - z) < 0.01 and abs(p[0]) < 0.25]
    c = [(min(p[k] for p in s) + max(p[k] for p in s)) / 2 for k in (0, 1)]
    t = (z - a[2]) / (b[2] - a[2])
    axis = [a[k] + t * (b[k] - a[k]) for k in (0, 1)]
    assert max(abs(c[k] - axis[k]) for k in (0, 1)) < 0.025, (z, c, axis)
d = w + "/out"
s = json.load(open(d + "/summary.json"))
rows = list(csv.DictReader(open(d + "/stats.csv")))
frames = scene["output"]["frames"]
assert s["status"] == "ok" and s["frames_written"] == frames + 1, (s["status"], s["frames_written"])
assert s["warnings"] == [], s["warnings"]
assert s["sewing"]["open"] == 0 and s["sewing"]["seams"] == 2, s["sewing"]
assert all(int(r["penetrating"]) == 0 and int(r["self_intersections"]) == 0 for r in rows)
# the body held its dressing pose until the skirt relaxed, then moved
start = round(s["sewing"]["motion_start"] * 30)
solid = lambda f: open(d + "/solid_body_%04d.obj" % f).read()
assert 0 < start < frames - 20 and solid(0) == solid(start) and solid(frames) != solid(start), start
# the clip: one PNG per frame and a video
pngs = [f for f in os.listdir(d + "/render") if f.endswith(".png")]
assert len(pngs) == frames + 1 and os.path.getsize(d + "/render.mp4") > 10000, (len(pngs),)
# the caches hold the worn skirt from cache_start, the frame after which the last seam merged
first = s["outputs"]["cache_start"]
assert first == max(m["frame"] for m in s["sewing"]["merged"]), (first, s["sewing"]["merged"])
with open(d + "/cache_skirt.pc2", "rb") as f:
    magic, version, points, start_frame, rate, samples = struct.unpack("<12siiffi", f.read(32))
last = [tuple(map(float, l.split()[1:4])) for l in open(d + "/frame_%04d.obj" % frames) if l.startswith("v ")]
assert start_frame == first and samples == frames - first + 1 and points == len(last), (start_frame, samples, points)
with open(d + "/cache_skirt.pc2", "rb") as f:
    f.seek(32 + (samples - 1) * points * 12)
    cached = struct.unpack("<%df" % (3 * points), f.read(points * 12))
assert max(abs(cached[3 * i + k] - last[i][k]) for i in range(points) for k in range(3)) < 1e-6
assert open(d + "/animation.glb", "rb").read(4) == b"glTF"
assert open(d + "/animation.usda").readline().startswith("#usda")
PY
echo "tutorial_test: ok"
