"""ctypes mirror of include/drape.h: the structs and function signatures the Python package uses.

The layouts follow the header field by field; tests/python checks them through the defaults the
library fills (a wrong layout shows up as wrong defaults or a cookie the library rejects)."""
import ctypes
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, c_bool, c_char_p, c_double, c_int, c_int32, c_int64,
                    c_size_t, c_uint, c_uint16, c_void_p)

D3 = c_double * 3


class ClothId(Structure):
    _fields_ = [("index", c_int32)]


class ConstraintId(Structure):
    _fields_ = [("index", c_int32), ("generation", c_uint16)]


class SpringId(Structure):
    _fields_ = [("index", c_int32), ("generation", c_uint16)]


class DefError(Structure):
    """drape_def_error: the drape_world_def member at fault and the rule it breaks."""
    _fields_ = [("field", c_char_p), ("reason", ctypes.c_char * 256)]


#: drape_assert_fcn: void (const char* expression, const char* file, int line)
AssertFcn = CFUNCTYPE(None, c_char_p, c_char_p, c_int)


class SolidId(Structure):
    _fields_ = [("index", c_int32)]


class SeamId(Structure):
    _fields_ = [("index", c_int32)]


class Mesh(Structure):
    _fields_ = [("vertex_count", c_int32), ("positions", POINTER(c_double)), ("uv_count", c_int32),
                ("uvs", POINTER(c_double)), ("triangle_count", c_int32), ("triangles", POINTER(c_int32)),
                ("triangle_uvs", POINTER(c_int32))]


class GridDef(Structure):
    _fields_ = [("size", c_double * 2), ("resolution", c_int32 * 2), ("center", D3), ("u_axis", D3),
                ("v_axis", D3), ("cookie", c_int32)]


class Material(Structure):
    _fields_ = [(name, c_double) for name in ("density", "stretch", "shear", "bend_u", "bend_v", "stretch_damping",
                                              "shear_damping", "bend_damping", "drag")]


class ClothDef(Structure):
    _fields_ = [("mesh", POINTER(Mesh)), ("velocities", POINTER(c_double)), ("stretch_scale", POINTER(c_double)),
                ("velocity", D3), ("material", Material), ("name", c_char_p), ("model", c_int),
                ("grid", c_int32 * 2), ("nonlinear_bend", c_bool), ("bend_kappa1", c_double), ("bend_model", c_int),
                ("fold_guard", c_double), ("layer", c_int32), ("cookie", c_int32)]


class Keyframe(Structure):
    _fields_ = [("time", c_double), ("position", D3)]


class ConstraintDef(Structure):
    _fields_ = [("cloth", ClothId), ("vertex", c_int32), ("kind", c_int), ("axis", D3), ("motion", c_int),
                ("use_position", c_bool), ("position", D3), ("velocity", D3), ("keyframes", POINTER(Keyframe)),
                ("keyframe_count", c_int32), ("start_time", c_double), ("end_time", c_double), ("cookie", c_int32)]


class SpringDef(Structure):
    _fields_ = [("cloth", ClothId), ("vertex", c_int32), ("target", D3), ("stiffness", c_double),
                ("damping", c_double), ("force", D3), ("cookie", c_int32)]


class Pose(Structure):
    _fields_ = [("time", c_double), ("position", D3), ("rotation", c_double * 4)]


class SolidDef(Structure):
    _fields_ = [("shape", c_int), ("radius", c_double), ("half_height", c_double), ("half_extents", D3),
                ("mesh", POINTER(Mesh)), ("flip_normals", c_bool), ("mesh_frames", POINTER(POINTER(c_double))),
                ("frame_times", POINTER(c_double)), ("frame_count", c_int32), ("position", D3),
                ("rotation", c_double * 4), ("poses", POINTER(Pose)), ("pose_count", c_int32),
                ("thickness", c_double), ("friction", c_double), ("name", c_char_p), ("character", c_void_p),
                ("sides", c_int), ("cookie", c_int32)]


class WorldDef(Structure):
    _fields_ = [("gravity", D3), ("air_velocity", D3), ("gust_amplitude", D3), ("gust_frequency", c_double),
                ("max_dt", c_double), ("min_dt", c_double), ("cg_tolerance", c_double),
                ("cg_max_iterations", c_int32), ("warm_start", c_bool), ("adaptive", c_bool),
                ("stretch_change_limit", c_double), ("strain_limit", c_double), ("threads", c_int32), ("self_collision", c_bool),
                ("cloth_thickness", c_double), ("cloth_repulsion", c_double),
                ("cloth_repulsion_damping", c_double), ("cloth_friction_damping", c_double),
                ("integrator", c_int), ("onoff_c1", c_double), ("preconditioner", c_int),
                ("refactor_iterations", c_int32), ("newton_iterations", c_int32),
                ("strain_from_limiter", c_bool), ("contact_bounds", c_bool),
                ("cookie", c_int32)]


# drape_stage (include/drape.h), in order: the stages of drape_world_step.
STAGES = ("prepare", "pose", "contacts", "assemble", "solve", "judge", "commit")


class Stats(Structure):
    _fields_ = [("eval_ms", c_double), ("cg_ms", c_double), ("cc_ms", c_double), ("cs_ms", c_double),
                ("steps", c_int64), ("rejected", c_int64), ("cg_iterations", c_int64), ("min_dt", c_double),
                ("max_dt", c_double), ("solid_contacts", c_int32), ("cloth_contacts", c_int32),
                ("self_intersections", c_int32), ("seam_gap", c_double), ("penetrating", c_int32),
                ("factorizations", c_int64), ("rejected_strain", c_int64),
                ("rejected_penetration", c_int64), ("rejected_intersection", c_int64),
                ("rejected_other", c_int64), ("stage_ms", c_double * len(STAGES)), ("solves", c_int64),
                ("release_solves", c_int64), ("contacts_released", c_int64)]


class RunProgress(Structure):
    _fields_ = [("frame", c_int32), ("frames", c_int32), ("time", c_double), ("world", c_void_p)]


RUN_CALLBACK = ctypes.CFUNCTYPE(c_bool, POINTER(RunProgress), c_void_p)
WARNING_CALLBACK = ctypes.CFUNCTYPE(None, c_char_p, c_void_p)


class RunDef(Structure):
    _fields_ = [("scene_path", c_char_p), ("overrides", POINTER(c_char_p)), ("override_count", c_int32),
                ("scene", c_void_p), ("out_dir", c_char_p), ("force", c_bool), ("formats", c_uint),
                ("frames", c_int32), ("threads", c_int32), ("progress", RUN_CALLBACK),
                ("warning", WARNING_CALLBACK), ("user", c_void_p), ("cancel", POINTER(c_int)),
                ("resume", c_bool), ("strict", c_bool), ("cookie", c_int32)]


class RunResult(Structure):
    _fields_ = [("status", c_int), ("exit_status", c_int), ("started", c_bool), ("failed_frame", c_int32),
                ("frames_written", c_int32), ("simulated_time", c_double), ("wall_seconds", c_double),
                ("totals", Stats), ("error", ctypes.c_char * 1024), ("summary_json", c_void_p)]


def _candidates():
    env = os.environ.get("DRAPE_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    try:  # written by `make install`: where the shared library went, relative to this package
        from . import _installed
        yield os.path.normpath(os.path.join(here, _installed.LIBRARY))
    except ImportError:
        pass
    # The source tree: python/drape next to build/lib/ (cmake -B build).
    yield os.path.normpath(os.path.join(here, "..", "..", "build", "lib", "libdrape.so.0"))
    yield "libdrape.so.0"


def load():
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
            break
        except OSError as e:
            tried.append(f"{path} ({e})")
    else:
        raise ImportError("drape: cannot load libdrape.so.0; set DRAPE_LIBRARY to its path. Tried: " + "; ".join(tried))
    _declare(lib)
    return lib


def _f(lib, name, restype, *argtypes):
    fn = getattr(lib, name)
    fn.restype = restype
    fn.argtypes = list(argtypes)


def _declare(lib):
    err = (c_char_p, c_size_t)
    W = c_void_p
    _f(lib, "drape_default_world_def", WorldDef)
    _f(lib, "drape_world_create", W, POINTER(WorldDef))
    _f(lib, "drape_world_destroy", None, W)
    _f(lib, "drape_world_error", c_char_p, W)
    _f(lib, "drape_world_status", c_int, W)
    _f(lib, "drape_world_def_check", c_int, POINTER(WorldDef), POINTER(DefError))
    _f(lib, "drape_set_assert_fcn", None, AssertFcn)
    _f(lib, "drape_world_warnings", c_char_p, W)
    _f(lib, "drape_world_step", c_int, W, c_double)
    _f(lib, "drape_world_time", c_double, W)
    _f(lib, "drape_world_get_stats", Stats, W)
    _f(lib, "drape_world_kinetic_energy", c_double, W)
    _f(lib, "drape_world_elastic_energy", c_double, W)
    _f(lib, "drape_default_grid_def", GridDef)
    _f(lib, "drape_mesh_make_grid", c_int, POINTER(GridDef), POINTER(Mesh), *err)
    _f(lib, "drape_mesh_free", None, POINTER(Mesh))
    _f(lib, "drape_default_material", Material)
    _f(lib, "drape_default_cloth_def", ClothDef)
    _f(lib, "drape_cloth_add", ClothId, W, POINTER(ClothDef))
    _f(lib, "drape_cloth_count", c_int32, W)
    _f(lib, "drape_cloth_vertex_count", c_int32, W, ClothId)
    _f(lib, "drape_cloth_triangle_count", c_int32, W, ClothId)
    _f(lib, "drape_cloth_name", c_char_p, W, ClothId)
    _f(lib, "drape_cloth_get_positions", None, W, ClothId, c_void_p)
    _f(lib, "drape_cloth_get_velocities", None, W, ClothId, c_void_p)
    _f(lib, "drape_cloth_set_positions", c_int, W, ClothId, c_void_p)
    _f(lib, "drape_cloth_set_velocities", c_int, W, ClothId, c_void_p)
    _f(lib, "drape_cloth_mesh", POINTER(Mesh), W, ClothId)
    _f(lib, "drape_cloth_get_masses", None, W, ClothId, c_void_p)
    _f(lib, "drape_default_constraint_def", ConstraintDef)
    _f(lib, "drape_constraint_add", ConstraintId, W, POINTER(ConstraintDef))
    _f(lib, "drape_constraint_remove", None, W, ConstraintId)
    _f(lib, "drape_constraint_get_force", None, W, ConstraintId, c_void_p)
    _f(lib, "drape_default_spring_def", SpringDef)
    _f(lib, "drape_spring_add", SpringId, W, POINTER(SpringDef))
    _f(lib, "drape_spring_set_target", None, W, SpringId, c_void_p)
    _f(lib, "drape_spring_remove", None, W, SpringId)
    _f(lib, "drape_default_solid_def", SolidDef)
    _f(lib, "drape_solid_add", SolidId, W, POINTER(SolidDef))
    _f(lib, "drape_solid_count", c_int32, W)
    _f(lib, "drape_solid_set_hold", c_int, W, SolidId, c_double)
    _f(lib, "drape_seam_count", c_int32, W)
    _f(lib, "drape_seam_name", c_char_p, W, SeamId)
    _f(lib, "drape_seam_merged", c_bool, W, SeamId)
    _f(lib, "drape_world_close_seams", c_int, W, POINTER(c_int32))
    _f(lib, "drape_world_add_scene_cloth", ClothId, W, c_char_p, c_char_p, *err)
    _f(lib, "drape_world_add_scene_solid", SolidId, W, c_char_p, c_char_p, *err)
    _f(lib, "drape_scene_load_overrides", c_void_p, c_char_p, POINTER(c_char_p), c_int32, *err)
    _f(lib, "drape_scene_destroy", None, c_void_p)
    _f(lib, "drape_scene_name", c_char_p, c_void_p)
    _f(lib, "drape_scene_fps", c_double, c_void_p)
    _f(lib, "drape_scene_frames", c_int32, c_void_p)
    _f(lib, "drape_scene_world_def", WorldDef, c_void_p)
    _f(lib, "drape_scene_create_world", W, c_void_p, POINTER(WorldDef), *err)
    _f(lib, "drape_parse_formats", c_int, c_char_p, POINTER(c_uint), *err)
    _f(lib, "drape_writer_create", c_void_p, c_char_p, c_uint, W, c_double, c_int32, *err)
    _f(lib, "drape_writer_add_frame", c_int, c_void_p, c_int32, W, *err)
    _f(lib, "drape_writer_finish", c_int, c_void_p, *err)
    _f(lib, "drape_default_run_def", RunDef)
    _f(lib, "drape_run", c_int, POINTER(RunDef), POINTER(RunResult))
    _f(lib, "drape_run_result_free", None, POINTER(RunResult))
