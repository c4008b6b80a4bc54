/* Seams (sec. 8, footnote 3; docs/garments.md): zero-length damped springs between paired
 * particles of a cloth while a seam is open (they are mass-spring springs of the "other" family,
 * so they sit inside the implicit system with both Jacobians; pairs that start far apart are
 * pulled in at a bounded speed, seams_cap_speed), and the merge that makes the cloth
 * topologically seamed once the gap has closed: one particle with several rest uv, mass-weighted
 * position and velocity (momentum conserved), hinges rebuilt across the seam, every particle
 * index in the world renumbered, and the solver rebuilt by workspace_prepare. */
#include "api_assert.h"
#include "core.h"
#include "cloth.h"
#include "cloth_bend.h"
#include "forces/bend_tensor.h"
#include "seam.h"
#include "world_error.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct seam_data {
	char* name;
	int32_t cloth;
	int32_t pair_count;
	int32_t* pairs; /* cloth-local vertex indices, renumbered by every merge of the cloth */
	double stiffness, damping, tolerance;
	bool merged;
};

drape_seam_def drape_default_seam_def(void)
{
	drape_seam_def d;
	memset(&d, 0, sizeof d);
	d.cloth.index = -1;
	d.stiffness = 50.0;
	d.damping = 0.05;
	d.tolerance = 0.002;
	d.max_speed = 2.0;
	d.free_gap = 0.6;
	d.cookie = DRAPE_COOKIE;
	return d;
}

void seams_free(drape_world* w)
{
	for (int32_t i = 0; i < w->model.seam_count; ++i) {
		free(w->model.seams[i].name);
		free(w->model.seams[i].pairs);
	}
	free(w->model.seams);
	w->model.seams = NULL;
	w->model.seam_count = w->model.seam_capacity = 0;
}

drape_seam_id drape_seam_add(drape_world* w, const drape_seam_def* def)
{
	drape_seam_id none = {-1};
	API_REQUIRE(w != NULL, none);
	if (!def || def->cookie != DRAPE_COOKIE) {
		world_fail(w, "seam def not initialised with drape_default_seam_def()");
		return none;
	}
	const char* name = def->name ? def->name : "seam";
	if (def->cloth.index < 0 || def->cloth.index >= w->model.cloth_count) {
		world_fail(w, "seam '%s': no cloth with index %d", name, def->cloth.index);
		return none;
	}
	const cloth_data* c = &w->model.cloths[def->cloth.index];
	if (c->model != DRAPE_MODEL_TRIANGLES) {
		world_fail(w, "seam '%s': cloth '%s' is mass_spring; seams join triangles cloths", name, c->name);
		return none;
	}
	if (def->pair_count < 1 || !def->pairs) {
		world_fail(w, "seam '%s' has no particle pairs", name);
		return none;
	}
	if (!(isfinite(def->stiffness) && def->stiffness > 0.0 && isfinite(def->damping) && def->damping >= 0.0 &&
	      isfinite(def->tolerance) && def->tolerance > 0.0 && def->max_speed > 0.0 && def->free_gap > 0.0)) {
		world_fail(w,
			   "seam '%s': stiffness and tolerance must be finite and > 0, damping >= 0, max_speed and free_gap > 0 "
			   "(INFINITY: no cap)",
			   name);
		return none;
	}
	for (int32_t k = 0; k < 2 * def->pair_count; ++k)
		if (def->pairs[k] < 0 || def->pairs[k] >= c->mesh.vertex_count) {
			world_fail(w, "seam '%s': pair %d names vertex %d, but cloth '%s' has %d", name, k / 2, def->pairs[k],
				   c->name, c->mesh.vertex_count);
			return none;
		}
	seam_data sd = {.cloth = def->cloth.index,
			.pair_count = def->pair_count,
			.stiffness = def->stiffness,
			.damping = def->damping,
			.tolerance = def->tolerance};
	sd.name = strdup(name);
	sd.pairs = malloc(2 * (size_t)def->pair_count * sizeof(int32_t));
	bool ok = sd.name && sd.pairs && core_reserve((void**)&w->model.seams, &w->model.seam_capacity, w->model.seam_count + 1, sizeof(seam_data)) &&
		  core_reserve((void**)&w->model.ms_springs, &w->model.ms_spring_capacity, w->model.ms_spring_count + def->pair_count,
			       sizeof(ms_spring));
	if (!ok) {
		free(sd.name);
		free(sd.pairs);
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory adding seam '%s'", name);
		return none;
	}
	memcpy(sd.pairs, def->pairs, 2 * (size_t)def->pair_count * sizeof(int32_t));
	for (int32_t k = 0; k < def->pair_count; ++k) {
		if (sd.pairs[2 * k] == sd.pairs[2 * k + 1]) continue; /* already one particle */
		ms_spring* s = &w->model.ms_springs[w->model.ms_spring_count++];
		*s = (ms_spring){.v = {c->first_vertex + sd.pairs[2 * k], c->first_vertex + sd.pairs[2 * k + 1]},
				 .family = FAMILY_OTHER,
				 .rest = 0.0,
				 .k = def->stiffness,
				 .kd = def->damping,
				 .max_speed = def->max_speed,
				 .free_gap = def->free_gap,
				 .kd_free = def->damping};
	}
	w->model.seams[w->model.seam_count] = sd;
	w->model.dirty = true;
	return (drape_seam_id){w->model.seam_count++};
}

void seams_cap_speed(drape_world* w, bool implicit)
{
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) {
		ms_spring* s = &w->model.ms_springs[k];
		if (!(s->free_gap > 0.0)) continue; /* not a seam's */
		const double len = v3_len(v3_sub(w->state.x[s->v[1]], w->state.x[s->v[0]]));
		/* Once far, capped until the merge: released at the free gap, a pair arriving at
		 * max_speed would meet the full pull undamped and slam into its partner. */
		if (len > s->free_gap) s->capped = true;
		s->kd = s->kd_free + (implicit && s->capped ? s->k * len / s->max_speed : 0.0);
	}
}

int32_t drape_seam_count(const drape_world* w)
{
	API_REQUIRE(w != NULL, 0);
	return w->model.seam_count;
}

int32_t* seam_pairs(drape_world* w, int32_t s, int32_t* pair_count)
{
	*pair_count = w->model.seams[s].pair_count;
	return w->model.seams[s].pairs;
}

void seam_set_merged(drape_world* w, int32_t s, bool merged) { w->model.seams[s].merged = merged; }

bool seams_open(const drape_world* w)
{
	for (int32_t s = 0; s < w->model.seam_count; ++s)
		if (!w->model.seams[s].merged) return true;
	return false;
}

/* The seam an id names; NULL after the assert function for a NULL world or a bad id. */
static const seam_data* seam_get(const drape_world* w, drape_seam_id id)
{
	if (!API_CHECK(w != NULL) || !API_CHECK(id.index >= 0 && id.index < w->model.seam_count)) return NULL;
	return &w->model.seams[id.index];
}

const char* drape_seam_name(const drape_world* w, drape_seam_id id)
{
	const seam_data* s = seam_get(w, id);
	return s ? s->name : "";
}

bool drape_seam_merged(const drape_world* w, drape_seam_id id)
{
	const seam_data* s = seam_get(w, id);
	return s && s->merged;
}

double drape_seam_gap(const drape_world* w, drape_seam_id id)
{
	const seam_data* s = seam_get(w, id);
	if (!s || s->merged) return 0.0;
	const int32_t n0 = w->model.cloths[s->cloth].first_vertex;
	double gap = 0.0;
	for (int32_t k = 0; k < s->pair_count; ++k) {
		double d = v3_len(v3_sub(w->state.x[n0 + s->pairs[2 * k]], w->state.x[n0 + s->pairs[2 * k + 1]]));
		if (!(d <= gap)) gap = d; /* NaN propagates as "not closed" */
	}
	return gap;
}

double drape_seam_widest_pair(const drape_world* w, drape_seam_id id, int32_t* pair, double a[3], double b[3])
{
	const seam_data* s = seam_get(w, id);
	if (pair) *pair = -1;
	if (!s || s->merged) return 0.0;
	const int32_t n0 = w->model.cloths[s->cloth].first_vertex;
	double gap = -1.0;
	int32_t widest = 0;
	for (int32_t k = 0; k < s->pair_count; ++k) {
		double d = v3_len(v3_sub(w->state.x[n0 + s->pairs[2 * k]], w->state.x[n0 + s->pairs[2 * k + 1]]));
		if (!(d <= gap)) gap = d, widest = k;
		if (isnan(d)) break;
	}
	if (s->pair_count == 0) return 0.0;
	if (pair) *pair = widest;
	if (a) v3_store(w->state.x[n0 + s->pairs[2 * widest]], a);
	if (b) v3_store(w->state.x[n0 + s->pairs[2 * widest + 1]], b);
	return gap;
}

int32_t* seams_sewn_pairs(const drape_world* w, int32_t* count)
{
	int32_t c = 0;
	for (int32_t s = 0; s < w->model.seam_count; ++s)
		if (!w->model.seams[s].merged) c += w->model.seams[s].pair_count;
	int32_t* pairs = malloc(2 * (size_t)(c > 0 ? c : 1) * sizeof *pairs);
	if (!pairs) return NULL;
	int32_t k = 0;
	for (int32_t s = 0; s < w->model.seam_count; ++s) {
		const seam_data* sd = &w->model.seams[s];
		if (sd->merged) continue;
		const int32_t n0 = w->model.cloths[sd->cloth].first_vertex;
		for (int32_t j = 0; j < 2 * sd->pair_count; ++j) pairs[k++] = n0 + sd->pairs[j];
	}
	*count = c;
	return pairs;
}

double seams_max_gap(const drape_world* w)
{
	double gap = 0.0;
	for (int32_t s = 0; s < w->model.seam_count; ++s) {
		double g = drape_seam_gap(w, (drape_seam_id){s});
		if (!(g <= gap)) gap = g;
	}
	return gap;
}

/* The world index of particle p after cloth c (first particle n0, nv of them) is renumbered by
 * local map `local` and shrinks by -delta particles. */
static inline int32_t remap(int32_t p, int32_t n0, int32_t nv, const int32_t* local, int32_t delta)
{
	if (p < n0) return p;
	if (p < n0 + nv) return n0 + local[p - n0];
	return p + delta;
}

/* Merges the pairs of the seams flagged in `closing` (all on cloth ci). */
static drape_status merge_cloth(drape_world* w, int32_t ci, const bool* closing)
{
	cloth_data* c = &w->model.cloths[ci];
	const int32_t n0 = c->first_vertex, nv = c->mesh.vertex_count, tc = c->mesh.triangle_count;
	const char* first_name = "";
	int32_t* parent = malloc((size_t)nv * sizeof *parent);
	int32_t* local = malloc((size_t)nv * sizeof *local);
	int32_t* tris = malloc(3 * (size_t)tc * sizeof *tris);
	hinge_ref* hr = NULL;
	int32_t hinge_count = 0;
	drape_status status = DRAPE_OK;
	if (!parent || !local || !tris) {
		status = DRAPE_ERROR_MEMORY;
		world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory merging seams of cloth '%s'", c->name);
		goto done;
	}
	for (int32_t i = 0; i < nv; ++i) parent[i] = i;
	for (int32_t s = 0; s < w->model.seam_count; ++s) {
		if (!closing[s]) continue;
		if (!first_name[0]) first_name = w->model.seams[s].name;
		for (int32_t k = 0; k < w->model.seams[s].pair_count; ++k) {
			int32_t a = core_find_root(parent, w->model.seams[s].pairs[2 * k]), b = core_find_root(parent, w->model.seams[s].pairs[2 * k + 1]);
			/* the lower index is the root: the numbering does not depend on pair order */
			if (a < b) parent[b] = a;
			else if (b < a) parent[a] = b;
		}
	}
	int32_t nnew = 0;
	for (int32_t i = 0; i < nv; ++i)
		if (core_find_root(parent, i) == i) local[i] = nnew++;
	for (int32_t i = 0; i < nv; ++i) local[i] = local[core_find_root(parent, i)];
	for (int32_t t = 0; t < tc; ++t) {
		for (int k = 0; k < 3; ++k) tris[3 * t + k] = local[c->mesh.triangles[3 * t + k]];
		if (tris[3 * t] == tris[3 * t + 1] || tris[3 * t + 1] == tris[3 * t + 2] || tris[3 * t] == tris[3 * t + 2]) {
			status = world_fail(w, "seam '%s' of cloth '%s': merging would collapse triangle %d (two of its corners are "
					       "paired)",
					    first_name, c->name, t);
			goto done;
		}
	}
	char err[256];
	if (!topology_hinges(tris, tc, &hr, &hinge_count, err, sizeof err)) {
		if (core_failure_status(err) == DRAPE_ERROR_MEMORY) {
			status = world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory merging seam '%s' of cloth '%s'", first_name, c->name);
			goto done;
		}
		status = world_fail(w, "seam '%s' of cloth '%s': merging would make the mesh non-manifold: %s", first_name,
				    c->name, err);
		goto done;
	}
	/* A cloth bent by tensor elements (docs/bending.md) has hinges only as its fold guard: its
	 * elements are rebuilt on the sewn topology instead, reaching across the closed seam. */
	const bool tensor = c->model == DRAPE_MODEL_TRIANGLES && c->bend_model == DRAPE_BEND_TENSOR;
	const int32_t hinge_count_all = hinge_count;
	if (tensor && !(c->fold_guard > 0.0)) hinge_count = 0;
	/* Reserve before changing anything, so that a failure leaves the world as it was. */
	int32_t other_hinges = 0, other_btens = 0;
	for (int32_t k = 0; k < w->model.hinge_count; ++k)
		other_hinges += !(w->model.hinges[k].v[0] >= n0 && w->model.hinges[k].v[0] < n0 + nv);
	for (int32_t k = 0; k < w->model.btens_count; ++k)
		other_btens += !(w->model.btens[k].v[0] >= n0 && w->model.btens[k].v[0] < n0 + nv);
	double* positions = malloc(3 * (size_t)nnew * sizeof(double));
	double* mass_sum = calloc((size_t)nnew, sizeof(double));
	vec3* mx = calloc((size_t)nnew, sizeof(vec3));
	vec3* mv = calloc((size_t)nnew, sizeof(vec3));
	if (!positions || !mass_sum || !mx || !mv ||
	    !core_reserve((void**)&w->model.hinges, &w->model.hinge_capacity, other_hinges + hinge_count, sizeof(hinge_elem)) ||
	    (tensor && !core_reserve((void**)&w->model.btens, &w->model.btens_capacity, other_btens + tc, sizeof(bend_tensor_elem)))) {
		free(positions);
		free(mass_sum);
		free(mx);
		free(mv);
		status = world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory merging seams of cloth '%s'", c->name);
		goto done;
	}
	/* Momentum-conserving merge: m = sum m_i, x = sum m_i x_i / m, v = sum m_i v_i / m. */
	for (int32_t i = 0; i < nv; ++i) {
		const int32_t p = n0 + i, q = local[i];
		mass_sum[q] += w->model.mass[p];
		mx[q] = v3_madd(mx[q], w->model.mass[p], w->state.x[p]);
		mv[q] = v3_madd(mv[q], w->model.mass[p], w->state.v[p]);
	}
	const int32_t delta = nnew - nv;
	for (int32_t q = 0; q < nnew; ++q) {
		w->state.x[n0 + q] = v3_scale(mx[q], 1.0 / mass_sum[q]);
		w->state.v[n0 + q] = v3_scale(mv[q], 1.0 / mass_sum[q]);
		w->model.mass[n0 + q] = mass_sum[q];
		v3_store(w->state.x[n0 + q], &positions[3 * q]);
	}
	memmove(&w->state.x[n0 + nnew], &w->state.x[n0 + nv], (size_t)(w->model.particle_count - n0 - nv) * sizeof(vec3));
	memmove(&w->state.v[n0 + nnew], &w->state.v[n0 + nv], (size_t)(w->model.particle_count - n0 - nv) * sizeof(vec3));
	memmove(&w->model.mass[n0 + nnew], &w->model.mass[n0 + nv], (size_t)(w->model.particle_count - n0 - nv) * sizeof(double));
	w->model.particle_count += delta;
	free(mass_sum);
	free(mx);
	free(mv);

	for (int32_t t = 0; t < w->model.triangle_count; ++t)
		for (int k = 0; k < 3; ++k) w->model.triangles[t].v[k] = remap(w->model.triangles[t].v[k], n0, nv, local, delta);
	int32_t kept = 0;
	for (int32_t k = 0; k < w->model.hinge_count; ++k) {
		hinge_elem e = w->model.hinges[k];
		if (e.v[0] >= n0 && e.v[0] < n0 + nv) continue; /* this cloth's: rebuilt below */
		for (int j = 0; j < 4; ++j) e.v[j] = remap(e.v[j], n0, nv, local, delta);
		w->model.hinges[kept++] = e;
	}
	free(c->mesh.positions);
	c->mesh.positions = positions;
	c->mesh.vertex_count = nnew;
	memcpy(c->mesh.triangles, tris, 3 * (size_t)tc * sizeof(int32_t));
	for (int32_t k = 0; k < hinge_count; ++k) {
		cloth_hinge_init(w, &c->mesh, &c->material, &hr[k], n0, c->first_triangle, &w->model.hinges[kept + k]);
		w->model.hinges[kept + k].guard = c->fold_guard;
	}
	w->model.hinge_count = kept + hinge_count;
	kept = 0;
	for (int32_t k = 0; k < w->model.btens_count; ++k) {
		bend_tensor_elem e = w->model.btens[k];
		if (e.v[0] >= n0 && e.v[0] < n0 + nv) continue; /* this cloth's: rebuilt below */
		for (int j = 0; j < BEND_TENSOR_NODES; ++j) e.v[j] = remap(e.v[j], n0, nv, local, delta);
		w->model.btens[kept++] = e;
	}
	w->model.btens_count = kept;
	if (tensor) {
		/* The uv and material are those the elements were first built from, so only a failed
		 * allocation of the builder's scratch can stop it here. */
		drape_cloth_def def = drape_default_cloth_def();
		def.mesh = &c->mesh;
		def.material = c->material;
		status = cloth_bend_tensors(w, &def, hr, hinge_count_all, c->first_triangle, n0);
		if (status != DRAPE_OK) goto done;
	}
	kept = 0;
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) {
		ms_spring s = w->model.ms_springs[k];
		s.v[0] = remap(s.v[0], n0, nv, local, delta);
		s.v[1] = remap(s.v[1], n0, nv, local, delta);
		if (s.v[0] != s.v[1]) w->model.ms_springs[kept++] = s; /* a closed seam's springs vanish */
	}
	w->model.ms_spring_count = kept;
	for (int32_t k = 0; k < w->model.ms_bend_count; ++k)
		for (int j = 0; j < 3; ++j) w->model.ms_bends[k].v[j] = remap(w->model.ms_bends[k].v[j], n0, nv, local, delta);
	for (int32_t k = 0; k < w->model.constraint_count; ++k)
		w->model.constraints[k].particle = remap(w->model.constraints[k].particle, n0, nv, local, delta);
	for (int32_t k = 0; k < w->model.spring_count; ++k) w->model.springs[k].particle = remap(w->model.springs[k].particle, n0, nv, local, delta);
	for (int32_t s = 0; s < w->model.seam_count; ++s) {
		if (w->model.seams[s].cloth != ci) continue;
		if (closing[s]) w->model.seams[s].merged = true;
		for (int32_t k = 0; k < 2 * w->model.seams[s].pair_count; ++k) w->model.seams[s].pairs[k] = local[w->model.seams[s].pairs[k]];
	}
	for (int32_t j = ci + 1; j < w->model.cloth_count; ++j) w->model.cloths[j].first_vertex += delta;
	w->model.dirty = true;
done:
	free(parent);
	free(local);
	free(tris);
	free(hr);
	return status;
}

drape_status drape_world_close_seams(drape_world* w, int32_t* closed)
{
	if (closed) *closed = 0;
	API_REQUIRE(w != NULL, DRAPE_ERROR_INVALID);
	bool* closing = calloc((size_t)(w->model.seam_count > 0 ? w->model.seam_count : 1), 1);
	if (!closing) return world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory closing seams");
	drape_status status = DRAPE_OK;
	for (int32_t ci = 0; ci < w->model.cloth_count && status == DRAPE_OK; ++ci) {
		int32_t count = 0;
		for (int32_t s = 0; s < w->model.seam_count; ++s) {
			closing[s] = w->model.seams[s].cloth == ci && !w->model.seams[s].merged &&
				     drape_seam_gap(w, (drape_seam_id){s}) < w->model.seams[s].tolerance;
			count += closing[s];
		}
		if (count == 0) continue;
		status = merge_cloth(w, ci, closing);
		if (status == DRAPE_OK && closed) *closed += count;
	}
	free(closing);
	return status;
}

drape_status drape_seam_merge(drape_world* w, drape_seam_id id)
{
	API_REQUIRE(w != NULL, DRAPE_ERROR_INVALID);
	API_REQUIRE(id.index >= 0 && id.index < w->model.seam_count, DRAPE_ERROR_INVALID);
	if (w->model.seams[id.index].merged) return DRAPE_OK;
	bool* closing = calloc((size_t)w->model.seam_count, 1);
	if (!closing) return world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory merging a seam");
	closing[id.index] = true;
	drape_status status = merge_cloth(w, w->model.seams[id.index].cloth, closing);
	free(closing);
	return status;
}
