/* Solids in scene files (docs/scene-format.md, "Solids"): the bodies cloth collides with (paper
 * sec. 2.1, 6). Each is an analytic shape or an OBJ mesh in its own frame, static, moving rigidly
 * through keyframed poses, or (a mesh) deforming through a sequence of OBJ frames. */
#include "obj_read.h"
#include "scene_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Which of the shape-specific keys a shape takes. */
enum {
	USES_RADIUS = 1,
	USES_HALF_HEIGHT = 2,
	USES_HALF_EXTENTS = 4,
	USES_MESH = 8,
	USES_CHARACTER = 16,
};

typedef struct shape_info {
	const char* name;
	const char* article; /* "a box": messages say what the key is not used by */
	drape_solid_shape shape;
	unsigned uses;
} shape_info;

/* In the order messages list them. */
static const shape_info shapes[] = {
	{"plane", "a plane", DRAPE_SOLID_PLANE, 0},
	{"sphere", "a sphere", DRAPE_SOLID_SPHERE, USES_RADIUS},
	{"capsule", "a capsule", DRAPE_SOLID_CAPSULE, USES_RADIUS | USES_HALF_HEIGHT},
	{"cylinder", "a cylinder", DRAPE_SOLID_CYLINDER, USES_RADIUS | USES_HALF_HEIGHT},
	{"box", "a box", DRAPE_SOLID_BOX, USES_HALF_EXTENTS},
	{"mesh", "a mesh", DRAPE_SOLID_MESH, USES_MESH},
	{"character", "a character", DRAPE_SOLID_MESH, USES_CHARACTER},
};
enum { SHAPE_COUNT = (int)(sizeof shapes / sizeof shapes[0]) };

typedef struct shape_key {
	const char* key;
	unsigned use;
	bool required; /* by the shapes that use it */
	const char* users;
} shape_key;

static const shape_key shape_keys[] = {
	{"radius", USES_RADIUS, true, "spheres, capsules and cylinders"},
	{"half_height", USES_HALF_HEIGHT, true, "capsules and cylinders"},
	{"half_extents", USES_HALF_EXTENTS, true, "boxes"},
	{"mesh", USES_MESH, true, "mesh solids"},
	{"frames", USES_MESH, false, "mesh solids"},
	{"character", USES_CHARACTER, true, "character solids"},
	{"sides", USES_MESH | USES_CHARACTER, false, "mesh and character solids"},
};

void scene_solid_free(scene_solid* so)
{
	free(so->name);
	drape_mesh_free(&so->mesh);
	drape_character_destroy(so->character);
	if (so->frames)
		for (int32_t f = 0; f < so->def.frame_count; ++f) free(so->frames[f]);
	free(so->frames);
	free(so->frame_times);
	free(so->poses);
	memset(so, 0, sizeof *so);
}

/* ---------------------------------------------------------------------------------------------
 * Rotations and poses */

/* Scales v (n numbers, not all zero) to unit length; scaling by the largest magnitude first
 * keeps the sum of squares from overflowing for huge inputs. Returns false for the zero vector. */
static bool normalise(double* v, int n)
{
	double big = 0.0;
	for (int k = 0; k < n; ++k) big = fmax(big, fabs(v[k]));
	if (!(big > 0.0)) return false;
	double sum = 0.0;
	for (int k = 0; k < n; ++k) {
		v[k] /= big;
		sum += v[k] * v[k];
	}
	double len = sqrt(sum);
	for (int k = 0; k < n; ++k) v[k] /= len;
	return true;
}

/* {"axis": [x, y, z], "angle": degrees} or a quaternion [w, x, y, z] (any length but zero), as a
 * unit quaternion (w, x, y, z). */
static bool load_rotation(const json_ctx* c, const jnode* at, double q[4])
{
	if (cJSON_IsArray(at->item)) {
		if (!json_vector(c, at, 4, q)) return false;
		if (!normalise(q, 4)) return json_fail(c, at, "must not be the zero quaternion");
		return true;
	}
	if (!cJSON_IsObject(at->item))
		return json_fail(c, at,
				 "expected {\"axis\": [x, y, z], \"angle\": degrees} or a quaternion [w, x, y, z], got %s",
				 json_type_name(at->item));
	static const char* const keys[] = {"axis", "angle", NULL};
	if (!json_check_object(c, at, keys)) return false;
	const cJSON* axis = json_get(at, "axis");
	const cJSON* angle = json_get(at, "angle");
	if (!axis || !angle) return json_fail(c, at, "missing required key '%s'", axis ? "angle" : "axis");
	jnode an = json_node(at, axis), gn = json_node(at, angle);
	double a[3], degrees;
	if (!json_vector(c, &an, 3, a) || !json_number(c, &gn, &degrees)) return false;
	if (!normalise(a, 3)) return json_fail(c, &an, "must not be zero");
	const double pi = 3.14159265358979323846;
	double half = degrees * (pi / 360.0);
	double s = sin(half);
	q[0] = cos(half);
	q[1] = s * a[0];
	q[2] = s * a[1];
	q[3] = s * a[2];
	return true;
}

static bool load_poses(const json_ctx* c, const jnode* at, scene_solid* so)
{
	int n;
	if (!json_array(c, at, &n)) return false;
	if (n == 0) return json_fail(c, at, "must list at least one pose");
	so->poses = calloc((size_t)n, sizeof *so->poses);
	if (!so->poses) return scene_out_of_memory(c);
	static const char* const keys[] = {"time", "position", "rotation", NULL};
	int k = 0;
	for (const cJSON* e = at->item->child; e; e = e->next, ++k) {
		jnode en = json_node(at, e);
		if (!json_check_object(c, &en, keys)) return false;
		drape_pose* p = &so->poses[k];
		const cJSON* t = json_get(&en, "time");
		if (!t) return json_fail(c, &en, "missing required key 'time'");
		jnode tn = json_node(&en, t);
		if (!json_number(c, &tn, &p->time) || !json_nonnegative(c, &tn, p->time)) return false;
		if (k > 0 && !(p->time > so->poses[k - 1].time))
			return json_fail(c, &tn, "must be greater than the previous pose's time (%g), got %g",
					 so->poses[k - 1].time, p->time);
		/* Missing parts of a pose default as the static pose's do. */
		p->rotation[0] = 1.0;
		if (!json_opt_vector(c, &en, "position", 3, p->position)) return false;
		const cJSON* r = json_get(&en, "rotation");
		if (r) {
			jnode rn = json_node(&en, r);
			if (!load_rotation(c, &rn, p->rotation)) return false;
		}
	}
	so->def.poses = so->poses;
	so->def.pose_count = n;
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Meshes */

/* Reads the geometry of the OBJ named by the string at `fn`, scaled then translated. */
static bool read_geometry(const json_ctx* c, const jnode* fn, double scale, const double translate[3],
			  drape_mesh* out, char** resolved)
{
	const char* file;
	if (!json_string(c, fn, &file)) return false;
	char* path = scene_file_path(c->file, file);
	if (!path) return scene_out_of_memory(c);
	char msg[512];
	if (!obj_read_geometry(path, out, msg, sizeof msg)) {
		scene_note_failure(c, DRAPE_ERROR_INVALID, msg);
		/* As for cloth meshes: the OBJ's own file:line leads, then where the scene names it. */
		char where[256];
		json_path(fn, where, sizeof where);
		snprintf(c->err, c->err_size, "%s (%s of %s)", msg, where, c->file);
		free(path);
		return false;
	}
	for (int32_t i = 0; i < out->vertex_count; ++i) {
		for (int k = 0; k < 3; ++k) {
			double* x = &out->positions[3 * i + k];
			*x = *x * scale + translate[k];
			if (!isfinite(*x)) {
				json_fail(c, fn, "vertex %d of %s is out of range after scale and translate", (int)i + 1,
					  path);
				free(path);
				drape_mesh_free(out);
				return false;
			}
		}
	}
	*resolved = path;
	return true;
}

/* A deforming mesh: each frame's OBJ gives new positions for the mesh's vertices (its faces are
 * not used), transformed like the mesh. */
static bool load_frames(const json_ctx* c, const jnode* at, scene_solid* so, double scale, const double translate[3],
			const char* mesh_path)
{
	int n;
	if (!json_array(c, at, &n)) return false;
	if (n == 0) return json_fail(c, at, "must list at least one frame");
	so->frames = calloc((size_t)n, sizeof *so->frames);
	so->frame_times = calloc((size_t)n, sizeof *so->frame_times);
	if (!so->frames || !so->frame_times) return scene_out_of_memory(c);
	/* Counted now, so scene_solid_free releases frames read before a failure. */
	so->def.frame_count = n;
	static const char* const keys[] = {"time", "file", NULL};
	int k = 0;
	for (const cJSON* e = at->item->child; e; e = e->next, ++k) {
		jnode en = json_node(at, e);
		if (!json_check_object(c, &en, keys)) return false;
		const cJSON* t = json_get(&en, "time");
		const cJSON* f = json_get(&en, "file");
		if (!t || !f) return json_fail(c, &en, "missing required key '%s'", t ? "file" : "time");
		jnode tn = json_node(&en, t), fn = json_node(&en, f);
		double* time = &so->frame_times[k];
		if (!json_number(c, &tn, time) || !json_nonnegative(c, &tn, *time)) return false;
		if (k > 0 && !(*time > so->frame_times[k - 1]))
			return json_fail(c, &tn, "must be greater than the previous frame's time (%g), got %g",
					 so->frame_times[k - 1], *time);
		drape_mesh m;
		char* path = NULL;
		if (!read_geometry(c, &fn, scale, translate, &m, &path)) return false;
		if (m.vertex_count != so->mesh.vertex_count) {
			json_fail(c, &fn,
				  "%s has %d vertices, but the solid's mesh %s has %d: "
				  "every frame must list the mesh's vertices in the same order",
				  path, (int)m.vertex_count, mesh_path, (int)so->mesh.vertex_count);
			free(path);
			drape_mesh_free(&m);
			return false;
		}
		free(path);
		so->frames[k] = m.positions;
		m.positions = NULL;
		drape_mesh_free(&m);
	}
	so->def.mesh_frames = (const double* const*)so->frames;
	so->def.frame_times = so->frame_times;
	return true;
}

/* The keys of a mesh solid's "mesh" object. */
static const char* const mesh_keys[] = {"file", "scale", "translate", "flip_normals", NULL};

/* One of them written on the solid itself (solids[0].file): an unknown key that names its place. */
static bool check_misplaced_mesh_keys(const json_ctx* c, const jnode* n)
{
	for (const char* const* k = mesh_keys; *k; ++k) {
		const cJSON* item = json_get(n, *k);
		if (!item) continue;
		jnode kn = json_node(n, item);
		return json_fail(c, &kn, "unknown key (did you mean 'mesh.%s'? a mesh solid's OBJ goes in \"mesh\": {\"%s\": ...})", *k, *k);
	}
	return true;
}

static bool load_mesh_shape(const json_ctx* c, const jnode* sn, scene_solid* so)
{
	jnode n = json_node(sn, json_get(sn, "mesh"));
	if (!json_check_object(c, &n, mesh_keys)) return false;
	const cJSON* f = json_get(&n, "file");
	if (!f) return json_fail(c, &n, "missing required key 'file'");
	double scale = 1.0, translate[3] = {0.0, 0.0, 0.0};
	if (!json_opt_positive(c, &n, "scale", &scale) || !json_opt_vector(c, &n, "translate", 3, translate))
		return false;
	const cJSON* flip = json_get(&n, "flip_normals");
	if (flip) {
		jnode fl = json_node(&n, flip);
		if (!json_bool(c, &fl, &so->def.flip_normals)) return false;
	}
	jnode fn = json_node(&n, f);
	char* path = NULL;
	if (!read_geometry(c, &fn, scale, translate, &so->mesh, &path)) return false;
	so->def.mesh = &so->mesh;
	bool ok = true;
	const cJSON* frames = json_get(sn, "frames");
	if (frames) {
		jnode frn = json_node(sn, frames);
		ok = load_frames(c, &frn, so, scale, translate, path);
	}
	free(path);
	return ok;
}

/* ---------------------------------------------------------------------------------------------
 * One solid */

static const shape_info* load_shape(const json_ctx* c, const jnode* n)
{
	const cJSON* item = json_get(n, "shape");
	if (!item) {
		json_fail(c, n, "missing required key 'shape' (plane, sphere, capsule, cylinder, box, mesh or character)");
		return NULL;
	}
	jnode sn = json_node(n, item);
	const char* s;
	if (!json_string(c, &sn, &s)) return NULL;
	for (int k = 0; k < SHAPE_COUNT; ++k)
		if (strcmp(shapes[k].name, s) == 0) return &shapes[k];
	json_fail(c, &sn, "unknown shape '%s' (expected plane, sphere, capsule, cylinder, box, mesh or character)", s);
	return NULL;
}

static bool load_dimensions(const json_ctx* c, const jnode* n, const shape_info* shape, drape_solid_def* d)
{
	for (size_t k = 0; k < sizeof shape_keys / sizeof shape_keys[0]; ++k) {
		const shape_key* sk = &shape_keys[k];
		const cJSON* item = json_get(n, sk->key);
		bool used = (shape->uses & sk->use) != 0;
		if (item && !used) {
			jnode in = json_node(n, item);
			return json_fail(c, &in, "not used by %s (only by %s)", shape->article, sk->users);
		}
		if (!item && used && sk->required)
			return json_fail(c, n, "missing required key '%s' (%s needs it)", sk->key, shape->article);
	}
	if (!json_opt_positive(c, n, "radius", &d->radius) || !json_opt_positive(c, n, "half_height", &d->half_height))
		return false;
	const cJSON* he = json_get(n, "half_extents");
	if (he) {
		jnode hn = json_node(n, he);
		if (!json_vector(c, &hn, 3, d->half_extents)) return false;
		for (int k = 0; k < 3; ++k) {
			jnode en = json_node(&hn, cJSON_GetArrayItem(he, k));
			if (!json_positive(c, &en, d->half_extents[k])) return false;
		}
	}
	return true;
}

/* "sides": "both" or "outside" (drape_solid_sides; absent: by whether the mesh is closed). */
static bool load_sides(const json_ctx* c, const jnode* n, drape_solid_def* d)
{
	const cJSON* item = json_get(n, "sides");
	if (!item) return true;
	jnode sn = json_node(n, item);
	const char* str;
	if (!json_string(c, &sn, &str)) return false;
	if (strcmp(str, "both") == 0) d->sides = DRAPE_SIDES_BOTH;
	else if (strcmp(str, "outside") == 0) d->sides = DRAPE_SIDES_OUTSIDE;
	else
		return json_fail(c, &sn,
				 "unknown sides '%s' (expected \"both\": cloth held on either side of the surface, or "
				 "\"outside\": only where the faces' normals point)",
				 str);
	return true;
}

/* The static pose, or the keyframed poses; never both. */
static bool load_placement(const json_ctx* c, const jnode* n, scene_solid* so)
{
	const cJSON* poses = json_get(n, "poses");
	const cJSON* position = json_get(n, "position");
	const cJSON* rotation = json_get(n, "rotation");
	if (poses && (position || rotation)) {
		jnode pn = json_node(n, position ? position : rotation);
		return json_fail(c, &pn,
				 "a solid has either a static 'position'/'rotation' or keyframed 'poses', not both "
				 "(give each pose its position and rotation)");
	}
	if (poses) {
		jnode pn = json_node(n, poses);
		return load_poses(c, &pn, so);
	}
	if (!json_opt_vector(c, n, "position", 3, so->def.position)) return false;
	if (rotation) {
		jnode rn = json_node(n, rotation);
		if (!load_rotation(c, &rn, so->def.rotation)) return false;
	}
	return true;
}

bool scene_load_solid(loader* L, const jnode* n, int32_t index)
{
	const json_ctx* c = &L->c;
	scene* s = L->s;
	scene_solid* so = &s->solids[index];
	so->def = drape_default_solid_def();
	static const char* const keys[] = {"name",   "shape",  "radius",   "half_height", "half_extents", "mesh",
					   "frames", "position", "rotation", "poses",     "thickness",    "friction",
					   "character", "sides", NULL};
	if (!check_misplaced_mesh_keys(c, n) || !json_check_object(c, n, keys)) return false;

	const cJSON* name = json_get(n, "name");
	jnode nn = json_node(n, name);
	if (name) {
		const char* str;
		if (!json_string(c, &nn, &str)) return false;
		so->name = scene_copy_string(str);
	} else {
		char buf[32];
		snprintf(buf, sizeof buf, "solid%d", (int)index);
		so->name = scene_copy_string(buf);
	}
	if (!so->name) return scene_out_of_memory(c);
	so->def.name = so->name;
	for (int32_t k = 0; k < index; ++k)
		if (strcmp(s->solids[k].name, so->name) == 0)
			return json_fail(c, name ? &nn : n, "duplicate solid name '%s' (solids[%d] has it too)", so->name,
					 (int)k);

	const shape_info* shape = load_shape(c, n);
	if (!shape) return false;
	so->def.shape = shape->shape;
	if (!load_dimensions(c, n, shape, &so->def) || !load_sides(c, n, &so->def)) return false;
	if (shape->uses & USES_CHARACTER) {
		static const char* const placed[] = {"position", "rotation", "poses"};
		for (int k = 0; k < 3; ++k) {
			const cJSON* p = json_get(n, placed[k]);
			if (!p) continue;
			jnode pn = json_node(n, p);
			return json_fail(c, &pn, "a character is placed by character.position and moved by its animation, not by '%s'",
					 placed[k]);
		}
		return scene_load_character(c, n, so) && json_opt_positive(c, n, "thickness", &so->def.thickness) &&
		       json_opt_nonnegative(c, n, "friction", &so->def.friction);
	}
	if (shape->shape == DRAPE_SOLID_MESH && !load_mesh_shape(c, n, so)) return false;
	return load_placement(c, n, so) && json_opt_positive(c, n, "thickness", &so->def.thickness) &&
	       json_opt_nonnegative(c, n, "friction", &so->def.friction);
}

bool scene_load_solids(loader* L, const jnode* root)
{
	const json_ctx* c = &L->c;
	scene* s = L->s;
	const cJSON* solids = json_get(root, "solids");
	if (!solids) return true;
	jnode sn = json_node(root, solids);
	int count;
	if (!json_array(c, &sn, &count)) return false;
	if (count == 0) return true;
	s->solids = calloc((size_t)count, sizeof *s->solids);
	if (!s->solids) return scene_out_of_memory(c);
	int32_t i = 0;
	for (const cJSON* item = solids->child; item; item = item->next, ++i) {
		/* Counted before loading, so scene_free releases a half-built solid too. */
		s->solid_count = i + 1;
		jnode one = json_node(&sn, item);
		if (!scene_load_solid(L, &one, i)) return false;
	}
	return true;
}
