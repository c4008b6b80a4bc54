/* drape_world_def_check: every rule on a world's settings, in one place, used by
 * drape_world_create and by the scene loader (io/scene.c), which puts the file, line and JSON path
 * before the reason (CHOLMOD's cholmod_check_* in spirit). Ranges: drape_limits.h. */
#include "api_assert.h"
#include "core.h"
#include "drape_limits.h"
#include "integrator.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

static drape_status broken(drape_def_error* e, const char* field, const char* fmt, ...) __attribute__((format(printf, 3, 4)));

static drape_status broken(drape_def_error* e, const char* field, const char* fmt, ...)
{
	if (e) {
		e->field = field;
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(e->reason, sizeof e->reason, fmt, ap);
		va_end(ap);
	}
	return DRAPE_ERROR_INVALID;
}

static bool finite3(const double* a) { return isfinite(a[0]) && isfinite(a[1]) && isfinite(a[2]); }

static double len3(const double* a) { return sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]); }

#define NOT_FINITE3 "must be finite, got (%g, %g, %g)"
#define ARGS3(a) (a)[0], (a)[1], (a)[2]

/* The settings that are not solver numbers: gravity, wind and cloth/cloth contact. */
static drape_status check_forces(const drape_world_def* d, drape_def_error* e)
{
	if (!finite3(d->gravity)) return broken(e, "gravity", NOT_FINITE3, ARGS3(d->gravity));
	if (!(len3(d->gravity) <= LIMIT_ACCELERATION))
		return broken(e, "gravity", "|gravity| = %g m/s^2 is beyond drape's range (%g m/s^2, docs/reliability.md)",
			      len3(d->gravity), LIMIT_ACCELERATION);
	if (!finite3(d->air_velocity)) return broken(e, "air_velocity", NOT_FINITE3, ARGS3(d->air_velocity));
	if (!finite3(d->gust_amplitude)) return broken(e, "gust_amplitude", NOT_FINITE3, ARGS3(d->gust_amplitude));
	if (!(isfinite(d->gust_frequency) && d->gust_frequency >= 0.0))
		return broken(e, "gust_frequency", "must be >= 0, got %g", d->gust_frequency);
	const double air = len3(d->air_velocity) + len3(d->gust_amplitude);
	if (!(air <= LIMIT_AIR_SPEED))
		return broken(e, "air_velocity",
			      "|velocity| + |gust_amplitude| = %g m/s is beyond drape's range (%g m/s, docs/reliability.md)", air,
			      LIMIT_AIR_SPEED);
	if (!(isfinite(d->cloth_thickness) && d->cloth_thickness > 0.0))
		return broken(e, "cloth_thickness", "must be > 0, got %g", d->cloth_thickness);
	if (!(d->cloth_thickness <= LIMIT_THICKNESS))
		return broken(e, "cloth_thickness",
			      "%g m is beyond drape's range (%g m): every particle would repel every triangle within it",
			      d->cloth_thickness, LIMIT_THICKNESS);
	if (!(d->cloth_repulsion >= 0.0)) return broken(e, "cloth_repulsion", "must be >= 0, got %g", d->cloth_repulsion);
	if (!(d->cloth_repulsion <= LIMIT_REPULSION))
		return broken(e, "cloth_repulsion", "%g N/m is beyond drape's range (%g N/m, docs/reliability.md)",
			      d->cloth_repulsion, LIMIT_REPULSION);
	if (!(isfinite(d->cloth_repulsion_damping) && d->cloth_repulsion_damping >= 0.0))
		return broken(e, "cloth_repulsion_damping", "must be >= 0, got %g", d->cloth_repulsion_damping);
	if (!(isfinite(d->cloth_friction_damping) && d->cloth_friction_damping >= 0.0))
		return broken(e, "cloth_friction_damping", "must be >= 0, got %g", d->cloth_friction_damping);
	return DRAPE_OK;
}

/* Step sizes, the linear solve and the integrator. */
static drape_status check_solver(const drape_world_def* d, drape_def_error* e)
{
	if (!(isfinite(d->max_dt) && d->max_dt > 0.0)) return broken(e, "max_dt", "must be > 0, got %g", d->max_dt);
	if (!(d->min_dt > 0.0 && d->min_dt <= d->max_dt))
		return broken(e, "min_dt", "must be > 0 and <= max_dt (%g s), got %g", d->max_dt, d->min_dt);
	if (!(d->cg_tolerance > 0.0 && d->cg_tolerance < 1.0))
		return broken(e, "cg_tolerance", "must be > 0 and < 1, got %g", d->cg_tolerance);
	if (d->cg_max_iterations < 1) return broken(e, "cg_max_iterations", "must be >= 1, got %d", d->cg_max_iterations);
	if (!(d->stretch_change_limit > 0.0))
		return broken(e, "stretch_change_limit", "must be > 0, got %g", d->stretch_change_limit);
	if (!(d->strain_limit >= 0.0 && d->strain_limit <= 0.5))
		return broken(e, "strain_limit", "must lie in [0, 0.5] (a strain; 0 turns strain limiting off), got %g",
			      d->strain_limit);
	if (d->threads < 0) return broken(e, "threads", "must be >= 0, got %d", d->threads);
	const char* integrator = drape_integrator_name(d->integrator);
	if (!integrator) return broken(e, "integrator", "unknown integrator %d", (int)d->integrator);
	if (!(isfinite(d->onoff_c1) && d->onoff_c1 > 0.0)) return broken(e, "onoff_c1", "must be > 0, got %g", d->onoff_c1);
	if (d->self_collision && !integrator_supports_cloth_contact(d->integrator))
		return broken(e, "self_collision",
			      "cloth/cloth contact needs integrator backward_euler, imex_bend or imex_bend_shear, not %s",
			      integrator);
	const char* preconditioner = drape_preconditioner_name(d->preconditioner);
	if (!preconditioner) return broken(e, "preconditioner", "unknown preconditioner %d", (int)d->preconditioner);
	if (!drape_preconditioner_available(d->preconditioner))
		return broken(e, "preconditioner",
			      "preconditioner '%s' needs CHOLMOD, which this build of drape lacks (install "
			      "libsuitesparse-dev and rebuild, or use block_jacobi)",
			      preconditioner);
	if (d->refactor_iterations < 1)
		return broken(e, "refactor_iterations", "must be >= 1, got %d", d->refactor_iterations);
	if (d->newton_iterations < 1 || d->newton_iterations > LIMIT_NEWTON_ITERATIONS)
		return broken(e, "newton_iterations", "must lie in [1, %d], got %d", LIMIT_NEWTON_ITERATIONS,
			      d->newton_iterations);
	if (d->newton_iterations > 1 && d->integrator != DRAPE_INTEGRATOR_BACKWARD_EULER &&
	    d->integrator != DRAPE_INTEGRATOR_BDF2)
		return broken(e, "newton_iterations", "above 1 needs a fully implicit integrator (backward_euler or bdf2), not %s",
			      integrator);
	return DRAPE_OK;
}

drape_status drape_world_def_check(const drape_world_def* def, drape_def_error* error)
{
	if (error) {
		error->field = NULL;
		error->reason[0] = '\0';
	}
	if (!API_CHECK(def != NULL)) return broken(error, "def", "is NULL");
	if (def->cookie != DRAPE_COOKIE)
		return broken(error, "cookie", "not set: the def was not initialised with drape_default_world_def()");
	drape_status st = check_forces(def, error);
	return st != DRAPE_OK ? st : check_solver(def, error);
}
