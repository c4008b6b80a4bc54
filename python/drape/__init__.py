"""drape: cloth simulation after Baraff & Witkin, "Large Steps in Cloth Simulation" (1998).

Python bindings over the C library (libdrape.so.0, include/drape.h) through ctypes; per-vertex
data comes and goes as numpy arrays. See docs/python.md.

    import drape
    world = drape.load_scene("scenes/figure2_sheet.json", overrides={"cloths.0.material.stretch": 5000})
    world.step(1.0)
    x = world.positions(0)          # (n, 3) float64, metres
"""
import ctypes
import json
import os

import numpy as np

from . import _lib as L
from ._version import VERSION as __version__

__all__ = ["DrapeError", "World", "Writer", "load_scene", "run", "resume", "scene_path", "version", "FORMATS",
           "__version__"]

_lib = L.load()

#: Output formats by name (docs/caches.md).
FORMATS = {"obj": 1, "pc2": 2, "glb": 4, "usda": 8}
_ERR = 1024


class DrapeError(Exception):
    """A failure reported by drape; the message is drape's own (file, line and JSON path for
    scenes). `status` is the drape_status code, `exit_status` what `drape run` would exit with."""

    def __init__(self, message, status=1, exit_status=2):
        super().__init__(message)
        self.status = status
        self.exit_status = exit_status


# Programmer errors inside the library (a stale pin or spring id, docs/api.md "Errors") call the
# assert function, which by default aborts the process. Python raises instead: the callback records
# the failed check, the call returns without effect, and _checked turns the record into a
# DrapeError. Process-wide, as the library's assert function is.
_asserts = []


def _on_assert(expression, file, line):
    _asserts.append(f"{_text(file)}:{line}: {_text(expression)}")


_assert_fcn = L.AssertFcn(_on_assert)  # kept alive: the library holds a pointer to it
_lib.drape_set_assert_fcn(_assert_fcn)


def _checked(what, fn, *args):
    """Calls fn(*args); DrapeError if the library's assert function was called meanwhile."""
    _asserts.clear()
    result = fn(*args)
    if _asserts:
        failed = _asserts[-1]
        _asserts.clear()
        raise DrapeError(f"{what}: drape refused the call (a removed or unknown id?): {failed}")
    return result


# Pin and spring ids carry their slot's generation, so that one kept past its removal is caught:
# Python sees one int, index in the low 32 bits and generation above.
def _pack_id(i):
    return i.index | (i.generation << 32)


def _unpack_id(cls, n):
    n = int(n)
    return cls(n & 0xFFFFFFFF, (n >> 32) & 0xFFFF)


def version():
    """The library's version, e.g. "0.1.0" (DRAPE_VERSION_STRING); also drape.__version__."""
    return __version__


def _scene_dirs():
    here = os.path.dirname(os.path.abspath(__file__))
    try:  # written by `make install`: PREFIX/share/drape/scenes, relative to this package
        from . import _installed
        yield os.path.normpath(os.path.join(here, _installed.SCENES))
    except (ImportError, AttributeError):
        pass
    yield os.path.normpath(os.path.join(here, "..", "..", "scenes"))  # the source tree


def scene_path(name=""):
    """The path of a shipped scene, mesh or pattern ("figure2_sheet.json", "patterns/skirt.json"),
    installed under PREFIX/share/drape/scenes (or the source tree's scenes/); with no name, that
    folder. FileNotFoundError naming the folders looked in when absent."""
    tried = []
    for d in _scene_dirs():
        p = os.path.join(d, name) if name else d
        if os.path.exists(p):
            return p
        tried.append(d)
    raise FileNotFoundError(f"drape: no scene file '{name}' in {' or '.join(tried)}")


def _errbuf():
    return ctypes.create_string_buffer(_ERR)


def _text(b):
    return b.decode("utf-8", "replace") if b else ""


def _overrides(overrides):
    """{"a.0.b": 5} or ["a.0.b=5"] into a C array of b"key=value" (values as JSON)."""
    if not overrides:
        return None, 0
    if isinstance(overrides, dict):
        items = [f"{k}={v if isinstance(v, str) else json.dumps(v)}" for k, v in overrides.items()]
    else:
        items = [str(s) for s in overrides]
    arr = (ctypes.c_char_p * len(items))(*[s.encode() for s in items])
    return arr, len(items)


def _formats(formats):
    if isinstance(formats, int):
        return formats
    if not isinstance(formats, str):
        formats = ",".join(formats)
    bits = ctypes.c_uint(0)
    err = _errbuf()
    if _lib.drape_parse_formats(formats.encode(), ctypes.byref(bits), err, _ERR) != 0:
        raise DrapeError(_text(err.value))
    return bits.value


def _vec(v, n, what):
    a = np.asarray(v, dtype=np.float64).reshape(-1)
    if a.shape != (n,):
        raise ValueError(f"{what}: expected {n} numbers, got shape {np.shape(v)}")
    return a


class World:
    """A simulation world: cloths, pins, solids and springs stepping together (include/drape.h).

    Make one with drape.load_scene(path), or World(**settings) for an empty world with the
    library's defaults (settings are drape_world_def fields: gravity=(0, 0, -9.81), threads=1 ...)."""

    def __init__(self, _handle=None, _scene=None, **settings):
        if _handle is None:
            d = _lib.drape_default_world_def()
            for k, v in settings.items():
                if not hasattr(d, k) or k == "cookie":
                    raise TypeError(f"World: unknown setting '{k}'")
                cur = getattr(d, k)
                if isinstance(cur, ctypes.Array):
                    getattr(d, k)[:] = list(_vec(v, len(cur), k))
                else:
                    setattr(d, k, v)
            e = L.DefError()
            if _lib.drape_world_def_check(ctypes.byref(d), ctypes.byref(e)) != 0:
                raise DrapeError(f"World: {_text(e.field)}: {_text(e.reason)}")
            _handle = _lib.drape_world_create(ctypes.byref(d))
            if not _handle:
                raise DrapeError("World: out of memory", 3)
        self._w = _handle
        self._scene = _scene
        #: frames per second and frame count of the scene's output settings (None without a scene)
        self.fps = _lib.drape_scene_fps(_scene) if _scene else None
        self.frames = _lib.drape_scene_frames(_scene) if _scene else None
        self.name = _text(_lib.drape_scene_name(_scene)) if _scene else ""

    def close(self):
        """Frees the world (also done when it is garbage-collected)."""
        if getattr(self, "_w", None):
            _lib.drape_world_destroy(self._w)
            self._w = None
        if getattr(self, "_scene", None):
            _lib.drape_scene_destroy(self._scene)
            self._scene = None

    __del__ = close

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _check(self, status, what):
        if status != 0:
            raise DrapeError(f"{what}: {_text(_lib.drape_world_error(self._w))}", status,
                             3 if status == 2 else 2)

    def _cloth(self, i):
        n = _lib.drape_cloth_count(self._w)
        if not isinstance(i, (int, np.integer)) or not 0 <= i < n:
            raise IndexError(f"cloth index {i} out of range (the world has {n} cloth{'s' if n != 1 else ''})")
        return L.ClothId(int(i))

    # -- time ------------------------------------------------------------------------------------
    def step(self, seconds):
        """Advances the simulation by `seconds` (several adaptive steps, paper sec. 7). Raises
        DrapeError when the step cannot continue (divergence) or the input is bad."""
        self._check(_lib.drape_world_step(self._w, float(seconds)), "step")

    @property
    def time(self):
        return _lib.drape_world_time(self._w)

    @property
    def stats(self):
        """Counters since the world was made: steps, rejected, cg_iterations, ... as a dict;
        stage_ms maps each stage of the step (docs/architecture.md) to its milliseconds."""
        s = _lib.drape_world_get_stats(self._w)
        d = {k: getattr(s, k) for k, _ in L.Stats._fields_}
        d["stage_ms"] = dict(zip(L.STAGES, s.stage_ms))
        return d

    def kinetic_energy(self):
        return _lib.drape_world_kinetic_energy(self._w)

    def elastic_energy(self):
        return _lib.drape_world_elastic_energy(self._w)

    @property
    def warnings(self):
        return [w for w in _text(_lib.drape_world_warnings(self._w)).split("\n") if w]

    # -- cloths ----------------------------------------------------------------------------------
    @property
    def cloth_count(self):
        return _lib.drape_cloth_count(self._w)

    def cloth_name(self, i):
        return _text(_lib.drape_cloth_name(self._w, self._cloth(i)))

    def vertex_count(self, i):
        return _lib.drape_cloth_vertex_count(self._w, self._cloth(i))

    def _get(self, fn, i, width=3):
        c = self._cloth(i)
        out = np.empty((_lib.drape_cloth_vertex_count(self._w, c), width), dtype=np.float64)
        fn(self._w, c, out.ctypes.data)
        return out

    def positions(self, i):
        """Cloth i's particle positions, a new (n, 3) float64 array in metres."""
        return self._get(_lib.drape_cloth_get_positions, i)

    def velocities(self, i):
        """Cloth i's particle velocities, (n, 3) float64, m/s."""
        return self._get(_lib.drape_cloth_get_velocities, i)

    def masses(self, i):
        """Cloth i's particle masses, (n,) float64, kg."""
        return self._get(_lib.drape_cloth_get_masses, i, 1)[:, 0].copy()

    def _set(self, fn, i, values, what):
        c = self._cloth(i)
        n = _lib.drape_cloth_vertex_count(self._w, c)
        a = np.asarray(values)
        if a.shape != (n, 3):
            raise ValueError(f"{what}: cloth {i} has {n} particles, so expected an array of shape ({n}, 3), "
                             f"got {a.shape}")
        a = np.ascontiguousarray(a, dtype=np.float64)
        self._check(fn(self._w, c, a.ctypes.data), what)

    def set_positions(self, i, positions):
        """Moves cloth i's particles; positions has shape (n, 3)."""
        self._set(_lib.drape_cloth_set_positions, i, positions, "set_positions")

    def set_velocities(self, i, velocities):
        self._set(_lib.drape_cloth_set_velocities, i, velocities, "set_velocities")

    def _mesh(self, i):
        return _lib.drape_cloth_mesh(self._w, self._cloth(i)).contents

    def rest_uv(self, i):
        """Cloth i's rest (u, v) coordinates in metres, (uv_count, 2). A seam vertex has several;
        triangle_uvs(i) says which uv each triangle corner uses (paper footnote 3)."""
        m = self._mesh(i)
        return np.ctypeslib.as_array(m.uvs, shape=(m.uv_count, 2)).copy() if m.uv_count else np.empty((0, 2))

    def triangles(self, i):
        """Cloth i's triangles as vertex indices, (t, 3) int32."""
        m = self._mesh(i)
        if not m.triangle_count:
            return np.empty((0, 3), dtype=np.int32)
        return np.ctypeslib.as_array(m.triangles, shape=(m.triangle_count, 3)).copy()

    def triangle_uvs(self, i):
        """Cloth i's triangles as indices into rest_uv(i), (t, 3) int32."""
        m = self._mesh(i)
        if not m.triangle_count:
            return np.empty((0, 3), dtype=np.int32)
        return np.ctypeslib.as_array(m.triangle_uvs, shape=(m.triangle_count, 3)).copy()

    def add_grid_cloth(self, size=(1.0, 1.0), resolution=(21, 21), center=(0.0, 0.0, 0.0), u_axis=(1, 0, 0),
                       v_axis=(0, 1, 0), name=None, **material):
        """Adds a rectangular sheet (drape_mesh_make_grid) with material fields as keywords
        (density, stretch, shear, bend_u, bend_v, *_damping, drag; docs/model.md). Returns its index."""
        g = _lib.drape_default_grid_def()
        g.size[:] = list(_vec(size, 2, "size"))
        g.resolution[:] = [int(r) for r in resolution]
        g.center[:] = list(_vec(center, 3, "center"))
        g.u_axis[:] = list(_vec(u_axis, 3, "u_axis"))
        g.v_axis[:] = list(_vec(v_axis, 3, "v_axis"))
        mesh = L.Mesh()
        err = _errbuf()
        if _lib.drape_mesh_make_grid(ctypes.byref(g), ctypes.byref(mesh), err, _ERR) != 0:
            raise DrapeError(_text(err.value))
        try:
            d = _lib.drape_default_cloth_def()
            d.mesh = ctypes.pointer(mesh)
            for k, v in material.items():
                if not hasattr(d.material, k):
                    raise TypeError(f"add_grid_cloth: unknown material field '{k}'")
                setattr(d.material, k, float(v))
            name_b = name.encode() if name else None
            d.name = name_b
            cid = _lib.drape_cloth_add(self._w, ctypes.byref(d))
        finally:
            _lib.drape_mesh_free(ctypes.byref(mesh))
        if cid.index < 0:
            raise DrapeError(_text(_lib.drape_world_error(self._w)))
        return cid.index

    # -- pins, springs, solids ---------------------------------------------------------------------
    def pin(self, cloth, vertex, position=None, kind="point", axis=(0, 0, 1), velocity=None):
        """Pins a particle (sec. 5.1): kind "point", "line" or "plane" (axis: line direction or
        plane normal); at `position`, or where it is now; moving at `velocity` if given. Returns
        a pin id for unpin()."""
        d = _lib.drape_default_constraint_def()
        d.cloth = self._cloth(cloth)
        d.vertex = int(vertex)
        kinds = {"point": 0, "line": 1, "plane": 2}
        if kind not in kinds:
            raise ValueError(f"pin: kind must be one of {sorted(kinds)}, got {kind!r}")
        d.kind = kinds[kind]
        d.axis[:] = list(_vec(axis, 3, "axis"))
        if position is not None:
            d.use_position = True
            d.position[:] = list(_vec(position, 3, "position"))
        if velocity is not None:
            d.motion = 1
            d.velocity[:] = list(_vec(velocity, 3, "velocity"))
        pid = _lib.drape_constraint_add(self._w, ctypes.byref(d))
        if pid.index < 0:
            raise DrapeError(f"pin: {_text(_lib.drape_world_error(self._w))}")
        return _pack_id(pid)

    def unpin(self, pin_id):
        """Removes a pin; DrapeError for an id already removed."""
        _checked("unpin", _lib.drape_constraint_remove, self._w, _unpack_id(L.ConstraintId, pin_id))

    def pin_force(self, pin_id):
        """The force the pin applied in the last step (N), shape (3,)."""
        out = np.zeros(3)
        _checked("pin_force", _lib.drape_constraint_get_force, self._w, _unpack_id(L.ConstraintId, pin_id),
                 out.ctypes.data)
        return out

    def add_spring(self, cloth, vertex, target, stiffness=50.0, damping=1.0, force=(0, 0, 0)):
        """The interactive "mouse" force (sec. 4.4): a zero-length spring from a particle to
        target. Returns an id for set_spring_target() and remove_spring()."""
        d = _lib.drape_default_spring_def()
        d.cloth = self._cloth(cloth)
        d.vertex = int(vertex)
        d.target[:] = list(_vec(target, 3, "target"))
        d.stiffness = float(stiffness)
        d.damping = float(damping)
        d.force[:] = list(_vec(force, 3, "force"))
        sid = _lib.drape_spring_add(self._w, ctypes.byref(d))
        if sid.index < 0:
            raise DrapeError(f"add_spring: {_text(_lib.drape_world_error(self._w))}")
        return _pack_id(sid)

    def set_spring_target(self, spring_id, target):
        t = _vec(target, 3, "target")
        _checked("set_spring_target", _lib.drape_spring_set_target, self._w, _unpack_id(L.SpringId, spring_id),
                 t.ctypes.data)

    def remove_spring(self, spring_id):
        _checked("remove_spring", _lib.drape_spring_remove, self._w, _unpack_id(L.SpringId, spring_id))

    _SHAPES = {"plane": 1, "sphere": 2, "capsule": 3, "cylinder": 4, "box": 5}

    def add_solid(self, shape, position=(0, 0, 0), rotation=(1, 0, 0, 0), radius=0.0, half_height=0.0,
                  half_extents=(0, 0, 0), thickness=None, friction=None, name=None):
        """Adds a static analytic solid: "plane" (z = 0 of its frame), "sphere", "capsule",
        "cylinder" (radius, half_height along z) or "box" (half_extents). rotation is a unit
        quaternion (w, x, y, z). Returns its index."""
        if shape not in self._SHAPES:
            raise ValueError(f"add_solid: shape must be one of {sorted(self._SHAPES)}, got {shape!r}")
        d = _lib.drape_default_solid_def()
        d.shape = self._SHAPES[shape]
        d.position[:] = list(_vec(position, 3, "position"))
        d.rotation[:] = list(_vec(rotation, 4, "rotation"))
        d.radius = float(radius)
        d.half_height = float(half_height)
        d.half_extents[:] = list(_vec(half_extents, 3, "half_extents"))
        if thickness is not None:
            d.thickness = float(thickness)
        if friction is not None:
            d.friction = float(friction)
        name_b = name.encode() if name else None
        d.name = name_b
        sid = _lib.drape_solid_add(self._w, ctypes.byref(d))
        if sid.index < 0:
            raise DrapeError(f"add_solid: {_text(_lib.drape_world_error(self._w))}")
        return sid.index

    @property
    def solid_count(self):
        return _lib.drape_solid_count(self._w)

    def set_hold(self, solid, seconds):
        """A character solid holds its dressing pose until `seconds`, then blends into its clip
        (drape_solid_set_hold): e.g. world.set_hold(body, world.time) once a garment is sewn."""
        n = _lib.drape_solid_count(self._w)
        if not isinstance(solid, (int, np.integer)) or not 0 <= solid < n:
            raise IndexError(f"solid index {solid} out of range (the world has {n})")
        self._check(_lib.drape_solid_set_hold(self._w, L.SolidId(int(solid)), float(seconds)), "set_hold")

    # -- scene entries: garments, characters, mesh solids (docs/python.md) -------------------------
    def _add_entry(self, fn, what, entry, base_dir):
        def plain(o):  # numpy arrays and numbers inside the entry
            if isinstance(o, np.ndarray):
                return o.tolist()
            if isinstance(o, np.generic):
                return o.item()
            raise TypeError(f"{what}: {type(o).__name__} is not a JSON value")
        text = json.dumps(entry, default=plain)
        err = _errbuf()
        base = os.fspath(base_dir).encode() if base_dir is not None else None
        index = fn(self._w, text.encode(), base, err, _ERR).index
        if index < 0:
            raise DrapeError(f"{what}: {_text(err.value)}")
        return index

    def add_cloth(self, base_dir=None, **entry):
        """Any cloth as a scene file's cloths[i] (grid, mesh or garment, material, pins ...; docs/scene-
        format.md), validated as in a file; relative file names are found in base_dir (default: the
        working directory). Returns its index."""
        return self._add_entry(_lib.drape_world_add_scene_cloth, "add_cloth", entry, base_dir)

    def add_garment(self, garment, base_dir=None, **cloth):
        """A garment cloth: `garment` is a scene file's cloths[i].garment (triangle_size, panels,
        seams or pattern, sewing; or mesh), the keywords the cloth's other keys (name, material,
        pins, velocity, bend_model, fold_guard_degrees, layer). It is meshed and placed, and its seams
        close as the world steps and close_seams() merges them. Returns its index."""
        return self._add_entry(_lib.drape_world_add_scene_cloth, "add_garment", dict(cloth, garment=garment), base_dir)

    def _add_solid(self, what, shape, key, value, base_dir, solid):
        if "shape" in solid:
            raise TypeError(f"{what}: the shape is '{shape}'")
        return self._add_entry(_lib.drape_world_add_scene_solid, what, dict(solid, shape=shape, **{key: value}), base_dir)

    def add_character(self, character, base_dir=None, **solid):
        """An animated character solid: `character` is a scene file's solids[j].character (file,
        animation, body, scale, hold ...; docs/characters.md), the keywords the solid's other keys
        (name, thickness, friction). Returns its solid index."""
        return self._add_solid("add_character", "character", "character", character, base_dir, solid)

    def add_mesh_solid(self, mesh, base_dir=None, **solid):
        """A triangle-mesh solid: `mesh` is a scene file's solids[j].mesh (file, scale, translate,
        flip_normals), the keywords the solid's other keys (name, position, rotation, poses, frames,
        thickness, friction). Returns its solid index."""
        return self._add_solid("add_mesh_solid", "mesh", "mesh", mesh, base_dir, solid)

    # -- seams (garments, docs/garments.md) --------------------------------------------------------
    @property
    def seam_count(self):
        return _lib.drape_seam_count(self._w)

    @property
    def seams_open(self):
        """Names of the seams not merged yet."""
        return [_text(_lib.drape_seam_name(self._w, L.SeamId(k))) for k in range(self.seam_count)
                if not _lib.drape_seam_merged(self._w, L.SeamId(k))]

    def close_seams(self):
        """Merges every open seam whose sides have come within its tolerance (between steps, as
        `drape run` does after each frame); returns how many merged. Merging renumbers the
        garment's vertices: positions(i) and triangles(i) change size."""
        closed = ctypes.c_int32(0)
        self._check(_lib.drape_world_close_seams(self._w, ctypes.byref(closed)), "close_seams")
        return closed.value


def load_scene(path, overrides=None, threads=None):
    """Loads a scene file (docs/scene-format.md) into a new World with every cloth, pin and solid.
    overrides: {"cloths.0.material.stretch": 5000} or ["cloths.0.material.stretch=5000"], applied
    before validation exactly like `drape run --set`. Raises DrapeError with drape's message."""
    arr, n = _overrides(overrides)
    err = _errbuf()
    scene = _lib.drape_scene_load_overrides(str(path).encode(), arr, n, err, _ERR)
    if not scene:
        raise DrapeError(_text(err.value))
    wdef = _lib.drape_scene_world_def(scene)
    if threads is not None:
        wdef.threads = int(threads)
    w = _lib.drape_scene_create_world(scene, ctypes.byref(wdef), err, _ERR)
    if not w:
        _lib.drape_scene_destroy(scene)
        raise DrapeError(_text(err.value))
    return World(_handle=w, _scene=scene)


class Writer:
    """Writes a world's frames into an existing folder in drape's formats ("obj", "pc2", "glb";
    docs/caches.md): add_frame() after each step, finish() at the end (or use it with `with`)."""

    def __init__(self, out_dir, world, formats="obj", fps=30.0, max_frames=1000):
        err = _errbuf()
        self._world = world
        self._frame = 0
        self._h = _lib.drape_writer_create(str(out_dir).encode(), _formats(formats), world._w, float(fps),
                                           int(max_frames), err, _ERR)
        if not self._h:
            raise DrapeError(_text(err.value))

    def add_frame(self):
        err = _errbuf()
        if _lib.drape_writer_add_frame(self._h, self._frame, self._world._w, err, _ERR) != 0:
            raise DrapeError(_text(err.value), 4, 1)
        self._frame += 1

    def finish(self):
        if self._h:
            err = _errbuf()
            h, self._h = self._h, None
            if _lib.drape_writer_finish(h, err, _ERR) != 0:
                raise DrapeError(_text(err.value), 4, 1)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.finish()


def run(scene_path, out_dir, frames=None, formats="obj", overrides=None, threads=None, force=False, progress=None,
        strict=False):
    """Runs a scene to a folder exactly as `drape run` does (frames, stats.csv, summary.json).
    progress(frame, frames, time) is called after each frame; returning False stops the run
    (DrapeError with exit_status 130). strict: crossed cloth after sewing stops the run
    (DrapeError with exit_status 3) instead of a warning in the summary's "warnings". Returns
    the summary as a dict."""
    d = _lib.drape_default_run_def()
    path_b = str(scene_path).encode()
    out_b = str(out_dir).encode()
    d.scene_path = path_b
    d.out_dir = out_b
    arr, n = _overrides(overrides)
    d.overrides = arr
    d.override_count = n
    d.formats = _formats(formats)
    d.frames = -1 if frames is None else int(frames)
    d.threads = 0 if threads is None else int(threads)
    d.force = bool(force)
    d.strict = bool(strict)
    return _run(d, progress)


def resume(out_dir, threads=None, progress=None):
    """Continues the run in out_dir from its checkpoint, as `drape resume` does: after a kill or an
    interrupt, the frames come out identical to an uninterrupted run's. Returns the summary."""
    d = _lib.drape_default_run_def()
    out_b = str(out_dir).encode()
    d.out_dir = out_b
    d.resume = True
    d.threads = 0 if threads is None else int(threads)
    return _run(d, progress)


def _run(d, progress):
    failure = []

    def cb(p, user):
        if progress is None:
            return True
        try:
            return progress(p.contents.frame, p.contents.frames, p.contents.time) is not False
        except BaseException as e:  # never let an exception unwind through C
            failure.append(e)
            return False

    c_cb = L.RUN_CALLBACK(cb)
    d.progress = c_cb
    r = L.RunResult()
    _lib.drape_run(ctypes.byref(d), ctypes.byref(r))
    summary = json.loads(ctypes.string_at(r.summary_json).decode()) if r.summary_json else None
    _lib.drape_run_result_free(ctypes.byref(r))
    if failure:
        raise failure[0]
    if r.status != 0:
        msg = _text(r.error) or "interrupted"
        if r.failed_frame > 0:
            msg = f"frame {r.failed_frame}: {msg}"
        e = DrapeError(msg, r.status, r.exit_status)
        e.summary = summary
        raise e
    return summary
