"""World.add_garment / add_character / add_mesh_solid / add_cloth take a scene file's entries, key
for key (docs/python.md): a world built entry by entry from a shipped scene's JSON is the world
load_scene makes of the file (same particles, triangles, uv, seams, and the same motion, bit for
bit); bad entries fail with the key's path; drape.__version__ and drape.scene_path."""
import ctypes
import json
import os
import re
import shutil
import tempfile
import unittest

import numpy as np

import drape

SRC = os.environ.get("DRAPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BVH = "/usr/share/assimp/models/BVH/01_01.bvh"


def scene_json(name):
    with open(os.path.join(SRC, "scenes", name)) as f:
        return json.load(f)


def empty_world_like(loaded):
    """An empty World with the settings the scene file gives (gravity, solver ...)."""
    lib = drape._lib
    d = lib.drape_scene_world_def(loaded._scene)
    return drape.World(_handle=lib.drape_world_create(ctypes.byref(d)))


def build(scene, world):
    """Adds the scene's cloths and solids to world through the entry calls."""
    base = os.path.join(SRC, "scenes")
    cloths = scene["cloths"]
    for s in scene.get("solids", []):  # first: a garment placed around a bone needs the body
        s = dict(s)
        shape = s.pop("shape")
        if shape == "character":
            world.add_character(base_dir=base, **s)
        elif shape == "mesh":
            world.add_mesh_solid(base_dir=base, **s)
        else:  # planes, spheres ...: World.add_solid takes its own keys; the entry call directly here
            world._add_entry(drape._lib.drape_world_add_scene_solid, "solid", dict(s, shape=shape), base)
    for c in cloths:
        if "garment" in c:
            world.add_garment(base_dir=base, **c)
        else:
            world.add_cloth(base_dir=base, **c)
    return world


class SameAsTheSceneFile(unittest.TestCase):
    def assert_same(self, a, b, steps=(), sew=False):
        self.assertEqual((a.cloth_count, a.solid_count, a.seam_count), (b.cloth_count, b.solid_count, b.seam_count))
        for i in range(a.cloth_count):
            self.assertEqual(a.cloth_name(i), b.cloth_name(i))
            for get in ("positions", "triangles", "rest_uv", "triangle_uvs", "masses"):
                np.testing.assert_array_equal(getattr(a, get)(i), getattr(b, get)(i), err_msg=get)
        for t in steps:
            a.step(t - a.time)
            b.step(t - b.time)
            if sew:
                self.assertEqual(a.close_seams(), b.close_seams())
            for i in range(a.cloth_count):
                np.testing.assert_array_equal(a.positions(i), b.positions(i), err_msg=f"t = {t}")

    def test_mesh_solid_and_grid(self):
        # figure 1: a grid cloth falling on the cylinder mesh; 3 frames of identical motion
        a = drape.load_scene(os.path.join(SRC, "scenes", "figure1_drape.json"), threads=1)
        b = build(scene_json("figure1_drape.json"), empty_world_like(a))
        self.assert_same(a, b, steps=[1 / 30, 2 / 30, 3 / 30])
        self.assertLess(b.positions(0)[:, 2].min(), 1.3 - 1e-3)  # it fell

    @unittest.skipUnless(os.path.exists(BVH), "needs Debian's assimp-testmodels (the skirt scene's body)")
    def test_garment_from_a_pattern_file(self):
        # the skirt: panels from patterns/skirt.json, seams, the world's body added first.
        # Particles, triangles, uv and seams equal the file's. Its panels placed around the
        # LowerBack bone (around.bone) need that body: without it the garment is refused.
        a = drape.load_scene(os.path.join(SRC, "scenes", "garment_skirt.json"), threads=1,
                             overrides={"cloths.0.garment.triangle_size": 0.05})
        scene = scene_json("garment_skirt.json")
        cloth = scene["cloths"][0]
        cloth["garment"]["triangle_size"] = 0.05
        b = empty_world_like(a)
        with open(os.path.join(SRC, "scenes", "patterns", "skirt.json")) as f:
            pattern = json.load(f)
        for panel in pattern["panels"]:
            panel["around"] = {"bone": "LowerBack", "side": panel["around"]["side"], "offset": -0.205}
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "skirt_bone.json"), "w") as f:
                json.dump(pattern, f)
            on_bone = json.loads(json.dumps(cloth))
            on_bone["garment"]["pattern"] = "skirt_bone.json"
            with self.assertRaisesRegex(drape.DrapeError, "no character solid"):
                b.add_garment(base_dir=tmp, **on_bone)
        body = dict(scene["solids"][0])
        del body["shape"]
        self.assertEqual(b.add_character(**body), 0)
        self.assertEqual(b.add_garment(base_dir=drape.scene_path(), **cloth), 0)
        for get in ("positions", "triangles", "rest_uv", "triangle_uvs", "masses"):
            np.testing.assert_array_equal(getattr(a, get)(0), getattr(b, get)(0), err_msg=get)
        self.assertEqual(a.seam_count, b.seam_count)
        self.assertGreater(b.seam_count, 0)
        self.assertEqual(b.seams_open, a.seams_open)

    def test_garment_from_svg_and_dxf_patterns(self):
        # the sleeve with its panels from patterns/sleeve.svg and patterns/sleeve.dxf (docs/garments.md,
        # "Patterns from SVG", "Patterns from DXF-AAMA"), the files found in base_dir: the same world
        # as the scene file's; a wrong base_dir names the missing file
        for name in ("garment_svg.json", "garment_dxf.json"):
            a = drape.load_scene(os.path.join(SRC, "scenes", name), threads=1)
            b = build(scene_json(name), empty_world_like(a))
            self.assert_same(a, b)
            with self.assertRaisesRegex(drape.DrapeError, "outline: patterns/sleeve"):
                empty_world_like(a).add_garment(base_dir=tempfile.gettempdir(), **scene_json(name)["cloths"][0])

    def test_garment_sews_in_a_world(self):
        # garment_tube's sleeve, added with the scene's keys, closes its two seams as the world
        # steps and close_seams() merges them: the vertex count drops by the merged pairs
        a = drape.load_scene(os.path.join(SRC, "scenes", "garment_tube.json"), threads=1)
        w = empty_world_like(a)
        w.add_solid("capsule", radius=0.08, half_height=0.3, position=(0, 0, 1),
                    rotation=(np.cos(np.pi / 4), 0, np.sin(np.pi / 4), 0), thickness=0.005, friction=0.5)
        i = w.add_garment(**scene_json("garment_tube.json")["cloths"][0])
        np.testing.assert_array_equal(w.positions(i), a.positions(0))
        before = w.vertex_count(i)
        # the run settings of the sewing block are told, not silently dropped
        self.assertTrue(any("time_limit" in m for m in w.warnings), w.warnings)
        for f in range(1, 46):
            w.step(f / 30 - w.time)
            w.close_seams()
            if not w.seams_open:
                break
        self.assertEqual(w.seams_open, [])
        self.assertEqual(before - w.vertex_count(i), 2 * 26)  # two seams of 26 pairs each
        self.assertEqual(w.positions(i).shape, (w.vertex_count(i), 3))

    @unittest.skipUnless(os.path.exists(BVH), "needs Debian's assimp-testmodels (the CMU clip)")
    def test_character(self):
        # the veil over the mannequin on the CMU clip: the same body, the same motion of the veil
        a = drape.load_scene(os.path.join(SRC, "scenes", "character.json"), threads=1)
        b = build(scene_json("character.json"), empty_world_like(a))
        self.assert_same(a, b, steps=[0.1, 0.2])
        # the same with the body skinned by dual quaternions (docs/characters.md, "Skinning"):
        # the entry's key reaches the character as the scene file's does
        dq = {"solids.0.character.skinning": "dual_quaternion"}
        a = drape.load_scene(os.path.join(SRC, "scenes", "character.json"), threads=1, overrides=dq)
        scene = scene_json("character.json")
        scene["solids"][0]["character"]["skinning"] = "dual_quaternion"
        self.assert_same(a, build(scene, empty_world_like(a)), steps=[0.1, 0.2])


    @unittest.skipUnless(os.path.exists(BVH), "needs Debian's assimp-testmodels (the CMU clip)")
    def test_character_held_until_relaxed_is_told(self):
        # "relaxed" waits for a run's sewing, which a world does not have: said, and set_hold starts it
        w = drape.World()
        body = w.add_character({"file": BVH, "body": "mannequin", "hold": "relaxed"}, name="body")
        self.assertTrue(any("solid 'body': character.hold \"relaxed\"" in m for m in w.warnings), w.warnings)
        w.set_hold(body, 0.0)
        with self.assertRaises(IndexError):
            w.set_hold(body + 1, 0.0)


class BadEntries(unittest.TestCase):
    def test_messages_name_the_key(self):
        w = drape.World()
        with self.assertRaisesRegex(drape.DrapeError, r"^add_garment: garment\.triangle_size: must be > 0"):
            w.add_garment({"triangle_size": -1, "panels": []})
        with self.assertRaisesRegex(drape.DrapeError, r"garment\.panles: unknown key \(did you mean 'panels'\?\)"):
            w.add_garment({"triangle_size": 0.02, "panles": []})
        with self.assertRaisesRegex(drape.DrapeError, r"^add_mesh_solid: .*nowhere\.obj: cannot open.*\(mesh\.file of the entry\)"):
            w.add_mesh_solid({"file": "nowhere.obj"})
        with self.assertRaisesRegex(drape.DrapeError, r"^add_character: character: missing required key 'file'"):
            w.add_character({})
        with self.assertRaisesRegex(drape.DrapeError, r'character\.skinning: expected "linear" or "dual_quaternion", got "dual"'):
            w.add_character({"file": BVH, "skinning": "dual"})
        with self.assertRaises(TypeError):
            w.add_mesh_solid({"file": "cylinder.obj"}, shape="sphere")
        self.assertEqual((w.cloth_count, w.solid_count), (0, 0))  # nothing half-added

    def test_names_are_the_worlds(self):
        w = drape.World()
        grid = {"grid": {"size": [0.2, 0.2], "resolution": [3, 3]}}
        self.assertEqual(w.add_cloth(**grid), 0)
        self.assertEqual(w.add_cloth(**grid), 1)
        self.assertEqual((w.cloth_name(0), w.cloth_name(1)), ("cloth0", "cloth1"))
        with self.assertRaisesRegex(drape.DrapeError, r"name: the world has a cloth named 'cloth1' already"):
            w.add_cloth(name="cloth1", **grid)
        self.assertEqual(w.add_mesh_solid({"file": "cylinder.obj"}, base_dir=drape.scene_path()), 0)
        self.assertEqual(w.add_mesh_solid({"file": "cylinder.obj"}, base_dir=drape.scene_path(), position=[2, 0, 0]), 1)
        with self.assertRaisesRegex(drape.DrapeError, r"the world has a solid named 'solid0' already"):
            w.add_mesh_solid({"file": "cylinder.obj"}, base_dir=drape.scene_path(), name="solid0")

    @unittest.skipUnless(os.path.exists(BVH), "needs Debian's assimp-testmodels (the pants scene's body)")
    def test_regions_after_sewing_are_refused(self):
        # a world has no sewing to wait for: the message says what to do instead
        scene = scene_json("garment_pants.json")
        pants = scene["cloths"][0]
        pants["garment"]["triangle_size"] = 0.06
        self.assertEqual(pants["garment"]["sewing"].get("regions"), "after_sewing")
        w = drape.World()
        # the pants' panels are placed on the body's bones (around.bone): the body comes first
        body = dict(scene["solids"][0])
        del body["shape"]
        self.assertEqual(w.add_character(**body), 0)
        with self.assertRaisesRegex(drape.DrapeError, r"garment\.sewing\.regions: 'after_sewing' is applied by a run"):
            w.add_garment(base_dir=drape.scene_path(), **pants)
        self.assertEqual(w.cloth_count, 0)
        pants["garment"]["sewing"]["regions"] = "start"
        self.assertEqual(w.add_garment(base_dir=drape.scene_path(), **pants), 0)


class Package(unittest.TestCase):
    def test_version_is_the_projects(self):
        with open(os.path.join(SRC, "CMakeLists.txt")) as f:
            project = re.search(r"project\(drape VERSION ([0-9.]+)", f.read()).group(1)
        self.assertEqual(drape.__version__, project)
        self.assertEqual(drape.version(), project)

    def test_scene_path(self):
        p = drape.scene_path("figure2_sheet.json")
        self.assertTrue(os.path.isfile(p))
        self.assertTrue(os.path.isfile(drape.scene_path("patterns/skirt.json")))
        self.assertEqual(os.path.dirname(p), drape.scene_path())
        with self.assertRaisesRegex(FileNotFoundError, "no scene file 'nope.json'"):
            drape.scene_path("nope.json")


if __name__ == "__main__":
    unittest.main()
