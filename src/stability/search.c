/* Stability trials and the search for the largest stable step (Boxerman 2003, sec. 6.3-6.5).
 * A trial is stable when every step succeeds, the rod does not tangle and the kinetic + elastic
 * energy stays below a multiple of the reference (drape_stab_run_trial). An unstable mode grows geometrically, so the measured
 * limit depends only logarithmically on the factors and the trial length (docs/stability.md). */
#include "stability/stability.h"

#include <math.h>
#include <stdio.h>

drape_stab_options drape_stab_default_options(void)
{
	drape_stab_options o;
	o.grid = 26;
	o.time = 1.0;
	o.min_steps = 400;
	o.k_min = 0.05;
	o.k_max = 20.0;
	o.resolution = 0.01;
	o.energy_factor = 10.0;
	o.threads = 1;
	o.onoff_c1 = 0.0;
	return o;
}

const char* drape_stab_check_options(const drape_stab_options* o)
{
	if (o->grid < 3 || o->grid > 2000) return "the grid must have 3 to 2000 particles per side";
	if (!(isfinite(o->time) && o->time > 0.0 && o->time <= 1e4)) return "the trial time must be a number of seconds in (0, 1e4]";
	if (o->min_steps < 1 || o->min_steps > 10000000) return "the minimum step count must be in 1..1e7";
	if (!(isfinite(o->k_min) && isfinite(o->k_max) && o->k_min > 0.0 && o->k_max > o->k_min))
		return "the step range must satisfy 0 < k_min < k_max";
	if (!(o->resolution > 0.0 && o->resolution < 1.0)) return "the bisection resolution must be in (0, 1)";
	if (!(o->energy_factor > 1.0 && isfinite(o->energy_factor))) return "the energy factor must be a number > 1";
	if (o->threads < 0) return "the thread count must be >= 0";
	return NULL;
}

static int64_t trial_steps(const drape_stab_options* o, double dt)
{
	double n = ceil(o->time / dt - 1e-9);
	return n > o->min_steps ? (int64_t)n : o->min_steps;
}

/* Runs the case for `steps` steps (rounded up to pairs) and records the largest energy; stops at a
 * failed step, a non-finite energy, a tangled rod (when `judge`), or an energy above `limit`. The
 * ADI schemes are two-step schemes (the paper's combined form (17) relates v^n+2 to v^n) whose
 * intermediate level has one spring family off or explicit: On-Off's off step is a free flight of
 * k^2 g that at large k stores energy far above the reference without growing. So the criteria look
 * at each pair of steps through its better state: the smaller energy, tangled only if both are. */
static void run_case(drape_stab_case* c, int64_t steps, double limit, bool judge, drape_stab_trial* t)
{
	t->max_energy = drape_stab_case_energy(c);
	double pair_energy = INFINITY;
	bool pair_tangled = true;
	for (t->steps = 0; t->steps < steps + (steps & 1); ++t->steps) {
		if (!drape_stab_case_step(c)) {
			t->failed = true;
			break;
		}
		double e = drape_stab_case_energy(c);
		if (!isfinite(e)) {
			t->failed = true;
			break;
		}
		pair_energy = fmin(pair_energy, e);
		pair_tangled = pair_tangled && judge && drape_stab_case_tangled(c);
		if ((t->steps & 1) == 0) continue;
		t->max_energy = fmax(t->max_energy, pair_energy);
		if (pair_energy > limit) {
			t->exceeded = true;
			break;
		}
		if (pair_tangled) {
			t->tangled = true;
			break;
		}
		pair_energy = INFINITY;
		pair_tangled = true;
	}
}

double drape_stab_reference_energy(drape_stab_setting s, const drape_stab_options* o)
{
	char err[256];
	double dt = 0.2 * drape_stab_unit(s, o->grid);
	drape_stab_case* c =
		drape_stab_case_create(s, DRAPE_INTEGRATOR_SYMPLECTIC_EULER, o->grid, dt, o->threads, 0.0, o->onoff_c1, err, sizeof err);
	if (!c) return NAN;
	drape_stab_trial t = {0};
	run_case(c, (int64_t)ceil(o->time / dt - 1e-9), INFINITY, false, &t);
	drape_stab_case_destroy(c);
	return t.failed ? NAN : t.max_energy;
}

drape_stab_trial drape_stab_run_trial(drape_stab_setting s, drape_integrator integrator, double k, double e_ref, const drape_stab_options* o)
{
	drape_stab_trial t = {0};
	char err[256];
	double dt = k * drape_stab_unit(s, o->grid);
	drape_stab_case* c = drape_stab_case_create(s, integrator, o->grid, dt, o->threads, 0.0, o->onoff_c1, err, sizeof err);
	if (!c) {
		t.failed = true;
		return t;
	}
	run_case(c, trial_steps(o, dt), o->energy_factor * e_ref, true, &t);
	t.stable = !t.failed && !t.tangled && !t.exceeded;
	drape_stab_case_destroy(c);
	return t;
}

drape_stab_limit drape_stab_find_limit(drape_stab_setting s, drape_integrator integrator, double e_ref, const drape_stab_options* o)
{
	drape_stab_limit r = {0};
	if (!drape_stab_applicable(s, integrator)) {
		r.kind = DRAPE_STAB_LIMIT_NOT_APPLICABLE;
		return r;
	}
	/* The coarse scan: the range's ends and the 1-2-5 values between them. */
	double scan[32];
	int n = 0;
	scan[n++] = o->k_min;
	for (double decade = 0.01; decade <= 1e4 && n < 30; decade *= 10.0) {
		const double m[3] = {1.0, 2.0, 5.0};
		for (int i = 0; i < 3 && n < 30; ++i) {
			double k = m[i] * decade;
			if (k > o->k_min * (1.0 + 1e-9) && k < o->k_max * (1.0 - 1e-9)) scan[n++] = k;
		}
	}
	scan[n++] = o->k_max;
	/* Up to the first unstable value; then only the range's end, to see whether it is stable
	 * again (a non-monotone region, which the bisection below would not describe). */
	int first_unstable = -1;
	for (int i = 0; i < n; ++i) {
		if (first_unstable >= 0 && i < n - 1) continue;
		drape_stab_trial t = drape_stab_run_trial(s, integrator, scan[i], e_ref, o);
		++r.trials;
		if (first_unstable < 0 && !t.stable) first_unstable = i;
		else if (first_unstable >= 0 && t.stable) {
			r.non_monotone = true;
			r.k_stable_again = scan[i];
		}
	}
	if (first_unstable < 0) {
		r.kind = DRAPE_STAB_LIMIT_ABOVE;
		r.k = o->k_max;
		return r;
	}
	if (first_unstable == 0) {
		r.kind = DRAPE_STAB_LIMIT_BELOW;
		r.k = o->k_min;
		return r;
	}
	/* Bisection in log k between the last stable and the first unstable scanned value. */
	double lo = scan[first_unstable - 1], hi = scan[first_unstable];
	while (hi / lo > 1.0 + o->resolution) {
		double mid = sqrt(lo * hi);
		drape_stab_trial t = drape_stab_run_trial(s, integrator, mid, e_ref, o);
		++r.trials;
		if (t.stable) lo = mid;
		else hi = mid;
	}
	r.kind = DRAPE_STAB_LIMIT_FOUND;
	r.k = lo;
	r.k_unstable = hi;
	return r;
}
