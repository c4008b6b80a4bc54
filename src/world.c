/* The world: creation, the buffers built per topology change, and the stepping loop with
 * adaptive step control (sec. 7) around the implicit step of solver/implicit.c. */
#include "world.h"
#include "seam.h"

#include "core.h"
#include "drape_limits.h"
#include "collide/cloth_untangle.h"
#include "collide/solid.h"
#include "solver/constraints.h"
#include "solver/bdf2.h"
#include "solver/bend_tensor_assemble.h"
#include "solver/implicit.h"
#include "solver/integrators.h"
#include "solver/line_solve.h"
#include "solver/reduce.h"
#include "solver/step_grid.h"
#include "solver/strain_change.h"
#include "solver/thread_policy.h"

#include <math.h>
#include <stdlib.h>
#include <omp.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The step attempts one call of drape_world_step may make: STEP_BUDGET_SLACK (rejections, halving
 * and the small steps of a transient) plus STEP_BUDGET_PER_MAX_DT for each max_dt of the duration
 * (docs/reliability.md, "Bounded work"). */
#define STEP_BUDGET_SLACK 2000
#define STEP_BUDGET_PER_MAX_DT 50.0
/* Strain-change rejections in a row at one step size after which a scheme with explicit parts
 * never tries that size again. */
#define EXPLICIT_REPEATS 3

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

/* NULL for an invalid def; the reason goes to stderr since there is no world to hold it. */
drape_world* drape_world_create(const drape_world_def* def)
{
	const char* why = NULL;
	if (!def || def->cookie != DRAPE_COOKIE) why = "world def not initialised with drape_default_world_def()";
	else if (!finite3(def->gravity) || !finite3(def->air_velocity) || !finite3(def->gust_amplitude) ||
		 !isfinite(def->gust_frequency))
		why = "gravity, air velocity and gusts must be finite";
	else if (!(v3_len(v3_load(def->gravity)) <= LIMIT_ACCELERATION))
		why = "|gravity| is beyond drape's range (1000 m/s^2, docs/reliability.md)";
	else if (!(v3_len(v3_load(def->air_velocity)) + v3_len(v3_load(def->gust_amplitude)) <= LIMIT_AIR_SPEED))
		why = "|air velocity| + |gust amplitude| is beyond drape's range (100 m/s, docs/reliability.md)";
	else if (!(isfinite(def->max_dt) && def->max_dt > 0.0)) why = "max_dt must be finite and > 0";
	else if (!(isfinite(def->min_dt) && def->min_dt > 0.0 && def->min_dt <= def->max_dt))
		why = "min_dt must be > 0 and <= max_dt";
	else if (!(def->cg_tolerance > 0.0 && def->cg_tolerance < 1.0)) why = "cg_tolerance must lie in (0, 1)";
	else if (def->cg_max_iterations < 1) why = "cg_max_iterations must be >= 1";
	else if (!(def->stretch_change_limit > 0.0)) why = "stretch_change_limit must be > 0";
	else if (!(def->strain_limit >= 0.0 && def->strain_limit <= 0.5))
		why = "strain_limit must lie in [0, 0.5] (0: off)";
	else if (def->threads < 0) why = "threads must be >= 0";
	else if (!(isfinite(def->cloth_thickness) && def->cloth_thickness > 0.0)) why = "cloth_thickness must be finite and > 0";
	else if (!(def->cloth_thickness <= LIMIT_THICKNESS))
		why = "cloth_thickness is beyond drape's range (0.05 m, docs/reliability.md)";
	else if (!(isfinite(def->cloth_repulsion) && def->cloth_repulsion >= 0.0 && isfinite(def->cloth_repulsion_damping) &&
		   def->cloth_repulsion_damping >= 0.0 && isfinite(def->cloth_friction_damping) &&
		   def->cloth_friction_damping >= 0.0))
		why = "cloth repulsion stiffness and dampings must be finite and >= 0";
	else if (!(def->cloth_repulsion <= LIMIT_REPULSION))
		why = "cloth repulsion stiffness is beyond drape's range (1e6 N/m, docs/reliability.md)";
	else if ((int)def->integrator < 0 || def->integrator >= DRAPE_INTEGRATOR_COUNT) why = "unknown integrator";
	else if (!(isfinite(def->onoff_c1) && def->onoff_c1 > 0.0)) why = "onoff_c1 must be finite and > 0";
	else if (def->self_collision && !integrator_supports_cloth_contact(def->integrator))
		why = "cloth/cloth contact (self_collision) needs an integrator with the general implicit solve "
		      "(backward_euler, imex_bend, imex_bend_shear); turn it off for this integrator "
		      "(scene: cloth_contact.enabled false)";
	else if ((int)def->preconditioner < 0 || def->preconditioner >= DRAPE_PRECONDITIONER_COUNT) why = "unknown preconditioner";
	else if (!drape_preconditioner_available(def->preconditioner))
		why = "preconditioners 'cholesky', 'two_level' and 'multigrid' need CHOLMOD, which this build lacks (install "
		      "libsuitesparse-dev and rebuild, or use block_jacobi)";
	else if (def->refactor_iterations < 1) why = "refactor_iterations must be >= 1";
	else if (def->newton_iterations < 1 || def->newton_iterations > LIMIT_NEWTON_ITERATIONS)
		why = "newton_iterations must lie in [1, 100]";
	else if (def->newton_iterations > 1 && def->integrator != DRAPE_INTEGRATOR_BACKWARD_EULER &&
		 def->integrator != DRAPE_INTEGRATOR_BDF2)
		why = "newton_iterations above 1 needs a fully implicit integrator (backward_euler or bdf2)";
	if (why) {
		if (def && def->cookie == DRAPE_COOKIE && drape_integrator_name(def->integrator))
			fprintf(stderr, "drape_world_create (integrator %s): %s\n", drape_integrator_name(def->integrator), why);
		else
			fprintf(stderr, "drape_world_create: %s\n", why);
		return NULL;
	}
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
	limit_set_free(&w->limit);
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
		  bsr_builder_finish(&bb, &w->A) && bend_tensor_build(w) &&
		  pcg_workspace_init(&w->pcg, n) && limit_set_init(&w->limit, n);
	/* The factorisation serves only the general implicit solve (SOLVE_PCG). */
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_CHOLESKY && integrator_supports_cloth_contact(w->def.integrator))
		ok = (w->cholesky = cholesky_create(&w->A)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_TWO_LEVEL && integrator_supports_cloth_contact(w->def.integrator))
		ok = (w->two_level = two_level_create(&w->A, TWO_LEVEL_MAX_FACTORED)) != NULL;
	if (ok && w->def.preconditioner == DRAPE_PRECONDITIONER_MULTIGRID && integrator_supports_cloth_contact(w->def.integrator))
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
			 * proximity search finds the same and rejects the step (STEP_CROWDED) */
			if (w->intersections < 0) w->intersections = 0;
		}
	}
	if (!ok) {
		free_solver(w);
		if (w->cancel && *w->cancel) {
			/* the rest neighbours' build looks at the flag (collide/rest_neighbours.h) */
			world_fail(w, "interrupted while preparing the solver for %d particles", n);
			return DRAPE_ERROR_INTERRUPTED;
		}
		world_fail(w, "out of memory preparing the solver for %d particles", n);
		return DRAPE_ERROR_MEMORY;
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

static const char* outcome_text(step_outcome o)
{
	switch (o) {
	case STEP_CG_BREAKDOWN:
		return "the linear system lost positive definiteness (CG breakdown)";
	case STEP_NONFINITE:
		return "the proposed state held NaN or Inf";
	case STEP_STRETCH_CHANGE:
		return "a triangle's stretch changed drastically";
	case STEP_PENETRATION:
		return "particles kept crossing into solids";
	case STEP_SELF_INTERSECTION:
		return "the cloth would pass through itself";
	case STEP_FORCED:
		return "forced rejection";
	case STEP_DIVERGING:
		return "the explicit part of the integrator diverged (strain jumped by more than 25 % in one step)";
	case STEP_CANCELLED:
		return "interrupted";
	case STEP_CROWDED:
		return "the cloth is crushed onto or flung through itself: its contact search found more than "
		       "100 overlapping triangle pairs per triangle (a stiffness the solver cannot follow at any "
		       "step, or a pin or solid crushing the cloth)";
	default:
		return "accepted";
	}
}

/* Cloth particles inside a solid by more than its thickness (docs/characters.md): once per call,
 * at the solids' placement at the end of the last step. */
static int32_t world_count_penetrating(drape_world* w)
{
	int32_t count = 0;
	for (int32_t i = 0; i < w->particle_count; ++i)
		for (int32_t k = 0; k < w->solid_count; ++k)
			if (solid_inside_end(w, k, w->x[i], w->solids[k].thickness)) {
				++count;
				break;
			}
	return count;
}

drape_status drape_world_step(drape_world* w, double duration)
{
	if (!(isfinite(duration) && duration >= 0.0)) return world_fail(w, "step duration must be finite and >= 0");
	if (w->particle_count == 0 || duration == 0.0) {
		w->time += duration;
		return DRAPE_OK;
	}
	if (w->dirty) {
		drape_status s = world_prepare(w);
		if (s != DRAPE_OK) return s;
		/* Cloth through itself as the topology changed (a seam merge snapped a knot in): unfold
		 * it before going on (collide/cloth_untangle.c). Not after steps that could not avoid
		 * an intersection: a cloth that keeps crushing itself (a stiff pull at whole-frame steps)
		 * would be smoothed at every frame, and the jolts never let it come to rest. */
		if (w->intersections > 0) w->stats.self_intersections = cloth_untangle(w);
	}
	if (w->def.threads == 0) {
		w->threads = thread_policy_free_cores(w->threads_max);
		if (w->pairs_ready) cloth_pairs_set_threads(&w->pairs, w->threads);
	}
	const double t_end = w->time + duration;
	/* Bounded work (docs/solver.md, "Runs that cannot make progress"): a call may take many small
	 * steps, but not without limit; a scene that needs more is reported, not ground through. */
	const double frames = duration / w->def.max_dt;
	const int64_t budget = STEP_BUDGET_SLACK + (int64_t)(STEP_BUDGET_PER_MAX_DT * (frames < 1e6 ? frames : 1e6));
	int64_t attempts = 0;
	step_grid grid;
	step_grid_begin(&grid, w->time, duration, w->def.max_dt);
	while (w->time < t_end) {
		if (w->cancel && *w->cancel) {
			world_fail(w, "interrupted at t = %.6g s", w->time);
			return DRAPE_ERROR_INTERRUPTED;
		}
		if (++attempts > budget) {
			world_fail(w,
				   "simulation cannot make progress at t = %.6g s: %lld steps (accepted and rejected) did not "
				   "cover %.6g s, the step size is down to %.3g s; look for a setting that forces tiny steps "
				   "(stiffness, speeds of pins or solids, gravity)",
				   w->time, (long long)(attempts - 1), duration, w->control.dt);
			step_control_init(&w->control, w->def.max_dt, w->def.min_dt);
			return DRAPE_ERROR_DIVERGED;
		}
		/* On the grid of H / 2^k, landing exactly on t_end (solver/step_grid.h). */
		int64_t units;
		bool full;
		const double h = step_grid_next(&grid, w->control.dt, &units, &full);
		step_report r;
		/* BDF2: backward Euler's step of size hs from the extrapolated state (solver/bdf2.c). */
		const double hs = bdf2_begin(w, h);
		implicit_step(w, w->time + (h - hs), hs, &r);
		w->stats.eval_ms += r.eval_ms;
		w->stats.cg_ms += r.cg_ms;
		w->stats.cs_ms += r.cs_ms;
		w->stats.cc_ms += r.cc_ms;
		w->stats.cg_iterations += r.cg_iterations;
		w->stats.solves += r.solves;
		w->stats.release_solves += r.release_solves;
		w->stats.contacts_released += r.released;
		if (r.outcome == STEP_CANCELLED) {
			bdf2_reject(w);
			world_fail(w, "interrupted at t = %.6g s, in the middle of a step", w->time);
			return DRAPE_ERROR_INTERRUPTED;
		}
		if (r.outcome != STEP_ACCEPTED) {
			bdf2_reject(w);
			w->stats.rejected++;
			if (r.outcome == STEP_STRETCH_CHANGE || r.outcome == STEP_DIVERGING) w->stats.rejected_strain++;
			else if (r.outcome == STEP_PENETRATION) w->stats.rejected_penetration++;
			else if (r.outcome == STEP_SELF_INTERSECTION) w->stats.rejected_intersection++;
			else w->stats.rejected_other++;
			/* A failure at a step shortened to the grid is judged at that size. */
			if (h < w->control.dt) w->control.dt = h;
			/* An explicit part that diverged at h diverges at h again (its limit is set by the
			 * stiffness, not the state): never grow back to it. */
			/* An explicit scheme whose step of one size keeps failing the strain-change test
			 * (rather than diverging outright) is beyond its stable step there too: the control
			 * would swing between that size and half of it (docs/integrators.md). Not IMEX: there
			 * the strain of the implicit stretch also answers pins and contact, which can ask
			 * for small steps as often under backward Euler. */
			const bool explicit_scheme = (w->def.integrator == DRAPE_INTEGRATOR_FORWARD_EULER ||
						      w->def.integrator == DRAPE_INTEGRATOR_SYMPLECTIC_EULER) &&
						     w->def.min_dt < w->def.max_dt;
			const bool unstable = r.outcome == STEP_DIVERGING ||
					      (explicit_scheme && r.outcome == STEP_STRETCH_CHANGE &&
					       step_control_repeats(&w->control, h) >= EXPLICIT_REPEATS);
			if (unstable && 0.5 * h < w->control.max_dt) w->control.max_dt = 0.5 * h;
			/* That cap is for good: the budget's share per max_dt must cover it (the slack is for
			 * transients), and so must what is left of the budget (docs/reliability.md, "Bounded
			 * work"). Otherwise stop now, instead of creeping through the rest of the budget. */
			if (unstable) {
				const double left = t_end - w->time, cap = w->control.max_dt;
				if (cap < w->def.max_dt / STEP_BUDGET_PER_MAX_DT || left / cap > (double)(budget - attempts)) {
					world_fail(w,
						   "simulation cannot make progress at t = %.6g s: the explicit part of %s %s at "
						   "steps of %.3g s, 1/%.0f of max_dt = %.3g s, and drape allows %g steps per max_dt "
						   "(the %.6g s left need over %.0f); set solver.max_dt to at most %.3g s (the budget "
						   "grows with it), lower the stiffness or damping, or use backward_euler or bdf2",
						   w->time, drape_integrator_name(w->def.integrator),
						   r.outcome == STEP_DIVERGING ? "diverged" : "kept failing the strain-change test", h,
						   w->def.max_dt / h,
						   w->def.max_dt, STEP_BUDGET_PER_MAX_DT, left, left / cap, cap);
					step_control_init(&w->control, w->def.max_dt, w->def.min_dt);
					return DRAPE_ERROR_DIVERGED;
				}
			}
			if (!step_control_reject(&w->control)) {
				char where[96] = "";
				bool strain = r.outcome == STEP_STRETCH_CHANGE || r.outcome == STEP_DIVERGING;
				if (strain && r.worst_spring >= 0)
					snprintf(where, sizeof where, " (strain of spring %d (particles %d-%d) changed by %.3g)",
						 r.worst_spring, w->ms_springs[r.worst_spring].v[0], w->ms_springs[r.worst_spring].v[1],
						 r.stretch_change);
				else if (strain)
					snprintf(where, sizeof where, " (|w| of triangle %d changed by %.3g)", r.worst_triangle,
						 r.stretch_change);
				world_fail(w,
					   "simulation cannot continue at t = %.6g s: the step size fell below min_dt = %g s; "
					   "last rejection: %s%s",
					   w->time, w->def.min_dt, outcome_text(r.outcome), where);
				step_control_init(&w->control, w->def.max_dt, w->def.min_dt);
				return DRAPE_ERROR_DIVERGED;
			}
			continue;
		}
		bdf2_accept(w, h);
		vec3* t;
		t = w->x, w->x = w->x1, w->x1 = t;
		t = w->v, w->v = w->v1, w->v1 = t;
		t = w->dv, w->dv = w->dv_last, w->dv_last = t;
		strain_change_accept_limit(w);
		w->h_last = hs; /* the size dv belongs to (BDF2's is shorter) */
		w->adi_phase ^= 1; /* ADI: the other stretch family is implicit next */
		w->time = step_grid_advance(&grid, units);
		constraints_store_forces(w, hs);
		w->stats.contacts_released += contacts_commit(w, hs);
		cloth_contacts_commit_pinches(w);
		w->intersections = r.intersections;
		w->stats.self_intersections = r.intersections;
		w->stats.seam_gap = seams_max_gap(w);
		w->stats.cloth_contacts = w->repulsion_count;
		w->stats.solid_contacts = 0;
		for (int32_t i = 0; w->solid_count > 0 && i < w->particle_count; ++i) w->stats.solid_contacts += w->contacts[i].solid >= 0;
		w->stats.steps++;
		if (w->stats.min_dt == 0.0 || h < w->stats.min_dt) w->stats.min_dt = h;
		if (h > w->stats.max_dt) w->stats.max_dt = h;
		if (full) step_control_accept(&w->control);
	}
	w->stats.penetrating = world_count_penetrating(w);
	return DRAPE_OK;
}

double drape_world_time(const drape_world* w) { return w->time; }

void drape_world_set_cancel(drape_world* w, const volatile int* flag)
{
	w->cancel = flag;
	w->pairs.cancel = flag;
}

drape_status drape_world_set_gravity(drape_world* w, const double gravity[3])
{
	if (!finite3(gravity)) return world_fail(w, "gravity must be finite");
	if (!(v3_len(v3_load(gravity)) <= LIMIT_ACCELERATION))
		return world_fail(w, "|gravity| = %g m/s^2 is beyond drape's range (%g m/s^2)", v3_len(v3_load(gravity)),
				  LIMIT_ACCELERATION);
	for (int k = 0; k < 3; ++k) w->def.gravity[k] = gravity[k];
	return DRAPE_OK;
}

drape_stats drape_world_get_stats(const drape_world* w) { return w->stats; }

void drape_world_reset_stats(drape_world* w) { memset(&w->stats, 0, sizeof w->stats); }

double drape_world_kinetic_energy(const drape_world* w)
{
	double e = 0.0;
	for (int32_t i = 0; i < w->particle_count; ++i) e += 0.5 * w->mass[i] * v3_len2(w->v[i]);
	return e;
}

double drape_world_elastic_energy(const drape_world* w)
{
	double e = 0.0;
	for (int32_t t = 0; t < w->triangle_count; ++t) {
		const triangle_elem* el = &w->triangles[t];
		if (el->springs_only) continue;
		vec3 x[3] = {w->x[el->v[0]], w->x[el->v[1]], w->x[el->v[2]]};
		condition c;
		stretch_condition(&el->rest, x, el->bu, el->bv, &c);
		e += 0.5 * el->k_stretch * (c.c[0] * c.c[0] + c.c[1] * c.c[1]);
		shear_condition(&el->rest, x, false, &c);
		e += 0.5 * el->k_shear * c.c[0] * c.c[0];
	}
	for (int32_t k = 0; k < w->hinge_count; ++k) {
		const hinge_elem* el = &w->hinges[k];
		vec3 x[4] = {w->x[el->v[0]], w->x[el->v[1]], w->x[el->v[2]], w->x[el->v[3]]};
		double theta = bend_guarded(bend_angle(x), el->guard);
		e += 0.5 * el->k * theta * theta;
	}
	e += bend_tensor_world_energy(w);
	for (int32_t k = 0; k < w->ms_spring_count; ++k) {
		const ms_spring* s = &w->ms_springs[k];
		vec3 x[2] = {w->x[s->v[0]], w->x[s->v[1]]};
		e += ms_spring_energy(x, s->rest, s->k);
	}
	for (int32_t k = 0; k < w->ms_bend_count; ++k) {
		const ms_bend* b = &w->ms_bends[k];
		vec3 x[3] = {w->x[b->v[0]], w->x[b->v[1]], w->x[b->v[2]]};
		e += ms_bend_energy(x, b->wt, b->k, b->s);
	}
	return e;
}
