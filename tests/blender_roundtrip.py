# Imports drape's caches into Blender headless and compares vertex positions with drape's own OBJ
# frames (docs/caches.md, "The Blender test"). Run by tests/blender_roundtrip.sh as
#   blender -b --factory-startup --python-exit-code 1 --python tests/blender_roundtrip.py -- OUT_DIR TOL
# OUT_DIR holds a run with --format obj,pc2,glb; summary.json says which file is which.
# Axes: drape writes OBJ and PC2 in its own Z-up coordinates and the GLB in glTF's Y-up, so the OBJ
# is imported with forward Y / up Z (no conversion) and the GLB with the importer's Y-up to Z-up
# conversion; all three then agree in Blender's Z-up world.
import json
import os
import sys

import bpy

argv = sys.argv[sys.argv.index("--") + 1:]
out_dir, tol = argv[0], float(argv[1])
summary = json.load(open(os.path.join(out_dir, "summary.json")))
fps = summary["settings"]["output"]["fps"]
last = summary["frames_written"] - 1
# A garment's caches start at the frame after which its last seam merged (docs/caches.md,
# "Garments"): frames before it have another vertex count and are in the OBJ frames only.
first = summary["outputs"].get("cache_start") or 0
cloths = [c["name"] for c in summary["settings"]["cloths"]]


def read_obj(path):
    """{object name: ([(x, y, z)], [(v, vt)] corners)} of an OBJ drape wrote (indices 0-based, per object)."""
    objects, name, v0, t0, nv, nt = {}, None, 0, 0, 0, 0
    for line in open(path):
        w = line.split()
        if not w:
            continue
        if w[0] == "o":
            name = line[2:].rstrip("\n")
            v0, t0 = nv, nt
            objects[name] = ([], [])
        elif w[0] == "v":
            objects[name][0].append(tuple(float(x) for x in w[1:4]))
            nv += 1
        elif w[0] == "vt":
            nt += 1
        elif w[0] == "f":
            for c in w[1:]:
                v, t = c.split("/")[:2]
                objects[name][1].append((int(v) - 1 - v0, int(t) - 1 - t0))
    return objects


frames = {f: read_obj(os.path.join(out_dir, "frame_%04d.obj" % f)) for f in range(first, last + 1)}
span = last - first
check_frames = sorted({first, first + 1, first + span // 3, first + (2 * span) // 3, last})

bpy.ops.object.select_all(action="SELECT")
bpy.ops.object.delete()
scene = bpy.context.scene
scene.render.fps = int(round(fps))
scene.render.fps_base = scene.render.fps / fps
scene.frame_start, scene.frame_end = 0, last


def imported(before):
    return [o for o in bpy.data.objects if o.name not in before and o.type == "MESH"]


# GLB first (the glTF importer turns morph targets into shape keys keyed by the animation), then
# renamed so that the OBJ import below gets the cloths' own names.
# Shading SMOOTH: the default (NORMALS) path of Debian 12's Blender 3.4.1 importer calls np.bool, which
# numpy 1.24 removed (docs/caches.md).
before = set(o.name for o in bpy.data.objects)
bpy.ops.import_scene.gltf(filepath=os.path.join(out_dir, summary["outputs"]["glb"]), import_shading="SMOOTH")
glb_new = imported(before)
glb_objects = {o.name: o for o in glb_new}  # named after the glTF nodes, the cloths' names
assert sorted(glb_objects) == sorted(cloths), "GLB objects %s, cloths %s" % (sorted(glb_objects), cloths)
for o in glb_new:
    o.name = "glb " + o.name  # out of the way of the OBJ import



# PC2: each cloth's rest OBJ plus a Mesh Cache modifier reading its PC2 file.
pc2_objects = {}
for entry in summary["outputs"]["pc2"]:
    before = set(o.name for o in bpy.data.objects)
    bpy.ops.wm.obj_import(filepath=os.path.join(out_dir, entry["rest"]), forward_axis="Y", up_axis="Z")
    new = imported(before)
    assert len(new) == 1, "rest OBJ %s gave %d objects" % (entry["rest"], len(new))
    obj = new[0]
    mod = obj.modifiers.new("drape", "MESH_CACHE")
    mod.cache_format = "PC2"
    mod.filepath = os.path.join(out_dir, entry["cache"])
    mod.frame_start = float(first)  # the Mesh Cache's Frame mode ignores the PC2 header's start
    mod.forward_axis, mod.up_axis = "POS_Y", "POS_Z"
    pc2_objects[entry["cloth"]] = obj
def gltf_order(corners):
    """The drape vertex of each glTF vertex: distinct (v, vt) pairs in increasing order (io/gltf_write.c)."""
    return [v for v, _ in sorted(set(corners))]


def world_positions(obj):
    depsgraph = bpy.context.evaluated_depsgraph_get()
    ev = obj.evaluated_get(depsgraph)
    mesh = ev.to_mesh()
    m = ev.matrix_world
    pos = [tuple(m @ v.co) for v in mesh.vertices]
    ev.to_mesh_clear()
    return pos


errors = {"pc2": 0.0, "glb": 0.0}
failures = []
for f in check_frames:
    scene.frame_set(f)
    for name in cloths:
        want, corners = frames[f][name]
        for fmt, obj, order in (("pc2", pc2_objects[name], list(range(len(want)))),
                                ("glb", glb_objects[name], gltf_order(frames[first][name][1]))):
            got = world_positions(obj)
            if len(got) != len(order):
                failures.append("%s %s frame %d: %d vertices, want %d" % (fmt, name, f, len(got), len(order)))
                continue
            e = max(max(abs(g[c] - want[order[k]][c]) for c in range(3)) for k, g in enumerate(got))
            errors[fmt] = max(errors[fmt], e)
            if e > tol:
                failures.append("%s %s frame %d: max error %.3g m > %.3g m" % (fmt, name, f, e, tol))
    print("frame %d checked" % f)

# Between frames both formats interpolate linearly (Mesh Cache: interpolation Linear; GLB: LINEAR
# weights), so half a frame after frame h they show the midpoint of frames h and h + 1.
h = (first + last) // 2
scene.frame_set(h, subframe=0.5)
for name in cloths:
    a, b = frames[h][name][0], frames[h + 1][name][0]
    want = [tuple(0.5 * (p[c] + q[c]) for c in range(3)) for p, q in zip(a, b)]
    for fmt, obj, order in (("pc2", pc2_objects[name], list(range(len(want)))),
                            ("glb", glb_objects[name], gltf_order(frames[first][name][1]))):
        got = world_positions(obj)
        e = max(max(abs(g[c] - want[order[k]][c]) for c in range(3)) for k, g in enumerate(got))
        errors[fmt + " mid-frame"] = e
        if e > tol:
            failures.append("%s %s frame %g: max error %.3g m > %.3g m" % (fmt, name, h + 0.5, e, tol))
print("frame %g checked (midpoint of frames %d and %d)" % (h + 0.5, h, h + 1))

# The comparison means something only if the cloth moved well beyond the tolerance.
motion = max(abs(a[c] - b[c]) for name in cloths for a, b in zip(frames[first][name][0], frames[last][name][0]) for c in range(3))
if motion < 100 * tol:
    failures.append("the cloth moved only %.3g m between frames %d and %d" % (motion, first, last))
print("blender %s, cloths %s, frames %s" % (bpy.app.version_string, cloths, check_frames))
print("largest vertex motion from frame %d to %d: %.3g m" % (first, last, motion))
print("max |blender - drape OBJ| over checked frames: pc2 %.3g m, glb %.3g m" % (errors["pc2"], errors["glb"]))
print("max |blender - midpoint of OBJ frames| at frame %g: pc2 %.3g m, glb %.3g m"
      % (h + 0.5, errors["pc2 mid-frame"], errors["glb mid-frame"]))
if failures:
    print("FAILED:\n  " + "\n  ".join(failures))
    sys.exit(1)
print("blender round trip ok")
