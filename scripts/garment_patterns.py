#!/usr/bin/python3
"""Writes the sewing patterns of the shipped garments, scenes/patterns/{pants,shirt,shirt_untucked,blouse}.json
(docs/garments.md). The outlines are measured off the generated mannequin in its dressing pose as
the garment scenes pose it (CMU 01_01, "position": [-0.59, -1.0, 0]): joints from the skeleton, and
the body's extents from its skinned mesh at frame 0 (solid_body_0000.obj). The panels are placed on
the body's bones (around.bone, docs/garments.md "Placing on a bone"): the legs around LeftLeg and
RightLeg, the yoke around the vertical through Hips, the sleeves along LeftArm and RightArm, the
shirt's and blouse's torso panels flat in front of and behind Hips, with offsets and clearances that
put them where the measured axes, radii and planes had them.
usage: scripts/garment_patterns.py [OUT_DIR]   (default scenes/patterns)"""
import json
import math
import os
import sys

import numpy as np

# --- the body in its dressing pose (metres, drape coordinates, z up, the body facing -y)
KNEE_L, ANKLE_L = (0.200, 0.239, 0.421), (0.327, 0.347, -0.013)
KNEE_R, ANKLE_R = (-0.274, 0.257, 0.444), (-0.401, 0.365, 0.0)
HIPS_Z = 0.9624  # the Hips joint's height
# What the shirt and blouse are cut to (shirt_like): per side (+1 the body's left, -1 its right)
# the arm's axis (a line fitted to the arm's vertices beyond the torso), where the arm leaves the
# torso (its extent in z at 0.26-0.30 m from the body's mid-plane), the bone under it and where the
# sleeve's root lies along that upper arm from the bone's midpoint (the drop edge's middle height:
# the CMU pose's shoulders are 9 cm apart in reach, so the two sides differ); the Hips joint's
# height and the body's front. 'lift' raises everything drawn above the waist (the neckline).
CMU = {"arm": {+1: ((0.451, 0.153, 1.040), (0.636, 0.167, -0.753)), -1: ((-0.463, 0.198, 1.063), (-0.743, 0.209, -0.635))},
       "arm_root_z": {+1: (1.139, 1.313), -1: (1.148, 1.284)},
       "arm_bone": {+1: "LeftArm", -1: "RightArm"},
       "sleeve_root_offset": {+1: -0.0881, -1: 0.0009},
       "hips_z": HIPS_Z, "front": (0, -1, 0), "lift": 0.0}
# The Biovision dancer (BVH/Boxing_Toes.bvh, "scale": 0.01, the generated mannequin in its dressing
# pose at time 0; the body faces +y, its left is -x): a 1.74 m body whose shoulders are 20 cm
# further above its Hips joint than CMU's (docs/characters.md). Its arms leave the torso at
# z 1.301-1.455 (left) and 1.297-1.441 (right), 15 cm higher than CMU's; the upper arms are the
# bones' lines (head to tail), so the sleeve roots lie 0.037 m and 0.006 m above their midpoints.
BOXING = {"arm": {+1: ((-0.2733, -0.4826, 1.4434), (-0.6905, -0.0227, -0.7229)),
                  -1: ((0.1266, -0.4837, 1.4528), (0.7233, -0.0266, -0.6901))},
          "arm_root_z": {+1: (1.301, 1.455), -1: (1.297, 1.441)},
          "arm_bone": {+1: "LeftArm", -1: "RightArm"},
          "sleeve_root_offset": {+1: -0.0374, -1: -0.0062},
          "hips_z": 0.9175, "front": (0, 1, 0), "lift": 0.15}


def unit(v):
    v = np.asarray(v, float)
    return v / np.linalg.norm(v)


def wrap(axis, front, radius, top_radius, angle, center, size, q):
    """Where `around` puts pattern point q (src/garment/garment.c, garment_wrap)."""
    a = unit(np.subtract(axis[1], axis[0]))
    mid = 0.5 * (np.asarray(axis[0]) + np.asarray(axis[1]))
    f = unit(np.asarray(front, float) - np.dot(front, a) * a)
    r = np.cross(a, f)
    fy = (q[1] - (center[1] - 0.5 * size[1])) / size[1]
    rad = radius + fy * (top_radius - radius)
    th = angle + (q[0] - center[0]) / rad
    return mid + (q[1] - center[1]) * a + rad * (math.cos(th) * f + math.sin(th) * r)


def seam_side(panel, f, t):
    """The stretch between two adjacent corners, walked forward or backward as the outline has it."""
    names = [e["corner"] for e in panel["outline"]]
    n, i, j = len(names), names.index(f), names.index(t)
    side = {"panel": panel["name"], "from": f, "to": t}
    if (i + 1) % n != j:
        assert (i - 1) % n == j, (panel["name"], f, t)
        side["direction"] = "backward"
    return side


def seam(name, panels, a, b):
    return {"name": name, "a": seam_side(panels[a[0]], a[1], a[2]), "b": seam_side(panels[b[0]], b[1], b[2])}


# --- pants: per leg a front and a back cone around the line through knee and ankle, and a
# two-panel yoke around the hips whose bottom halves are sewn to the legs' tops (the crotch is
# where the four meet); an elastic waistband (b_v < 1) in the yoke's top 5 cm
def pants():
    def leg_axis(knee, ankle, z0, z1):
        d = np.subtract(knee, ankle)
        return [[round(float(ankle[k] + (z - ankle[2]) / d[2] * d[k]), 4) for k in range(3)] for z in (z0, z1)]

    rb, rt = 0.085, 0.4 / math.pi  # leg radius at the hem and at the top (half circumferences 0.267 and 0.4 m)
    panels = {}
    # each leg panel's centre along its shin bone (knee to ankle) from the bone's midpoint, so that
    # the hem is 6 cm above the floor; 4.5 cm clear of the thigh at the top, 4 cm of the ankle at
    # the hem (the knee's bulge raises both, to 0.097 m and 0.138 m)
    bones = {"left": ("LeftLeg", 0.1885), "right": ("RightLeg", 0.1649)}
    for side, axis in (("left", leg_axis(KNEE_L, ANKLE_L, 0.06, 0.70)), ("right", leg_axis(KNEE_R, ANKLE_R, 0.06, 0.70))):
        h, wb, wt = math.dist(*axis), math.pi * rb, math.pi * rt
        for half in ("front", "back"):
            x0 = (wt - wb) / 2
            panels[f"{side}_{half}"] = {
                "name": f"{side}_{half}", "grain": [0, 1],
                "outline": [{"at": [x0, 0], "corner": "hem_left"}, {"at": [x0 + wb, 0], "corner": "hem_right"},
                            {"at": [wt, h], "corner": "top_right"}, {"at": [0, h], "corner": "top_left"}],
                "around": {"bone": bones[side][0], "offset": bones[side][1], "clearance": 0.04, "top_clearance": 0.045,
                           "side": half}}
    wb, wt, h, band = 0.80, 0.42, 0.30, 0.85  # yoke: bottom 2 x 0.8 m, waist 2 x 0.42 m (the body's waist is 0.77 m round)
    # around the vertical through the hips joint moved 1.5 cm to the front (as the skirt), the
    # yoke's centre 3.2 cm below the joint (0.78 m to 1.08 m), 7.5 cm clear of the body at its
    # bottom (0.28 m) and 0.5 cm at the waist (0.176 m)
    yoke = {"bone": "Hips", "vertical": True, "forward": 0.015, "offset": -0.032, "clearance": 0.075, "top_clearance": 0.005}
    for half in ("front", "back"):
        panels[f"yoke_{half}"] = {
            "name": f"yoke_{half}", "grain": [0, 1],
            "outline": [{"at": [0, 0], "corner": "hem_left"}, {"at": [wb / 2, 0], "corner": "hem_mid"},
                        {"at": [wb, 0], "corner": "hem_right"}, {"at": [(wb + wt) / 2, h], "corner": "waist_right"},
                        {"at": [(wb - wt) / 2, h], "corner": "waist_left"}],
            "around": dict(yoke, side=half),
            "stretch_regions": [{"uv_min": [h - 0.05, -1.0], "uv_max": [h + 0.01, 0.0], "bv": band}]}
    S = lambda *a: seam(a[0], panels, a[1], a[2])  # noqa: E731
    seams = [S("left_inseam", ("left_front", "hem_left", "top_left"), ("left_back", "hem_right", "top_right")),
             S("left_outseam", ("left_front", "hem_right", "top_right"), ("left_back", "hem_left", "top_left")),
             S("right_inseam", ("right_front", "hem_right", "top_right"), ("right_back", "hem_left", "top_left")),
             S("right_outseam", ("right_front", "hem_left", "top_left"), ("right_back", "hem_right", "top_right")),
             S("yoke_left", ("yoke_front", "hem_right", "waist_right"), ("yoke_back", "hem_left", "waist_left")),
             S("yoke_right", ("yoke_front", "hem_left", "waist_left"), ("yoke_back", "hem_right", "waist_right")),
             S("right_front_top", ("yoke_front", "hem_left", "hem_mid"), ("right_front", "top_left", "top_right")),
             S("left_front_top", ("yoke_front", "hem_mid", "hem_right"), ("left_front", "top_left", "top_right")),
             S("left_back_top", ("yoke_back", "hem_left", "hem_mid"), ("left_back", "top_left", "top_right")),
             S("right_back_top", ("yoke_back", "hem_mid", "hem_right"), ("right_back", "top_left", "top_right"))]
    return {"panels": list(panels.values()), "seams": seams}


# --- shirt and blouse: front and back torso panels laid flat either side of the body, their side
# edges at x = +-S vertical from the hem to the underarm and on (a drop shoulder) to the top of
# the arm; each sleeve two half cones wrapped around its arm, whose root edges are sewn to those
# vertical edges (half the sleeve's root circumference = the drop edge's length, no ease). Flat
# sleeves folded in around their middles while closing (docs/garments.md, "Limitations").
def shirt_like(hem, neck_x, front_neck, back_neck, sleeve_length, cuff_radius, cuff_clearance, torso_regions=None,
               sleeve_regions=None, out=0.0, fit=CMU, out_back=None, hem_x=None):
    S, drop, neck_z = 0.28, 0.27, 1.50 + fit["lift"]
    front_neck, back_neck = front_neck + fit["lift"], back_neck + fit["lift"]
    ARM, ARM_ROOT_Z, ARM_BONE, SLEEVE_ROOT_OFFSET = fit["arm"], fit["arm_root_z"], fit["arm_bone"], fit["sleeve_root_offset"]
    # the torso panels on the hips joint's vertical (around.bone's flat form): 3 cm in front of the
    # body (0.12 m in front of the mid-plane) and 15.5 cm behind it (0.42 m behind); 'out' moves
    # both further out, for a garment worn over another (docs/garments.md, "Layers (outfits)")
    clear_front, clear_back = round(0.03 + out, 4), round(0.155 + (out if out_back is None else out_back), 4)
    edge = {}
    for sg in (1, -1):
        lo, hi = ARM_ROOT_Z[sg]
        edge[sg] = ((lo + hi) / 2 - drop / 2, (lo + hi) / 2 + drop / 2)  # 4-5 cm clear of the arm's root

    hx = S if hem_x is None else hem_x  # the hem's half width: the sides taper to it from the underarm
    torso = [("hem_r", (hx, hem)), ("underarm_r", (S, edge[1][0])), ("droptop_r", (S, edge[1][1])), ("neck_r", (neck_x, neck_z)),
             ("neck_l", (-neck_x, neck_z)), ("droptop_l", (-S, edge[-1][1])), ("underarm_l", (-S, edge[-1][0])), ("hem_l", (-hx, hem))]

    def flat(name, front, neck_ctrl):
        pts = torso if front else [(nm, (-p[0], p[1])) for nm, p in reversed(torso)]  # the back: mirrored, counter-clockwise
        out = []
        for i, (nm, p) in enumerate(pts):
            e = {"at": [round(float(p[0]), 4), round(float(p[1]), 4)], "corner": nm}
            if {nm, pts[(i + 1) % len(pts)][0]} == {"neck_r", "neck_l"}:
                e["quad"] = [0.0, neck_ctrl]  # the neckline
            out.append(e)
        zs = [e["at"][1] for e in out]
        cz = (min(zs) + max(zs)) / 2
        p = {"name": name, "grain": [0, 1], "outline": out,
             "flat": {"bone": "Hips", "side": "front" if front else "back", "offset": round(cz - fit["hips_z"], 4),
                      "clearance": clear_front if front else clear_back}}
        if torso_regions:
            p["stretch_regions"] = torso_regions
        return p

    panels = {"front": flat("front", True, front_neck), "back": flat("back", False, back_neck)}
    seams = []
    for sg, sd in ((1, "r"), (-1, "l")):
        c, d = np.asarray(ARM[sg][0]), unit(ARM[sg][1])
        p0 = c + ((edge[sg][0] + edge[sg][1]) / 2 - c[2]) / d[2] * d  # the arm's axis at the drop edge's middle height
        p1 = p0 + sleeve_length * d
        r0 = drop / math.pi
        w0, w1 = math.pi * r0, math.pi * cuff_radius
        outline = [("r0", (0.0, 0.0)), ("r1", (w0, 0.0)), ("e1", ((w0 + w1) / 2, sleeve_length)), ("e0", ((w0 - w1) / 2, sleeve_length))]
        low = {}
        for half, side, angle in (("a", "front", 0.0), ("b", "back", math.pi)):
            name = f"sleeve_{sd}_{half}"
            # the sleeve's cap is drawn at y = 0: pattern y runs down the arm, from the shoulder
            # joint to the elbow (head to tail); 4 cm clear of the arm at the root
            p = {"name": name, "grain": [0, 1], "outline": [{"at": [round(x, 4), round(y, 4)], "corner": nm} for nm, (x, y) in outline],
                 "around": {"bone": ARM_BONE[sg], "direction": "head_to_tail",
                            "offset": round(SLEEVE_ROOT_OFFSET[sg] + sleeve_length / 2, 4), "clearance": 0.04,
                            "top_clearance": cuff_clearance[sg], "side": side}}
            if sleeve_regions:
                p["stretch_regions"] = sleeve_regions
            panels[name] = p
            z = {nm: wrap((p0, p1), fit["front"], r0, cuff_radius, angle, (w0 / 2, sleeve_length / 2), (w0, sleeve_length), q)[2]
                 for nm, q in outline[:2]}
            low[half] = ("r0", "r1") if z["r0"] < z["r1"] else ("r1", "r0")  # (underarm side, top side)
        a, b, end = f"sleeve_{sd}_a", f"sleeve_{sd}_b", {"r0": "e0", "r1": "e1"}
        S_ = lambda *x: seams.append(seam(x[0], panels, x[1], x[2]))  # noqa: E731
        S_("side_" + sd, ("front", "hem_" + sd, "underarm_" + sd), ("back", "hem_" + sd, "underarm_" + sd))
        S_("shoulder_" + sd, ("front", "droptop_" + sd, "neck_" + sd), ("back", "droptop_" + sd, "neck_" + sd))
        S_("sleeve_under_" + sd, (a, low["a"][0], end[low["a"][0]]), (b, low["b"][0], end[low["b"][0]]))
        S_("sleeve_top_" + sd, (a, low["a"][1], end[low["a"][1]]), (b, low["b"][1], end[low["b"][1]]))
        S_("armhole_front_" + sd, ("front", "underarm_" + sd, "droptop_" + sd), (a, low["a"][0], low["a"][1]))
        S_("armhole_back_" + sd, ("back", "underarm_" + sd, "droptop_" + sd), (b, low["b"][0], low["b"][1]))
    return {"panels": list(panels.values()), "seams": seams}


def shirt(out=0.0):
    # a short-sleeved T-shirt to the hips, scoop neck at the front
    return shirt_like(hem=0.80, neck_x=0.17, front_neck=1.20, back_neck=1.40, sleeve_length=0.22, cuff_radius=0.075,
                      cuff_clearance={+1: 0.035, -1: 0.035}, out=out)


def shirt_untucked():
    # the shirt worn over the pants (scenes/outfit_walk.json): its front and back 3 cm further out,
    # clear of the pants' yoke (at 1.5 cm the yoke's back reaches 2.6 mm behind the shirt's back)
    return shirt(out=0.03)


def blouse():
    # long sleeves to the wrist with elastic cuffs, a gathered sleeve cap and an elastic waist;
    # grain vertical on the torso (u = height, v = -x) and along the arm on the sleeves (u = length)
    # The elastics and the cap ease back to plain fabric over T (about four rows) along the panel
    # (docs/garments.md, "Tapered regions"): an abrupt b leaves the plain row beside it 10 % short.
    L, T = 0.46, 0.06
    return shirt_like(hem=0.72, neck_x=0.16, front_neck=1.30, back_neck=1.42, sleeve_length=L, cuff_radius=0.058,
                      cuff_clearance={+1: 0.025, -1: 0.015},
                      torso_regions=[{"uv_min": [0.98, -0.30], "uv_max": [1.04, 0.30], "bv": 0.8, "taper": [T, 0.0]}],
                      sleeve_regions=[{"uv_min": [L - 0.05, -1.0], "uv_max": [L + 0.01, 1.0], "bv": 0.8, "taper": [T, 0.0]},
                                      {"uv_min": [-0.01, -1.0], "uv_max": [0.07, 1.0], "bv": 1.1, "taper": [T, 0.0]}])


# --- the dancer's outfits (scenes/outfit_dance_long.json, outfit_dance_short.json; figures 5-6)
def skirt_long():
    # figure 6's long skirt: two A-line panels from the waist to the ankles (0.93 m), a hem of
    # 2 x 1.05 m for the boxer's stance (feet up to 0.6 m apart fore and aft), the shipped skirt's
    # waist (2 x 0.46 m) and waistband (b_v 0.93 over its top 6 cm). Wrapped as cones around the
    # vertical through Hips moved 1.5 cm forward (as patterns/skirt.json), the waist corners
    # 0.11 m above the joint, 0.15 m clear of the ankles at the hem so that each panel's hem
    # (1.05 m) fits half the circle (radius >= 1.05 / pi). The hem and the waist are drawn curved
    # (quadratic, sagging 6 and 2 cm in the middle) as a cone unrolls.
    H, W, w, hem_sag, waist_sag = 0.93, 1.05, 0.46, 0.06, 0.02
    top = H + waist_sag
    centre = (-hem_sag + top) / 2  # the bounding box's middle
    panels = []
    for side in ("front", "back"):
        panels.append({
            "name": side, "grain": [0, 1],
            "outline": [{"at": [0.0, 0.0], "corner": "hem_left", "quad": [W / 2, -2 * hem_sag]},
                        {"at": [W, 0.0], "corner": "hem_right"},
                        {"at": [round((W + w) / 2, 4), H], "corner": "waist_right", "quad": [W / 2, round(H + 2 * waist_sag, 4)]},
                        {"at": [round((W - w) / 2, 4), H], "corner": "waist_left"}],
            "around": {"bone": "Hips", "vertical": True, "forward": 0.015, "offset": round(0.11 - (H - centre), 4),
                       "clearance": 0.15, "top_clearance": 0.0, "side": side},
            "stretch_regions": [{"uv_min": [H - 0.06, -W - 0.05], "uv_max": [H + 0.05, 0.05], "bv": 0.93}]})
    seams = [{"name": "left_side", "a": {"panel": "front", "from": "hem_right", "to": "waist_right"},
              "b": {"panel": "back", "from": "hem_left", "to": "waist_left", "direction": "backward"}},
             {"name": "right_side", "a": {"panel": "front", "from": "hem_left", "to": "waist_left", "direction": "backward"},
              "b": {"panel": "back", "from": "hem_right", "to": "waist_right"}}]
    return {"panels": panels, "seams": seams}


def dance_blouse(out=0.0, out_back=None, hem=0.80, hem_x=None):
    # the blouse cut for the Biovision dancer (BOXING): the shipped blouse's construction with
    # everything from the waist up raised 15 cm (the dancer's shoulders), the waist's elastic at
    # the dancer's narrowest (z 1.05-1.11 m), sleeves 0.40 m (the dancer's arm is 3.5 cm shorter);
    # 'out' moves the torso panels further out, for a blouse worn over a skirt
    L, T = 0.40, 0.06
    return shirt_like(hem=hem, neck_x=0.16, front_neck=1.30, back_neck=1.42, sleeve_length=L, cuff_radius=0.058,
                      cuff_clearance={+1: 0.02, -1: 0.02},
                      torso_regions=[{"uv_min": [1.05, -0.30], "uv_max": [1.11, 0.30], "bv": 0.8, "taper": [T, 0.0]}],
                      sleeve_regions=[{"uv_min": [L - 0.05, -1.0], "uv_max": [L + 0.01, 1.0], "bv": 0.8, "taper": [T, 0.0]},
                                      {"uv_min": [-0.01, -1.0], "uv_max": [0.07, 1.0], "bv": 1.1, "taper": [T, 0.0]}],
                      out=out, out_back=out_back, fit=BOXING, hem_x=hem_x)


def dance_blouse_untucked():
    # worn over the long skirt (scenes/outfit_dance_long.json)
    return dance_blouse(out=0.115)



def dance_blouse_tucked():
    # tucked into the short skirt (scenes/outfit_dance_short.json): the hem 13 cm below the
    # skirt's waist and narrowed to +-0.27 m (1.08 m round: the dancer's hips are 0.99 m), the back
    # 6 cm behind the body instead of 15.5, so that the skirt around it stays within 0.34 m of the
    # hips' vertical
    return dance_blouse(out=0.0, out_back=-0.095, hem=0.86, hem_x=0.27)


def skirt_gathered():
    # figure 5's short skirt for the dancer, worn over the tucked blouse: two panels 0.95 m wide at
    # the hem and the waist and 0.5 m long, wrapped as a cylinder clear of the blouse's torso
    # panels (about 0.33 m around the vertical through Hips moved 1.5 cm forward), the waist
    # gathered once sewn (b_v 0.49 over the top 6 cm: 2 x 0.95 m to 0.93 m, the shipped skirt's
    # waistband). The panels sit on the body's left and right, so the seams close at the front
    # and back, away from the blouse's side seams (at the sides, a skirt seam merging over the
    # blouse's side seam left 3 pairs crossed in the skirt at Table 1's size)
    H, W = 0.5, 0.95
    panels = []
    for side in ("left", "right"):
        panels.append({
            "name": side, "grain": [0, 1],
            "outline": [{"at": [0.0, 0.0], "corner": "hem_left"}, {"at": [W, 0.0], "corner": "hem_right"},
                        {"at": [W, H], "corner": "waist_right"}, {"at": [0.0, H], "corner": "waist_left"}],
            "around": {"bone": "Hips", "vertical": True, "forward": 0.015, "offset": round(0.11 - H / 2, 4),
                       "clearance": 0.12, "top_clearance": 0.16, "side": side},
            "stretch_regions": [{"uv_min": [H - 0.06, -W - 0.05], "uv_max": [H + 0.05, 0.05], "bv": 0.49, "taper": [0.06, 0.0]}]})
    seams = [{"name": "back_seam", "a": {"panel": "left", "from": "hem_right", "to": "waist_right"},
              "b": {"panel": "right", "from": "hem_left", "to": "waist_left", "direction": "backward"}},
             {"name": "front_seam", "a": {"panel": "left", "from": "hem_left", "to": "waist_left", "direction": "backward"},
              "b": {"panel": "right", "from": "hem_right", "to": "waist_right"}}]
    return {"panels": panels, "seams": seams}


if __name__ == "__main__":
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "scenes", "patterns")
    for name, make in (("pants", pants), ("shirt", shirt), ("shirt_untucked", shirt_untucked), ("blouse", blouse),
                       ("skirt_long", skirt_long), ("dance_blouse_untucked", dance_blouse_untucked),
                       ("skirt_gathered", skirt_gathered), ("dance_blouse_tucked", dance_blouse_tucked)):
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(make(), f, indent=1)
