"""Tests of the Python package (python/drape, docs/python.md), run by /usr/bin/python3 under ctest
with DRAPE_LIBRARY naming the freshly built libdrape.so.0 and DRAPE_SOURCE_DIR the source tree."""
import json
import os
import shutil
import tempfile
import unittest

import numpy as np

import drape

SRC = os.environ.get("DRAPE_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
SHEET = os.path.join(SRC, "scenes", "figure2_sheet.json")


class Tmp(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)


class SceneTest(Tmp):
    def test_load_and_arrays(self):
        w = drape.load_scene(SHEET, threads=1)
        self.assertEqual((w.name, w.fps, w.frames, w.cloth_count), ("figure2_sheet", 30.0, 90, 1))
        x = w.positions(0)
        self.assertEqual(x.shape, (51 * 51, 3))
        self.assertEqual(x.dtype, np.float64)
        # The scene's grid: 1 m square at z = 1.
        np.testing.assert_allclose(x[:, 2], 1.0)
        self.assertAlmostEqual(x[:, 0].max() - x[:, 0].min(), 1.0)
        self.assertEqual(w.triangles(0).shape, (2 * 50 * 50, 3))
        uv = w.rest_uv(0)
        self.assertEqual(uv.shape[1], 2)
        self.assertAlmostEqual(uv[:, 0].max() - uv[:, 0].min(), 1.0)
        self.assertEqual(w.triangle_uvs(0).shape, w.triangles(0).shape)
        self.assertAlmostEqual(w.masses(0).sum(), 0.1, places=9)  # density 0.1 kg/m^2 over 1 m^2
        np.testing.assert_array_equal(w.velocities(0), 0.0)

    def test_step_falls_under_gravity_with_pins_holding(self):
        w = drape.load_scene(SHEET, threads=1)
        x0 = w.positions(0)
        w.step(0.2)
        self.assertAlmostEqual(w.time, 0.2)
        x = w.positions(0)
        # The two pinned corners stay; the rest falls.
        moved = np.linalg.norm(x - x0, axis=1)
        self.assertEqual(int((moved < 1e-9).sum()), 2)
        self.assertLess(x[:, 2].mean(), 0.99)
        self.assertGreater(w.stats["steps"], 0)
        # the stages of the step (docs/architecture.md): the solve took time, as did its parts
        stages = w.stats["stage_ms"]
        self.assertEqual(list(stages), ["prepare", "pose", "contacts", "assemble", "solve", "judge", "commit"])
        self.assertGreater(stages["solve"], 0.0)
        self.assertGreaterEqual(sum(stages.values()), w.stats["cg_ms"])
        self.assertGreater(w.kinetic_energy(), 0.0)

    def test_overrides_match_the_library(self):
        a = drape.load_scene(SHEET, overrides={"cloths.0.material.stretch": 5000}, threads=1)
        b = drape.load_scene(SHEET, overrides=["cloths.0.material.stretch=5000"], threads=1)
        c = drape.load_scene(SHEET, threads=1)
        for w in (a, b, c):
            w.step(0.1)
        np.testing.assert_array_equal(a.positions(0), b.positions(0))
        self.assertFalse(np.array_equal(a.positions(0), c.positions(0)))

    def test_scene_errors_carry_drapes_message(self):
        with self.assertRaisesRegex(drape.DrapeError, r"strech: unknown key \(did you mean 'stretch'\?\)"):
            drape.load_scene(SHEET, overrides={"cloths.0.material.strech": 1})
        with self.assertRaisesRegex(drape.DrapeError, "index 2 out of range"):
            drape.load_scene(SHEET, overrides={"cloths.2.material.stretch": 1})
        with self.assertRaisesRegex(drape.DrapeError, "expected a number, got a string"):
            drape.load_scene(SHEET, overrides={"cloths.0.material.stretch": "soft"})
        with self.assertRaisesRegex(drape.DrapeError, "nope.json: cannot open"):
            drape.load_scene(os.path.join(self.tmp, "nope.json"))
        bad = os.path.join(self.tmp, "bad.json")
        with open(bad, "w") as f:
            f.write('{"cloths": [{"grid": {"size": [1, 1], "resolution": [1, 3]}}]}\n')
        with self.assertRaisesRegex(drape.DrapeError, r"bad.json:1: .*resolution"):
            drape.load_scene(bad)


class ArrayTest(Tmp):
    def test_set_positions_and_velocities(self):
        w = drape.World(gravity=(0, 0, 0), threads=1)
        i = w.add_grid_cloth(size=(1, 1), resolution=(5, 5))
        x = w.positions(i)
        w.set_positions(i, x + [0.0, 0.0, 2.0])
        np.testing.assert_allclose(w.positions(i)[:, 2], 2.0)
        v = np.zeros((25, 3))
        v[:, 0] = 1.0
        w.set_velocities(i, v)
        w.step(0.1)
        # No gravity, no pins: uniform motion (momentum) carries the sheet 0.1 m along x.
        np.testing.assert_allclose(w.positions(i)[:, 0] - x[:, 0], 0.1, atol=1e-6)

    def test_wrong_shapes_raise(self):
        w = drape.World(threads=1)
        i = w.add_grid_cloth(resolution=(4, 4))
        for bad in (np.zeros((15, 3)), np.zeros((16, 2)), np.zeros(48), [[1, 2, 3]]):
            with self.assertRaisesRegex(ValueError, r"expected an array of shape \(16, 3\)"):
                w.set_positions(i, bad)
        with self.assertRaises(ValueError):
            w.set_velocities(i, np.zeros((16, 4)))
        with self.assertRaisesRegex(IndexError, "cloth index 3 out of range"):
            w.positions(3)
        with self.assertRaises(drape.DrapeError):  # non-finite positions are bad input
            w.set_positions(i, np.full((16, 3), np.nan))
        with self.assertRaisesRegex(TypeError, "unknown material field"):
            w.add_grid_cloth(strech=1.0)

    def test_strain_limit_setting(self):
        # the ctypes mirror of drape_world_def carries strain_limit to the library, which checks it
        # ... and the error carries drape's own message, naming the field and the rule
        with self.assertRaisesRegex(drape.DrapeError, r"World: strain_limit: must lie in \[0, 0.5\].*got 0.7"):
            drape.World(strain_limit=0.7, threads=1)
        w = drape.World(strain_limit=0.0, threads=1)
        i = w.add_grid_cloth(size=(1, 1), resolution=(4, 4))
        w.step(1.0 / 30.0)
        self.assertTrue(np.all(np.isfinite(w.positions(i))))


class PinsSolidsSprings(Tmp):
    def test_sheet_rests_on_a_sphere(self):
        w = drape.World(threads=1)
        i = w.add_grid_cloth(size=(1, 1), resolution=(11, 11), center=(0, 0, 0.5))
        s = w.add_solid("sphere", radius=0.3)
        self.assertEqual((s, w.solid_count), (0, 1))
        w.step(1.5)
        x = w.positions(i)
        centre = x[60]
        self.assertGreater(centre[2], 0.3 - 1e-3)  # outside the sphere
        self.assertLess(centre[2], 0.36)           # resting on it
        self.assertLess(x[:, 2].min(), 0.2)        # the sides hang down
        with self.assertRaisesRegex(ValueError, "shape must be one of"):
            w.add_solid("torus")

    def test_pin_holds_with_the_weight_of_the_sheet(self):
        w = drape.World(threads=1)
        i = w.add_grid_cloth(size=(0.5, 0.5), resolution=(6, 6), u_axis=(1, 0, 0), v_axis=(0, 0, 1),
                             density=0.2)
        top = [30, 35]
        pins = [w.pin(i, v) for v in top]
        x0 = w.positions(i)
        w.step(3.0)
        x = w.positions(i)
        np.testing.assert_allclose(x[top], x0[top], atol=1e-9)
        # At rest the pins carry the sheet's weight, 0.2 kg/m^2 * 0.25 m^2 * 9.81.
        total = sum(w.pin_force(p)[2] for p in pins)
        self.assertAlmostEqual(total, 0.2 * 0.25 * 9.81, delta=0.05 * 0.2 * 0.25 * 9.81)
        w.unpin(pins[0])
        w.step(0.2)
        self.assertLess(w.positions(i)[30, 2], x0[30, 2] - 0.01)
        # The removed pin's id is stale, even once its slot holds a new pin (docs/api.md, "Errors").
        again = w.pin(i, 30)
        with self.assertRaisesRegex(drape.DrapeError, "unpin: drape refused the call .*constraint_live"):
            w.unpin(pins[0])
        w.unpin(again)  # the live pin goes

    def test_spring_pulls_a_particle(self):
        w = drape.World(gravity=(0, 0, 0), threads=1)
        i = w.add_grid_cloth(size=(0.5, 0.5), resolution=(6, 6))
        x0 = w.positions(i)
        sid = w.add_spring(i, 0, target=x0[0] + [0, 0, 0.2], stiffness=20.0, damping=0.5)
        w.step(0.5)
        self.assertGreater(w.positions(i)[0, 2], 0.02)
        w.set_spring_target(sid, x0[0] - [0, 0, 0.2])
        w.remove_spring(sid)
        with self.assertRaises(drape.DrapeError):
            w.remove_spring(sid)


class RunAndWriters(Tmp):
    def test_run_crossed_cloth(self):
        crossed = os.path.join(SRC, "tests", "scenes", "crossed_sheets.json")
        summary = drape.run(crossed, os.path.join(self.tmp, "crossed"), frames=2, threads=1)
        crossing = [w for w in summary["warnings"] if w["kind"] == "crossing"]
        self.assertEqual([(w["cloths"], w["first_frame"]) for w in crossing], [(["floor", "wall"], 1)])
        with self.assertRaises(drape.DrapeError) as e:
            drape.run(crossed, os.path.join(self.tmp, "strict"), frames=2, threads=1, strict=True)
        self.assertEqual(e.exception.exit_status, 3)
        self.assertIn("'floor' and 'wall'", str(e.exception))

    def test_run_matches_the_command_output(self):
        out = os.path.join(self.tmp, "run")
        seen = []
        summary = drape.run(SHEET, out, frames=3, formats="obj,pc2", overrides={"output.fps": 20}, threads=1,
                            progress=lambda f, n, t: seen.append((f, n, round(t, 6))))
        self.assertEqual(seen, [(0, 3, 0.0), (1, 3, 0.05), (2, 3, 0.1), (3, 3, 0.15)])
        self.assertEqual(summary["status"], "ok")
        self.assertEqual(summary["overrides"], ["output.fps=20"])
        with open(os.path.join(out, "summary.json")) as f:
            self.assertEqual(json.load(f)["frames_written"], 4)
        for name in ("frame_0000.obj", "frame_0003.obj", "cache_sheet.pc2", "cache_sheet.obj", "stats.csv"):
            self.assertTrue(os.path.exists(os.path.join(out, name)), name)
        # The last OBJ frame holds what load_scene + step computes.
        w = drape.load_scene(SHEET, overrides={"output.fps": 20}, threads=1)
        for k in range(1, 4):
            w.step(k * (1.0 / 20) - w.time)  # as drape_run steps: to each frame's exact time
        with open(os.path.join(out, "frame_0003.obj")) as f:
            v = np.array([list(map(float, line.split()[1:4])) for line in f if line.startswith("v ")])
        np.testing.assert_allclose(v, w.positions(0), rtol=0, atol=1e-8)  # OBJ keeps 9 digits

    def test_run_stop_and_refusals(self):
        out = os.path.join(self.tmp, "stop")
        with self.assertRaises(drape.DrapeError) as e:
            drape.run(SHEET, out, frames=10, progress=lambda f, n, t: f < 2)
        self.assertEqual(e.exception.exit_status, 130)
        self.assertEqual(e.exception.summary["status"], "interrupted")
        with self.assertRaisesRegex(drape.DrapeError, "already exists"):
            drape.run(SHEET, out, frames=1)
        with self.assertRaisesRegex(drape.DrapeError, "unknown key"):
            drape.run(SHEET, os.path.join(self.tmp, "never"), overrides={"solver.maxdt": 1})
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "never")))
        with self.assertRaisesRegex(drape.DrapeError, "format"):
            drape.run(SHEET, os.path.join(self.tmp, "never"), formats="obj,fbx")

    def test_resume_after_a_stop(self):
        # stopped after frame 2, resumed: every frame equals an uninterrupted run's, byte for byte
        full, part = os.path.join(self.tmp, "full"), os.path.join(self.tmp, "part")
        drape.run(SHEET, full, frames=6, threads=1)
        with self.assertRaises(drape.DrapeError):
            drape.run(SHEET, part, frames=6, threads=1, progress=lambda f, n, t: f < 2)
        summary = drape.resume(part, threads=1)
        self.assertEqual(summary["status"], "ok")
        self.assertEqual(summary["frames_written"], 7)
        for k in range(7):
            name = "frame_%04d.obj" % k
            with open(os.path.join(full, name), "rb") as a, open(os.path.join(part, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)
        with self.assertRaisesRegex(drape.DrapeError, "is complete"):
            drape.resume(part)

    def test_resume_after_a_kill_past_the_last_checkpoint(self):
        # killed after the last frame's checkpoint but before summary.json (here: _exit from the
        # progress call that follows it): resume finishes the run, and the caches and summary's
        # files are the uninterrupted run's; it used to refuse the run as complete
        full, part = os.path.join(self.tmp, "full"), os.path.join(self.tmp, "part")
        formats = "obj,pc2,glb,usda"
        drape.run(SHEET, full, frames=3, formats=formats, threads=1)
        pid = os.fork()
        if pid == 0:
            try:
                drape.run(SHEET, part, frames=3, formats=formats, threads=1,
                          progress=lambda f, n, t: os._exit(0) if f == n else True)
            finally:
                os._exit(1)
        os.waitpid(pid, 0)
        self.assertFalse(os.path.exists(os.path.join(part, "summary.json")))
        self.assertTrue(os.path.exists(os.path.join(part, "checkpoint.frames")))
        summary = drape.resume(part, threads=1)
        self.assertEqual(summary["status"], "ok")
        self.assertEqual(sorted(os.listdir(full)), sorted(os.listdir(part)))
        for name in os.listdir(full):
            if name in ("summary.json", "checkpoint.bin", "stats.csv"):
                continue
            with open(os.path.join(full, name), "rb") as a, open(os.path.join(part, name), "rb") as b:
                self.assertEqual(a.read(), b.read(), name)
        with open(os.path.join(full, "summary.json")) as a:
            self.assertEqual(sorted(json.load(a)["files"]), sorted(summary["files"]))
        self.assertNotIn("checkpoint.frames", summary["files"])
        with self.assertRaisesRegex(drape.DrapeError, "is complete"):
            drape.resume(part)

    def test_writer(self):
        w = drape.World(threads=1)
        w.add_grid_cloth(resolution=(3, 3), name="tiny")
        with drape.Writer(self.tmp, w, formats=["obj", "glb"], fps=10, max_frames=2) as wr:
            wr.add_frame()
            w.step(0.1)
            wr.add_frame()
        self.assertTrue(os.path.exists(os.path.join(self.tmp, "frame_0001.obj")))
        with open(os.path.join(self.tmp, "animation.glb"), "rb") as f:
            self.assertEqual(f.read(4), b"glTF")

    def test_version(self):
        with open(os.path.join(SRC, "CMakeLists.txt")) as f:
            self.assertIn(f"project(drape VERSION {drape.version()} ", f.read())


if __name__ == "__main__":
    unittest.main()
