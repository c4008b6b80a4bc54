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
	step_control_init(&w->state.control, def->max_dt, def->min_dt);
	w->model.dirty = true;
	return w;
}

static void free_solver(drape_world* w)
{
	colouring_free(&w->work.triangle_colours);
	colouring_free(&w->work.hinge_colours);
	colouring_free(&w->work.ms_spring_colours);
	colouring_free(&w->work.ms_bend_colours);
	free(w->work.line_slots);
	free(w->work.line_m);
	free(w->work.line_v);
	free(w->work.w_mid);
	free(w->work.e_mid);
	w->work.line_slots = NULL;
	w->work.line_m = NULL;
	w->work.line_v = NULL;
	w->work.w_mid = w->work.e_mid = NULL;
	free(w->work.reuse_A);
	free(w->work.reuse_r);
	free(w->work.reuse_used);
	free(w->work.reuse_y);
	free(w->work.reuse_dirty);
	w->work.reuse_A = NULL;
	w->work.reuse_r = w->work.reuse_y = NULL;
	w->work.reuse_used = w->work.reuse_dirty = NULL;
	w->work.reuse_valid = false;
	bend_tensor_free(w);
	limit_set_free(&w->work.limit);
	free(w->state.x_prev);
	free(w->state.v_prev);
	free(w->work.x_keep);
	free(w->work.v_keep);
	w->state.x_prev = w->state.v_prev = w->work.x_keep = w->work.v_keep = NULL;
	free(w->work.newton_x);
	free(w->work.newton_v);
	free(w->work.newton_y);
	free(w->work.newton_z);
	w->work.newton_x = w->work.newton_v = w->work.newton_y = w->work.newton_z = NULL;
	w->state.h_prev = 0.0;
	bsr_free(&w->work.A);
	pcg_workspace_free(&w->work.pcg);
	free(w->state.limit_from);
	free(w->state.limit_to);
	free(w->work.limit_pending);
	w->state.limit_from = w->state.limit_to = w->work.limit_pending = NULL;
	w->state.limit_moved = w->work.limit_pending_moved = false;
	cholesky_destroy(w->work.cholesky);
	w->work.cholesky = NULL;
	two_level_destroy(w->work.two_level);
	w->work.two_level = NULL;
	multigrid_destroy(w->work.multigrid);
	w->work.multigrid = NULL;
	free(w->work.b);
	free(w->work.dv);
	free(w->state.dv_last);
	free(w->work.z);
	free(w->work.y);
	free(w->work.e);
	free(w->work.x1);
	free(w->work.v1);
	free(w->work.S);
	free(w->work.constrained);
	free(w->work.partial);
	free(w->state.contacts);
	w->state.contacts = NULL;
	if (w->work.pairs_ready) cloth_pairs_free(&w->work.pairs);
	w->work.pairs_ready = false;
	w->work.b = w->work.dv = w->state.dv_last = w->work.z = w->work.y = w->work.e = w->work.x1 = w->work.v1 = NULL;
	w->work.S = NULL;
	w->work.constrained = NULL;
	w->work.partial = NULL;
}

void drape_world_destroy(drape_world* w)
{
	if (!w) return;
	free_solver(w);
	for (int32_t i = 0; i < w->model.cloth_count; ++i) {
		free(w->model.cloths[i].name);
		drape_mesh_free(&w->model.cloths[i].mesh);
	}
	for (int32_t i = 0; i < w->model.constraint_count; ++i) free(w->model.constraints[i].keyframes);
	for (int32_t i = 0; i < w->model.solid_count; ++i) solid_free(&w->model.solids[i]);
	seams_free(w);
	free(w->model.solids);
	free(w->work.query_hits);
	free(w->state.repulsions);
	cloth_layers_free(&w->model.layers);
	free(w->work.query_stack);
	free(w->model.cloths);
	free(w->model.constraints);
	free(w->model.springs);
	free(w->model.triangles);
	free(w->model.hinges);
	free(w->model.ms_springs);
	free(w->model.ms_bends);
	free(w->model.btens);
	free(w->state.x);
	free(w->state.v);
	free(w->model.mass);
	free(w->warnings);
	free(w);
}

drape_status workspace_prepare(drape_world* w)
{
	free_solver(w);
	const int32_t n = w->model.particle_count;
	size_t m = (size_t)(n > 0 ? n : 1);
	int32_t longest = n > w->model.triangle_count ? n : w->model.triangle_count;
	/* The tensor bending's second ring stays out of A's block pattern (bsr.h, the scalar part)
	 * except for the preconditioners that factor or coarsen A by its pattern. */
	const bool btens_blocks =
		w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY || w->def.preconditioner == DRAPE_PRECONDITIONER_MULTIGRID;
	bsr_builder bb;
	bool ok = colouring_build(&w->work.triangle_colours, w->model.triangles, w->model.triangle_count, 3, sizeof(triangle_elem), n) &&
		  colouring_build(&w->work.hinge_colours, w->model.hinges, w->model.hinge_count, 4, sizeof(hinge_elem), n) &&
		  colouring_build(&w->work.ms_spring_colours, w->model.ms_springs, w->model.ms_spring_count, 2, sizeof(ms_spring), n) &&
		  colouring_build(&w->work.ms_bend_colours, w->model.ms_bends, w->model.ms_bend_count, 3, sizeof(ms_bend), n) &&
		  bsr_builder_init(&bb, n) &&
		  bsr_builder_add_elements(&bb, w->model.triangles, w->model.triangle_count, 3, sizeof(triangle_elem)) &&
		  bsr_builder_add_elements(&bb, w->model.hinges, w->model.hinge_count, 4, sizeof(hinge_elem)) &&
		  bsr_builder_add_elements(&bb, w->model.ms_springs, w->model.ms_spring_count, 2, sizeof(ms_spring)) &&
		  bsr_builder_add_elements(&bb, w->model.ms_bends, w->model.ms_bend_count, 3, sizeof(ms_bend)) &&
		  bsr_builder_add_elements(&bb, w->model.btens, btens_blocks ? w->model.btens_count : 0, BEND_TENSOR_NODES, sizeof(bend_tensor_elem)) &&
		  bsr_builder_finish(&bb, &w->work.A) && pcg_workspace_init(&w->work.pcg, n) && bend_tensor_build(w) &&
		  limit_set_init(&w->work.limit, n);
	/* The factorisation serves only the general implicit solve (SOLVE_PCG). */
	const bool general = integrator_supports_cloth_contact(w->def.integrator);
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY && general)
		ok = (w->work.cholesky = cholesky_create(&w->work.A)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_TWO_LEVEL && general)
		ok = (w->work.two_level = two_level_create(&w->work.A, TWO_LEVEL_MAX_FACTORED)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_MULTIGRID && general)
		ok = (w->work.multigrid = multigrid_create(&w->work.A, MULTIGRID_MAX_FACTORED, true)) != NULL;
	if (ok) {
		w->work.b = malloc(m * sizeof(vec3));
		w->work.dv = malloc(m * sizeof(vec3));
		w->state.dv_last = malloc(m * sizeof(vec3));
		w->state.h_last = 0.0;
		w->work.z = malloc(m * sizeof(vec3));
		w->work.y = malloc(m * sizeof(vec3));
		w->work.e = calloc(m, sizeof(vec3));
		w->work.x1 = malloc(m * sizeof(vec3));
		w->work.v1 = malloc(m * sizeof(vec3));
		w->work.S = malloc(m * sizeof(mat3));
		w->work.constrained = calloc(m, 1);
		w->work.partial = malloc((size_t)(2 * reduce_chunks(longest) + 2) * sizeof(double));
		w->state.contacts = malloc(m * sizeof(contact));
		/* Line solves: scratch for the longest grid line, per thread. */
		int32_t longest_line = 1;
		for (int32_t c = 0; c < w->model.cloth_count; ++c) {
			if (w->model.cloths[c].nu > longest_line) longest_line = w->model.cloths[c].nu;
			if (w->model.cloths[c].nv > longest_line) longest_line = w->model.cloths[c].nv;
		}
		w->work.line_capacity = longest_line;
		w->work.line_slots = malloc(4 * m * sizeof(int32_t));
		w->work.line_m = malloc((size_t)4 * (size_t)longest_line * (size_t)w->threads_max * sizeof(mat3));
		w->work.line_v = malloc((size_t)3 * (size_t)longest_line * (size_t)w->threads_max * sizeof(vec3));
		w->work.w_mid = malloc(m * sizeof(vec3));
		w->work.e_mid = malloc(m * sizeof(vec3));
		size_t elems = (size_t)w->model.triangle_count + (size_t)w->model.hinge_count + (size_t)w->model.ms_spring_count +
			       (size_t)w->model.ms_bend_count;
		size_t elem_vertices = 3 * (size_t)w->model.triangle_count + 4 * (size_t)w->model.hinge_count +
				       2 * (size_t)w->model.ms_spring_count + 3 * (size_t)w->model.ms_bend_count;
		w->work.reuse_A = malloc((size_t)(w->work.A.nnz > 0 ? w->work.A.nnz : 1) * sizeof(mat3));
		w->work.reuse_r = malloc((elem_vertices ? elem_vertices : 1) * sizeof(vec3));
		w->work.reuse_used = malloc(elems ? elems : 1);
		w->work.reuse_y = malloc(m * sizeof(vec3));
		w->work.reuse_dirty = malloc(m);
		w->work.reuse_valid = false;
		w->state.limit_from = malloc(m * sizeof(vec3));
		w->state.limit_to = malloc(m * sizeof(vec3));
		w->work.limit_pending = malloc(m * sizeof(vec3));
		w->state.limit_moved = w->work.limit_pending_moved = false;
		w->state.x_prev = malloc(m * sizeof(vec3));
		w->state.v_prev = malloc(m * sizeof(vec3));
		w->work.x_keep = malloc(m * sizeof(vec3));
		w->work.v_keep = malloc(m * sizeof(vec3));
		w->state.h_prev = 0.0;
		if (w->def.newton_iterations > 1) {
			w->work.newton_x = malloc(m * sizeof(vec3));
			w->work.newton_v = malloc(m * sizeof(vec3));
			w->work.newton_y = malloc(m * sizeof(vec3));
			w->work.newton_z = calloc(m, sizeof(vec3));
			ok = w->work.newton_x && w->work.newton_v && w->work.newton_y && w->work.newton_z;
		}
		ok = ok && w->state.limit_from && w->state.limit_to && w->work.limit_pending && w->state.x_prev && w->state.v_prev && w->work.x_keep && w->work.v_keep && w->work.b && w->work.dv && w->state.dv_last && w->work.z && w->work.y && w->work.e && w->work.x1 && w->work.v1 && w->work.S && w->work.constrained && w->work.partial &&
		     w->state.contacts && w->work.line_slots && w->work.line_m && w->work.line_v && w->work.w_mid && w->work.e_mid && w->work.reuse_A && w->work.reuse_r &&
		     w->work.reuse_used && w->work.reuse_y && w->work.reuse_dirty;
		for (int32_t i = 0; ok && i < n; ++i) w->state.contacts[i] = (contact){.solid = -1};
		if (ok && w->def.self_collision) {
			/* the detector wants the triangles as plain vertex triples */
			int32_t* tris = malloc(3 * (size_t)(w->model.triangle_count > 0 ? w->model.triangle_count : 1) * sizeof *tris);
			ok = tris != NULL;
			for (int32_t t = 0; ok && t < w->model.triangle_count; ++t)
				for (int c = 0; c < 3; ++c) tris[3 * t + c] = w->model.triangles[t].v[c];
			ok = ok && cloth_pairs_init(&w->work.pairs, tris, w->model.triangle_count, n);
			w->work.pairs.cancel = w->cancel;
			w->work.pairs_ready = ok;
			ok = ok && cloth_contacts_init_rest(w) && seams_set_sewn(w);
			if (ok) cloth_pairs_set_threads(&w->work.pairs, w->threads);
			if (ok) cloth_pairs_set_skin(&w->work.pairs, CLOTH_PAIRS_SKIN * w->def.cloth_thickness);
			free(tris);
			if (ok) w->state.intersections = cloth_pairs_intersections(&w->work.pairs, w->state.x, NULL, 0);
			/* over the search's budget (a cloth crushed onto itself): the first step's
			 * proximity search finds the same and rejects the step (STEP_CROWDED); otherwise
			 * interrupted or out of memory, both reported below */
			if (ok && w->state.intersections < 0 && !w->work.pairs.overloaded) ok = false;
			if (w->state.intersections < 0) w->state.intersections = 0;
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
	for (int32_t t = 0; t < w->model.triangle_count; ++t)
		for (int a = 0; a < 3; ++a)
			for (int c = 0; c < 3; ++c) w->model.triangles[t].slot[3 * a + c] = bsr_find(&w->work.A, w->model.triangles[t].v[a], w->model.triangles[t].v[c]);
	for (int32_t k = 0; k < w->model.hinge_count; ++k)
		for (int a = 0; a < 4; ++a)
			for (int c = 0; c < 4; ++c) w->model.hinges[k].slot[4 * a + c] = bsr_find(&w->work.A, w->model.hinges[k].v[a], w->model.hinges[k].v[c]);
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k)
		for (int a = 0; a < 2; ++a)
			for (int c = 0; c < 2; ++c)
				w->model.ms_springs[k].slot[2 * a + c] = bsr_find(&w->work.A, w->model.ms_springs[k].v[a], w->model.ms_springs[k].v[c]);
	for (int32_t k = 0; k < w->model.ms_bend_count; ++k)
		for (int a = 0; a < 3; ++a)
			for (int c = 0; c < 3; ++c) w->model.ms_bends[k].slot[3 * a + c] = bsr_find(&w->work.A, w->model.ms_bends[k].v[a], w->model.ms_bends[k].v[c]);
	line_slots_build(w);
	w->model.dirty = false;
	return DRAPE_OK;
}

/* The stages of step/step.h, as Box2D's b2World_Step runs its step context: steps of the adaptive
 * control (sec. 7) until the call's duration is covered, each posed, constrained, assembled, solved
 * and judged, then committed or retried at half its size. */
drape_status drape_world_step(drape_world* w, double duration)
{
	if (!(isfinite(duration) && duration >= 0.0)) return world_fail(w, "step duration must be finite and >= 0");
	if (w->model.particle_count == 0 || duration == 0.0) {
		w->state.time += duration;
		return DRAPE_OK;
	}
	step_context c;
	step_context_init(&c, w, duration);
	/* Stage PREPARE: the world's solver buffers after a topology change, then the step's. */
	drape_status s = w->model.dirty ? workspace_prepare(w) : DRAPE_OK;
	if (s == DRAPE_OK) step_prepare(&c);
	while (s == DRAPE_OK && w->state.time < c.t_end) {
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
	return w->state.time;
}

void drape_world_set_cancel(drape_world* w, const volatile int* flag)
{
	API_REQUIRE_VOID(w != NULL);
	w->cancel = flag;
	w->work.pairs.cancel = flag;
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
	return w->state.stats;
}

void drape_world_reset_stats(drape_world* w)
{
	API_REQUIRE_VOID(w != NULL);
	memset(&w->state.stats, 0, sizeof w->state.stats);
}

double drape_world_kinetic_energy(const drape_world* w)
{
	API_REQUIRE(w != NULL, NAN);
	return world_kinetic_energy_at(w, w->state.v);
}

double drape_world_elastic_energy(const drape_world* w)
{
	API_REQUIRE(w != NULL, NAN);
	return world_elastic_energy_at(w, w->state.x);
}
