#!/usr/bin/python3
"""A garment written once fits any skeleton (docs/garments.md, "Placing on a bone"; issue 29).

The shipped skirt, pants and shirt place their panels with around.bone. This test writes BVH files
of one skeleton (the CMU rest pose of tests/cmu_skeleton.c) under the three naming schemes drape
maps (CMU, Biovision, Mixamo: each with its own hierarchy, Biovision without CMU's LowerBack and
hip joints, Mixamo with three spine joints) and at 0.85 and 1.15 times the size, lets drape build
the mannequin for each, and checks at frame 0, against joint positions computed here from the
offsets (and the dressing pose's 45 degree arm turn written out by Rodrigues' formula):
- every wrapped panel is wrapped around the hand-computed axis: its vertices' distance from that
  line is a linear function of the height along it (a cone), to 1e-6 m, and its centre is
  `offset` from the right point (the Hips joint for a vertical axis, the bone's midpoint
  otherwise); every flat panel lies in the vertical plane facing the body's front (or back, from
  the hip joints), centred on the joint's vertical `offset` above it;
- no vertex of the body within a panel's span lies between the panel and the panel minus its
  smaller clearance (it starts outside the body with the clearance; a flat panel exactly its
  clearance in front of the body's foremost vertex behind it, the arms aside);
and that the coarse skirt sews closed (every seam merged, nothing penetrating) on every body.
usage: bone_fit_test.py path/to/drape repo_root"""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np

drape, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
UNIT = 0.056444  # CMU's metres per BVH unit (tests/cmu_skeleton.h)
HIPS = 17.0      # the root's height, file units

# The CMU rest offsets (tests/cmu_skeleton.c, from 01_01.bvh): file units, y up, z forward.
O = {"LeftUpLeg": (1.36306, -1.79463, 0.83929), "LeftLeg": (2.44811, -6.72613, 0), "LeftFoot": (2.56220, -7.03959, 0),
     "LeftToeBase": (0.15764, -0.43311, 2.32255), "RightUpLeg": (-1.30552, -1.79463, 0.83929),
     "RightLeg": (-2.54253, -6.98555, 0), "RightFoot": (-2.56826, -7.05623, 0), "RightToeBase": (-0.16473, -0.45259, 2.36315),
     "Spine": (0.02827, 2.03559, -0.19338), "Spine1": (0.05672, 2.04885, -0.04275), "Neck1": (-0.05417, 1.74624, 0.17202),
     "Head": (0.10407, 1.76136, -0.12397), "LeftArm": (3.36241, 1.20089, -0.31121), "LeftForeArm": (4.98300, 0, 0),
     "LeftHand": (3.48356, 0, 0), "LFingers": (0.71526, 0, 0), "RightArm": (-3.13660, 1.37405, -0.40465),
     "RightForeArm": (-5.24190, 0, 0), "RightHand": (-3.44417, 0, 0), "RFingers": (-0.62253, 0, 0)}
Z = (0, 0, 0)
END = (0, 1.0, 0)


def limbs(names):
    """Arms and legs under the scheme's names: (name, offset, children) trees."""
    def chain(keys, end):
        node = (names[keys[-1]], O[keys[-1]], [("End", end, [])])
        for k in reversed(keys[:-1]):
            node = (names[k], O[k], [node])
        return node
    return {s: (chain([f"{s}UpLeg", f"{s}Leg", f"{s}Foot", f"{s}ToeBase"], (0, 0, 1.0)),
                chain([f"{s}Arm", f"{s}ForeArm", f"{s}Hand"], O[f"{s[0]}Fingers"])) for s in ("Left", "Right")}


def cmu():
    n = {k: k for k in O}
    L = limbs(n)
    head = ("Neck1", O["Neck1"], [("Head", O["Head"], [("End", END, [])])])
    shoulders = [(f"{s}Shoulder", Z, [L[s][1]]) for s in ("Left", "Right")]
    spine = ("LowerBack", Z, [("Spine", O["Spine"], [("Spine1", O["Spine1"], [("Neck", Z, [head])] + shoulders)])])
    return ("Hips", Z, [("LHipJoint", Z, [L["Left"][0]]), ("RHipJoint", Z, [L["Right"][0]]), spine])


def biovision():
    n = {f"{s}{a}": f"{s}{b}" for s in ("Left", "Right") for a, b in
         (("UpLeg", "Hip"), ("Leg", "Knee"), ("Foot", "Ankle"), ("ToeBase", "Toes"), ("Arm", "Shoulder"),
          ("ForeArm", "Elbow"), ("Hand", "Wrist"))}
    L = limbs(n)
    collars = [(f"{s}Collar", Z, [L[s][1]]) for s in ("Left", "Right")]
    chest = ("Chest", O["Spine1"], [("Neck", O["Neck1"], [("Head", O["Head"], [("End", END, [])])])] + collars)
    return ("Hips", Z, [("Ab", O["Spine"], [chest]), L["Left"][0], L["Right"][0]])


def mixamo():
    n = {k: "mixamorig:" + k for k in O}
    L = limbs(n)
    m = lambda k: "mixamorig:" + k  # noqa: E731

    def leaf(node, name):
        """Mixamo's end joints (HeadTop_End, ...): an End Site of a mixamorig: joint would be named
        after it (EndSite_mixamorig:LeftHand), which the map would take for the joint itself."""
        if node[0] == "End":
            return (m(name), node[1], [("End", (0, 0.1, 0), [])])
        return (node[0], node[1], [leaf(k, name) for k in node[2]])

    for s in ("Left", "Right"):
        L[s] = (leaf(L[s][0], s + "Toe_End"), leaf(L[s][1], s + "HandIndex4"))
    shoulders = [(m(f"{s}Shoulder"), Z, [L[s][1]]) for s in ("Left", "Right")]
    neck = (m("Neck"), O["Neck1"], [(m("Head"), O["Head"], [(m("HeadTop_End"), END, [("End", (0, 0.1, 0), [])])])])
    spine = (m("Spine"), Z, [(m("Spine1"), O["Spine"], [(m("Spine2"), O["Spine1"], [neck] + shoulders)])])
    return (m("Hips"), Z, [spine, L["Left"][0], L["Right"][0]])


def write_bvh(tree, path):
    """Two frames of the rest pose, the root at HIPS units up."""
    lines, count = ["HIERARCHY"], [0]

    def emit(node, depth, is_root=False):
        name, off, kids = node
        pad = "  " * depth
        if name == "End":
            lines.extend([f"{pad}End Site", f"{pad}{{", f"{pad}  OFFSET {off[0]} {off[1]} {off[2]}", f"{pad}}}"])
            return
        lines.extend([f"{pad}{'ROOT' if is_root else 'JOINT'} {name}", f"{pad}{{", f"{pad}  OFFSET {off[0]} {off[1]} {off[2]}"])
        if is_root:
            lines.append(f"{pad}  CHANNELS 6 Xposition Yposition Zposition Zrotation Xrotation Yrotation")
            count[0] += 6
        else:
            lines.append(f"{pad}  CHANNELS 3 Zrotation Xrotation Yrotation")
            count[0] += 3
        for k in kids:
            emit(k, depth + 1)
        lines.append(f"{pad}}}")

    emit(tree, 0, True)
    frame = " ".join(["0", str(HIPS)] + ["0"] * (count[0] - 2))
    lines.extend(["MOTION", "Frames: 2", "Frame Time: 0.0333333", frame, frame])
    open(path, "w").write("\n".join(lines) + "\n")


def joints(tree, scale):
    """World positions in drape's frame (z up, -y forward) of every joint, by the scheme's name, and
    each joint's parent."""
    out, parents = {}, {}

    def walk(node, base, parent):
        name, off, kids = node
        p = base + scale * np.array([off[0], -off[2], off[1]])
        if name != "End":
            out[name] = p
            if parent:
                parents[name] = parent
        for k in kids:
            walk(k, p, name if name != "End" else parent)

    walk(tree, np.array([0.0, 0.0, scale * HIPS]), None)
    return out, parents


def dress(J, parents, n):
    """The joints in the dressing pose: every joint below an upper arm turned with it."""
    out = dict(J)
    for s in ("Left", "Right"):
        arm, elbow = n[s + "Arm"], n[s + "ForeArm"]
        d = J[elbow] - J[arm]
        ax = np.cross(d, [0, 0, -1.0])
        ax /= np.linalg.norm(ax)
        c, si = math.cos(math.radians(45)), math.sin(math.radians(45))
        for j in J:
            k = j
            while k in parents and k != arm:
                k = parents[k]
            if k == arm and j != arm:
                v = J[j] - J[arm]
                out[j] = J[arm] + v * c + np.cross(ax, v) * si + ax * (ax @ v) * (1 - c)
    return out


def read_obj(path):
    v, f = [], []
    for line in open(path):
        if line.startswith("v "):
            v.append([float(t) for t in line.split()[1:4]])
        elif line.startswith("f "):
            f.append([int(t.split("/")[0]) - 1 for t in line.split()[1:]])
    return np.array(v), np.array(f)


def pieces(faces, n):
    """Connected pieces of frame 0's triangles in pattern order: the panels (no seam merged yet)."""
    parent = list(range(n))

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for t in faces:
        for k in (1, 2):
            a, b = find(t[0]), find(t[k])
            if a != b:
                parent[max(a, b)] = min(a, b)
    ids, out = {}, []
    for i in range(n):
        if i in set(faces.ravel()):
            out.append(ids.setdefault(find(i), len(ids)))
        else:
            out.append(-1)
    return np.array(out)


failed = []


def check(name, cond, detail=""):
    print(("ok      " if cond else "FAILED  ") + name + ("" if cond else ": " + detail))
    if not cond:
        failed.append(name)


def pattern(name):
    return json.load(open(os.path.join(root, "scenes", "patterns", name + ".json")))


def axis_of(place, J, n):
    """The hand-computed axis (bottom, top) of a panel's around.bone placement; n maps drape names to
    the scheme's."""
    b = place["bone"]
    # the body's front: right hip to left hip turned a quarter clockwise seen from above
    w = J[n["LeftUpLeg"]] - J[n["RightUpLeg"]]
    front = np.array([w[1], -w[0], 0.0]) / math.hypot(w[0], w[1])
    if place.get("vertical"):
        h = J[n[b]] + place.get("forward", 0.0) * front
        return h - [0, 0, 0.5], h + [0, 0, 0.5]
    head = J[n[b]]
    child = {"LeftLeg": "LeftFoot", "RightLeg": "RightFoot", "LeftArm": "LeftForeArm", "RightArm": "RightForeArm"}[b]
    tail = J[n[child]]
    if place.get("direction", "up") == "up" and tail[2] < head[2]:
        head, tail = tail, head
    a = (tail - head) / np.linalg.norm(tail - head)
    f = front - (front @ a) * a
    shift = place.get("forward", 0.0) * f / np.linalg.norm(f)
    return head + shift, tail + shift


def limb_of(bone, n):
    """The joints whose bones make the arm or leg a limb bone belongs to (None: a trunk bone)."""
    for s in ("Left", "Right"):
        for part in (("UpLeg", "Leg", "Foot"), ("Arm", "ForeArm", "Hand")):
            if bone in [s + p for p in part]:
                return [n[s + p] for p in part]
    return None


def nearest_bone(body, J, parents):
    """For each body vertex, the joint whose bone (joint to child) is nearest: a stand-in for the
    skin weights drape counts vertices by (a limb's panels count only that limb's body)."""
    best, which = np.full(len(body), np.inf), np.empty(len(body), dtype=object)
    for child, parent in parents.items():
        p, q = J[parent], J[child]
        d = q - p
        t = np.clip((body - p) @ d / max(d @ d, 1e-12), 0.0, 1.0)
        dist = np.linalg.norm(body - (p + np.outer(t, d)), axis=1)
        closer = dist < best
        best[closer], which[closer] = dist[closer], parent
    return which


def check_placement(label, d, pat, J, n, parents):
    x, f = read_obj(os.path.join(d, "frame_0000.obj"))
    body, _ = read_obj(os.path.join(d, "solid_body_0000.obj"))
    piece = pieces(f, len(x))
    bone_of = nearest_bone(body, J, parents)
    worst_fit, worst_centre, worst_gap, where = 0.0, 0.0, 1.0, ""
    for k, p in enumerate(pat["panels"]):
        flat = p.get("flat")
        if flat and "bone" in flat:
            # a flat panel: in the vertical plane facing the side, centred on the joint's vertical
            # `offset` above it, `clearance` beyond the body (all but the arms) within its footprint
            w = J[n["LeftUpLeg"]] - J[n["RightUpLeg"]]
            front = np.array([w[1], -w[0], 0.0]) / math.hypot(w[0], w[1])
            normal = front if flat["side"] == "front" else -front
            right = np.cross([0, 0, 1.0], normal)
            h = J[n[flat["bone"]]]
            v = x[piece == k] - h
            worst_fit = max(worst_fit, np.abs(v @ normal - (v @ normal).mean()).max())
            lo, hi = v.min(0), v.max(0)
            centre = np.array([(v @ right).min() + (v @ right).max(), 0, lo[2] + hi[2]]) / 2
            worst_centre = max(worst_centre, abs(centre[0]), abs(centre[2] - flat["offset"]))
            b = body - h
            foot = (np.abs(b @ right - centre[0]) <= ((v @ right).max() - (v @ right).min()) / 2) & \
                   (b[:, 2] >= lo[2]) & (b[:, 2] <= hi[2])
            arms = np.isin(nearest_bone(body, J, parents), limb_of("LeftArm", n) + limb_of("RightArm", n))
            ahead = (v @ normal).mean() - (b[foot & ~arms] @ normal).max()
            if ahead / flat["clearance"] < worst_gap:
                worst_gap = ahead / flat["clearance"]
                where = f" (panel {p['name']})"
            continue
        place = p.get("around")
        if not place or "bone" not in place:
            continue
        A, B = axis_of(place, J, n)
        a = (B - A) / np.linalg.norm(B - A)
        mid = (A + B) / 2
        v = x[piece == k] - mid
        s = v @ a
        r = np.linalg.norm(v - np.outer(s, a), axis=1)
        # a cone about the hand-computed axis: r linear in s
        c = np.polyfit(s, r, 1)
        worst_fit = max(worst_fit, np.abs(np.polyval(c, s) - r).max())
        worst_centre = max(worst_centre, abs((s.min() + s.max()) / 2 - place.get("offset", 0.0)))
        # no body vertex within the span between the panel and the panel minus its clearance
        gap = min(place.get("clearance", 0.02), place.get("top_clearance", place.get("clearance", 0.02)))
        w = body - mid
        bs = w @ a
        inside = (bs >= s.min()) & (bs <= s.max())
        limb = limb_of(place["bone"], n)
        if limb:
            # the limb's vertices, less the crotch (within 3 cm of the mid-plane, skinned to the
            # trunk though a thigh's bone may be nearer)
            left = J[n["LeftUpLeg"]] - J[n["RightUpLeg"]]
            left[2] = 0.0
            side = (body - J[n["Hips"]]) @ (left / np.linalg.norm(left))
            inside &= np.isin(bone_of, limb) & (np.abs(side) > 0.03)
        br = np.linalg.norm(w[inside] - np.outer(bs[inside], a), axis=1)
        shell = np.polyval(c, bs[inside]) - br  # > 0: inside the panel's cone
        within = shell[shell > 0]
        if within.size and gap > 0 and within.min() / gap < worst_gap:
            worst_gap = within.min() / gap
            i = np.flatnonzero(inside)[np.argmin(np.where(shell > 0, shell, np.inf))]
            where = f" (panel {p['name']}, body vertex {i} at {np.round(body[i], 3).tolist()}, nearest bone {bone_of[i]})"
    check(f"{label}_axes_hand_computed", worst_fit < 1e-6 and worst_centre < 1e-6,
          f"distance from the axis off a cone by {worst_fit:.3g} m, centre off by {worst_centre:.3g} m")
    # 1 - 1e-9: the smaller clearance is met exactly where the cone touches the widest slice
    check(f"{label}_panels_clear_of_body", worst_gap >= 1 - 1e-6,
          f"a body vertex {worst_gap:.3f} of the clearance inside a panel{where}")


def run(args):
    return subprocess.run([drape, "run", *args, "--quiet", "--threads", "1"], capture_output=True, text=True)


bodies = [("cmu", cmu, 1.0), ("biovision", biovision, 1.0), ("mixamo", mixamo, 1.0),
          ("cmu_085", cmu, 0.85), ("cmu_115", cmu, 1.15)]
with tempfile.TemporaryDirectory() as tmp:
    for label, make, size in bodies:
        tree = make()
        bvh = os.path.join(tmp, label + ".bvh")
        write_bvh(tree, bvh)
        J, parents = joints(tree, size * UNIT)
        # drape's names -> the scheme's, for the joints the hand computation needs
        n = {k: k for k in O}
        n["Hips"] = "Hips"
        if make is biovision:
            n.update({f"{s}{a}": f"{s}{b}" for s in ("Left", "Right") for a, b in
                      (("UpLeg", "Hip"), ("Leg", "Knee"), ("Foot", "Ankle"), ("Arm", "Shoulder"), ("ForeArm", "Elbow"),
                       ("Hand", "Wrist"))})
        elif make is mixamo:
            n = {k: "mixamorig:" + k for k in list(O) + ["Hips"]}
        J = dress(J, parents, n)
        character = {"file": bvh, "scale": size * UNIT, "hold": 1000, "cell_size": 0.026 * size}
        for g in ("skirt", "pants", "shirt"):
            scene = json.load(open(os.path.join(root, "scenes", f"garment_{g}.json")))
            cloth = scene["cloths"][0]
            cloth["garment"]["pattern"] = os.path.join(root, "scenes", "patterns", g + ".json")
            cloth["garment"]["triangle_size"] = 0.04
            scene["solids"] = [{"name": "body", "shape": "character", "thickness": 0.005, "friction": 0.6,
                                "character": character}]
            path = os.path.join(tmp, f"{label}_{g}.json")
            json.dump(scene, open(path, "w"))
            frames = 12 if g == "skirt" else 0
            out = os.path.join(tmp, f"{label}_{g}")
            r = run([path, "--out", out, "--frames", str(frames)])
            if r.returncode != 0:
                check(f"{label}_{g}_runs", False, r.stderr.strip())
                continue
            check_placement(f"{label}_{g}", out, pattern(g), J, n, parents)
            if g == "skirt":
                summary = json.load(open(os.path.join(out, "summary.json")))
                rows = list(csv.DictReader(open(os.path.join(out, "stats.csv"))))
                check(f"{label}_skirt_sews_closed",
                      summary["sewing"]["open"] == 0 and all(int(r_["penetrating"]) == 0 for r_ in rows),
                      f"sewing {summary['sewing']}, penetrating {[r_['penetrating'] for r_ in rows]}")
print(f"{len(failed)} failed" if failed else "all passed")
sys.exit(1 if failed else 0)
