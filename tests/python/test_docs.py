"""Runs the material-sweep example of docs/python.md (with 3 frames) and checks what it saves."""
import os
import re
import shutil
import tempfile
import unittest

import numpy as np

SRC = os.environ.get("DRAPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


class DocsExample(unittest.TestCase):
    def test_material_sweep(self):
        with open(os.path.join(SRC, "docs", "python.md")) as f:
            code = re.search(r"```python\n(.*?)```", f.read(), re.S).group(1)
        code = code.replace("frames = 30", "frames = 3")
        code = code.replace('"scenes/figure2_sheet.json"', repr(os.path.join(SRC, "scenes", "figure2_sheet.json")))
        tmp = tempfile.mkdtemp()
        cwd = os.getcwd()
        try:
            os.chdir(tmp)
            exec(compile(code, "docs/python.md", "exec"), {"print": lambda *a: None})
            data = np.load(os.path.join(tmp, "sweep.npz"))
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
        finally:
            os.chdir(cwd)
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
