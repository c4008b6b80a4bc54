/* Scene files (docs/scene-format.md): world settings (scene_world.c), then each cloth with its mesh, material,
 * stretch regions (eq. 10's b_u, b_v) and pins expanded into per-particle constraints (sec. 5.1),
 * then the solids (scene_solids.c). */
#define _POSIX_C_SOURCE 200809L
#include "scene.h"

#include "core.h"
#include "drape_limits.h"
#include "math/scalar.h"
#include "integrator.h"
#include "scene_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "embedded.h"
#include "scene_set.h"

/* "dir/figure2_sheet.json" -> "figure2_sheet" */
static char* file_stem(const char* path)
{
	const char* base = strrchr(path, '/');
	base = base ? base + 1 : path;
	char* stem = scene_copy_string(base);
	if (!stem) return NULL;
	char* dot = strrchr(stem, '.');
	if (dot && dot != stem) *dot = '\0';
	return stem;
}

/* ---------------------------------------------------------------------------------------------
 * World settings */

/* output.camera: eye and target required, up defaults to against gravity, fov to 35 degrees. */
static bool load_camera(const json_ctx* c, const jnode* n, const double gravity[3], scene_camera* cam)
{
	static const char* const keys[] = {"eye", "target", "up", "fov", NULL};
	if (!json_check_object(c, n, keys)) return false;
	if (!json_get(n, "eye")) return json_fail(c, n, "missing required key 'eye'");
	if (!json_get(n, "target")) return json_fail(c, n, "missing required key 'target'");
	double g = sqrt(gravity[0] * gravity[0] + gravity[1] * gravity[1] + gravity[2] * gravity[2]);
	for (int k = 0; k < 3; ++k) cam->up[k] = g > 0.0 ? -gravity[k] / g : (k == 2);
	cam->fov = 35.0;
	if (!json_opt_vector(c, n, "eye", 3, cam->eye) || !json_opt_vector(c, n, "target", 3, cam->target) ||
	    !json_opt_vector(c, n, "up", 3, cam->up) || !json_opt_positive(c, n, "fov", &cam->fov))
		return false;
	if (!(cam->fov < 180.0)) {
		jnode m = json_node(n, json_get(n, "fov"));
		return json_fail(c, &m, "must be a vertical field of view in degrees, > 0 and < 180, got %g", cam->fov);
	}
	double d[3] = {cam->target[0] - cam->eye[0], cam->target[1] - cam->eye[1], cam->target[2] - cam->eye[2]};
	double len = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
	if (!(len > 0.0)) return json_fail(c, n, "eye and target must differ");
	double x[3] = {d[1] * cam->up[2] - d[2] * cam->up[1], d[2] * cam->up[0] - d[0] * cam->up[2],
		       d[0] * cam->up[1] - d[1] * cam->up[0]};
	double up_len = sqrt(cam->up[0] * cam->up[0] + cam->up[1] * cam->up[1] + cam->up[2] * cam->up[2]);
	if (!(sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) > 1e-6 * len * up_len)) {
		const cJSON* up = json_get(n, "up");
		jnode m = json_node(n, up);
		return json_fail(c, up ? &m : n, "up must not be zero or parallel to the view direction (target - eye)");
	}
	cam->set = true;
	return true;
}

static bool load_output(const json_ctx* c, const jnode* root, scene* s)
{
	s->fps = 30.0;
	s->frames = 90;
	const cJSON* item = json_get(root, "output");
	if (!item) return true;
	static const char* const keys[] = {"fps", "frames", "camera", NULL};
	jnode n = json_node(root, item);
	if (!json_check_object(c, &n, keys) || !json_opt_positive(c, &n, "fps", &s->fps)) return false;
	const cJSON* frames = json_get(&n, "frames");
	if (frames) {
		jnode fn = json_node(&n, frames);
		if (!json_integer(c, &fn, 0, INT32_MAX, &s->frames)) return false;
	}
	const cJSON* camera = json_get(&n, "camera");
	if (camera) {
		jnode cn = json_node(&n, camera);
		if (!load_camera(c, &cn, s->world.gravity, &s->camera)) return false;
	}
	return true;
}

/* ---------------------------------------------------------------------------------------------
 * Cloths */

static bool load_grid(const json_ctx* c, const jnode* n, scene_cloth* cloth)
{
	static const char* const keys[] = {"size", "resolution", "center", "u_axis", "v_axis", NULL};
	if (!json_check_object(c, n, keys)) return false;
	drape_grid_def def = drape_default_grid_def();
	if (!json_opt_vector(c, n, "size", 2, def.size) || !json_opt_vector(c, n, "center", 3, def.center) ||
	    !json_opt_vector(c, n, "u_axis", 3, def.u_axis) || !json_opt_vector(c, n, "v_axis", 3, def.v_axis))
		return false;
	const cJSON* size = json_get(n, "size");
	if (size) {
		jnode sn = json_node(n, size);
		for (int k = 0; k < 2; ++k) {
			jnode en = json_node(&sn, cJSON_GetArrayItem(size, k));
			if (!json_positive(c, &en, def.size[k])) return false;
		}
	}
	const cJSON* res = json_get(n, "resolution");
	if (res) {
		jnode rn = json_node(n, res);
		int count;
		if (!json_array(c, &rn, &count)) return false;
		if (count != 2)
			return json_fail(c, &rn, "expected an array of 2 integers, got %d element%s", count,
					 count == 1 ? "" : "s");
		for (int k = 0; k < 2; ++k) {
			jnode en = json_node(&rn, cJSON_GetArrayItem(res, k));
			/* v may be 1: a chain (mass_spring only; the cloth checks) */
			if (!json_integer(c, &en, k == 0 ? 2 : 1, 50000000, &def.resolution[k])) return false;
		}
	}
	char msg[256];
	drape_status st = drape_mesh_make_grid(&def, &cloth->mesh, msg, sizeof msg);
	if (st != DRAPE_OK) {
		scene_note_failure(c, st, msg);
		return json_fail(c, n, "%s", msg);
	}
	cloth->grid_resolution[0] = def.resolution[0];
	cloth->grid_resolution[1] = def.resolution[1];
	return true;
}

/* Mesh files are found relative to the scene file, so a scene directory can be moved whole. */
static bool load_mesh(const json_ctx* c, const jnode* n, scene_cloth* cloth)
{
	static const char* const keys[] = {"file", "uv_scale", "scale", "translate", NULL};
	if (!json_check_object(c, n, keys)) return false;
	const cJSON* f = json_get(n, "file");
	if (!f) return json_fail(c, n, "missing required key 'file'");
	jnode fn = json_node(n, f);
	const char* file;
	double uv_scale = 1.0, scale = 1.0, translate[3] = {0.0, 0.0, 0.0};
	if (!json_string(c, &fn, &file) || !json_opt_positive(c, n, "uv_scale", &uv_scale) ||
	    !json_opt_positive(c, n, "scale", &scale) || !json_opt_vector(c, n, "translate", 3, translate))
		return false;
	char* path = scene_file_path(c->file, file);
	if (!path) return scene_out_of_memory(c);
	char msg[512];
	drape_status st = drape_mesh_load_obj(path, uv_scale, &cloth->mesh, msg, sizeof msg);
	free(path);
	if (st != DRAPE_OK) {
		scene_note_failure(c, st, msg);
		/* The OBJ message leads ("panels.obj:12: ..."), so tools jump to the real culprit. */
		char where[256];
		json_path(&fn, where, sizeof where);
		snprintf(c->err, c->err_size, "%s (%s of %s)", msg, where, c->file);
		return false;
	}
	for (int32_t i = 0; i < cloth->mesh.vertex_count; ++i)
		for (int k = 0; k < 3; ++k)
			cloth->mesh.positions[3 * i + k] = cloth->mesh.positions[3 * i + k] * scale + translate[k];
	return true;
}

static bool load_material(const json_ctx* c, const jnode* cn, drape_material* m)
{
	*m = drape_default_material();
	const cJSON* item = json_get(cn, "material");
	if (!item) return true;
	static const char* const keys[] = {"density", "stretch",         "shear",         "bend",         "bend_u",
					   "bend_v",  "stretch_damping", "shear_damping", "bend_damping", "drag",
					   NULL};
	jnode n = json_node(cn, item);
	if (!json_check_object(c, &n, keys)) return false;
	const cJSON* bend = json_get(&n, "bend");
	if (bend && (json_get(&n, "bend_u") || json_get(&n, "bend_v"))) {
		jnode bn = json_node(&n, bend);
		return json_fail(c, &bn, "give either 'bend' (both directions) or 'bend_u'/'bend_v', not both");
	}
	double b = -1.0;
	if (!json_opt_positive(c, &n, "density", &m->density) ||
	    !json_opt_at_most(c, &n, "stretch", LIMIT_STIFFNESS, "N/m", &m->stretch) ||
	    !json_opt_at_most(c, &n, "shear", LIMIT_STIFFNESS, "N/m", &m->shear) || !json_opt_at_most(c, &n, "bend", LIMIT_BEND, "N*m", &b) ||
	    !json_opt_at_most(c, &n, "bend_u", LIMIT_BEND, "N*m", &m->bend_u) ||
	    !json_opt_at_most(c, &n, "bend_v", LIMIT_BEND, "N*m", &m->bend_v) ||
	    !json_opt_at_most(c, &n, "stretch_damping", LIMIT_DAMPING, "N*s/m", &m->stretch_damping) ||
	    !json_opt_at_most(c, &n, "shear_damping", LIMIT_DAMPING, "N*s/m", &m->shear_damping) ||
	    !json_opt_at_most(c, &n, "bend_damping", LIMIT_BEND_DAMPING, "N*m*s", &m->bend_damping) ||
	    !json_opt_nonnegative(c, &n, "drag", &m->drag))
		return false;
	if (bend) m->bend_u = m->bend_v = b;
	return true;
}

/* Eq. 10's b_u, b_v per triangle from its rest (uv) centroid: stretch_regions_apply (boxes with
 * optional tapers, later regions win). stretch_scale stays NULL (all 1) when there are no regions. */
static bool load_stretch_regions(const json_ctx* c, const jnode* cn, scene_cloth* cloth)
{
	const cJSON* item = json_get(cn, "stretch_regions");
	if (!item) return true;
	jnode rn = json_node(cn, item);
	int count;
	if (!json_array(c, &rn, &count)) return false;
	if (count == 0) return true;
	const drape_mesh* mesh = &cloth->mesh;
	stretch_region* regions = calloc((size_t)count, sizeof *regions);
	double* cen = malloc(sizeof(double) * 2 * (size_t)(mesh->triangle_count > 0 ? mesh->triangle_count : 1));
	double* b = malloc(sizeof(double) * 2 * (size_t)(mesh->triangle_count > 0 ? mesh->triangle_count : 1));
	if (!regions || !cen || !b) {
		free(regions);
		free(cen);
		free(b);
		return scene_out_of_memory(c);
	}
	cloth->stretch_scale = b;
	for (int32_t t = 0; t < mesh->triangle_count; ++t) {
		cen[2 * t] = cen[2 * t + 1] = 0.0;
		for (int k = 0; k < 3; ++k) {
			int32_t uv = mesh->triangle_uvs[3 * t + k];
			cen[2 * t] += mesh->uvs[2 * uv] / 3.0;
			cen[2 * t + 1] += mesh->uvs[2 * uv + 1] / 3.0;
		}
	}
	bool ok = true;
	int k = 0;
	for (const cJSON* r = item->child; ok && r; r = r->next, ++k) {
		jnode n = json_node(&rn, r);
		ok = scene_load_stretch_region(c, &n, &regions[k]);
		int32_t hits = 0;
		for (int32_t t = 0; ok && t < mesh->triangle_count; ++t) hits += stretch_region_weight(&regions[k], cen[2 * t], cen[2 * t + 1]) == 1.0;
		/* An empty region is nearly always a unit mistake (uv are metres, not 0..1). */
		if (ok && hits == 0)
			ok = json_fail(c, &n, "no triangle of cloth '%s' has its uv centroid in [%g, %g] x [%g, %g] (uv are in metres)",
				       cloth->name, regions[k].lo[0], regions[k].hi[0], regions[k].lo[1], regions[k].hi[1]);
	}
	for (int32_t t = 0; ok && t < mesh->triangle_count; ++t) stretch_regions_apply(regions, count, cen[2 * t], cen[2 * t + 1], &b[2 * t]);
	free(regions);
	free(cen);
	return ok;
}

bool scene_load_cloth(loader* L, const jnode* n, int32_t index)
{
	const json_ctx* c = &L->c;
	scene* s = L->s;
	static const char* const keys[] = {"name", "grid", "mesh", "material", "velocity", "stretch_regions",
					   "pins", "model", "nonlinear_bend", "bend_kappa1", "garment", "bend_model", "fold_guard_degrees",
					   "layer", "tucked_into", NULL};
	if (!json_check_object(c, n, keys)) return false;
	scene_cloth* cloth = &s->cloths[index];

	const cJSON* name = json_get(n, "name");
	if (name) {
		jnode nn = json_node(n, name);
		const char* str;
		if (!json_string(c, &nn, &str)) return false;
		cloth->name = scene_copy_string(str);
	} else {
		char buf[32];
		snprintf(buf, sizeof buf, "cloth%d", (int)index);
		cloth->name = scene_copy_string(buf);
	}
	if (!cloth->name) return scene_out_of_memory(c);
	for (int32_t k = 0; k < index; ++k) {
		if (strcmp(s->cloths[k].name, cloth->name) == 0) {
			jnode nn = json_node(n, name);
			return json_fail(c, name ? &nn : n, "duplicate cloth name '%s' (cloths[%d] has it too)",
					 cloth->name, (int)k);
		}
	}

	cloth->model = DRAPE_MODEL_TRIANGLES;
	cloth->bend_kappa1 = drape_default_cloth_def().bend_kappa1;
	const cJSON* model = json_get(n, "model");
	if (model) {
		jnode mn = json_node(n, model);
		const char* str;
		if (!json_string(c, &mn, &str)) return false;
		if (strcmp(str, "mass_spring") == 0) cloth->model = DRAPE_MODEL_MASS_SPRING;
		else if (strcmp(str, "triangles") != 0)
			return json_fail(c, &mn, "unknown model '%s' (triangles, mass_spring)", str);
	}
	cloth->bend_model = drape_default_cloth_def().bend_model;
	const cJSON* bm = json_get(n, "bend_model");
	if (bm) {
		jnode mn = json_node(n, bm);
		const char* str;
		if (!json_string(c, &mn, &str)) return false;
		if (!drape_bend_model_from_name(str, &cloth->bend_model))
			return json_fail(c, &mn, "unknown bend_model '%s' (dihedral, tensor)", str);
		if (cloth->model == DRAPE_MODEL_MASS_SPRING)
			return json_fail(c, &mn, "bend_model belongs to model 'triangles' (mass_spring bends through springs)");
	}
	cloth->fold_guard = 0.0;
	const cJSON* fg = json_get(n, "fold_guard_degrees");
	if (fg) {
		jnode gn = json_node(n, fg);
		double deg;
		if (!json_number(c, &gn, &deg)) return false;
		if (!(deg > 0.0 && deg < 180.0)) return json_fail(c, &gn, "fold_guard_degrees must be in (0, 180), got %g", deg);
		if (cloth->model != DRAPE_MODEL_TRIANGLES || cloth->bend_model != DRAPE_BEND_TENSOR)
			return json_fail(c, &gn, "fold_guard_degrees belongs to bend_model 'tensor' (the dihedral hinges resist any fold)");
		cloth->fold_guard = deg * DRAPE_PI / 180.0;
	}
	const cJSON* layer = json_get(n, "layer");
	if (layer) {
		jnode ln = json_node(n, layer);
		if (!json_integer(c, &ln, INT32_MIN, INT32_MAX, &cloth->layer)) return false;
		if (cloth->layer < 0)
			return json_fail(c, &ln, "layer must be a non-negative integer (0 next to the skin, higher further "
						 "out), got %d", (int)cloth->layer);
	}
	const cJSON* nb = json_get(n, "nonlinear_bend");
	if (nb) {
		jnode bn = json_node(n, nb);
		if (!json_bool(c, &bn, &cloth->nonlinear_bend)) return false;
	}
	if (!json_opt_positive(c, n, "bend_kappa1", &cloth->bend_kappa1)) return false;
	if (cloth->model != DRAPE_MODEL_MASS_SPRING && (nb || json_get(n, "bend_kappa1"))) {
		jnode bn = json_node(n, nb ? nb : json_get(n, "bend_kappa1"));
		return json_fail(c, &bn, "nonlinear bend springs belong to model 'mass_spring'");
	}
	const cJSON* grid = json_get(n, "grid");
	const cJSON* mesh = json_get(n, "mesh");
	const cJSON* garment = json_get(n, "garment");
	if (garment) {
		jnode gn = json_node(n, garment);
		if (grid || mesh || model || json_get(n, "stretch_regions"))
			return json_fail(c, &gn, "a garment cloth has no 'grid', 'mesh', 'model' or cloth-wide 'stretch_regions' "
						 "(its panels carry their own)");
		if (!scene_load_garment(L, &gn, index)) return false;
	} else if (grid && mesh) {
		jnode mn = json_node(n, mesh);
		return json_fail(c, &mn, "a cloth has either 'grid' or 'mesh', not both");
	}
	if (!garment && !grid && !mesh)
		return json_fail(c, n, "missing 'grid' or 'mesh' (or 'garment'): every cloth needs one of them");
	jnode gn = json_node(n, grid ? grid : mesh);
	if (!garment && cloth->model == DRAPE_MODEL_MASS_SPRING && !grid)
		return json_fail(c, &gn, "model 'mass_spring' needs a 'grid' (its springs follow grid lines), not a mesh file");
	if (!garment && (grid ? !load_grid(c, &gn, cloth) : !load_mesh(c, &gn, cloth))) return false;
	if (!garment && cloth->model == DRAPE_MODEL_TRIANGLES && cloth->grid_resolution[1] == 1)
		return json_fail(c, &gn, "a grid with 1 particle along v is a chain: it has no triangles, use model 'mass_spring'");

	if (!load_material(c, n, &cloth->material) || !json_opt_vector(c, n, "velocity", 3, cloth->velocity) ||
	    !load_stretch_regions(c, n, cloth))
		return false;

	const cJSON* pins = json_get(n, "pins");
	if (pins) {
		jnode pn = json_node(n, pins);
		int count;
		if (!json_array(c, &pn, &count)) return false;
		for (const cJSON* p = pins->child; p; p = p->next) {
			jnode one = json_node(&pn, p);
			if (!scene_load_pin(L, &one, index)) return false;
		}
	}
	return scene_check_layer_order(L, n, index);
}

/* ---------------------------------------------------------------------------------------------
 * Loading */

void scene_free(scene* s)
{
	if (!s) return;
	free(s->path);
	free(s->name);
	for (int32_t i = 0; i < s->set_count; ++i) free(s->sets[i]);
	free(s->sets);
	for (int32_t i = 0; i < s->cloth_count; ++i) {
		free(s->cloths[i].name);
		drape_mesh_free(&s->cloths[i].mesh);
		free(s->cloths[i].stretch_scale);
	}
	free(s->cloths);
	for (int32_t i = 0; i < s->constraint_count; ++i) free(s->constraints[i].keyframes);
	free(s->constraints);
	for (int32_t i = 0; i < s->solid_count; ++i) scene_solid_free(&s->solids[i]);
	free(s->solids);
	for (int32_t i = 0; i < s->seam_count; ++i) {
		free(s->seams[i].name);
		free(s->seams[i].pairs);
	}
	free(s->seams);
	memset(s, 0, sizeof *s);
}

/* drape_limits.h: refused here, at the key, rather than by drape_world_create's general message. */
void scene_set_defaults(scene* s)
{
	s->sew_time_limit = SCENE_SEW_TIME_LIMIT;
	s->sew_gravity = 1.0;
	s->relax_energy = SCENE_RELAX_ENERGY;
	s->world = drape_default_world_def();
	s->world.gravity[0] = 0.0;
	s->world.gravity[1] = 0.0;
	s->world.gravity[2] = -9.81;
}

static bool load_root(loader* L, const cJSON* root)
{
	const json_ctx* c = &L->c;
	scene* s = L->s;
	jnode rn = json_node(NULL, root);
	static const char* const keys[] = {"name",   "gravity", "wind",   "solver",       "output",
					   "cloths", "solids",  "cloth_contact", NULL};
	if (!json_check_object(c, &rn, keys)) return false;

	const cJSON* name = json_get(&rn, "name");
	if (name) {
		jnode nn = json_node(&rn, name);
		const char* str;
		if (!json_string(c, &nn, &str)) return false;
		s->name = scene_copy_string(str);
	} else {
		s->name = file_stem(s->path);
	}
	if (!s->name) return scene_out_of_memory(c);

	scene_set_defaults(s);
	if (!scene_read_world(c, &rn, &s->world) || !load_output(c, &rn, s) ||
	    !scene_check_world(c, &rn, s->fps, &s->world))
		return false;

	/* Strain limiting is on by default only where stretch is implicit at every step, and not for
	 * sewn garments (below); docs/solver.md, "Strain limiting". */
	const cJSON* solver = json_get(&rn, "solver");
	jnode solver_n = json_node(&rn, solver);
	const bool limit_given = solver && json_get(&solver_n, "strain_limit");
	if (!integrator_limits_strain_by_default(s->world.integrator) && !limit_given) s->world.strain_limit = 0.0;

	/* Solids first: a garment panel placed around a character's bone (around.bone) needs the body. */
	if (!scene_load_solids(L, &rn)) return false;
	const cJSON* cloths = json_get(&rn, "cloths");
	if (!cloths) return json_fail(c, NULL, "missing required key 'cloths'");
	jnode cn = json_node(&rn, cloths);
	int count;
	if (!json_array(c, &cn, &count)) return false;
	if (count == 0) return json_fail(c, &cn, "must list at least one cloth");
	s->cloths = calloc((size_t)count, sizeof *s->cloths);
	if (!s->cloths) return scene_out_of_memory(c);
	int32_t i = 0;
	for (const cJSON* item = cloths->child; item; item = item->next, ++i) {
		/* Counted before loading, so scene_free releases a half-built cloth too. */
		s->cloth_count = i + 1;
		jnode one = json_node(&cn, item);
		if (!scene_load_cloth(L, &one, i)) return false;
	}
	if (!scene_check_tucks(L, &cn)) return false;
	/* On the garment mesher's irregular triangles the projection's corrections jolt the small
	 * triangles beside the corrected ones, and a sewn garment never came to rest to start moving. */
	if (s->seam_count > 0 && !limit_given) s->world.strain_limit = 0.0;
	return true;
}

bool scene_load_text(const char* text, const char* path, scene* out, char* err, size_t err_size)
{
	return scene_load_text_set(text, path, NULL, 0, out, err, err_size);
}

bool scene_load_text_set(const char* text, const char* path, const char* const* sets, int32_t set_count, scene* out,
			 char* err, size_t err_size)
{
	char scratch[1];
	if (!err || err_size == 0) err = scratch, err_size = sizeof scratch;
	err[0] = '\0';
	memset(out, 0, sizeof *out);
	if (!path) path = "<text>";
	scene s;
	memset(&s, 0, sizeof s);
	loader L;
	scene_loader_init(&L, &s, text, path, err, err_size);
	drape_status status = DRAPE_ERROR_INVALID;
	L.c.status = &status;
	out->failure = DRAPE_ERROR_INVALID;
	if (!text) return json_fail(&L.c, NULL, "no text");

	s.path = scene_copy_string(path);
	if (!s.path) {
		out->failure = DRAPE_ERROR_MEMORY;
		return scene_out_of_memory(&L.c);
	}
	cJSON* root = json_parse(&L.c);
	if (!root) {
		scene_free(&s);
		return false;
	}
	bool ok = scene_apply_sets(&L.c, root, sets, set_count) && scene_keep_sets(&L.c, &s, sets, set_count) &&
		  load_root(&L, root);
	if (!ok) scene_blame_set(err, err_size, sets, set_count);
	cJSON_Delete(root);
	if (!ok) {
		scene_free(&s);
		out->failure = status;
		return false;
	}
	*out = s;
	return true;
}

bool scene_load_file(const char* path, scene* out, char* err, size_t err_size)
{
	return scene_load_file_set(path, NULL, 0, out, err, err_size);
}

bool scene_load_file_set(const char* path, const char* const* sets, int32_t set_count, scene* out, char* err,
			 size_t err_size)
{
	char scratch[1];
	if (!err || err_size == 0) err = scratch, err_size = sizeof scratch;
	memset(out, 0, sizeof *out);
	FILE* f = fopen(path, "rb");
	if (!f) {
		snprintf(err, err_size, "%s: cannot open: %s", path, strerror(errno));
		out->failure = DRAPE_ERROR_IO;
		return false;
	}
	size_t size = 0, cap = 4096;
	char* text = malloc(cap);
	for (;;) {
		if (!text) break;
		if (size + 1 >= cap) {
			char* grown = realloc(text, cap * 2);
			if (!grown) {
				free(text);
				text = NULL;
				break;
			}
			text = grown;
			cap *= 2;
		}
		size_t got = fread(text + size, 1, cap - size - 1, f);
		size += got;
		if (got == 0) break;
	}
	bool read_error = ferror(f) != 0;
	int saved = errno;
	fclose(f);
	if (!text) {
		snprintf(err, err_size, "%s: out of memory", path);
		out->failure = DRAPE_ERROR_MEMORY;
		return false;
	}
	if (read_error) {
		snprintf(err, err_size, "%s: read error: %s", path, strerror(saved));
		free(text);
		out->failure = DRAPE_ERROR_IO;
		return false;
	}
	text[size] = '\0';
	if (memchr(text, '\0', size)) {
		snprintf(err, err_size, "%s: contains a NUL byte: not a JSON text file", path);
		free(text);
		out->failure = DRAPE_ERROR_INVALID;
		return false;
	}
	bool ok = scene_load_text_set(text, path, sets, set_count, out, err, err_size);
	free(text);
	return ok;
}

bool scene_load_builtin(const char* name, scene* out, char* err, size_t err_size)
{
	const char* text = embedded_text(name);
	if (!text) {
		memset(out, 0, sizeof *out);
		snprintf(err, err_size, "no built-in scene '%s'", name);
		return false;
	}
	char path[256];
	snprintf(path, sizeof path, "%s%s", EMBEDDED_PREFIX, name);
	return scene_load_text(text, path, out, err, err_size);
}

bool scene_load_default(scene* out, char* err, size_t err_size)
{
	return scene_load_builtin(SCENE_DEFAULT, out, err, err_size);
}

bool scene_load_default_set(const char* const* sets, int32_t count, scene* out, char* err, size_t err_size)
{
	char path[256];
	snprintf(path, sizeof path, "%s%s", EMBEDDED_PREFIX, SCENE_DEFAULT);
	return scene_load_text_set(embedded_text(SCENE_DEFAULT), path, sets, count, out, err, err_size);
}

/* ---------------------------------------------------------------------------------------------
 * Building the world */

void scene_start_motion(const scene* s, drape_world* world, double t)
{
	for (int32_t k = 0; k < s->solid_count; ++k)
		if (s->solids[k].hold_until_relaxed) drape_solid_set_hold(world, (drape_solid_id){k}, t);
}

drape_world* scene_build_world(const scene* s, char* err, size_t err_size)
{
	return scene_build_world_status(s, NULL, err, err_size);
}

drape_world* scene_build_world_status(const scene* s, drape_status* status, char* err, size_t err_size)
{
	drape_status unused;
	if (!status) status = &unused;
	*status = DRAPE_ERROR_INVALID;
	/* The scene's settings passed this check when it was loaded; a caller's world def may not. */
	drape_def_error e;
	if (drape_world_def_check(&s->world, &e) != DRAPE_OK) {
		snprintf(err, err_size, "%s: world settings: %s: %s", s->path, e.field, e.reason);
		return NULL;
	}
	*status = DRAPE_ERROR_MEMORY;
	drape_world* world = drape_world_create(&s->world);
	if (!world) {
		snprintf(err, err_size, "%s: out of memory creating the world", s->path);
		return NULL;
	}
	if (!scene_add_to_world(s, world, err, err_size)) {
		/* the world's own record of the failed call, or the loader's (its id list) */
		*status = drape_world_status(world) != DRAPE_OK ? drape_world_status(world) : core_failure_status(err);
		drape_world_destroy(world);
		return NULL;
	}
	*status = DRAPE_OK;
	return world;
}

bool scene_add_to_world(const scene* s, drape_world* world, char* err, size_t err_size)
{
	drape_cloth_id* ids = malloc(sizeof *ids * (size_t)(s->cloth_count > 0 ? s->cloth_count : 1));
	if (!ids) {
		snprintf(err, err_size, "%s: out of memory", s->path);
		return false;
	}
	for (int32_t i = 0; i < s->cloth_count; ++i) {
		const scene_cloth* sc = &s->cloths[i];
		drape_cloth_def def = drape_default_cloth_def();
		def.mesh = &sc->mesh;
		def.material = sc->material;
		/* paper sec. 8: cuffs and waistbands made "then", once the garment is sewn (io/sewing.c) */
		def.stretch_scale = s->sew_regions_after && s->seam_count > 0 ? NULL : sc->stretch_scale;
		def.name = sc->name;
		memcpy(def.velocity, sc->velocity, sizeof def.velocity);
		def.model = sc->model;
		def.grid[0] = sc->grid_resolution[0];
		def.grid[1] = sc->grid_resolution[1];
		def.nonlinear_bend = sc->nonlinear_bend;
		def.bend_kappa1 = sc->bend_kappa1;
		def.bend_model = sc->bend_model;
		def.fold_guard = sc->fold_guard;
		def.layer = sc->layer;
		ids[i] = drape_cloth_add(world, &def);
		if (ids[i].index < 0) {
			snprintf(err, err_size, "%s: cloths[%d] '%s': %s", s->path, (int)i, sc->name,
				 drape_world_error(world));
			free(ids);
			return false;
		}
	}
	for (int32_t k = 0; k < s->constraint_count; ++k) {
		const scene_constraint* con = &s->constraints[k];
		drape_constraint_def def = con->def;
		def.cloth = ids[con->cloth];
		def.keyframes = con->keyframes;
		drape_constraint_id id = drape_constraint_add(world, &def);
		if (id.index < 0) {
			snprintf(err, err_size, "%s: cloths[%d] '%s': pin on vertex %d: %s", s->path, (int)con->cloth,
				 s->cloths[con->cloth].name, (int)def.vertex, drape_world_error(world));
			free(ids);
			return false;
		}
	}
	for (int32_t k = 0; k < s->seam_count; ++k) {
		const scene_seam* sm = &s->seams[k];
		drape_seam_def def = drape_default_seam_def();
		def.cloth = ids[sm->cloth];
		def.pairs = sm->pairs;
		def.pair_count = sm->pair_count;
		def.stiffness = sm->stiffness;
		def.damping = sm->damping;
		def.tolerance = sm->tolerance;
		def.max_speed = sm->max_speed;
		def.free_gap = sm->free_gap;
		def.name = sm->name;
		if (drape_seam_add(world, &def).index < 0) {
			snprintf(err, err_size, "%s: cloths[%d] '%s': %s", s->path, (int)sm->cloth, s->cloths[sm->cloth].name,
				 drape_world_error(world));
			free(ids);
			return false;
		}
	}
	free(ids);
	for (int32_t i = 0; i < s->solid_count; ++i) {
		const scene_solid* so = &s->solids[i];
		drape_solid_id id = drape_solid_add(world, &so->def);
		if (id.index < 0) {
			snprintf(err, err_size, "%s: solids[%d] '%s': %s", s->path, (int)i, so->name,
				 drape_world_error(world));
			return false;
		}
	}
	return true;
}
