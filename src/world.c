/* The world: creation and destruction, and the step, which runs the stages of step/step.h
 * (adaptive step control, sec. 7, around the implicit step of sec. 3) after the workspace is
 * rebuilt for a topology change (step/workspace.c). */
#include "world.h"
#include "world_energy.h"
#include "seam.h"

#include "api_assert.h"
#include "core.h"
#include "drape_limits.h"
#include "collide/solid.h"
#include "step/bend_tensor_assemble.h"
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

void drape_world_destroy(drape_world* w)
{
	if (!w) return;
	workspace_free(w);
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
