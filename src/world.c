/* The world: creation, the buffers built per topology change, and the step, which runs the stages
 * of step/step.h (adaptive step control, sec. 7, around the implicit step of sec. 3). */
#include "world.h"
#include "world_energy.h"
#include "seam.h"

#include "api_assert.h"
#include "core.h"
#include "drape_limits.h"
#include "integrator.h"
#include "collide/solid.h"
#include "step/bend_tensor_assemble.h"
#include "step/integrators.h"
#include "step/line_solve.h"
#include "step/strain_limit.h"
#include "solver/reduce.h"
#include "step/step.h"

#include <math.h>
#include <stdlib.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

drape_world_def drape_default_world_def(void)
{
	drape_world_def d;
	memset(&d, 0, sizeof d);
	d.gravity[2] = -9.81;
	d.max_dt = 1.0 / 30.0;
	d.min_dt = 1e-6;
	d.cg_tolerance = 1e-3;
	d.cg_max_iterations = 1000;
	d.warm_start = true;
	d.adaptive = true;
	d.stretch_change_limit = 0.015; /* measured: docs/solver.md, "Accurate by default" */
	d.strain_limit = 0.01;          /* measured: docs/solver.md, "Strain limiting" */
	d.threads = 0;
	d.self_collision = true;
	d.cloth_thickness = 0.004;
	d.cloth_repulsion = 200.0;
	d.cloth_repulsion_damping = 0.05;
	d.cloth_friction_damping = 0.02;
	d.integrator = DRAPE_INTEGRATOR_BACKWARD_EULER;
	d.onoff_c1 = 2.0;
	/* Measured: docs/solver.md, "Preconditioners". */
	d.preconditioner = drape_preconditioner_available(DRAPE_PRECONDITIONER_TWO_LEVEL) ? DRAPE_PRECONDITIONER_TWO_LEVEL
											     : DRAPE_PRECONDITIONER_BLOCK_JACOBI;
	d.refactor_iterations = 1;
	d.newton_iterations = 1;
	d.cookie = DRAPE_COOKIE;
	return d;
}

static bool finite3(const double* a) { return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]); }

/* NULL for a def that drape_world_def_check refuses (it tells the caller why: there is no world to
 * hold the message) or when out of memory. */
drape_world* drape_world_create(const drape_world_def* def)
{
	API_REQUIRE(def != NULL, NULL);
	if (drape_world_def_check(def, NULL) != DRAPE_OK) return NULL;
	drape_world* w = calloc(1, sizeof *w);
	if (!w) return NULL;
	w->def = *def;
	w->threads = def->threads > 0 ? def->threads : omp_get_max_threads();
	w->threads_max = w->threads;
	step_control_init(&w->control, def->max_dt, def->min_dt);
	w->dirty = true;
	return w;
}

static void free_solver(drape_world* w)
{
	colouring_free(&w->triangle_colours);
	colouring_free(&w->hinge_colours);
	colouring_free(&w->ms_spring_colours);
	colouring_free(&w->ms_bend_colours);
	free(w->line_slots);
	free(w->line_m);
	free(w->line_v);
	free(w->w_mid);
	free(w->e_mid);
	w->line_slots = NULL;
	w->line_m = NULL;
	w->line_v = NULL;
	w->w_mid = w->e_mid = NULL;
	free(w->reuse_A);
	free(w->reuse_r);
	free(w->reuse_used);
	free(w->reuse_y);
	free(w->reuse_dirty);
	w->reuse_A = NULL;
	w->reuse_r = w->reuse_y = NULL;
	w->reuse_used = w->reuse_dirty = NULL;
	w->reuse_valid = false;
	bend_tensor_free(w);
	limit_set_free(&w->limit);
	free(w->x_prev);
	free(w->v_prev);
	free(w->x_keep);
	free(w->v_keep);
	w->x_prev = w->v_prev = w->x_keep = w->v_keep = NULL;
	free(w->newton_x);
	free(w->newton_v);
	free(w->newton_y);
	free(w->newton_z);
	w->newton_x = w->newton_v = w->newton_y = w->newton_z = NULL;
	w->h_prev = 0.0;
	bsr_free(&w->A);
	pcg_workspace_free(&w->pcg);
	free(w->limit_from);
	free(w->limit_to);
	free(w->limit_pending);
	w->limit_from = w->limit_to = w->limit_pending = NULL;
	w->limit_moved = w->limit_pending_moved = false;
	cholesky_destroy(w->cholesky);
	w->cholesky = NULL;
	two_level_destroy(w->two_level);
	w->two_level = NULL;
	multigrid_destroy(w->multigrid);
	w->multigrid = NULL;
	free(w->b);
	free(w->dv);
	free(w->dv_last);
	free(w->z);
	free(w->y);
	free(w->e);
	free(w->x1);
	free(w->v1);
	free(w->S);
	free(w->constrained);
	free(w->partial);
	free(w->contacts);
	w->contacts = NULL;
	if (w->pairs_ready) cloth_pairs_free(&w->pairs);
	w->pairs_ready = false;
	w->b = w->dv = w->dv_last = w->z = w->y = w->e = w->x1 = w->v1 = NULL;
	w->S = NULL;
	w->constrained = NULL;
	w->partial = NULL;
}

void drape_world_destroy(drape_world* w)
{
	if (!w) return;
	free_solver(w);
	for (int32_t i = 0; i < w->cloth_count; ++i) {
		free(w->cloths[i].name);
		drape_mesh_free(&w->cloths[i].mesh);
	}
	for (int32_t i = 0; i < w->constraint_count; ++i) free(w->constraints[i].keyframes);
	for (int32_t i = 0; i < w->solid_count; ++i) solid_free(&w->solids[i]);
	seams_free(w);
	free(w->solids);
	free(w->query_hits);
	free(w->repulsions);
	cloth_layers_free(&w->layers);
	free(w->query_stack);
	free(w->cloths);
	free(w->constraints);
	free(w->springs);
	free(w->triangles);
	free(w->hinges);
	free(w->ms_springs);
	free(w->ms_bends);
	free(w->btens);
	free(w->x);
	free(w->v);
	free(w->mass);
	free(w->warnings);
	free(w);
}

drape_status world_prepare(drape_world* w)
{
	free_solver(w);
	const int32_t n = w->particle_count;
	size_t m = (size_t)(n > 0 ? n : 1);
	int32_t longest = n > w->triangle_count ? n : w->triangle_count;
	/* The tensor bending's second ring stays out of A's block pattern (bsr.h, the scalar part)
	 * except for the preconditioners that factor or coarsen A by its pattern. */
	const bool btens_blocks =
		w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY || w->def.preconditioner == DRAPE_PRECONDITIONER_MULTIGRID;
	bsr_builder bb;
	bool ok = colouring_build(&w->triangle_colours, w->triangles, w->triangle_count, 3, sizeof(triangle_elem), n) &&
		  colouring_build(&w->hinge_colours, w->hinges, w->hinge_count, 4, sizeof(hinge_elem), n) &&
		  colouring_build(&w->ms_spring_colours, w->ms_springs, w->ms_spring_count, 2, sizeof(ms_spring), n) &&
		  colouring_build(&w->ms_bend_colours, w->ms_bends, w->ms_bend_count, 3, sizeof(ms_bend), n) &&
		  bsr_builder_init(&bb, n) &&
		  bsr_builder_add_elements(&bb, w->triangles, w->triangle_count, 3, sizeof(triangle_elem)) &&
		  bsr_builder_add_elements(&bb, w->hinges, w->hinge_count, 4, sizeof(hinge_elem)) &&
		  bsr_builder_add_elements(&bb, w->ms_springs, w->ms_spring_count, 2, sizeof(ms_spring)) &&
		  bsr_builder_add_elements(&bb, w->ms_bends, w->ms_bend_count, 3, sizeof(ms_bend)) &&
		  bsr_builder_add_elements(&bb, w->btens, btens_blocks ? w->btens_count : 0, BEND_TENSOR_NODES, sizeof(bend_tensor_elem)) &&
		  bsr_builder_finish(&bb, &w->A) && pcg_workspace_init(&w->pcg, n) && bend_tensor_build(w) &&
		  limit_set_init(&w->limit, n);
	/* The factorisation serves only the general implicit solve (SOLVE_PCG). */
	const bool general = integrator_supports_cloth_contact(w->def.integrator);
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY && general)
		ok = (w->cholesky = cholesky_create(&w->A)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_TWO_LEVEL && general)
		ok = (w->two_level = two_level_create(&w->A, TWO_LEVEL_MAX_FACTORED)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_MULTIGRID && general)
		ok = (w->multigrid = multigrid_create(&w->A, MULTIGRID_MAX_FACTORED, true)) != NULL;
	if (ok) {
		w->b = malloc(m * sizeof(vec3));
		w->dv = malloc(m * sizeof(vec3));
		w->dv_last = malloc(m * sizeof(vec3));
		w->h_last = 0.0;
		w->z = malloc(m * sizeof(vec3));
		w->y = malloc(m * sizeof(vec3));
		w->e = calloc(m, sizeof(vec3));
		w->x1 = malloc(m * sizeof(vec3));
		w->v1 = malloc(m * sizeof(vec3));
		w->S = malloc(m * sizeof(mat3));
		w->constrained = calloc(m, 1);
		w->partial = malloc((size_t)(2 * reduce_chunks(longest) + 2) * sizeof(double));
		w->contacts = malloc(m * sizeof(contact));
		/* Line solves: scratch for the longest grid line, per thread. */
		int32_t longest_line = 1;
		for (int32_t c = 0; c < w->cloth_count; ++c) {
			if (w->cloths[c].nu > longest_line) longest_line = w->cloths[c].nu;
			if (w->cloths[c].nv > longest_line) longest_line = w->cloths[c].nv;
		}
		w->line_capacity = longest_line;
		w->line_slots = malloc(4 * m * sizeof(int32_t));
		w->line_m = malloc((size_t)4 * (size_t)longest_line * (size_t)w->threads_max * sizeof(mat3));
		w->line_v = malloc((size_t)3 * (size_t)longest_line * (size_t)w->threads_max * sizeof(vec3));
		w->w_mid = malloc(m * sizeof(vec3));
		w->e_mid = malloc(m * sizeof(vec3));
		size_t elems = (size_t)w->triangle_count + (size_t)w->hinge_count + (size_t)w->ms_spring_count +
			       (size_t)w->ms_bend_count;
		size_t elem_vertices = 3 * (size_t)w->triangle_count + 4 * (size_t)w->hinge_count +
				       2 * (size_t)w->ms_spring_count + 3 * (size_t)w->ms_bend_count;
		w->reuse_A = malloc((size_t)(w->A.nnz > 0 ? w->A.nnz : 1) * sizeof(mat3));
		w->reuse_r = malloc((elem_vertices ? elem_vertices : 1) * sizeof(vec3));
		w->reuse_used = malloc(elems ? elems : 1);
		w->reuse_y = malloc(m * sizeof(vec3));
		w->reuse_dirty = malloc(m);
		w->reuse_valid = false;
		w->limit_from = malloc(m * sizeof(vec3));
		w->limit_to = malloc(m * sizeof(vec3));
		w->limit_pending = malloc(m * sizeof(vec3));
		w->limit_moved = w->limit_pending_moved = false;
		w->x_prev = malloc(m * sizeof(vec3));
		w->v_prev = malloc(m * sizeof(vec3));
		w->x_keep = malloc(m * sizeof(vec3));
		w->v_keep = malloc(m * sizeof(vec3));
		w->h_prev = 0.0;
		if (w->def.newton_iterations > 1) {
			w->newton_x = malloc(m * sizeof(vec3));
			w->newton_v = malloc(m * sizeof(vec3));
			w->newton_y = malloc(m * sizeof(vec3));
			w->newton_z = calloc(m, sizeof(vec3));
			ok = w->newton_x && w->newton_v && w->newton_y && w->newton_z;
		}
		ok = ok && w->limit_from && w->limit_to && w->limit_pending && w->x_prev && w->v_prev && w->x_keep && w->v_keep && w->b && w->dv && w->dv_last && w->z && w->y && w->e && w->x1 && w->v1 && w->S && w->constrained && w->partial &&
		     w->contacts && w->line_slots && w->line_m && w->line_v && w->w_mid && w->e_mid && w->reuse_A && w->reuse_r &&
		     w->reuse_used && w->reuse_y && w->reuse_dirty;
		for (int32_t i = 0; ok && i < n; ++i) w->contacts[i] = (contact){.solid = -1};
		if (ok && w->def.self_collision) {
			/* the detector wants the triangles as plain vertex triples */
			int32_t* tris = malloc(3 * (size_t)(w->triangle_count > 0 ? w->triangle_count : 1) * sizeof *tris);
			ok = tris != NULL;
			for (int32_t t = 0; ok && t < w->triangle_count; ++t)
				for (int c = 0; c < 3; ++c) tris[3 * t + c] = w->triangles[t].v[c];
			ok = ok && cloth_pairs_init(&w->pairs, tris, w->triangle_count, n);
			w->pairs.cancel = w->cancel;
			w->pairs_ready = ok;
			ok = ok && cloth_contacts_init_rest(w) && seams_set_sewn(w);
			if (ok) cloth_pairs_set_threads(&w->pairs, w->threads);
			if (ok) cloth_pairs_set_skin(&w->pairs, CLOTH_PAIRS_SKIN * w->def.cloth_thickness);
			free(tris);
			if (ok) w->intersections = cloth_pairs_intersections(&w->pairs, w->x, NULL, 0);
			/* over the search's budget (a cloth crushed onto itself): the first step's
			 * proximity search finds the same and rejects the step (STEP_CROWDED); otherwise
			 * interrupted or out of memory, both reported below */
			if (ok && w->intersections < 0 && !w->pairs.overloaded) ok = false;
			if (w->intersections < 0) w->intersections = 0;
		}
	}
	if (!ok) {
		free_solver(w);
		if (w->cancel && *w->cancel) {
			/* the rest neighbours' build looks at the flag (collide/rest_neighbours.h) */
			return world_fail_status(w, DRAPE_ERROR_INTERRUPTED, "interrupted while preparing the solver for %d particles", n);
		}
		return world_fail_status(w, DRAPE_ERROR_MEMORY, "out of memory preparing the solver for %d particles", n);
	}
	for (int32_t t = 0; t < w->triangle_count; ++t)
		for (int a = 0; a < 3; ++a)
			for (int c = 0; c < 3; ++c) w->triangles[t].slot[3 * a + c] = bsr_find(&w->A, w->triangles[t].v[a], w->triangles[t].v[c]);
	for (int32_t k = 0; k < w->hinge_count; ++k)
		for (int a = 0; a < 4; ++a)
			for (int c = 0; c < 4; ++c) w->hinges[k].slot[4 * a + c] = bsr_find(&w->A, w->hinges[k].v[a], w->hinges[k].v[c]);
	for (int32_t k = 0; k < w->ms_spring_count; ++k)
		for (int a = 0; a < 2; ++a)
			for (int c = 0; c < 2; ++c)
				w->ms_springs[k].slot[2 * a + c] = bsr_find(&w->A, w->ms_springs[k].v[a], w->ms_springs[k].v[c]);
	for (int32_t k = 0; k < w->ms_bend_count; ++k)
		for (int a = 0; a < 3; ++a)
			for (int c = 0; c < 3; ++c) w->ms_bends[k].slot[3 * a + c] = bsr_find(&w->A, w->ms_bends[k].v[a], w->ms_bends[k].v[c]);
	line_slots_build(w);
	w->dirty = false;
	return DRAPE_OK;
}

/* The stages of step/step.h, as Box2D's b2World_Step runs its step context: steps of the adaptive
 * control (sec. 7) until the call's duration is covered, each posed, constrained, assembled, solved
 * and judged, then committed or retried at half its size. */
drape_status drape_world_step(drape_world* w, double duration)
{
	if (!(isfinite(duration) && duration >= 0.0)) return world_fail(w, "step duration must be finite and >= 0");
	if (w->particle_count == 0 || duration == 0.0) {
		w->time += duration;
		return DRAPE_OK;
	}
	step_context c;
	step_context_init(&c, w, duration);
	/* Stage PREPARE: the world's solver buffers after a topology change, then the step's. */
	drape_status s = w->dirty ? world_prepare(w) : DRAPE_OK;
	if (s == DRAPE_OK) step_prepare(&c);
	while (s == DRAPE_OK && w->time < c.t_end) {
		if ((s = step_begin(&c)) != DRAPE_OK) break;
		step_pose_solids(&c);
		if (step_detect_contacts(&c))
			do {
				step_assemble(&c);
				step_solve(&c);
			} while (step_contacts_changed(&c));
		const step_verdict v = step_judge(&c);
		s = v.kind == STEP_VERDICT_ACCEPT ? step_commit(&c) : step_retry(&c, &v);
	}
	if (s == DRAPE_OK) step_finish(&c);
	return s;
}

double drape_world_time(const drape_world* w)
{
	API_REQUIRE(w != NULL, NAN);
	return w->time;
}

void drape_world_set_cancel(drape_world* w, const volatile int* flag)
{
	API_REQUIRE_VOID(w != NULL);
	w->cancel = flag;
	w->pairs.cancel = flag;
}

drape_status drape_world_set_gravity(drape_world* w, const double gravity[3])
{
	API_REQUIRE(w != NULL, DRAPE_ERROR_INVALID);
	if (!finite3(gravity)) return world_fail(w, "gravity must be finite");
	if (!(v3_len(v3_load(gravity)) <= LIMIT_ACCELERATION))
		return world_fail(w, "|gravity| = %g m/s^2 is beyond drape's range (%g m/s^2)", v3_len(v3_load(gravity)),
				  LIMIT_ACCELERATION);
	for (int k = 0; k < 3; ++k) w->def.gravity[k] = gravity[k];
	return DRAPE_OK;
}

drape_stats drape_world_get_stats(const drape_world* w)
{
	API_REQUIRE(w != NULL, (drape_stats){0});
	return w->stats;
}

void drape_world_reset_stats(drape_world* w)
{
	API_REQUIRE_VOID(w != NULL);
	memset(&w->stats, 0, sizeof w->stats);
}

double drape_world_kinetic_energy(const drape_world* w)
{
	API_REQUIRE(w != NULL, NAN);
	return world_kinetic_energy_at(w, w->v);
}

double drape_world_elastic_energy(const drape_world* w)
{
	API_REQUIRE(w != NULL, NAN);
	return world_elastic_energy_at(w, w->x);
}
