/* The step control's measure of a proposal (sec. 7): the largest change of a triangle's |w_u| or
 * |w_v| (or a mass-spring stretch spring's strain) between a start and the proposal x1, and, while
 * strain limiting is on, which start it is judged from (docs/solver.md, "Accurate by default",
 * "Strain limiting"). */
#include "strain_change.h"

#include "../forces/forces.h"
#include "../solver/reduce.h"

#include <math.h>
#include <string.h>

/* Whether every particle of an element is held by a contact or constraint (its filter S of sec. 5.3
 * is not the identity): its motion is the solids' and pins', not the integrator's alone. */
static bool held_element(const drape_world* w, const int32_t* v, int count)
{
	for (int k = 0; k < count; ++k)
		if (!w->work.constrained[v[k]]) return false;
	return true;
}

/* Keeps the larger change in *best and where in *at (a NaN counts as infinite). */
static void note(double d, int32_t j, double* best, int32_t* at)
{
	if (!(d <= *best)) {
		*best = isnan(d) ? INFINITY : d;
		*at = j;
	}
}

/* Largest change of |w_u| or |w_v| over the triangles between `from` (x, the step's start, or
 * another start, strain_change_judged) and x1 (sec. 7); with `held`, the held triangles'
 * (held_element) apart in it, and the free ones' returned. x1's w and lengths are kept (tri_w1): the
 * judge's energy reads them, and once accepted they are the next step's start's, for its strain
 * measure and its stretch and shear forces, not formed again (strain_change_keep). */
static double stretch_change(drape_world* w, const vec3* from, int32_t* worst, strain_held* held)
{
	const int32_t m = w->model.triangle_count;
	const int32_t chunks = reduce_chunks(m);
	double* best = w->work.partial; /* per chunk: free change, where, held change, where */
	const bool kept = from == w->work.strain_w0_of, split = held != NULL;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (chunks > 1)
	for (int32_t k = 0; k < chunks; ++k) {
		double worst_change[2] = {0.0, 0.0};
		int32_t at[2] = {-1, -1};
		for (int32_t j = k * REDUCE_CHUNK; j < reduce_chunk_end(k, m); ++j) {
			const triangle_elem* e = &w->model.triangles[j];
			vec3 x1[3] = {w->work.x1[e->v[0]], w->work.x1[e->v[1]], w->work.x1[e->v[2]]};
			tri_w* t1 = &w->work.tri_w1[j];
			tri_w_at(&e->rest, x1, t1);
			const double lu1 = t1->lu, lv1 = t1->lv;
			double lu0, lv0;
			if (kept) {
				lu0 = w->work.tri_w0[j].lu;
				lv0 = w->work.tri_w0[j].lv;
			} else {
				vec3 x0[3] = {from[e->v[0]], from[e->v[1]], from[e->v[2]]};
				vec3 u0, v0;
				stretch_w(&e->rest, x0, &u0, &v0);
				lu0 = v3_len(u0);
				lv0 = v3_len(v0);
			}
			const int s = split && held_element(w, e->v, 3);
			/* fmax of the two without the library call: both are >= 0 or NaN, and fmax keeps the
			 * other where one is NaN */
			const double du = fabs(lu1 - lu0), dv = fabs(lv1 - lv0);
			note(du > dv || isnan(dv) ? du : dv, j, &worst_change[s], &at[s]);
		}
		for (int s = 0; s < 2; ++s) {
			best[4 * k + 2 * s] = worst_change[s];
			best[4 * k + 2 * s + 1] = (double)at[s]; /* an index, exact in a double */
		}
	}
	double result = 0.0;
	*worst = -1;
	if (split) *held = (strain_held){0.0, -1, -1};
	for (int32_t k = 0; k < chunks; ++k) {
		if (best[4 * k] > result) {
			result = best[4 * k];
			*worst = (int32_t)best[4 * k + 1];
		}
		if (split && best[4 * k + 2] > held->change) {
			held->change = best[4 * k + 2];
			held->triangle = (int32_t)best[4 * k + 3];
		}
	}
	return result;
}

/* The same for mass-spring stretch springs: the largest change of strain |x_b - x_a| / rest. */
static double spring_stretch_change(const drape_world* w, const vec3* from, int32_t* worst, strain_held* held)
{
	double result = 0.0;
	*worst = -1;
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) {
		const ms_spring* e = &w->model.ms_springs[k];
		if (e->family != FAMILY_STRETCH_U && e->family != FAMILY_STRETCH_V) continue;
		double l0 = v3_len(v3_sub(from[e->v[1]], from[e->v[0]]));
		double l1 = v3_len(v3_sub(w->work.x1[e->v[1]], w->work.x1[e->v[0]]));
		double d = fabs(l1 - l0) / e->rest;
		if (held && held_element(w, e->v, 2)) {
			double best = held->change;
			int32_t at = -1;
			note(d, k, &best, &at);
			if (at >= 0) *held = (strain_held){best, -1, at};
		} else {
			note(d, k, &result, worst);
		}
	}
	return result;
}

/* The larger of stretch_change and spring_stretch_change; *worst or *spring names where (the other
 * -1); the held elements' apart in *held when it is given. */
static double change_of(drape_world* w, const vec3* from, int32_t* worst, int32_t* spring, strain_held* held)
{
	double change = stretch_change(w, from, worst, held);
	double d = spring_stretch_change(w, from, spring, held);
	if (d > change) {
		*worst = -1;
		return d;
	}
	*spring = -1;
	return change;
}

double strain_change_of_proposal(drape_world* w, const vec3* from, int32_t* worst, int32_t* spring)
{
	return change_of(w, from, worst, spring, NULL);
}

double strain_change_free(drape_world* w, const vec3* from, int32_t* worst, int32_t* spring, strain_held* held)
{
	return change_of(w, from, worst, spring, held);
}

/* The integrator's proposal's strain change, as the step control judges it while strain limiting
 * is on. Where the cloth starts exactly where the limiter put the last accepted proposal, that
 * proposal as the integrator left it is as good a start: measured from the projected state, the
 * change also counts the integrator undoing the projection, which is as large at any step size
 * where the limiter holds a shape against the forces every step (the wrinkle band's gather: the
 * steps fell to max_dt / 32 for good; docs/solver.md, "Strain limiting"), while measured from the
 * proposal before the projection it is the integrator's own motion. The smaller of the two. */
double strain_change_judged(drape_world* w, int32_t* worst, int32_t* spring)
{
	double change = strain_change_of_proposal(w, w->state.x, worst, spring);
	if (change > 0.0 && w->state.limit_moved && !memcmp(w->state.limit_to, w->state.x, (size_t)w->model.particle_count * sizeof *w->state.x)) {
		int32_t worst_raw, spring_raw;
		double raw = strain_change_of_proposal(w, w->state.limit_from, &worst_raw, &spring_raw);
		if (raw < change) {
			change = raw;
			*worst = worst_raw;
			*spring = spring_raw;
		}
	}
	return change;
}

double strain_change_held_residual(const drape_world* w)
{
	double r2 = 0.0, b2 = 0.0;
	for (int32_t i = 0; i < w->model.particle_count; ++i) {
		if (!w->work.constrained[i]) continue;
		/* e = A dv - b: along the constraint's directions the impulse it supplied, across them
		 * (S e) what the solve left unbalanced. */
		const vec3 r = m3_mulv(w->work.S[i], w->work.e[i]), b = m3_mulv(w->work.S[i], w->work.b[i]);
		r2 += v3_dot(r, r);
		b2 += v3_dot(b, b);
	}
	if (r2 == 0.0) return 0.0;
	return b2 > 0.0 ? sqrt(r2 / b2) : INFINITY;
}

void strain_change_accept_limit(drape_world* w)
{
	w->state.limit_moved = w->work.limit_pending_moved;
	w->work.limit_pending_moved = false;
	if (!w->state.limit_moved) return;
	vec3* t = w->state.limit_from;
	w->state.limit_from = w->work.limit_pending;
	w->work.limit_pending = t;
	memcpy(w->state.limit_to, w->state.x, (size_t)w->model.particle_count * sizeof *w->state.x);
}

void strain_change_keep(drape_world* w, bool measured)
{
	if (!measured) {
		w->work.strain_w0_of = NULL;
		return;
	}
	tri_w* t = w->work.tri_w0;
	w->work.tri_w0 = w->work.tri_w1;
	w->work.tri_w1 = t;
	w->work.strain_w0_of = w->state.x;
}
