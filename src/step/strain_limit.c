/* Strain limiting (docs/solver.md, "Strain limiting"). Woven cloth barely stretches; the paper's
 * stretch force (sec. 4.2) lets a step overshoot, and concentrated loads (a pinned corner, a
 * sphere's impact, a pull) stretch the cells around them far beyond what cloth does. After the
 * implicit step, every warp or weft direction of a triangle stretched beyond 1 + s or squeezed
 * below 1 - s (|w_u| / b_u, |w_v| / b_v; a mass-spring cloth's stretch springs likewise) is
 * projected onto its bound by the fast projection of Goldenthal et al. (2007, "Efficient
 * simulation of inextensible cloth"): Newton steps on the violated constraints C = |w| - bound,
 * each solving (J W J^T) lambda = C by CG and moving dx = -W J^T lambda, W being the inverse
 * masses filtered by the particles' constraints (sec. 5.3), so pins never move and contact
 * particles slide only along their surfaces. A Gauss-Seidel sweep (Provot 1995) propagates a
 * correction one element per sweep and never caught up with a sheet hanging from a pinned corner;
 * the global solve does. The move changes each w along w itself, so it keeps linear and angular
 * momentum; the velocity follows the position (v += dx / h), as in Bridson, Fedkiw and Anderson
 * (2002), so the next step starts from the limited state's motion. Everything runs in element
 * order on one thread: the same answer for any thread count. */
#include "strain_limit.h"

#include "../collide/cloth_pairs.h"
#include "../forces/forces.h"
#include "../seam.h"

#include <math.h>
#include <stdlib.h>

/* Newton steps at most, and CG iterations per step (measured: docs/solver.md). */
#define LIMIT_NEWTON 8
#define LIMIT_CG_MAX 200
#define LIMIT_CG_TOLERANCE 1e-2
/* Done when nothing is outside its bound by more than this share of the limit. */
#define LIMIT_TOLERANCE 0.05
/* A constraint at its bound (within this share of the limit) stays in the active set, so that
 * projecting its neighbours does not push it out again. */
#define LIMIT_KEEP 0.5
/* Rows held near their bound can make J W J^T nearly singular (more rows than free directions
 * around a pin): a small multiple of its diagonal added keeps the Newton step bounded. */
#define LIMIT_REGULARISE 0.05
/* A proposal stretched beyond its bound by more than this (an absolute strain) is left alone: that
 * is a collision snapping a particle, not an overshoot, and projecting it moves particles
 * centimetres through the cloth around them (docs/solver.md, "Strain limiting"); the stretch
 * forces and the step control answer it. */
#define LIMIT_SNAP 0.25
/* An element whose constraints leave less than this share of its free response is treated as held. */
#define LIMIT_HELD 1e-2
/* Halvings of a Newton step that made the largest violation worse, before it is taken back. */
#define LIMIT_BACKTRACK 3
/* Re-solves per Newton step after dropping rows whose multiplier has the wrong sign. */
#define LIMIT_PRUNE 3
/* Where the projection keeps cloth/cloth contact (strain_from_limiter): re-solves per Newton step
 * after adding the pairs its move would bring below their floor, and how far below its floor (a
 * share of it) a pair may end before the move of its particles is taken back (the regularisation
 * and the CG's tolerance leave a row short of its target). */
#define LIMIT_GAP_ROUNDS 4
#define LIMIT_GAP_SLACK 0.25
/* Crossing tests of the projection's own motion (gaps_fail_safe) before it is taken back whole. */
#define LIMIT_SAFE_ROUNDS 4

/* The filtered inverse mass times d. A particle that static friction alone holds (limit_slide)
 * is free along its contact's surface: only its normal is held. */
static vec3 inv_mass_times(const drape_world* w, int32_t i, vec3 d)
{
	vec3 r = v3_scale(d, 1.0 / w->model.mass[i]);
	if (!w->work.constrained[i]) return r;
	if (w->work.limit.sliding && w->work.limit.slide[i]) {
		const vec3 n = w->state.contacts[i].normal;
		return v3_madd(r, -v3_dot(n, r), n);
	}
	return m3_mulv(w->work.S[i], r);
}

/* Which particles the projection may slide along the body (limit_set.slide): those whose contact
 * sticks (sec. 5.4's static friction) and that no pin holds. Static friction cannot hold cloth
 * stretched beyond the limit: the stretch force there (the biphasic stretch's 20 k) is far
 * above mu times any contact force the cloth's weight makes, so the projection treats such a
 * contact as a sliding one. Where the body drives held cloth (its every particle held), the strain
 * it ends with is then the limiter's to bound, as the step's judge assumes
 * (strain_from_limiter; docs/solver.md, "The strain guarantee from the limiter"). */
static void limit_slide(drape_world* w)
{
	limit_set* set = &w->work.limit;
	set->sliding = w->def.strain_from_limiter && w->model.solid_count > 0;
	if (!set->sliding) return;
	const int32_t n = w->model.particle_count;
	for (int32_t i = 0; i < n; ++i) {
		const contact* c = &w->state.contacts[i];
		set->slide[i] = c->solid >= 0 && c->sticking && !c->pinched;
	}
	for (int32_t k = 0; k < w->model.constraint_count; ++k) {
		const constraint_data* c = &w->model.constraints[k];
		if (c->alive && c->active) set->slide[c->particle] = 0;
	}
}

bool limit_set_init(limit_set* set, int32_t n)
{
	*set = (limit_set){0};
	set->local = calloc((size_t)(n > 0 ? n : 1), sizeof *set->local);
	set->global = malloc((size_t)(n > 0 ? n : 1) * sizeof *set->global);
	set->dx = malloc((size_t)(n > 0 ? n : 1) * sizeof *set->dx);
	set->slide = calloc((size_t)(n > 0 ? n : 1), sizeof *set->slide);
	return set->local && set->global && set->dx && set->slide;
}

void limit_set_free(limit_set* set)
{
	free(set->rows);
	free(set->lambda);
	free(set->cg);
	free(set->local);
	free(set->global);
	free(set->dx);
	free(set->slide);
	free(set->gap_floor);
	free(set->gap_row);
	*set = (limit_set){0};
}

/* Room for one more row (rows, multipliers and CG vectors grow together); false on no memory. */
static bool reserve_row(limit_set* set)
{
	if (set->count < set->capacity) return true;
	int32_t cap = set->capacity ? 2 * set->capacity : 256;
	limit_row* r = realloc(set->rows, (size_t)cap * sizeof *r);
	if (r) set->rows = r;
	double* l = r ? realloc(set->lambda, (size_t)cap * sizeof *l) : NULL;
	if (l) set->lambda = l;
	double* c = l ? realloc(set->cg, 3 * (size_t)cap * sizeof *c) : NULL;
	if (c) set->cg = c;
	if (!c) return false;
	set->capacity = cap;
	return true;
}

static int32_t local_index(limit_set* set, int32_t i)
{
	if (!set->local[i]) {
		set->global[set->particles] = i;
		set->local[i] = ++set->particles;
	}
	return set->local[i] - 1;
}

/* How far (as strain) g = sum c[m] x_m lies outside [lo_ref (1 - s), hi_ref (1 + s)]; adds it to
 * the set when it is out or within LIMIT_KEEP of its bound and `collect`. Returns -1 on no memory. */
static double consider(const drape_world* w, const vec3* x, limit_set* set, const int32_t* vert, const double* c,
		       int count, double lo_ref, double hi_ref, double s, bool collect)
{
	vec3 g = v3_zero();
	for (int m = 0; m < count; ++m) g = v3_madd(g, c[m], x[vert[m]]);
	/* Most elements lie well inside: decided on |g|^2, without the square root. */
	const double len2 = v3_dot(g, g), keep = collect ? LIMIT_KEEP * s : 0.0;
	const double in_hi = hi_ref * (1.0 + s - keep), in_lo = lo_ref * (1.0 - s + keep);
	if (len2 < in_hi * in_hi && len2 > in_lo * in_lo) return 0.0;
	const double len = sqrt(len2);
	if (!(len > 0.0) || !(lo_ref > 0.0)) return 0.0; /* crushed to a point along w: no direction to restore */
	const double over = len / hi_ref - 1.0, under = 1.0 - len / lo_ref;
	const bool stretched = over >= under;
	const double out = (stretched ? over : under) - s;
	if (out < (collect ? -LIMIT_KEEP * s : 0.0)) return 0.0;
	const double bound = stretched ? hi_ref * (1.0 + s) : lo_ref * (1.0 - s);
	/* Out: onto the bound. Near it: held at its length for this Newton step (C = 0), so that the
	 * moves of its neighbours do not push it out in turn. */
	limit_row row = {.count = count, .n = v3_scale(g, 1.0 / len), .C = out > 0.0 ? len - bound : 0.0,
			 .side = stretched ? 1.0 : -1.0, .pair = -1};
	double free_diag = 0.0;
	for (int m = 0; m < count; ++m) {
		row.c[m] = c[m];
		row.diag += c[m] * v3_dot(row.n, inv_mass_times(w, vert[m], v3_scale(row.n, c[m])));
		free_diag += c[m] * c[m] / w->model.mass[vert[m]];
	}
	/* The element's particles are held (pins, contacts) in all or nearly all of the directions
	 * that would restore it: nothing to project (a nearly held one would take a huge move for a
	 * small change), and not the limiter's to answer for. */
	if (!(row.diag > LIMIT_HELD * free_diag)) return 0.0;
	if (!collect) return out > 0.0 ? out : 0.0;
	if (!reserve_row(set)) return -1.0;
	for (int m = 0; m < count; ++m) row.p[m] = local_index(set, vert[m]);
	set->rows[set->count++] = row;
	return out > 0.0 ? out : 0.0;
}

/* Scans every limited element; the largest violation. Collects the rows when `collect`. */
static double scan(const drape_world* w, const vec3* x, limit_set* set, double s, bool collect)
{
	double worst = 0.0;
	for (int32_t k = 0; k < w->model.triangle_count; ++k) {
		const triangle_elem* e = &w->model.triangles[k];
		if (e->springs_only) continue;
		double cu[3], cv[3];
		tri_rest_weights(&e->rest, cu, cv);
		double a = consider(w, x, set, e->v, cu, 3, stretch_limit_lo(e->bu), stretch_limit_hi(e->bu), s, collect);
		double b = consider(w, x, set, e->v, cv, 3, stretch_limit_lo(e->bv), stretch_limit_hi(e->bv), s, collect);
		if (a < 0.0 || b < 0.0) return -1.0;
		worst = fmax(worst, fmax(a, b));
	}
	static const double pair[2] = {-1.0, 1.0};
	for (int32_t k = 0; k < w->model.ms_spring_count; ++k) {
		const ms_spring* e = &w->model.ms_springs[k];
		if (e->family != FAMILY_STRETCH_U && e->family != FAMILY_STRETCH_V) continue;
		double a = consider(w, x, set, e->v, pair, 2, e->rest, e->rest, s, collect);
		if (a < 0.0) return -1.0;
		worst = fmax(worst, a);
	}
	return worst;
}

/* set->dx = W J^T in: how the local particles move under row multipliers `in`. */
static void move_of(const drape_world* w, limit_set* set, const double* in)
{
	vec3* dx = set->dx;
	for (int32_t i = 0; i < set->particles; ++i) dx[i] = v3_zero();
	for (int32_t r = 0; r < set->count; ++r) {
		const limit_row* row = &set->rows[r];
		for (int m = 0; m < row->count; ++m) dx[row->p[m]] = v3_madd(dx[row->p[m]], row->c[m] * in[r], row->n);
	}
	for (int32_t i = 0; i < set->particles; ++i) dx[i] = inv_mass_times(w, set->global[i], dx[i]);
}

/* out = (J W J^T + LIMIT_REGULARISE diag) in, over the set's rows (set->dx as scratch). */
static void apply(const drape_world* w, limit_set* set, const double* in, double* out)
{
	move_of(w, set, in);
	for (int32_t r = 0; r < set->count; ++r) {
		const limit_row* row = &set->rows[r];
		double s = 0.0;
		for (int m = 0; m < row->count; ++m) s += row->c[m] * v3_dot(row->n, set->dx[row->p[m]]);
		out[r] = s + LIMIT_REGULARISE * row->diag * in[r];
	}
}

/* Solves (J W J^T) lambda = C into set->lambda by Jacobi-preconditioned CG. */
static void solve(const drape_world* w, limit_set* set)
{
	const int32_t m = set->count;
	double *lambda = set->lambda, *r = set->cg, *p = set->cg + m, *q = set->cg + 2 * m;
	double rz = 0.0, r0 = 0.0;
	for (int32_t k = 0; k < m; ++k) {
		lambda[k] = 0.0;
		r[k] = set->rows[k].C;
		p[k] = r[k] / ((1.0 + LIMIT_REGULARISE) * set->rows[k].diag);
		rz += r[k] * p[k];
	}
	r0 = rz;
	for (int it = 0; it < LIMIT_CG_MAX && rz > LIMIT_CG_TOLERANCE * LIMIT_CG_TOLERANCE * r0 && rz > 0.0; ++it) {
		apply(w, set, p, q);
		double pq = 0.0;
		for (int32_t k = 0; k < m; ++k) pq += p[k] * q[k];
		if (!(pq > 0.0)) break; /* rows that depend on each other: keep what was found */
		const double alpha = rz / pq;
		double rz1 = 0.0;
		for (int32_t k = 0; k < m; ++k) {
			lambda[k] += alpha * p[k];
			r[k] -= alpha * q[k];
			rz1 += r[k] * r[k] / ((1.0 + LIMIT_REGULARISE) * set->rows[k].diag);
		}
		const double beta = rz1 / rz;
		rz = rz1;
		for (int32_t k = 0; k < m; ++k) p[k] = r[k] / ((1.0 + LIMIT_REGULARISE) * set->rows[k].diag) + beta * p[k];
	}
}

/* Keeping cloth/cloth contact (docs/solver.md, "The strain guarantee from the limiter"): the
 * projection moves particles along w without looking at the cloth around them, and where layers
 * lie pressed together (a sleeve and the body panel pinched in the armpit) its corrections pushed
 * one layer through the next. Where strain_from_limiter asks, each repulsion pair of the step
 * (state.repulsions: the pairs within the thickness at its start and those caught crossing in its
 * passes; cloth_contact.h) is an inequality of the projection: its gap g = n . sum w_k x_k, linear
 * in x with the pair's normal and weights fixed as the repulsion holds them, may not fall below
 * min(its gap in the proposal, the thickness). Collisions have the last word, as where the strain
 * correction runs before the collision response (Provot 1995; Bridson, Fedkiw and Anderson 2002)
 * or is interleaved with it (Wang, O'Brien and Ramamoorthi 2010); here the response is the solve's
 * and comes first, so the contacts bound the limiter's move: a pair the move would bring below its
 * floor joins the Newton step's rows (C = g - floor, one-sided: it may only push apart) and the
 * step is solved again; a pair whose particles its constraints hold is left out (nothing moves it). */
static bool gaps_kept(const drape_world* w)
{
	return w->def.strain_from_limiter && w->def.self_collision && w->work.pairs_ready;
}

static double gap_at(const repulsion* r, const vec3* x)
{
	vec3 g = v3_zero();
	for (int a = 0; a < 4; ++a) g = v3_madd(g, r->weight[a], x[r->node[a]]);
	return v3_dot(r->normal, g);
}

/* Each pair's floor at the proposal, no pair a row yet; false on no memory. */
static bool gaps_init(drape_world* w)
{
	limit_set* set = &w->work.limit;
	const int32_t m = w->state.repulsion_count;
	if (m == 0) return true;
	if (m > set->gap_capacity) {
		double* f = realloc(set->gap_floor, (size_t)m * sizeof *f);
		if (!f) return false;
		set->gap_floor = f;
		uint8_t* r = realloc(set->gap_row, (size_t)m);
		if (!r) return false;
		set->gap_row = r;
		set->gap_capacity = m;
	}
	for (int32_t e = 0; e < m; ++e) {
		set->gap_floor[e] = fmin(gap_at(&w->state.repulsions[e], w->work.x1), w->def.cloth_thickness);
		set->gap_row[e] = 0;
	}
	return true;
}

/* Pair e as a row of the set (gap_row: 1 a row, 2 held by its particles' constraints). Returns -1
 * on no memory. */
static int gap_join(const drape_world* w, limit_set* set, int32_t e)
{
	const repulsion* r = &w->state.repulsions[e];
	limit_row row = {.count = 4, .n = r->normal, .C = gap_at(r, w->work.x1) - set->gap_floor[e], .side = -1.0, .pair = e};
	double free_diag = 0.0;
	for (int m = 0; m < 4; ++m) {
		row.c[m] = r->weight[m];
		row.diag += row.c[m] * v3_dot(row.n, inv_mass_times(w, r->node[m], v3_scale(row.n, row.c[m])));
		free_diag += row.c[m] * row.c[m] / w->model.mass[r->node[m]];
	}
	set->gap_row[e] = 2;
	if (!(row.diag > LIMIT_HELD * free_diag)) return 0;
	if (!reserve_row(set)) return -1;
	for (int m = 0; m < 4; ++m) row.p[m] = local_index(set, r->node[m]);
	set->rows[set->count++] = row;
	set->gap_row[e] = 1;
	return 1;
}

/* The pairs that the move -W J^T lambda of the current solution brings below their floor join
 * the rows; how many joined, -1 on no memory. */
static int32_t gaps_join_crossed(const drape_world* w, limit_set* set)
{
	move_of(w, set, set->lambda);
	int32_t joined = 0;
	for (int32_t e = 0; e < w->state.repulsion_count; ++e) {
		if (set->gap_row[e]) continue;
		const repulsion* r = &w->state.repulsions[e];
		double closing = 0.0;
		for (int a = 0; a < 4; ++a) {
			const int32_t l = set->local[r->node[a]];
			if (l) closing += r->weight[a] * v3_dot(r->normal, set->dx[l - 1]);
		}
		if (!(closing > 0.0) || gap_at(r, w->work.x1) - closing >= set->gap_floor[e]) continue;
		const int k = gap_join(w, set, e);
		if (k < 0) return -1;
		joined += k;
	}
	return joined;
}

/* Pairs that the Newton step's move (set->dx, just applied) left further below their floor than
 * LIMIT_GAP_SLACK of it: the move of their particles is taken back (their dx set to 0), and again
 * for pairs that this breaks in turn, until none is left; at worst every particle of the step goes
 * back, to where each pair was within its slack. The rows are solved to the CG's tolerance with
 * the 5 % regularisation, and where the strain rows push hard a row stops short of its floor:
 * taking back the few particles there keeps the pair without halving the whole step, as the
 * fail-safes of Provot (1997) and Bridson et al. (2002) treat the region a first response left
 * colliding rather than the whole cloth. */
static void gaps_take_back(drape_world* w, limit_set* set, double h)
{
	for (bool again = true; again;) {
		again = false;
		for (int32_t e = 0; e < w->state.repulsion_count; ++e) {
			const repulsion* r = &w->state.repulsions[e];
			const double f = set->gap_floor[e];
			if (gap_at(r, w->work.x1) >= f - LIMIT_GAP_SLACK * fabs(f)) continue;
			for (int a = 0; a < 4; ++a) {
				const int32_t i = r->node[a], l = set->local[i];
				if (!l) continue;
				const vec3 d = set->dx[l - 1];
				if (d.x == 0.0 && d.y == 0.0 && d.z == 0.0) continue;
				w->work.x1[i] = v3_add(w->work.x1[i], d);
				w->work.v1[i] = v3_madd(w->work.v1[i], 1.0 / h, d);
				set->dx[l - 1] = v3_zero();
				again = true;
			}
		}
	}
}

/* Particle i back where the solve's proposal had it (from), its velocity with it. */
static void back_to_proposal(drape_world* w, int32_t i, const vec3* from, double h)
{
	const vec3 d = v3_sub(from[i], w->work.x1[i]);
	w->work.x1[i] = from[i];
	w->work.v1[i] = v3_madd(w->work.v1[i], 1.0 / h, d);
}

/* The fail-safe for pairs the rows do not hold (farther apart than the thickness at the step's
 * start, crossed by no pass): the projection's own motion, from the proposal as the solve left
 * it (work.limit_pending) to the limited one, goes through the crossing test of a step
 * (cloth_pairs_crossings), and the particles of every pair it crosses go back to the proposal,
 * which the step's crossing test then judges as it would without the limiter; the test is
 * repeated, and after LIMIT_SAFE_ROUNDS (or where the test cannot answer: over its budget) the
 * whole projection is taken back. True when some particle went back. */
static bool gaps_fail_safe(drape_world* w, double h)
{
	cloth_pairs* d = &w->work.pairs;
	const vec3* from = w->work.limit_pending;
	for (int round = 0;; ++round) {
		const int32_t k = cloth_pairs_crossings(d, from, w->work.x1, 1e-9);
		if (k == 0) return round > 0;
		if (k < 0 || round == LIMIT_SAFE_ROUNDS) {
			for (int32_t i = 0; i < w->model.particle_count; ++i) back_to_proposal(w, i, from, h);
			return true;
		}
		for (int32_t c = 0; c < d->xvf_count; ++c) {
			back_to_proposal(w, d->xvf[c].p, from, h);
			for (int a = 0; a < 3; ++a) back_to_proposal(w, w->model.triangles[d->xvf[c].t].v[a], from, h);
		}
		for (int32_t c = 0; c < d->xee_count; ++c)
			for (int a = 0; a < 2; ++a) {
				back_to_proposal(w, d->xee[c].e0[a], from, h);
				back_to_proposal(w, d->xee[c].e1[a], from, h);
			}
	}
}

/* Solves the set's rows; the bounds are one-sided: a row whose multiplier pushes the wrong way (a
 * stretched row held from shrinking, a pair held from parting) leaves the set, and the rest is
 * solved again. */
static void solve_one_sided(const drape_world* w, limit_set* set)
{
	solve(w, set);
	for (int prune = 0; prune < LIMIT_PRUNE; ++prune) {
		int32_t kept = 0;
		for (int32_t r = 0; r < set->count; ++r) {
			if (set->lambda[r] * set->rows[r].side >= 0.0) set->rows[kept++] = set->rows[r];
			else if (set->rows[r].pair >= 0) set->gap_row[set->rows[r].pair] = 0; /* may join again */
		}
		if (kept == set->count || kept == 0) break;
		set->count = kept;
		solve(w, set);
	}
}

bool strain_limit_active(const drape_world* w) { return w->def.strain_limit > 0.0 && !seams_open(w); }

strain_limit_report strain_limit_apply(drape_world* w, double h)
{
	strain_limit_report rep = {0.0, 0.0, 0};
	const double s = w->def.strain_limit;
	if (!strain_limit_active(w)) return rep;
	limit_slide(w);
	double worst = scan(w, w->work.x1, NULL, s, false);
	rep.excess = rep.residual = worst;
	if (!(worst > LIMIT_TOLERANCE * s) || worst > LIMIT_SNAP) return rep;

	limit_set* set = &w->work.limit;
	const bool gaps = gaps_kept(w);
	if (gaps && !gaps_init(w)) return rep; /* no memory: the proposal stays as it was */
	for (int newton = 0; newton < LIMIT_NEWTON && worst > LIMIT_TOLERANCE * s; ++newton) {
		for (int32_t i = 0; i < set->particles; ++i) set->local[set->global[i]] = 0;
		set->particles = 0;
		set->count = 0;
		if (scan(w, w->work.x1, set, s, true) < 0.0) break;
		bool memory = true;
		for (int32_t e = 0; gaps && e < w->state.repulsion_count; ++e)
			if (set->gap_row[e] == 1) memory = memory && gap_join(w, set, e) >= 0;
		if (!memory) break;
		solve_one_sided(w, set);
		for (int round = 0; gaps && round < LIMIT_GAP_ROUNDS; ++round) {
			const int32_t joined = gaps_join_crossed(w, set);
			if (joined < 0) memory = false;
			if (joined <= 0) break;
			solve_one_sided(w, set);
		}
		if (!memory) break;
		bool finite = true;
		for (int32_t r = 0; r < set->count; ++r) finite = finite && isfinite(set->lambda[r]);
		if (!finite) break; /* nothing applied: the proposal stays as it was */
		/* dx = -W J^T lambda, applied below with its sign */
		move_of(w, set, set->lambda);
		const vec3* dx = set->dx;
		for (int32_t i = 0; i < set->particles; ++i) {
			const int32_t g = set->global[i];
			w->work.x1[g] = v3_sub(w->work.x1[g], dx[i]);
			w->work.v1[g] = v3_madd(w->work.v1[g], -1.0 / h, dx[i]);
		}
		if (gaps) gaps_take_back(w, set, h);
		rep.newton = newton + 1;
		const double before = worst;
		worst = scan(w, w->work.x1, NULL, s, false);
		/* A Newton step that made things worse (rows nearly dependent on each other, or
		 * elements outside the set pushed out further than the set came in) is halved, up to
		 * LIMIT_BACKTRACK times, and otherwise taken back, ending the projection. (Halving
		 * keeps every cloth/cloth pair within its slack: its gap moves linearly between two
		 * gaps that are.) */
		double taken = 1.0;
		for (int back = 0; !(worst <= before) && back <= LIMIT_BACKTRACK; ++back) {
			const double undo = back == LIMIT_BACKTRACK ? taken : 0.5 * taken;
			for (int32_t i = 0; i < set->particles; ++i) {
				const int32_t g = set->global[i];
				w->work.x1[g] = v3_madd(w->work.x1[g], undo, dx[i]);
				w->work.v1[g] = v3_madd(w->work.v1[g], undo / h, dx[i]);
			}
			taken -= undo;
			worst = taken > 0.0 ? scan(w, w->work.x1, NULL, s, false) : before;
		}
		rep.residual = worst;
		if (taken == 0.0) break;
	}
	for (int32_t i = 0; i < set->particles; ++i) set->local[set->global[i]] = 0;
	set->particles = 0;
	if (gaps && rep.newton > 0 && gaps_fail_safe(w, h)) rep.residual = scan(w, w->work.x1, NULL, s, false);
	return rep;
}

double strain_limit_violation(const drape_world* w, const vec3* x)
{
	return strain_limit_active(w) ? scan(w, x, NULL, w->def.strain_limit, false) : 0.0;
}
