/* Scene files: JSON (read with cJSON) describing the world, its cloths, materials, pins, the
 * solids they collide with and output settings. Every key is documented in docs/scene-format.md.
 * Loading validates all of it and reports the first problem as "file:line:col: message" (syntax)
 * or "file:line: json.path: message" (the line where the offending member starts; omitted when
 * the whole file is meant). */
#ifndef DRAPE_SCENE_H
#define DRAPE_SCENE_H

#include "drape.h"

/* One pinned particle after a pin entry has been expanded (a named edge gives many). */
typedef struct scene_constraint {
	int32_t cloth;               /* index into scene.cloths */
	drape_constraint_def def;    /* def.cloth is filled when the world is built */
	drape_keyframe* keyframes;   /* owned; def.keyframes points here */
} scene_constraint;

typedef struct scene_cloth {
	char* name;
	drape_mesh mesh;
	drape_material material;
	double velocity[3];
	double* stretch_scale; /* 2 * triangle_count (b_u, b_v), or NULL when all are 1 */
	int32_t grid_resolution[2]; /* for grids; 0 for meshes from a file */
	drape_cloth_model model;
	bool nonlinear_bend;
	double bend_kappa1;
	drape_bend_model bend_model; /* "bend_model" (docs/bending.md) */
	double fold_guard;           /* "fold_guard_degrees", in radians; 0 off */
	int32_t layer;               /* "layer", 0 next to the skin (docs/collide.md, "Layers") */
} scene_cloth;

/* A seam of a garment cloth (docs/scene-format.md, "Garments"): particle pairs for drape_seam_add. */
typedef struct scene_seam {
	int32_t cloth; /* index into scene.cloths */
	char* name;
	int32_t* pairs; /* 2 * pair_count vertex indices of the cloth's mesh */
	int32_t pair_count;
	double stiffness, damping, tolerance, max_speed, free_gap;
} scene_seam;

/* A solid (docs/scene-format.md, "Solids"). def is complete, and everything it points to is
 * owned here: def.name, def.mesh, def.mesh_frames, def.frame_times and def.poses. */
typedef struct scene_solid {
	drape_solid_def def;
	char* name;
	drape_mesh mesh;     /* DRAPE_SOLID_MESH only; geometry without uv */
	double** frames;     /* def.frame_count arrays of 3 * mesh.vertex_count positions, or NULL */
	double* frame_times; /* def.frame_count times */
	drape_pose* poses;   /* def.pose_count poses, or NULL for a static solid */
	drape_character* character; /* a character solid's body and motion, or NULL */
	bool hold_until_relaxed;    /* "hold": "relaxed": the motion starts at sewing.motion_start */
#define SCENE_HOLD_RELAXED 1e9      /* the hold until then: longer than any run */
} scene_solid;

/* output.camera (docs/scene-format.md): where `drape render` looks from; when !set the renderer
 * frames the scene itself. */
typedef struct scene_camera {
	bool set;
	double eye[3], target[3], up[3];
	double fov; /* vertical, degrees */
} scene_camera;

typedef struct scene {
	char* path;   /* the file it came from, or "<built-in>/NAME" */
	char* name;
	drape_world_def world;
	double fps;
	int32_t frames;
	scene_cloth* cloths;
	int32_t cloth_count;
	scene_constraint* constraints;
	int32_t constraint_count;
	scene_solid* solids;
	int32_t solid_count;
	scene_camera camera;
	scene_seam* seams; /* garments' seams, in cloth order */
	int32_t seam_count;
	double sew_time_limit; /* s: every seam must have closed by then (exit 3 otherwise) */
	double sew_gravity;    /* gravity is scaled by this while any seam is open */
	bool sew_regions_after; /* garments' b_u/b_v regions apply once every seam has merged */
	double relax_energy;   /* J: after sewing, motion may start once the kinetic energy is under this */
#define SCENE_SEW_TIME_LIMIT 2.0 /* s: the defaults of the last two when the scene does not set them */
#define SCENE_RELAX_ENERGY 1e-4
	char** sets; /* the --set overrides applied, "key.path=value" (summary.json) */
	int32_t set_count;
	/* After a failed load (the rest is empty): DRAPE_ERROR_INVALID, _IO (unreadable) or _MEMORY. */
	drape_status failure;
} scene;

/* Parses and validates a scene. On failure returns false with the message in err; *out is then
 * empty (nothing to free). */
bool scene_load_file(const char* path, scene* out, char* err, size_t err_size);
/* The same from text in memory; `path` names it in messages and anchors relative mesh paths. */
bool scene_load_text(const char* text, const char* path, scene* out, char* err, size_t err_size);
/* The same with `--set key.path=value` overrides applied to the JSON before validation
 * (src/io/scene_set.h, docs/batch.md); they are kept in out->sets. */
bool scene_load_file_set(const char* path, const char* const* sets, int32_t set_count, scene* out, char* err,
			 size_t err_size);
bool scene_load_text_set(const char* text, const char* path, const char* const* sets, int32_t set_count, scene* out,
			 char* err, size_t err_size);
/* The default scene of `drape run`: the paper's figure 1 drape over a cylinder mesh. */
#define SCENE_DEFAULT "figure1_drape.json" /* include/drape.h's DRAPE_DEFAULT_SCENE is <built-in>/ this */
bool scene_load_default(scene* out, char* err, size_t err_size);
/* A built-in scene by file name (io/embedded.h: figure1_drape.json, figure2_sheet.json); its path
 * is "<built-in>/NAME" and its relative mesh files are built in too. */
bool scene_load_builtin(const char* name, scene* out, char* err, size_t err_size);
void scene_free(scene* s);

/* Creates the world with every cloth, constraint and solid; cloth ids follow scene.cloths order
 * and solid ids scene.solids order. Returns NULL with a message naming the cloth/element/solid
 * on failure. */
drape_world* scene_build_world(const scene* s, char* err, size_t err_size);

/* Characters held until the garment relaxed ("hold": "relaxed") start moving at time t: when
 * sewing ends (sewing.c), or when `drape render` replays a run (drape_scene_start_motion). */
void scene_start_motion(const scene* s, drape_world* world, double t);
/* The same, with why it failed in *status (optional): DRAPE_ERROR_INVALID or DRAPE_ERROR_MEMORY. */
drape_world* scene_build_world_status(const scene* s, drape_status* status, char* err, size_t err_size);
/* The same into an existing world: s's cloths, pins, seams and solids are appended (cloth i of s
 * becomes the world's next cloth ...). On failure (message in err) the world keeps what was
 * added before it. */
bool scene_add_to_world(const scene* s, drape_world* world, char* err, size_t err_size);

#endif
