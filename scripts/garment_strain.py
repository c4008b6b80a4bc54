#!/usr/bin/python3
"""Warp/weft strain of a garment run (docs/garments.md, "Quality"), which ../shared/tools/strain.py
cannot read because merged seams change the vertex count from frame to frame.

Every triangle keeps its own rest (u, v) corners in the OBJ frames; an edge whose two uv differ in
u only is a warp edge, in v only a weft edge. Strain = |length / rest - 1| with the rest length
scaled by the triangle's b_u (warp) or b_v (weft) from the panels' stretch_regions (eq. 10), once
those apply (sewing.regions). Triangles are assigned to panels by frame 0, where every panel is
still its own connected piece, in pattern order.
usage: scripts/garment_strain.py DIR [FIRST_FRAME [LAST_FRAME]] [--cloth NAME]   (default: from
sewing.motion_start's frame to the last; an outfit's garment by its cloth name, else its first)
prints, for triangles outside the stretch regions (plain) and inside them, the max and 99th
percentile over warp/weft edges and frames, and where the max is."""
import glob
import json
import os
import sys

import numpy as np


def read_obj(path, cloth=None):
    """Every vertex and uv of the file, and the triangles of cloth `cloth` (its "o" object; all
    of them if None): OBJ indices run across objects."""
    v, vt, f, mine = [], [], [], True
    with open(path) as fh:
        for line in fh:
            if line.startswith("v "):
                v.append([float(t) for t in line.split()[1:4]])
            elif line.startswith("vt "):
                vt.append([float(t) for t in line.split()[1:3]])
            elif line.startswith("o "):
                mine = cloth is None or line.split()[1] == cloth
            elif line.startswith("f ") and mine:
                f.append([tuple(int(x) - 1 for x in t.split("/")[:2]) for t in line.split()[1:]])
    return np.array(v), np.array(vt), np.array(f)


def region_weight(r, c):
    """How much of a stretch region's b applies at uv c: 1 in its box, linear to 0 over its taper."""
    lo, hi, taper = r["uv_min"], r["uv_max"], r.get("taper", [0.0, 0.0])
    out = 0.0
    for a in (0, 1):
        d = lo[a] - c[a] if c[a] < lo[a] else c[a] - hi[a] if c[a] > hi[a] else 0.0
        if d == 0.0:
            continue
        if not taper[a] > 0.0 or d >= taper[a]:
            return 0.0
        out = max(out, d / taper[a])
    return 1.0 - out


def panels_of(faces):
    """Connected pieces (through shared vertices) of frame 0's triangles, numbered in order."""
    n = faces[:, :, 0].max() + 1  # OBJ indices: an outfit's second garment starts past the first
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for t in faces[:, :, 0]:
        for k in (1, 2):
            a, b = root(t[0]), root(t[k])
            if a != b:
                parent[max(a, b)] = min(a, b)
    ids, out = {}, []
    for t in faces[:, :, 0]:
        out.append(ids.setdefault(root(t[0]), len(ids)))
    return np.array(out)


def main(d, first=None, last=None, cloth=None):
    summary = json.load(open(os.path.join(d, "summary.json")))
    scene_path = summary["scene_file"]
    scene = json.load(open(scene_path))
    if cloth is None and len(scene["cloths"]) > 1:
        cloth = scene["cloths"][0].get("name")  # an outfit: its first garment
    entries = [c for c in scene["cloths"] if cloth is None or c.get("name") == cloth]
    if not entries:
        sys.exit(f"garment_strain.py: the scene has no cloth named '{cloth}'")
    garment = entries[0]["garment"]
    pattern = garment
    if "pattern" in garment:
        pattern = json.load(open(os.path.join(os.path.dirname(scene_path), garment["pattern"])))
    sewing = summary.get("sewing", {})
    after = garment.get("sewing", {}).get("regions", "start") == "after_sewing"
    fps = summary["settings"]["output"]["fps"]
    if first is None:
        first = int(round((sewing.get("motion_start") or 0.0) * fps))
    sewn_frame = int(round((sewing.get("sewn_at") or 0.0) * fps))
    files = sorted(glob.glob(os.path.join(d, "frame_*.obj")))
    _, vt0, f0 = read_obj(files[0], cloth)
    panel = panels_of(f0)
    # per triangle (b_u, b_v) from its panel's regions, by the uv centroid, as drape applies them
    # (src/mesh/stretch_region.c: boxes with optional tapers, later regions win)
    b = np.ones((len(f0), 2))
    cent = vt0[f0[:, :, 1]].mean(axis=1)
    for t, p in enumerate(panel):
        for r in pattern["panels"][p].get("stretch_regions", []):
            w = region_weight(r, cent[t])
            if w > 0.0:
                b[t] = (1.0 + w * (r.get("bu", 1.0) - 1.0), 1.0 + w * (r.get("bv", 1.0) - 1.0))
    plain = np.all(b == 1.0, axis=1)  # triangles outside every stretch region
    worst, where, strains, frames = {True: 0.0, False: 0.0}, {}, {True: [], False: []}, 0
    for path in files:
        f = int(os.path.basename(path)[6:10])
        if f < first or (last is not None and f > last):
            continue
        v, vt, faces = read_obj(path, cloth)
        frames += 1
        use_b = (not after) or f > sewn_frame
        for k in range(3):
            i, j = faces[:, k, 0], faces[:, (k + 1) % 3, 0]
            du = vt[faces[:, (k + 1) % 3, 1]] - vt[faces[:, k, 1]]
            warp = (np.abs(du[:, 1]) < 1e-9) & (np.abs(du[:, 0]) > 1e-9)
            weft = (np.abs(du[:, 0]) < 1e-9) & (np.abs(du[:, 1]) > 1e-9)
            rest = np.where(warp, np.abs(du[:, 0]) * (b[:, 0] if use_b else 1.0), np.abs(du[:, 1]) * (b[:, 1] if use_b else 1.0))
            length = np.linalg.norm(v[j] - v[i], axis=1)
            for kind in (True, False):
                sel = (warp | weft) & (plain == kind)
                if not sel.any():
                    continue
                s = np.abs(length[sel] / rest[sel] - 1.0)
                strains[kind].append(s)
                if s.max() > worst[kind]:
                    worst[kind] = float(s.max())
                    t = np.nonzero(sel)[0][int(s.argmax())]
                    where[kind] = (f, int(t), pattern["panels"][panel[t]]["name"], v[i[t]].round(3).tolist())
    print(f"frames={frames} first={first}")
    for kind, label in ((True, "plain"), (False, "stretch_regions")):
        if not strains[kind]:
            continue
        s = np.concatenate(strains[kind])
        w = where[kind]
        print(f"{label}: warp_weft_max={worst[kind]:.4f} p99={np.percentile(s, 99):.4f} p999={np.percentile(s, 99.9):.4f} "
              f"worst_at=frame {w[0]} triangle {w[1]} panel {w[2]} at {w[3]}")
    return 0


if __name__ == "__main__":
    argv, name = sys.argv[1:], None
    if "--cloth" in argv:
        k = argv.index("--cloth")
        name = argv[k + 1]
        del argv[k:k + 2]
    sys.exit(main(argv[0], *[int(a) for a in argv[1:3]], cloth=name))
