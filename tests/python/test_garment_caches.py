"""A garment run in every format (docs/caches.md, "Garments"): PC2, glTF and USD start at the frame
after which the last seam merged, say so in their own time fields, and hold exactly the OBJ
frames' positions from there on; a run stopped before or after that frame and resumed rebuilds
them byte for byte. Read back by independent readers (cache_readers.py, usda_reader.py)."""
import json
import os
import shutil
import tempfile
import unittest

import numpy as np

import drape
from cache_readers import Glb, read_obj, read_pc2
from usda_reader import parse

SRC = os.environ.get("DRAPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
# Two seams merging at different frames (the second at frame 22), 0.7 s of compute for 30 frames.
TUBE = os.path.join(SRC, "tests", "scenes", "tube_staggered.json")
FRAMES = 30
TOL = 1e-6  # m; float32 of metre-scale coordinates is within a few 1e-8


def run(out, **kw):
    return drape.run(TUBE, out, frames=FRAMES, formats="obj,pc2,glb,usda", threads=1, **kw)


def check_pc2(t, out, stem, obj, first, last):
    """stem.pc2 starts at `first` and holds obj[f]'s positions for f = first ... last; stem.obj is
    obj[first]."""
    start, rate, samples = read_pc2(os.path.join(out, stem + ".pc2"))
    t.assertEqual((start, rate, len(samples)), (first, 1.0, last - first + 1))
    for k, f in enumerate(range(first, last + 1)):
        np.testing.assert_allclose(samples[k], obj[f][0], rtol=0, atol=TOL, err_msg=f"{stem} frame {f}")
    # the rest mesh is the first cached frame, in the cache's vertex order
    rest = read_obj(os.path.join(out, stem + ".obj"))
    np.testing.assert_array_equal(rest[0], obj[first][0])
    np.testing.assert_array_equal(rest[2], obj[first][2])
    t.assertFalse(np.allclose(samples[0], samples[-1], atol=1e-4))  # it moves


def check_glb(t, out, node, obj, first, last, fps):
    """animation.glb's node at keyframe k is obj[first + k], keyed at (first + k) / fps."""
    glb = Glb(os.path.join(out, "animation.glb"))
    times, frames, triangles, names = glb.mesh_frames(node)
    np.testing.assert_array_equal(times, np.float32(np.arange(first, last + 1) / fps))
    t.assertEqual(names, [f"frame_{f:04d}" for f in range(first + 1, last + 1)])
    fv = obj[first][2]
    t.assertEqual(triangles.shape, fv.shape)
    # glTF vertex -> drape vertex through the triangle corners (a seam vertex is several)
    drape_vertex = np.full(len(frames[0]), -1)
    drape_vertex[triangles.ravel()] = fv.ravel()
    t.assertTrue((drape_vertex >= 0).all())
    for k, f in enumerate(range(first, last + 1)):
        g = frames[k]
        back = np.stack([g[:, 0], -g[:, 2], g[:, 1]], axis=1)  # glTF's Y-up to drape's Z-up
        np.testing.assert_allclose(back, obj[f][0][drape_vertex], rtol=0, atol=TOL, err_msg=f"{node} frame {f}")


def check_usda(t, out, prim, obj, first, last):
    """animation.usda's /drape/prim has obj[first]'s triangles and obj[f]'s points at time code f."""
    with open(os.path.join(out, "animation.usda")) as f:
        layer = parse(f.read())
    md = layer.metadata
    t.assertEqual((md["startTimeCode"], md["endTimeCode"]), (first, last))
    m = layer.prim("/drape/" + prim)
    np.testing.assert_array_equal(np.array(m.attributes["faceVertexIndices"]).reshape(-1, 3), obj[first][2])
    samples = m.attributes["points.timeSamples"]
    t.assertEqual(sorted(samples), [float(f) for f in range(first, last + 1)])
    for f in range(first, last + 1):
        np.testing.assert_allclose(np.array(samples[float(f)]), obj[f][0], rtol=0, atol=TOL, err_msg=f"{prim} frame {f}")


class GarmentCaches(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.out = os.path.join(cls.tmp, "tube")
        cls.summary = run(cls.out)
        merged = cls.summary["sewing"]["merged"]
        cls.first = max(m["frame"] for m in merged)
        cls.obj = {f: read_obj(os.path.join(cls.out, f"frame_{f:04d}.obj")) for f in range(FRAMES + 1)}

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_caches_start_at_the_last_merge(self):
        # The seams merge at different frames, the last well inside the run, and the OBJ frames
        # change vertex count there: that is why the caches cannot start at frame 0.
        self.assertEqual(self.summary["outputs"]["cache_start"], self.first)
        self.assertTrue(1 < self.first < FRAMES - 4, self.first)
        self.assertGreater(len(self.obj[0][0]), len(self.obj[self.first][0]))
        self.assertEqual(len(self.obj[self.first][0]), len(self.obj[FRAMES][0]))

    def test_pc2_equals_the_obj_frames(self):
        check_pc2(self, self.out, "cache_sleeve", self.obj, self.first, FRAMES)

    def test_glb_equals_the_obj_frames(self):
        fps = self.summary["settings"]["output"]["fps"]
        check_glb(self, self.out, "sleeve", self.obj, self.first, FRAMES, fps)

    def test_usda_equals_the_obj_frames(self):
        check_usda(self, self.out, "sleeve", self.obj, self.first, FRAMES)

    def test_resumed_runs_write_the_same_caches(self):
        # Stopped before the last merge (nothing cached yet) and after it (caches rebuilt from
        # checkpoint.frames), then resumed: the same bytes as the uninterrupted run.
        names = ["cache_sleeve.pc2", "cache_sleeve.obj", "animation.glb", "animation.usda"]
        for stop in (self.first - 5, self.first + 3):
            out = os.path.join(self.tmp, f"stopped_{stop}")
            with self.assertRaises(drape.DrapeError):
                run(out, progress=lambda frame, frames, t: frame < stop)
            drape.resume(out, threads=1)
            for name in names:
                with open(os.path.join(out, name), "rb") as a, open(os.path.join(self.out, name), "rb") as b:
                    self.assertEqual(a.read(), b.read(), f"{name} after a stop at frame {stop}")


BVH = "/usr/share/assimp/models/BVH/01_01.bvh"


@unittest.skipUnless(os.path.exists(BVH), "needs Debian's assimp-testmodels (the CMU clip)")
class GarmentOnCharacterCaches(unittest.TestCase):
    """Coarse pants sewn on the moving body: the body's caches start with the garment's, so the
    two stay together in Blender; every cached frame of both equals its OBJ frame."""

    def test_pants_and_body(self):
        tmp = tempfile.mkdtemp()
        try:
            frames = 12
            scene = os.path.join(SRC, "tests", "scenes", "pants_moving_coarse.json")
            summary = drape.run(scene, tmp, frames=frames, formats="obj,pc2,glb,usda", threads=1)
            first = summary["outputs"]["cache_start"]
            self.assertEqual(first, max(m["frame"] for m in summary["sewing"]["merged"]))
            self.assertGreater(first, 0)
            fps = summary["settings"]["output"]["fps"]
            for name, pattern, stem in (("pants", "frame_{:04d}.obj", "cache_pants"),
                                        ("body", "solid_body_{:04d}.obj", "solid_body")):
                obj = {f: read_obj(os.path.join(tmp, pattern.format(f))) for f in range(first, frames + 1)}
                check_pc2(self, tmp, stem, obj, first, frames)
                check_glb(self, tmp, name, obj, first, frames, fps)
                check_usda(self, tmp, name, obj, first, frames)
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
