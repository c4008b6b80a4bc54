/* The implicit step. Eq. 18:
 *   (M - h df/dv - h^2 df/dx) dv = h (f0 + h df/dx v0 + df/dx y),   dx = h (v0 + dv) + y,
 * solved by modified PCG with the constraint filter (sec. 5.3). Every element's local terms are
 * scattered straight into precomputed matrix slots, colour by colour (no allocation, and the same
 * sums in the same order whatever the thread count). The right-hand side is gathered the same way
 * as h f_e + h^2 K_e (v0 + y/h), so df/dx is never stored as a matrix of its own. */
#include "implicit.h"

#include "../collide/cloth_contact.h"
#include "../collide/contact.h"
#include "../solver/constraints.h"
#include "../solver/reduce.h"

#include <math.h>
#include <time.h>

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

/* Adds an element's terms to b and A. yv[a] = v0 + y/h of the element's particles. */
static void scatter(drape_world* w, const element_terms* t, const int32_t* vert, const int32_t* slot, const vec3* yv,
		    double h)
{
	const int n = t->n;
	const double h2 = h * h;
	for (int a = 0; a < n; ++a) {
		vec3 rhs = v3_scale(t->f[a], h);
		for (int c = 0; c < n; ++c) {
			rhs = v3_madd(rhs, h2, m3_mulv(t->dfdx[a][c], yv[c]));
			mat3* blk = &w->A.blocks[slot[a * n + c]];
			for (int i = 0; i < 3; ++i)
				for (int j = 0; j < 3; ++j) blk->m[i][j] -= h * t->dfdv[a][c].m[i][j] + h2 * t->dfdx[a][c].m[i][j];
		}
		w->b[vert[a]] = v3_add(w->b[vert[a]], rhs);
	}
}

static void assemble_triangle(drape_world* w, const triangle_elem* e, vec3 wind, double h)
{
	vec3 x[3], v[3], yv[3];
	for (int a = 0; a < 3; ++a) {
		x[a] = w->x[e->v[a]];
		v[a] = w->v[e->v[a]];
		yv[a] = v3_madd(v[a], 1.0 / h, w->y[e->v[a]]);
	}
	element_terms t;
	element_terms_clear(&t, 3);
	condition c;
	stretch_condition(&e->rest, x, e->bu, e->bv, &c);
	condition_terms(&c, e->k_stretch, e->kd_stretch, v, JACOBIAN_DEFINITE, &t);
	shear_condition(&e->rest, x, false, &c);
	condition_terms(&c, e->k_shear, e->kd_shear, v, JACOBIAN_DEFINITE, &t);
	if (e->drag > 0.0) drag_terms(x, v, wind, e->drag, &t);
	scatter(w, &t, e->v, e->slot, yv, h);
}

static void assemble_hinge(drape_world* w, const hinge_elem* e, double h)
{
	vec3 x[4], v[4], yv[4];
	for (int a = 0; a < 4; ++a) {
		x[a] = w->x[e->v[a]];
		v[a] = w->v[e->v[a]];
		yv[a] = v3_madd(v[a], 1.0 / h, w->y[e->v[a]]);
	}
	element_terms t;
	element_terms_clear(&t, 4);
	condition c;
	bend_condition(x, false, &c);
	condition_terms(&c, e->k, e->kd, v, JACOBIAN_DEFINITE, &t);
	scatter(w, &t, e->v, e->slot, yv, h);
}

void implicit_assemble(drape_world* w, double t, double h)
{
	const int threads = w->threads;
	const int32_t n = w->particle_count;
	const vec3 g = v3_load(w->def.gravity);
	const vec3 wind = world_wind(w, t);
	bsr_zero(&w->A, threads);
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 2048)
	for (int32_t i = 0; i < n; ++i) {
		w->A.blocks[w->A.diag[i]] = m3_diag(w->mass[i]);
		w->b[i] = v3_scale(g, h * w->mass[i]);
	}
	const colouring* tc = &w->triangle_colours;
	for (int32_t k = 0; k < tc->count; ++k) {
		int32_t lo = tc->start[k], hi = tc->start[k + 1];
#pragma omp parallel for num_threads(threads) schedule(static) if (k != COLOURING_SERIAL && hi - lo > 256)
		for (int32_t j = lo; j < hi; ++j) assemble_triangle(w, &w->triangles[tc->order[j]], wind, h);
	}
	const colouring* hc = &w->hinge_colours;
	for (int32_t k = 0; k < hc->count; ++k) {
		int32_t lo = hc->start[k], hi = hc->start[k + 1];
#pragma omp parallel for num_threads(threads) schedule(static) if (k != COLOURING_SERIAL && hi - lo > 256)
		for (int32_t j = lo; j < hi; ++j) assemble_hinge(w, &w->hinges[hc->order[j]], h);
	}
	/* Sliding friction (sec. 5.4): a tangential damping against the slip, implicit in v. */
	for (int32_t i = 0; w->solid_count > 0 && i < n; ++i) {
		element_terms et;
		element_terms_clear(&et, 1);
		if (!contact_friction(w, i, h, &et.f[0], &et.dfdv[0][0])) continue;
		vec3 yv = v3_madd(w->v[i], 1.0 / h, w->y[i]);
		scatter(w, &et, &i, &w->A.diag[i], &yv, h);
	}
	cloth_contacts_assemble(w, h);
	for (int32_t k = 0; k < w->spring_count; ++k) {
		const spring_data* s = &w->springs[k];
		if (!s->alive) continue;
		int32_t i = s->particle;
		element_terms et;
		element_terms_clear(&et, 1);
		spring_terms(w->x[i], w->v[i], s->target, s->stiffness, s->damping, s->force, &et);
		vec3 yv = v3_madd(w->v[i], 1.0 / h, w->y[i]);
		scatter(w, &et, &i, &w->A.diag[i], &yv, h);
	}
}

/* Largest change of |w_u| or |w_v| over all triangles between x and x1 (sec. 7). */
static double stretch_change(drape_world* w, int32_t* worst)
{
	const int32_t m = w->triangle_count;
	const int32_t chunks = reduce_chunks(m);
	double* best = w->partial;
	double* where = w->partial + chunks; /* indices, exact in a double */
#pragma omp parallel for num_threads(w->threads) schedule(static) if (chunks > 1)
	for (int32_t k = 0; k < chunks; ++k) {
		double worst_change = 0.0;
		int32_t at = -1;
		int32_t end = (k + 1) * REDUCE_CHUNK < m ? (k + 1) * REDUCE_CHUNK : m;
		for (int32_t j = k * REDUCE_CHUNK; j < end; ++j) {
			const triangle_elem* e = &w->triangles[j];
			vec3 x0[3] = {w->x[e->v[0]], w->x[e->v[1]], w->x[e->v[2]]};
			vec3 x1[3] = {w->x1[e->v[0]], w->x1[e->v[1]], w->x1[e->v[2]]};
			vec3 u0, v0, u1, v1;
			stretch_w(&e->rest, x0, &u0, &v0);
			stretch_w(&e->rest, x1, &u1, &v1);
			double d = fmax(fabs(v3_len(u1) - v3_len(u0)), fabs(v3_len(v1) - v3_len(v0)));
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

/* x1 = x + h (v + dv) + y, v1 = v + dv (eq. 17); false if anything is not finite. */
static bool propose(drape_world* w, double h)
{
	const int32_t n = w->particle_count;
	bool finite = true;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048) reduction(&& : finite)
	for (int32_t i = 0; i < n; ++i) {
		w->v1[i] = v3_add(w->v[i], w->dv[i]);
		w->x1[i] = v3_add(v3_add(w->x[i], v3_scale(w->v1[i], h)), w->y[i]);
		finite = finite && v3_isfinite(w->x1[i]) && v3_isfinite(w->v1[i]);
	}
	return finite;
}

/* How often a step is solved again when its proposal carries particles into solids that had no
 * contact yet (each pass adds their contact constraints). */
#define CONTACT_PASSES 4

void implicit_step(drape_world* w, double t, double h, step_report* r)
{
	const int threads = w->threads;
	const int32_t n = w->particle_count;
	r->outcome = STEP_ACCEPTED;
	r->cg_iterations = 0;
	r->cg_converged = false;
	r->stretch_change = 0.0;
	r->worst_triangle = -1;
	r->eval_ms = r->cg_ms = r->cs_ms = r->cc_ms = 0.0;
	r->intersections = 0;

	double t0 = now_ms();
	constraints_prepare(w, t, h);
	double t1 = now_ms();
	contacts_prepare(w, t, h);
	double t2 = now_ms();
	r->eval_ms += t1 - t0;
	if (w->solid_count > 0) r->cs_ms += t2 - t1;
	cloth_contacts_prepare(w);
	double t3 = now_ms();
	if (w->pairs_ready) r->cc_ms += t3 - t2;

	const vec3* guess = NULL;
	if (w->def.warm_start && w->h_last > 0.0) {
		/* dv scales with the step (dv ~ h a); rescale in place so a rejected and retried step
		 * finds the guess already at its size. */
		double s = h / w->h_last;
		if (s != 1.0)
			for (int32_t i = 0; i < n; ++i) w->dv_last[i] = v3_scale(w->dv_last[i], s);
		w->h_last = h;
		guess = w->dv_last;
	}

	pcg_result res;
	bool finite;
	int32_t crossings = 0, cloth_crossings = 0;
	for (int pass = 1;; ++pass) {
		double ta = now_ms();
		implicit_assemble(w, t, h);
		double tb = now_ms();
		res = pcg_solve(&w->A, w->b, w->z, guess, w->S, w->constrained, w->def.cg_tolerance, w->def.cg_max_iterations,
				threads, &w->pcg, w->dv);
		pcg_residual(&w->A, w->dv, w->b, w->e, threads);
		double tc = now_ms();
		r->eval_ms += tb - ta;
		r->cg_ms += tc - tb;
		r->cg_iterations += res.iterations;
		r->cg_converged = res.converged;
		finite = propose(w, h);
		if (!finite || res.breakdown) break;
		double td = now_ms();
		cloth_crossings = cloth_contacts_catch_crossings(w, h);
		double te = now_ms();
		r->cc_ms += te - td;
		tc = te;
		if (w->solid_count == 0) {
			if (cloth_crossings == 0 || pass == CONTACT_PASSES) break;
			continue;
		}
		/* The contact set changed (sec. 5.4 release, or particles that would cross a solid):
		 * solve the step again with the new constraints. */
		int32_t released = contacts_release_pulling(w, h);
		crossings = contacts_catch_crossings(w, h);
		if (released > 0) {
			constraints_prepare(w, t, h);
			contacts_constrain(w, h);
		}
		r->cs_ms += now_ms() - tc;
		if ((crossings == 0 && released == 0 && cloth_crossings == 0) || pass == CONTACT_PASSES) break;
	}
	/* The continuous test guarantees that motion with no crossing keeps an intersection-free
	 * cloth intersection-free; the exact count is needed only when crossings remained (or the
	 * cloth was already intersecting, to see whether the step made it worse). */
	r->intersections = w->intersections;
	if (finite && w->pairs_ready && (cloth_crossings > 0 || w->intersections > 0)) {
		double tf = now_ms();
		r->intersections = cloth_contacts_intersections(w, w->x1);
		r->cc_ms += now_ms() - tf;
	}
	if (w->def.adaptive && finite) r->stretch_change = stretch_change(w, &r->worst_triangle);

	if (w->fail_next_steps > 0) {
		w->fail_next_steps--;
		r->outcome = STEP_FORCED;
	} else if (res.breakdown) {
		r->outcome = STEP_CG_BREAKDOWN;
	} else if (!finite) {
		r->outcome = STEP_NONFINITE;
	} else if (crossings > 0 && h > w->def.max_dt / 64.0) {
		/* Even a shallow crossing is refused: position alteration would next snap the particle
		 * onto the solid's layer, flat against any cloth already lying there. Below 1/64 of the
		 * largest step it is accepted: the contact it got is kept, and the next step's
		 * position alteration lifts the particle out, rather than the run stopping. */
		r->outcome = STEP_PENETRATION;
	} else if (r->intersections > w->intersections && h > w->def.max_dt / 64.0) {
		/* sec. 6 keeps the cloth from passing through itself; a step that would is treated as
		 * unstable. Below 1/64 of the largest step the intersection is accepted and reported
		 * (stats.self_intersections) rather than stopping the run. */
		r->outcome = STEP_SELF_INTERSECTION;
	} else if (w->def.adaptive && r->stretch_change > w->def.stretch_change_limit) {
		r->outcome = STEP_STRETCH_CHANGE;
	}
}
