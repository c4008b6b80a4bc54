"""`--format usda` read back by an independent reader (tests/python/usda_reader.py, written from
the USDA grammar) and compared with the OBJ frames of the same run."""
import os
import shutil
import tempfile
import unittest

import numpy as np

import drape
from cache_readers import read_obj
from usda_reader import parse

SRC = os.environ.get("DRAPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


class Usda(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_sewn_panels_match_the_obj_frames(self):
        # Sewn panels: one cloth with seams, so uv indices differ from vertex indices.
        scene = os.path.join(SRC, "scenes", "sewn_panels.json")
        drape.run(scene, self.tmp, frames=3, formats="obj,usda", threads=1)
        with open(os.path.join(self.tmp, "animation.usda")) as f:
            layer = parse(f.read())
        md = layer.metadata
        self.assertEqual((md["upAxis"], md["metersPerUnit"], md["startTimeCode"], md["endTimeCode"]), ("Z", 1, 0, 3))
        self.assertEqual(md["timeCodesPerSecond"], md["framesPerSecond"])
        root = layer.prims[md["defaultPrim"]]
        meshes = [p for p in root.children.values() if p.type_name == "Mesh"]
        self.assertEqual(len(meshes), 1)
        m = meshes[0]
        self.assertEqual(m.types["points"], "point3f[]")
        self.assertEqual(m.metadata["primvars:st"]["interpolation"], "faceVarying")
        v0, vt, fv, fvt = read_obj(os.path.join(self.tmp, "frame_0000.obj"))
        counts = m.attributes["faceVertexCounts"]
        self.assertEqual(set(counts), {3})
        np.testing.assert_array_equal(np.array(m.attributes["faceVertexIndices"]).reshape(-1, 3), fv)
        # Per-corner uv: the same coordinates whichever indexing each file uses.
        st = np.array(m.attributes["primvars:st"])
        sti = np.array(m.attributes["primvars:st:indices"]).reshape(-1, 3)
        np.testing.assert_allclose(st[sti], vt[fvt], atol=1e-8)
        samples = m.attributes["points.timeSamples"]
        self.assertEqual(sorted(samples), [0.0, 1.0, 2.0, 3.0])
        for t in range(4):
            v = read_obj(os.path.join(self.tmp, f"frame_{t:04d}.obj"))[0]
            np.testing.assert_allclose(np.array(samples[float(t)]), v, rtol=0, atol=1e-8)
        self.assertFalse(np.allclose(samples[0.0], samples[3.0]))  # it moves

    def test_two_cloths_and_no_leftovers(self):
        scene = os.path.join(SRC, "scenes", "figure2_sheet.json")
        out = os.path.join(self.tmp, "two")
        drape.run(scene, out, frames=1, formats="usda", overrides=["cloths.0.grid.resolution=[5,5]"], threads=1)
        # no spools or temporary files; the checkpoint (and not the positions it kept for the
        # layer, removed once the run completes) stays for `drape resume`
        self.assertEqual(sorted(os.listdir(out)), ["animation.usda", "checkpoint.bin", "stats.csv", "summary.json"])
        with open(os.path.join(out, "animation.usda")) as f:
            m = parse(f.read()).prim("/drape/sheet")
        self.assertEqual(np.array(m.attributes["points.timeSamples"][1.0]).shape, (25, 3))

    def test_reader_rejects_broken_text(self):
        with self.assertRaises(SyntaxError):
            parse('#usda 1.0\ndef Mesh "a" { point3f[] points = [(1, 2, 3) }\n')


if __name__ == "__main__":
    unittest.main()
