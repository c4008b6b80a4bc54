/* Variable-step BDF2 (docs/integrators.md) on top of the implicit step of sec. 3. With
 * omega = h_n / h_{n-1}, the two-step formula
 *     x_{n+1} - (1+omega)^2/(1+2 omega) x_n + omega^2/(1+2 omega) x_{n-1} = (1+omega)/(1+2 omega) h v_{n+1}
 * (and the same for v with M^-1 f) reads x_{n+1} = xb + beta h v_{n+1}, v_{n+1} = vb + beta h M^-1 f(x_{n+1}, v_{n+1})
 * with beta = (1+omega)/(1+2 omega) and xb, vb the extrapolations: exactly backward Euler's step of
 * size beta h from (xb, vb). So BDF2 reuses eq. 18, the modified PCG, constraints (their targets
 * at t_{n+1}), contacts, position alteration and adaptive stepping unchanged: v0 is vb, and
 * xb - x_n joins y in the free directions, so the forces are still linearised about x_n. The first step, and any step more than twice the previous one (where
 * variable-step BDF2 loses zero-stability, omega > 1 + sqrt 2), is a backward Euler step. */
#include "bdf2.h"

#include <string.h>

/* The largest step ratio taken with the two-step formula (zero-stable below 1 + sqrt 2). */
#define BDF2_MAX_RATIO 2.01 /* the step control doubles: 2 plus rounding */

static void swap_vectors(vec3** a, vec3** b)
{
	vec3* t = *a;
	*a = *b;
	*b = t;
}

double bdf2_begin(drape_world* w, double h)
{
	w->work.bdf2_active = false;
	if (w->def.integrator != DRAPE_INTEGRATOR_BDF2 || !(w->state.h_prev > 0.0)) return h;
	const double omega = h / w->state.h_prev;
	if (omega > BDF2_MAX_RATIO) return h;
	const double den = 1.0 + 2.0 * omega;
	const double a = (1.0 + omega) * (1.0 + omega) / den, b = omega * omega / den;
	const int32_t n = w->model.particle_count;
	/* x stays x_n, where the forces are linearised (as backward Euler does); the extrapolation
	 * enters as a shift xb - x_n of the free directions, like eq. 18's y (bdf2_shift). */
	for (int32_t i = 0; i < n; ++i) {
		w->work.x_keep[i] = v3_sub(v3_scale(w->state.x[i], a - 1.0), v3_scale(w->state.x_prev[i], b));
		w->work.v_keep[i] = v3_sub(v3_scale(w->state.v[i], a), v3_scale(w->state.v_prev[i], b));
	}
	swap_vectors(&w->state.v, &w->work.v_keep);
	w->work.bdf2_active = true;
	return (1.0 + omega) / den * h;
}

void bdf2_shift(drape_world* w)
{
	if (!w->work.bdf2_active) return;
	const int32_t n = w->model.particle_count;
	for (int32_t i = 0; i < n; ++i) {
		const vec3 s = w->work.constrained[i] ? m3_mulv(w->work.S[i], w->work.x_keep[i]) : w->work.x_keep[i];
		w->work.y[i] = v3_add(w->work.y[i], s);
	}
}

void bdf2_reject(drape_world* w)
{
	if (!w->work.bdf2_active) return;
	swap_vectors(&w->state.v, &w->work.v_keep);
	w->work.bdf2_active = false;
}

void bdf2_accept(drape_world* w, double h)
{
	if (w->def.integrator != DRAPE_INTEGRATOR_BDF2) return;
	memcpy(w->state.x_prev, w->state.x, (size_t)w->model.particle_count * sizeof *w->state.x);
	if (w->work.bdf2_active) swap_vectors(&w->state.v_prev, &w->work.v_keep); /* v_keep holds v_n */
	else memcpy(w->state.v_prev, w->state.v, (size_t)w->model.particle_count * sizeof *w->state.v);
	w->work.bdf2_active = false;
	w->state.h_prev = h;
}
