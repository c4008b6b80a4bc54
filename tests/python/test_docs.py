"""Runs the examples of docs/python.md and checks what they make: the material sweep (with 3
frames) and its arrays, the sleeve sewn on the cylinder and its caches, and the character when
Debian's assimp-testmodels has the CMU clip. `tests/install_test.sh` runs the same blocks from an
installed tree (DRAPE_DOCS_INSTALLED=1: no source tree on the path, scenes from the install)."""
import os
import re
import shutil
import struct
import tempfile
import unittest

import numpy as np

SRC = os.environ.get("DRAPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
BVH = "/usr/share/assimp/models/BVH/01_01.bvh"


def blocks():
    with open(os.path.join(SRC, "docs", "python.md")) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


class DocsExample(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.cwd = os.getcwd()
        os.chdir(self.tmp)

    def tearDown(self):
        os.chdir(self.cwd)
        shutil.rmtree(self.tmp)

    def run_block(self, marker):
        code = next(b for b in blocks() if marker in b)
        printed = []
        exec(compile(code.replace("frames = 30\n", "frames = 3\n"), "docs/python.md", "exec"),
             {"print": lambda *a: printed.append(a)})
        return printed

    def test_material_sweep(self):
        self.run_block("itertools.product")
        data = np.load(os.path.join(self.tmp, "sweep.npz"))
        keys = sorted(k for k in data.files if k.startswith("stretch"))
        self.assertEqual(len(keys), 4)
        for k in keys:
            self.assertEqual(data[k].shape, (4, 2601, 3))
        self.assertEqual(data["triangles"].shape, (5000, 3))
        # Same start, and each material moves the sheet differently.
        finals = [data[k][-1] for k in keys]
        for a in range(4):
            np.testing.assert_array_equal(data[keys[a]][0], data[keys[0]][0])
            for b in range(a + 1, 4):
                self.assertGreater(np.abs(finals[a] - finals[b]).max(), 1e-6, (keys[a], keys[b]))

    def test_sleeve_on_the_cylinder(self):
        printed = self.run_block("add_garment(")
        self.assertEqual(printed[-1][:2], ("open seams:", []))
        out = os.path.join(self.tmp, "sleeve")
        names = set(os.listdir(out))
        self.assertTrue({"frame_0000.obj", "frame_0030.obj", "cache_sleeve.pc2", "cache_sleeve.obj", "animation.glb"} <= names, names)
        with open(os.path.join(out, "cache_sleeve.pc2"), "rb") as f:
            points, start, rate, samples = struct.unpack("<16xiffi", f.read(32))
        # the caches start once sewn, with the sewn particle count, and run to the last frame
        self.assertEqual(points, printed[-1][3])
        self.assertEqual(start + samples - 1, 30)
        self.assertGreaterEqual(start, 1)

    @unittest.skipUnless(os.path.exists(BVH), "needs Debian's assimp-testmodels (the CMU clip)")
    def test_character(self):
        printed = self.run_block("add_character(")
        # the veil falls from 1.83 m and is caught by the mannequin (free fall: 0.6 m after 0.5 s)
        self.assertTrue(1.0 < printed[-1][1] < 1.75, printed[-1])


if __name__ == "__main__":
    unittest.main()
