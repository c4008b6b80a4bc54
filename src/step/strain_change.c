/* The step control's measure of a proposal (sec. 7): the largest change of a triangle's |w_u| or
 * |w_v| (or a mass-spring stretch spring's strain) between a start and the proposal x1, and, while
 * strain limiting is on, which start it is judged from (docs/solver.md, "Accurate by default",
 * "Strain limiting"). */
#include "strain_change.h"

#include "../forces/forces.h"
#include "../solver/reduce.h"

#include <math.h>
#include <string.h>

/* Largest change of |w_u| or |w_v| over all triangles between `from` (x, the step's start, or
 * another start, strain_change_judged) and x1 (sec. 7). x1's w and lengths are kept (tri_w1): the
 * judge's energy reads them, and once accepted they are the next step's start's, for its strain
 * measure and its stretch and shear forces, not formed again (strain_change_keep). */
static double stretch_change(drape_world* w, const vec3* from, int32_t* worst)
{
	const int32_t m = w->model.triangle_count;
	const int32_t chunks = reduce_chunks(m);
	double* best = w->work.partial;
	double* where = w->work.partial + chunks; /* indices, exact in a double */
	const bool kept = from == w->work.strain_w0_of;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (chunks > 1)
	for (int32_t k = 0; k < chunks; ++k) {
		double worst_change = 0.0;
		int32_t at = -1;
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
			double d = fmax(fabs(lu1 - lu0), fabs(lv1 - lv0));
			if (!(d <= worst_change)) { /* also catches NaN */
				worst_change = isnan(d) ? INFINITY : d;
				at = j;
			}
		}
		best[k] = worst_change;
		where[k] = (double)at;
	}
	double result = 0.0;
	*worst = -1;
	for (int32_t k = 0; k < chunks; ++k)
		if (best[k] > result) {
			result = best[k];
			*worst = (int32_t)where[k];
		}
	return result;
}

/* The same for mass-spring stretch springs: the largest change of strain |x_b - x_a| / rest. */
static double spring_stretch_change(const drape_world* w, const vec3* from, int32_t* worst)
{
	double result = 0.0;
	*worst = -1;
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) {
		const ms_spring* e = &w->model.ms_springs[k];
		if (e->family != FAMILY_STRETCH_U && e->family != FAMILY_STRETCH_V) continue;
		double l0 = v3_len(v3_sub(from[e->v[1]], from[e->v[0]]));
		double l1 = v3_len(v3_sub(w->work.x1[e->v[1]], w->work.x1[e->v[0]]));
		double d = fabs(l1 - l0) / e->rest;
		if (!(d <= result)) {
			result = isnan(d) ? INFINITY : d;
			*worst = k;
		}
	}
	return result;
}

/* The larger of stretch_change and spring_stretch_change; *worst or *spring names where (the other -1). */
double strain_change_of_proposal(drape_world* w, const vec3* from, int32_t* worst, int32_t* spring)
{
	double change = stretch_change(w, from, worst);
	double d = spring_stretch_change(w, from, spring);
	if (d > change) {
		*worst = -1;
		return d;
	}
	*spring = -1;
	return change;
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
