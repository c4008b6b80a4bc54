/* Adding cloths (sec. 2.1-2.2): validation of the mesh, rest state per triangle (eq. 9), masses
 * (a third of each adjacent triangle's density * uv area), hinges, and the per-element force
 * coefficients derived from the SI material so that refining a mesh changes nothing physical
 * (docs/model.md has the derivation). */
#include "api_assert.h"
#include "core.h"
#include "drape_limits.h"
#include "math/scalar.h"
#include "mesh/topology.h"
#include "cloth.h"
#include "cloth_bend.h"
#include "cloth_springs.h"
#include "integrator.h"
#include "world_error.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

drape_material drape_default_material(void)
{
	drape_material m = {
		.density = 0.1,
		.stretch = 1000.0,
		.shear = 10.0,
		.bend_u = 2e-5,
		.bend_v = 2e-5,
		.stretch_damping = 0.5,
		.shear_damping = 0.01,
		.bend_damping = 2e-7,
		.drag = 0.2,
	};
	return m;
}

drape_cloth_def drape_default_cloth_def(void)
{
	drape_cloth_def d;
	memset(&d, 0, sizeof d);
	d.material = drape_default_material();
	d.model = DRAPE_MODEL_TRIANGLES;
	d.bend_kappa1 = 10.0;
	d.bend_model = DRAPE_BEND_TENSOR;
	d.cookie = DRAPE_COOKIE;
	return d;
}

static bool finite_array(const double* a, int64_t count, int64_t* bad)
{
	for (int64_t i = 0; i < count; ++i)
		if (!isfinite(a[i])) {
			*bad = i;
			return false;
		}
	return true;
}

static drape_status check_material(drape_world* w, const drape_material* m)
{
	struct {
		const char* name;
		double value;
	} f[] = {
		{"density", m->density},	 {"stretch", m->stretch},		{"shear", m->shear},
		{"bend_u", m->bend_u},		 {"bend_v", m->bend_v},			{"stretch_damping", m->stretch_damping},
		{"shear_damping", m->shear_damping}, {"bend_damping", m->bend_damping}, {"drag", m->drag},
	};
	for (size_t i = 0; i < sizeof f / sizeof f[0]; ++i) {
		if (!isfinite(f[i].value)) return world_fail(w, "material %s is not a finite number", f[i].name);
		if (f[i].value < 0.0) return world_fail(w, "material %s must be >= 0, got %g", f[i].name, f[i].value);
	}
	if (!(m->density > 0.0)) return world_fail(w, "material density must be > 0, got %g", m->density);
	/* drape_limits.h: stiffer than this, CG cannot follow the system at any step size the
	 * step control reaches, and a run crawls or crushes the cloth */
	if (!(m->stretch <= LIMIT_STIFFNESS && m->shear <= LIMIT_STIFFNESS))
		return world_fail(w, "material stretch %g N/m and shear %g N/m: at most %g N/m each is within drape's range "
				  "(docs/reliability.md)",
				  m->stretch, m->shear, LIMIT_STIFFNESS);
	if (!(m->stretch_damping <= LIMIT_DAMPING && m->shear_damping <= LIMIT_DAMPING))
		return world_fail(w, "material stretch_damping %g and shear_damping %g N*s/m: at most %g each is within "
				  "drape's range (docs/reliability.md)",
				  m->stretch_damping, m->shear_damping, LIMIT_DAMPING);
	if (!(m->bend_u <= LIMIT_BEND && m->bend_v <= LIMIT_BEND))
		return world_fail(w, "material bend_u %g and bend_v %g N*m: at most %g N*m each is within drape's range "
				  "(docs/reliability.md)",
				  m->bend_u, m->bend_v, LIMIT_BEND);
	if (!(m->bend_damping <= LIMIT_BEND_DAMPING))
		return world_fail(w, "material bend_damping %g N*m*s: at most %g is within drape's range "
				  "(docs/reliability.md)",
				  m->bend_damping, LIMIT_BEND_DAMPING);
	return DRAPE_OK;
}

/* drape_limits.h (docs/reliability.md, "Limits"): positions in range, cells not below 0.1 mm on average
 * (the cloth thickness and the solver's tolerances are set for cloth, not for microns), memory. */
static drape_status check_mesh_limits(drape_world* w, const drape_mesh* m)
{
	char why[200];
	if (!limits_positions(m->positions, m->vertex_count, why, sizeof why)) return world_fail(w, "%s", why);
	if (m->triangle_count > 0) {
		double sum = 0.0, sum3 = 0.0;
		for (int32_t t = 0; t < m->triangle_count; ++t)
			for (int k = 0; k < 3; ++k) {
				const double* a = &m->uvs[2 * m->triangle_uvs[3 * t + k]];
				const double* b = &m->uvs[2 * m->triangle_uvs[3 * t + (k + 1) % 3]];
				sum += hypot(a[0] - b[0], a[1] - b[1]);
				vec3 p = v3_load(&m->positions[3 * m->triangles[3 * t + k]]);
				vec3 q = v3_load(&m->positions[3 * m->triangles[3 * t + (k + 1) % 3]]);
				sum3 += v3_len(v3_sub(p, q));
			}
		double mean = sum / (3.0 * m->triangle_count), mean3 = sum3 / (3.0 * m->triangle_count);
		if (!(mean >= LIMIT_EDGE))
			return world_fail(w, "mean rest edge %.3g m is below drape's limit of %g m (is the mesh in metres?)",
					  mean, LIMIT_EDGE);
		/* Positions a hundred times smaller or larger than the rest shape are a unit slip (a scale
		 * applied to one and not the other), not a deformation cloth survives. */
		if (!(mean3 >= mean / LIMIT_REST_RATIO && mean3 <= mean * LIMIT_REST_RATIO))
			return world_fail(w,
					  "the mesh's edges are %.3g times their rest (uv) lengths on average (mean %.3g m "
					  "against %.3g m): positions and uv must be in the same unit (mesh scale, uv_scale)",
					  mean3 / mean, mean3, mean);
	}
	if (!limits_memory(m->vertex_count, w->model.particle_count, why, sizeof why)) return world_fail(w, "%s", why);
	return DRAPE_OK;
}

static drape_status check_mesh(drape_world* w, const drape_cloth_def* def)
{
	const drape_mesh* m = def->mesh;
	if (!m) return world_fail(w, "cloth def has no mesh");
	const bool springs = def->model == DRAPE_MODEL_MASS_SPRING;
	if (springs) {
		if (m->vertex_count < 2 || !m->positions || !m->uvs || (m->triangle_count > 0 && (!m->triangles || !m->triangle_uvs)))
			return world_fail(w, "mass_spring mesh needs at least 2 vertices with positions and uvs");
	} else if (m->vertex_count < 3 || m->triangle_count < 1 || m->uv_count < 3)
		return world_fail(w, "mesh needs at least 3 vertices, 3 uv and 1 triangle (has %d, %d, %d)", m->vertex_count,
				  m->uv_count, m->triangle_count);
	if (!m->positions || !m->uvs || !m->triangles || !m->triangle_uvs) return world_fail(w, "mesh has a NULL array");
	int64_t bad;
	if (!finite_array(m->positions, 3 * (int64_t)m->vertex_count, &bad))
		return world_fail(w, "vertex %lld has a non-finite position", (long long)(bad / 3));
	if (!finite_array(m->uvs, 2 * (int64_t)m->uv_count, &bad))
		return world_fail(w, "uv %lld is not finite", (long long)(bad / 2));
	if (def->velocities && !finite_array(def->velocities, 3 * (int64_t)m->vertex_count, &bad))
		return world_fail(w, "vertex %lld has a non-finite velocity", (long long)(bad / 3));
	for (int i = 0; i < 3; ++i)
		if (!isfinite(def->velocity[i])) return world_fail(w, "cloth velocity is not finite");
	for (int32_t t = 0; t < m->triangle_count; ++t) {
		const int32_t* v = &m->triangles[3 * t];
		const int32_t* uv = &m->triangle_uvs[3 * t];
		for (int k = 0; k < 3; ++k) {
			if (v[k] < 0 || v[k] >= m->vertex_count)
				return world_fail(w, "triangle %d refers to vertex %d, but the mesh has %d vertices", t, v[k],
						  m->vertex_count);
			if (uv[k] < 0 || uv[k] >= m->uv_count)
				return world_fail(w, "triangle %d refers to uv %d, but the mesh has %d uv", t, uv[k], m->uv_count);
		}
		if (v[0] == v[1] || v[1] == v[2] || v[0] == v[2])
			return world_fail(w, "triangle %d (vertices %d, %d, %d) repeats a vertex", t, v[0], v[1], v[2]);
		for (int k = 0; k < 3; ++k) {
			const double* a = &m->uvs[2 * uv[k]];
			const double* b = &m->uvs[2 * uv[(k + 1) % 3]];
			if (a[0] == b[0] && a[1] == b[1])
				return world_fail(w, "triangle %d (vertices %d, %d, %d) has a zero-length rest edge: corners %d and %d "
						     "share uv (%g, %g)",
						  t, v[0], v[1], v[2], k, (k + 1) % 3, a[0], a[1]);
		}
		tri_rest r;
		if (!tri_rest_init(&r, &m->uvs[2 * uv[0]], &m->uvs[2 * uv[1]], &m->uvs[2 * uv[2]]))
			return world_fail(w, "triangle %d (vertices %d, %d, %d) has zero rest (uv) area", t, v[0], v[1], v[2]);
		if (def->stretch_scale) {
			double bu = def->stretch_scale[2 * t], bv = def->stretch_scale[2 * t + 1];
			if (!(isfinite(bu) && isfinite(bv) && bu > 0.0 && bv > 0.0))
				return world_fail(w, "triangle %d has stretch scale (b_u, b_v) = (%g, %g); both must be finite and > 0",
						  t, bu, bv);
		}
	}
	return check_mesh_limits(w, m);
}

static bool copy_mesh(drape_mesh* dst, const drape_mesh* src)
{
	memset(dst, 0, sizeof *dst);
	dst->vertex_count = src->vertex_count;
	dst->uv_count = src->uv_count;
	dst->triangle_count = src->triangle_count;
	dst->positions = malloc(3 * (size_t)src->vertex_count * sizeof(double));
	dst->uvs = malloc(2 * (size_t)src->uv_count * sizeof(double));
	/* A chain has no triangles; keep the arrays non-NULL all the same. */
	dst->triangles = malloc(3 * (size_t)(src->triangle_count > 0 ? src->triangle_count : 1) * sizeof(int32_t));
	dst->triangle_uvs = malloc(3 * (size_t)(src->triangle_count > 0 ? src->triangle_count : 1) * sizeof(int32_t));
	if (!dst->positions || !dst->uvs || !dst->triangles || !dst->triangle_uvs) {
		drape_mesh_free(dst);
		return false;
	}
	memcpy(dst->positions, src->positions, 3 * (size_t)src->vertex_count * sizeof(double));
	memcpy(dst->uvs, src->uvs, 2 * (size_t)src->uv_count * sizeof(double));
	memcpy(dst->triangles, src->triangles, 3 * (size_t)src->triangle_count * sizeof(int32_t));
	memcpy(dst->triangle_uvs, src->triangle_uvs, 3 * (size_t)src->triangle_count * sizeof(int32_t));
	return true;
}

/* Squared rest length and the anisotropic bend weight of sec. 4.3,
 * (k_u du^2 + k_v dv^2) / (du^2 + dv^2), for edge k of triangle t as seen in t's own uv. */
static void hinge_side(const drape_mesh* m, const drape_material* mat, int32_t t, int edge, double* len2, double* weight)
{
	const double* a = &m->uvs[2 * m->triangle_uvs[3 * t + edge]];
	const double* b = &m->uvs[2 * m->triangle_uvs[3 * t + (edge + 1) % 3]];
	double du = a[0] - b[0], dv = a[1] - b[1];
	*len2 = du * du + dv * dv;
	*weight = (mat->bend_u * du * du + mat->bend_v * dv * dv) / *len2;
}

void cloth_hinge_init(const drape_world* w, const drape_mesh* m, const drape_material* mat, const hinge_ref* hr,
		      int32_t n0, int32_t t0, hinge_elem* e)
{
	memset(e, 0, sizeof *e);
	for (int j = 0; j < 4; ++j) e->v[j] = n0 + hr->v[j];
	/* Bend energy k/2 theta^2 with k = B |e|^2 / (A1 + A2): footnote 5's curvature argument,
	 * calibrated so a grid bent into a cylinder stores B/2 kappa^2 per area (docs/model.md).
	 * On a seam the two triangles may see the edge differently in uv; average the sides. */
	double l0, l1, w0, w1;
	hinge_side(m, mat, hr->tri[0], hr->edge[0], &l0, &w0);
	hinge_side(m, mat, hr->tri[1], hr->edge[1], &l1, &w1);
	double area = w->model.triangles[t0 + hr->tri[0]].rest.area + w->model.triangles[t0 + hr->tri[1]].rest.area;
	double shape = 0.5 * (l0 + l1) / area;
	e->k = 0.5 * (w0 + w1) * shape;
	e->kd = mat->bend_damping * shape;
}

drape_cloth_id drape_cloth_add(drape_world* w, const drape_cloth_def* def)
{
	drape_cloth_id none = {-1};
	API_REQUIRE(w != NULL, none);
	if (!def || def->cookie != DRAPE_COOKIE) {
		world_fail(w, "cloth def not initialised with drape_default_cloth_def()");
		return none;
	}
	if (def->model != DRAPE_MODEL_TRIANGLES && def->model != DRAPE_MODEL_MASS_SPRING) {
		world_fail(w, "cloth '%s': unknown model %d", def->name ? def->name : "cloth", (int)def->model);
		return none;
	}
	if ((int)def->bend_model < 0 || def->bend_model >= DRAPE_BEND_MODEL_COUNT) {
		world_fail(w, "cloth '%s': unknown bend model %d", def->name ? def->name : "cloth", (int)def->bend_model);
		return none;
	}
	if (!(isfinite(def->fold_guard) && def->fold_guard >= 0.0 && def->fold_guard < DRAPE_PI)) {
		world_fail(w, "cloth '%s': fold_guard %g is not an angle in [0, pi) radians", def->name ? def->name : "cloth",
			   def->fold_guard);
		return none;
	}
	if (def->fold_guard > 0.0 && (def->model != DRAPE_MODEL_TRIANGLES || def->bend_model != DRAPE_BEND_TENSOR)) {
		world_fail(w, "cloth '%s': fold_guard belongs to bend_model 'tensor' (the dihedral hinges resist any fold)",
			   def->name ? def->name : "cloth");
		return none;
	}
	if (def->layer < 0) {
		world_fail(w, "cloth '%s': layer %d is negative (0 is next to the skin, higher further out)",
			   def->name ? def->name : "cloth", (int)def->layer);
		return none;
	}
	const bool springs = def->model == DRAPE_MODEL_MASS_SPRING;
	if (!springs && integrator_needs_grid(w->def.integrator)) {
		world_fail(w,
			   "cloth '%s' uses the triangles model, but the %s integrator solves grid lines and needs every cloth "
			   "to be mass_spring",
			   def->name ? def->name : "cloth", drape_integrator_name(w->def.integrator));
		return none;
	}
	if (check_material(w, &def->material) != DRAPE_OK || check_mesh(w, def) != DRAPE_OK) return none;
	if (springs && cloth_springs_check(w, def) != DRAPE_OK) return none;
	const drape_mesh* m = def->mesh;
	const drape_material* mat = &def->material;

	char err[256];
	hinge_ref* hr = NULL;
	int32_t hinge_count = 0;
	/* A mass-spring cloth bends through its springs, not through hinges. */
	if (!springs && !topology_hinges(m->triangles, m->triangle_count, &hr, &hinge_count, err, sizeof err)) {
		world_fail_status(w, core_failure_status(err), "%s", err);
		return none;
	}

	int32_t n0 = w->model.particle_count, t0 = w->model.triangle_count, h0 = w->model.hinge_count;
	int32_t s0 = w->model.ms_spring_count, b0 = w->model.ms_bend_count, bt0 = w->model.btens_count;
	int32_t n = n0 + m->vertex_count;
	bool ok = core_reserve((void**)&w->state.x, &w->model.particle_capacity, n, sizeof(vec3));
	int32_t cap = w->model.particle_capacity;
	ok = ok && (w->state.v = realloc(w->state.v, (size_t)cap * sizeof(vec3))) && (w->model.mass = realloc(w->model.mass, (size_t)cap * sizeof(double)));
	ok = ok && core_reserve((void**)&w->model.triangles, &w->model.triangle_capacity, t0 + m->triangle_count, sizeof(triangle_elem));
	ok = ok && core_reserve((void**)&w->model.hinges, &w->model.hinge_capacity, h0 + hinge_count, sizeof(hinge_elem));
	ok = ok && core_reserve((void**)&w->model.cloths, &w->model.cloth_capacity, w->model.cloth_count + 1, sizeof(cloth_data));
	cloth_data* c = ok ? &w->model.cloths[w->model.cloth_count] : NULL;
	ok = ok && copy_mesh(&c->mesh, m);
	if (ok && springs && cloth_springs_build(w, def, n0) != DRAPE_OK) {
		free(hr);
		drape_mesh_free(&c->mesh);
		return none;
	}
	if (!ok) {
		free(hr);
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding a cloth of %d vertices", m->vertex_count);
		return none;
	}

	for (int32_t i = 0; i < m->vertex_count; ++i) {
		w->state.x[n0 + i] = v3_load(&m->positions[3 * i]);
		w->state.v[n0 + i] = def->velocities ? v3_load(&def->velocities[3 * i]) : v3_load(def->velocity);
		if (!springs) w->model.mass[n0 + i] = 0.0; /* springs: cell shares, set by cloth_springs_build */
	}
	for (int32_t t = 0; t < m->triangle_count; ++t) {
		triangle_elem* e = &w->model.triangles[t0 + t];
		const int32_t* uv = &m->triangle_uvs[3 * t];
		memset(e, 0, sizeof *e);
		tri_rest_init(&e->rest, &m->uvs[2 * uv[0]], &m->uvs[2 * uv[1]], &m->uvs[2 * uv[2]]);
		double a = e->rest.area;
		for (int k = 0; k < 3; ++k) {
			e->v[k] = n0 + m->triangles[3 * t + k];
			if (!springs) w->model.mass[e->v[k]] += mat->density * a / 3.0;
		}
		e->springs_only = springs;
		e->bu = def->stretch_scale ? def->stretch_scale[2 * t] : 1.0;
		e->bv = def->stretch_scale ? def->stretch_scale[2 * t + 1] : 1.0;
		/* C carries a factor a (eq. 10), so E = k/2 C^2 = k a^2/2 (..)^2; an energy density
		 * stretch/2 (..)^2 over area a needs k = stretch / a. Same for shear and damping. */
		e->k_stretch = mat->stretch / a;
		e->kd_stretch = mat->stretch_damping / a;
		e->k_shear = mat->shear / a;
		e->kd_shear = mat->shear_damping / a;
		e->drag = mat->drag;
	}
	for (int32_t i = 0; i < m->vertex_count; ++i)
		if (!(w->model.mass[n0 + i] > 0.0)) {
			free(hr);
			drape_mesh_free(&c->mesh);
			w->model.ms_spring_count = s0;
			w->model.ms_bend_count = b0;
			world_fail(w, "vertex %d belongs to no triangle (it would have no mass)", i);
			return none;
		}
	if (!springs && def->bend_model == DRAPE_BEND_TENSOR) {
		/* The triangles carry the bending; hinges only as the fold guard. */
		drape_status bs = cloth_bend_tensors(w, def, hr, hinge_count, t0, n0);
		if (bs != DRAPE_OK) {
			free(hr);
			drape_mesh_free(&c->mesh);
			return none;
		}
		if (!(def->fold_guard > 0.0)) hinge_count = 0;
	}
	for (int32_t k = 0; k < hinge_count; ++k) {
		cloth_hinge_init(w, m, mat, &hr[k], n0, t0, &w->model.hinges[h0 + k]);
		w->model.hinges[h0 + k].guard = def->fold_guard; /* 0 but on a tensor cloth (checked above) */
	}
	free(hr);

	c->name = strdup(def->name ? def->name : "cloth");
	if (!c->name) {
		/* undo what this cloth added past the counts that stay */
		drape_mesh_free(&c->mesh);
		w->model.ms_spring_count = s0;
		w->model.ms_bend_count = b0;
		w->model.btens_count = bt0;
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding cloth '%s'", def->name ? def->name : "cloth");
		return none;
	}
	c->material = *mat;
	c->model = def->model;
	c->bend_model = def->bend_model;
	c->fold_guard = def->fold_guard;
	c->layer = def->layer;
	c->nu = springs ? def->grid[0] : 0;
	c->nv = springs ? def->grid[1] : 0;
	c->first_vertex = n0;
	c->first_triangle = t0;
	w->model.particle_count = n;
	w->model.triangle_count = t0 + m->triangle_count;
	w->model.hinge_count = h0 + hinge_count;
	w->model.dirty = true;
	drape_cloth_id id = {w->model.cloth_count++};
	return id;
}

/* The cloth an id names; NULL after the assert function for a NULL world or a bad id. */
static const cloth_data* cloth_get(const drape_world* w, drape_cloth_id id)
{
	if (!API_CHECK(w != NULL) || !API_CHECK(id.index >= 0 && id.index < w->model.cloth_count)) return NULL;
	return &w->model.cloths[id.index];
}

int32_t drape_cloth_count(const drape_world* w)
{
	API_REQUIRE(w != NULL, 0);
	return w->model.cloth_count;
}

int32_t drape_cloth_vertex_count(const drape_world* w, drape_cloth_id id)
{
	const cloth_data* c = cloth_get(w, id);
	return c ? c->mesh.vertex_count : 0;
}

void drape_cloth_contact_counts(const drape_world* w, drape_cloth_id id, int32_t* solid_contacts, int32_t* cloth_pairs)
{
	if (solid_contacts) *solid_contacts = 0;
	if (cloth_pairs) *cloth_pairs = 0;
	if (!cloth_get(w, id)) return;
	/* each cloth's particles are one range from its first_vertex, in cloth order (seam.c) */
	const int32_t begin = w->model.cloths[id.index].first_vertex;
	const int32_t end = id.index + 1 < w->model.cloth_count ? w->model.cloths[id.index + 1].first_vertex : w->model.particle_count;
	int32_t solid = 0, pairs = 0;
	for (int32_t i = begin; w->model.solid_count > 0 && i < end; ++i) solid += w->state.contacts[i].solid >= 0;
	for (int32_t e = 0; e < w->state.repulsion_count; ++e) {
		bool mine = false;
		for (int a = 0; a < 4; ++a) mine = mine || (w->state.repulsions[e].node[a] >= begin && w->state.repulsions[e].node[a] < end);
		pairs += mine;
	}
	if (solid_contacts) *solid_contacts = solid;
	if (cloth_pairs) *cloth_pairs = pairs;
}

int32_t drape_cloth_triangle_count(const drape_world* w, drape_cloth_id id)
{
	const cloth_data* c = cloth_get(w, id);
	return c ? c->mesh.triangle_count : 0;
}

const char* drape_cloth_name(const drape_world* w, drape_cloth_id id)
{
	const cloth_data* c = cloth_get(w, id);
	return c ? c->name : "";
}

const drape_mesh* drape_cloth_mesh(const drape_world* w, drape_cloth_id id)
{
	const cloth_data* c = cloth_get(w, id);
	return c ? &c->mesh : NULL;
}

void drape_cloth_get_positions(const drape_world* w, drape_cloth_id id, double* out)
{
	const cloth_data* c = cloth_get(w, id);
	for (int32_t i = 0; c && i < c->mesh.vertex_count; ++i) v3_store(w->state.x[c->first_vertex + i], &out[3 * i]);
}

void drape_cloth_get_velocities(const drape_world* w, drape_cloth_id id, double* out)
{
	const cloth_data* c = cloth_get(w, id);
	for (int32_t i = 0; c && i < c->mesh.vertex_count; ++i) v3_store(w->state.v[c->first_vertex + i], &out[3 * i]);
}

void drape_cloth_get_masses(const drape_world* w, drape_cloth_id id, double* out)
{
	const cloth_data* c = cloth_get(w, id);
	for (int32_t i = 0; c && i < c->mesh.vertex_count; ++i) out[i] = w->model.mass[c->first_vertex + i];
}

static drape_status set_vectors(drape_world* w, drape_cloth_id id, const double* in, vec3* dst, const char* what)
{
	const cloth_data* c = cloth_get(w, id);
	if (!c) return DRAPE_ERROR_INVALID;
	int64_t bad;
	if (!finite_array(in, 3 * (int64_t)c->mesh.vertex_count, &bad))
		return world_fail(w, "cloth '%s': vertex %lld has a non-finite %s", c->name, (long long)(bad / 3), what);
	for (int32_t i = 0; i < c->mesh.vertex_count; ++i) dst[c->first_vertex + i] = v3_load(&in[3 * i]);
	w->state.h_prev = 0.0; /* BDF2's history no longer leads to this state */
	return DRAPE_OK;
}

drape_status drape_cloth_set_positions(drape_world* w, drape_cloth_id id, const double* in)
{
	return set_vectors(w, id, in, w->state.x, "position");
}

drape_status drape_cloth_set_velocities(drape_world* w, drape_cloth_id id, const double* in)
{
	return set_vectors(w, id, in, w->state.v, "velocity");
}

drape_status drape_cloth_set_stretch_scale(drape_world* w, drape_cloth_id id, const double* scale)
{
	const cloth_data* c = cloth_get(w, id);
	if (!c) return DRAPE_ERROR_INVALID;
	if (c->model != DRAPE_MODEL_TRIANGLES)
		return world_fail(w, "cloth '%s': stretch_scale (eq. 10's b_u, b_v) applies to the triangles model", c->name);
	const int32_t tc = c->mesh.triangle_count;
	for (int32_t t = 0; scale && t < tc; ++t) {
		double bu = scale[2 * t], bv = scale[2 * t + 1];
		if (!(isfinite(bu) && isfinite(bv) && bu > 0.0 && bv > 0.0))
			return world_fail(w, "cloth '%s': triangle %d has stretch scale (b_u, b_v) = (%g, %g); both must be finite and > 0",
					  c->name, t, bu, bv);
	}
	for (int32_t t = 0; t < tc; ++t) {
		triangle_elem* e = &w->model.triangles[c->first_triangle + t];
		e->bu = scale ? scale[2 * t] : 1.0;
		e->bv = scale ? scale[2 * t + 1] : 1.0;
	}
	return DRAPE_OK;
}
