/* Modified PCG (sec. 5.3, procedure modified-pcg) with a block-Jacobi, Cholesky, two-level or
 * multigrid preconditioner (cholesky.h, two_level.h, multigrid.h; docs/solver.md compares them),
 * and with contacts as inequality bounds that the one solve takes in and releases: MPRGP (Dostal
 * and Schoberl 2005) with the filter as the face's projector (docs/solver.md, "Contacts inside the
 * solve").
 *
 * The paper writes the preconditioner as P with P_ii = 1/A_ii and then applies P^-1 to the
 * residual; applying diag(A)^-1 (what a Jacobi preconditioner must do) is the consistent reading,
 * used here: s = r / diag(A), delta0 = filter(b)^T diag(A)^-1 filter(b). docs/solver.md. */
#include "pcg.h"

#include "block_inverse.h"
#include "reduce.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

/* A solve of a million particles takes about a millisecond per iteration; 16 keeps the barrier
 * this adds out of the profile and an interrupt well under a second. */
#define CANCEL_EVERY 16

bool pcg_workspace_init(pcg_workspace* w, int32_t n)
{
	memset(w, 0, sizeof *w);
	w->n = n;
	size_t m = (size_t)(n > 0 ? n : 1);
	w->r = malloc(m * sizeof(vec3));
	w->c = malloc(m * sizeof(vec3));
	w->q = malloc(m * sizeof(vec3));
	w->s = malloc(m * sizeof(vec3));
	w->pinv = malloc(m * sizeof(mat3));
	w->partial = malloc((size_t)(2 * reduce_chunks(n) + 2) * sizeof(double));
	if (!w->r || !w->c || !w->q || !w->s || !w->pinv || !w->partial) {
		pcg_workspace_free(w);
		return false;
	}
	return true;
}

void pcg_workspace_free(pcg_workspace* w)
{
	free(w->r);
	free(w->c);
	free(w->q);
	free(w->s);
	free(w->pinv);
	free(w->partial);
	bsr_packed_free(&w->packed);
	memset(w, 0, sizeof *w);
}

static inline vec3 filter1(const mat3* S, const uint8_t* constrained, int32_t i, vec3 a)
{
	return constrained[i] ? m3_mulv(S[i], a) : a;
}

static inline vec3 precondition(mat3 pinv, vec3 r) { return m3_mulv(pinv, r); }

/* s = P^-1 r for the preconditioners that act on the whole vector (one thread). */
static void apply_global(cholesky_precond* chol, two_level* tl, multigrid* mg, const mat3* pinv, const vec3* r, vec3* s)
{
	if (mg) multigrid_apply(mg, r, s);
	else if (tl) two_level_apply(tl, pinv, r, s);
	else cholesky_solve(chol, r, s);
}

/* r^T P^-1 r for r = filter(b - A z), the residual of the start dv = z, once pinv (block Jacobi,
 * two-level) or the global preconditioner is ready; delta0 (the same for b) where z is zero.
 * Uses q and s, which the iterations overwrite before reading. */
static double start_delta(const bsr* A, const vec3* b, const vec3* z, const mat3* S, const uint8_t* constrained,
			  cholesky_precond* chol, two_level* tl, multigrid* mg, int threads, pcg_workspace* w, double delta0)
{
	const int32_t n = A->n;
	bool moving = false;
	for (int32_t i = 0; i < n && !moving; ++i) moving = constrained[i] && (z[i].x != 0.0 || z[i].y != 0.0 || z[i].z != 0.0);
	if (!moving) return delta0;
	vec3 *q = w->q, *s = w->s;
	const int32_t chunks = reduce_chunks(n);
	bsr_mul(A, z, q, threads);
	for (int32_t i = 0; i < n; ++i) s[i] = filter1(S, constrained, i, v3_sub(b[i], q[i]));
	const bool global = chol || tl || mg;
	if (global) apply_global(chol, tl, mg, w->pinv, s, q);
	for (int32_t k = 0; k < chunks; ++k) {
		double d = 0.0;
		for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i)
			d += v3_dot(s[i], global ? filter1(S, constrained, i, q[i]) : filter1(S, constrained, i, precondition(w->pinv[i], s[i])));
		w->partial[k] = d;
	}
	return reduce_sum(w->partial, chunks);
}

/* Bounds (docs/solver.md, "Contacts inside the solve"): MPRGP's test of proportion, ||beta||^2 <=
 * GAMMA^2 phi^T phi, in the preconditioner's norm. Dostal's Gamma = 1 balances the work on the
 * free and the bound variables. */
#define GAMMA2 1.0
/* The smallest residual a bounded solve aims for, relative to the unfiltered b (pcg_solve_bounded):
 * about 10^6 times double precision, for the conditioning of a stiff cloth system. */
#define RESIDUAL_FLOOR 1e-10

/* The state the iteration's helpers share; each helper is called by every thread of the parallel
 * region (its loops are orphaned work-sharing constructs). */
typedef struct solve_ctx {
	const bsr* A;
	const vec3* b;
	vec3* z;
	mat3* S;
	uint8_t* constrained;
	pcg_bounds* bounds;
	vec3 *r, *c, *q, *s, *dv;
	mat3* pinv;
	double* pcq;
	double* prs;
	cholesky_precond* chol;
	two_level* tl;
	multigrid* mg;
	int32_t n, chunks;
	double shared; /* a value one thread computes for all (written in single, read after its barrier) */
	bool breakdown;
} solve_ctx;

/* s = P^-1 r for the global preconditioners (r already in place), and the chunks' r^T s in prs. */
static void global_apply_in_region(solve_ctx* x)
{
	const int32_t n = x->n, chunks = x->chunks;
	vec3 *r = x->r, *s = x->s;
	double* prs = x->prs;
	if (x->tl) {
		/* s = P^-1 r in parallel but for the small coarse solve; the sums are split the same way
		 * for every thread count. */
		two_level* tl = x->tl;
		const int32_t nc = two_level_aggregate_count(tl);
#pragma omp for schedule(static)
		for (int32_t k = 0; k < reduce_chunks(nc); ++k) two_level_restrict(tl, r, k * REDUCE_CHUNK, reduce_chunk_end(k, nc));
#pragma omp single
		two_level_coarse_solve(tl);
#pragma omp for schedule(static)
		for (int32_t k = 0; k < chunks; ++k) {
			double rs = 0.0;
			for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
				s[i] = two_level_prolong(tl, x->pinv, r, i);
				rs += v3_dot(r[i], s[i]);
			}
			prs[k] = rs;
		}
		return;
	}
	/* The V-cycle's loops are work-sharing constructs every thread runs (multigrid.h); a Cholesky
	 * solve is one thread's. */
	if (x->mg) multigrid_apply(x->mg, r, s);
	else {
#pragma omp single
		apply_global(x->chol, NULL, NULL, x->pinv, r, s);
	}
#pragma omp for schedule(static)
	for (int32_t k = 0; k < chunks; ++k) {
		double rs = 0.0;
		for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) rs += v3_dot(r[i], s[i]);
		prs[k] = rs;
	}
}

/* s = P^-1 r, c = filter(s); returns r^T s (every thread gets the same bits). */
static double precondition_in_region(solve_ctx* x)
{
	const int32_t n = x->n, chunks = x->chunks;
	if (x->chol || x->tl || x->mg) global_apply_in_region(x);
	else {
#pragma omp for schedule(static)
		for (int32_t k = 0; k < chunks; ++k) {
			double rs = 0.0;
			for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
				x->s[i] = precondition(x->pinv[i], x->r[i]);
				rs += v3_dot(x->r[i], x->s[i]);
			}
			x->prs[k] = rs;
		}
	}
	const double rs = reduce_sum(x->prs, chunks);
#pragma omp for schedule(static)
	for (int32_t i = 0; i < n; ++i) x->c[i] = filter1(x->S, x->constrained, i, x->s[i]);
	return rs;
}

/* q = A v, unfiltered. */
static void product_in_region(solve_ctx* x, const vec3* v)
{
#pragma omp for schedule(static)
	for (int32_t i = 0; i < x->n; ++i) x->q[i] = bsr_row_mul(x->A, v, i);
#pragma omp single
	bsr_mul_extras(x->A, v, x->q);
}

/* Takes bound k into the active set: dv's normal part onto the bound (the projection onto the
 * half-space's plane), the particle's filter, z and flag hold it, its residual filtered anew. One
 * thread. */
static void bound_hold(solve_ctx* x, int32_t k)
{
	pcg_bound* d = &x->bounds->items[k];
	const int32_t i = d->particle;
	const vec3 n = d->normal;
	x->dv[i] = v3_madd(x->dv[i], d->lower - v3_dot(n, x->dv[i]), n);
	x->S[i] = m3_sub(d->S_free, m3_outer(n, n));
	x->z[i] = v3_madd(d->z_free, d->lower, n);
	x->constrained[i] = 1;
	x->r[i] = m3_mulv(x->S[i], d->ru);
	d->held = true;
	x->bounds->activated++;
}

/* Releases bound k: the particle's filter, z and flag go back to its pins'. One thread. */
static void bound_release(solve_ctx* x, int32_t k)
{
	pcg_bound* d = &x->bounds->items[k];
	const int32_t i = d->particle;
	x->S[i] = d->S_free;
	x->z[i] = d->z_free;
	x->constrained[i] = d->constrained_free;
	x->r[i] = filter1(x->S, x->constrained, i, d->ru);
	d->held = false;
	x->bounds->released++;
}

/* MPRGP's chopped gradient: a held bound whose constraint impulse pulls beyond its floor. */
static inline double chopped(const pcg_bound* d)
{
	const double pull = v3_dot(d->normal, d->ru);
	return d->held && pull > d->floor ? pull : 0.0;
}

/* ||beta||^2 in the block-Jacobi norm (the one dn uses, to first order). */
static double chopped_norm(const solve_ctx* x)
{
	double sum = 0.0;
	for (int32_t k = 0; k < x->bounds->count; ++k) {
		const pcg_bound* d = &x->bounds->items[k];
		const double beta = chopped(d);
		if (beta != 0.0) sum += beta * beta * v3_dot(d->normal, m3_mulv(x->pinv[d->particle], d->normal));
	}
	return sum;
}

/* The longest step along c that keeps every free bound (MPRGP's feasible step length); INFINITY
 * when none is approached. */
static double feasible_step(const solve_ctx* x, int32_t* hit)
{
	double step = INFINITY;
	*hit = -1;
	for (int32_t k = 0; k < x->bounds->count; ++k) {
		const pcg_bound* d = &x->bounds->items[k];
		if (d->held) continue;
		const double rate = v3_dot(d->normal, x->c[d->particle]);
		if (!(rate < 0.0)) continue;
		const double room = v3_dot(d->normal, x->dv[d->particle]) - d->lower;
		const double t = room > 0.0 ? room / -rate : 0.0;
		if (t < step) {
			step = t;
			*hit = k;
		}
	}
	return step;
}

/* r = filter(b - A dv) from scratch, the bounds' unfiltered residuals, then the direction c =
 * filter(P^-1 r); returns r^T P^-1 r. After the active set changed. */
static double restart_in_region(solve_ctx* x)
{
	product_in_region(x, x->dv);
	const int32_t* of = x->bounds->of_particle;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < x->n; ++i) {
		const vec3 ru = v3_sub(x->b[i], x->q[i]);
		if (of[i] >= 0) x->bounds->items[of[i]].ru = ru;
		x->r[i] = filter1(x->S, x->constrained, i, ru);
	}
	return precondition_in_region(x);
}

/* MPRGP's proportioning step: along the chopped gradient beta (the pulling held bounds' normals),
 * the exact minimiser, which lifts each of them off its bound; they are released. Returns the new
 * r^T P^-1 r. */
static double proportion_in_region(solve_ctx* x)
{
	pcg_bounds* bs = x->bounds;
	const int32_t* of = bs->of_particle;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < x->n; ++i) x->c[i] = v3_zero();
#pragma omp single
	for (int32_t k = 0; k < bs->count; ++k) {
		const pcg_bound* d = &bs->items[k];
		x->c[d->particle] = v3_scale(d->normal, chopped(d));
	}
	product_in_region(x, x->c);
#pragma omp single
	{
		double rd = 0.0, dad = 0.0;
		for (int32_t k = 0; k < bs->count; ++k) {
			const pcg_bound* d = &bs->items[k];
			const double beta = chopped(d);
			if (beta == 0.0) continue;
			rd += beta * beta;
			dad += v3_dot(x->c[d->particle], x->q[d->particle]);
		}
		x->shared = dad > 0.0 ? rd / dad : 0.0;
		x->breakdown = !(dad > 0.0);
		/* Each lifted particle is released; its residual is made current below. */
		for (int32_t k = 0; k < bs->count && !x->breakdown; ++k)
			if (chopped(&bs->items[k]) != 0.0) {
				const int32_t i = bs->items[k].particle;
				x->dv[i] = v3_madd(x->dv[i], x->shared, x->c[i]);
				bound_release(x, k);
			}
		bs->proportionings++;
	}
	if (x->breakdown) return 0.0;
	const double a = x->shared;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < x->n; ++i) {
		if (of[i] >= 0) {
			pcg_bound* d = &bs->items[of[i]];
			d->ru = v3_madd(d->ru, -a, x->q[i]);
			x->r[i] = filter1(x->S, x->constrained, i, d->ru);
		} else {
			x->r[i] = v3_madd(x->r[i], -a, filter1(x->S, x->constrained, i, x->q[i]));
		}
	}
	return precondition_in_region(x);
}

/* MPRGP's expansion step, when the CG step along c would cross a free bound: the feasible step
 * (q = filter(A c) is current), the bounds it reaches taken in, then a projected step along the
 * new preconditioned free gradient (its exact minimiser, then the projection onto the bounds,
 * which takes in every bound it crosses at once), and a restart. Returns the new r^T P^-1 r. */
static double expand_in_region(solve_ctx* x, double step, int32_t hit)
{
	pcg_bounds* bs = x->bounds;
	const int32_t* of = bs->of_particle;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < x->n; ++i) {
		x->dv[i] = v3_madd(x->dv[i], step, x->c[i]);
		x->r[i] = v3_madd(x->r[i], -step, x->q[i]);
		if (of[i] >= 0) bs->items[of[i]].ru = v3_madd(bs->items[of[i]].ru, -step, bs->items[of[i]].qu);
	}
#pragma omp single
	{
		/* The bound that limited the step, and any other it reached to rounding. */
		for (int32_t k = 0; k < bs->count; ++k) {
			const pcg_bound* d = &bs->items[k];
			const vec3 v = x->dv[d->particle];
			if (!d->held && (k == hit || v3_dot(d->normal, v) - d->lower <= 1e-12 * (fabs(d->lower) + v3_len(v))))
				bound_hold(x, k);
		}
		bs->expansions++;
	}
	const double rs = precondition_in_region(x);
	product_in_region(x, x->c);
#pragma omp for schedule(static)
	for (int32_t k = 0; k < x->chunks; ++k) {
		double cq = 0.0;
		for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, x->n); ++i)
			cq += v3_dot(x->c[i], filter1(x->S, x->constrained, i, x->q[i]));
		x->pcq[k] = cq;
	}
	const double cq = reduce_sum(x->pcq, x->chunks);
	const double a = cq > 0.0 ? rs / cq : 0.0;
#pragma omp for schedule(static)
	for (int32_t i = 0; i < x->n; ++i) x->dv[i] = v3_madd(x->dv[i], a, x->c[i]);
#pragma omp single
	for (int32_t k = 0; k < bs->count; ++k) {
		const pcg_bound* d = &bs->items[k];
		if (!d->held && v3_dot(d->normal, x->dv[d->particle]) < d->lower) bound_hold(x, k);
	}
	return restart_in_region(x);
}

/* A start projected onto the bounds: free ones it violates are taken in. One thread, before the
 * start's residual (bound_hold's r is overwritten by it). */
static void project_start(solve_ctx* x)
{
	pcg_bounds* bs = x->bounds;
	for (int32_t k = 0; k < bs->count; ++k) {
		pcg_bound* d = &bs->items[k];
		if (!d->held && v3_dot(d->normal, x->dv[d->particle]) < d->lower) {
			d->ru = v3_zero();
			bound_hold(x, k);
		}
	}
}

pcg_result pcg_solve(const bsr* A, const vec3* b, const vec3* z, const vec3* guess, const mat3* S,
		     const uint8_t* constrained, double tolerance, int max_iterations, int threads, pcg_workspace* w,
		     vec3* dv)
{
	/* Without bounds the solve never writes S, z or constrained. */
	return pcg_solve_bounded(A, b, (vec3*)z, guess, (mat3*)S, (uint8_t*)constrained, NULL, tolerance, max_iterations,
				 threads, w, dv);
}

pcg_result pcg_solve_bounded(const bsr* A, const vec3* b, vec3* z, const vec3* guess, mat3* S, uint8_t* constrained,
			     pcg_bounds* bounds, double tolerance, int max_iterations, int threads, pcg_workspace* w,
			     vec3* dv)
{
	const int32_t n = A->n;
	const int32_t chunks = reduce_chunks(n);
	vec3 *r = w->r, *c = w->c, *q = w->q, *s = w->s;
	mat3* pinv = w->pinv;
	double* partial = w->partial;
	const volatile int* cancel = w->cancel;
	pcg_result res = {.iterations = 0};
	if (bounds && bounds->count == 0) bounds = NULL;
	if (bounds) {
		bounds->activated = bounds->released = bounds->expansions = bounds->proportionings = 0;
		for (int32_t k = 0; k < bounds->count; ++k) bounds->items[k].held_at_start = bounds->items[k].held;
	}

	cholesky_precond* chol = cholesky_valid(w->cholesky) ? w->cholesky : NULL;
	multigrid* mg = multigrid_valid(w->multigrid) ? w->multigrid : NULL;
	two_level* tl = !mg && two_level_valid(w->two_level) ? w->two_level : NULL;
	const bool global = chol || tl || mg;
	solve_ctx x = {.A = A, .b = b, .z = z, .S = S, .constrained = constrained, .bounds = bounds, .r = r, .c = c,
		       .q = q, .s = s, .dv = dv, .pinv = pinv, .pcq = partial, .prs = partial + chunks, .chol = chol,
		       .tl = tl, .mg = mg, .n = n, .chunks = chunks};
	/* The bounds' norm (chopped_norm) reads the diagonal blocks' inverses whatever the
	 * preconditioner. */
	if (bounds && (chol || mg))
		for (int32_t i = 0; i < n; ++i) pinv[i] = block_inverse(&A->blocks[A->diag[i]]);
	/* With b filtered to zero but z != 0 (say, only a moving pin drives the system), the paper's
	 * threshold eps^2 delta0 is zero and could never be met; the residual of the paper's own start
	 * dv = z then sets the scale, as it does for standard CG started away from zero. Not the
	 * guess's residual: a poor guess (a warm start rescaled many times over after a short step)
	 * would loosen the threshold by as much and stop on a wrong answer (issue 27). A guess whose
	 * residual is larger than that start's is dropped, and the solve starts from dv = z. */
	double delta0, delta_new, zero_start;
	for (const vec3* start = guess;; start = NULL) {
		/* Lines 2-6: dv = z (or the filtered guess plus z); delta0 = filter(b)^T P filter(b);
		 * r = filter(b - A dv); c = filter(P r); delta_new = r^T c. */
		for (int32_t i = 0; i < n; ++i) dv[i] = start ? v3_add(filter1(S, constrained, i, start[i]), z[i]) : z[i];
		if (bounds) project_start(&x);
		bsr_mul(A, dv, q, threads);
		for (int32_t k = 0; bounds && k < bounds->count; ++k) {
			const int32_t i = bounds->items[k].particle;
			bounds->items[k].ru = v3_sub(b[i], q[i]);
		}
		if (global) {
			/* The same quantities with P^-1 applied to whole vectors: s holds filter(b), c its image. */
			for (int32_t i = 0; i < n; ++i) {
				if (tl) pinv[i] = block_inverse(&A->blocks[A->diag[i]]);
				s[i] = filter1(S, constrained, i, b[i]);
				r[i] = filter1(S, constrained, i, v3_sub(b[i], q[i]));
			}
			apply_global(chol, tl, mg, pinv, s, c);
			apply_global(chol, tl, mg, pinv, r, q);
#pragma omp parallel for num_threads(threads) schedule(static) if (chunks > 1)
			for (int32_t k = 0; k < chunks; ++k) {
				double d0 = 0.0, dn = 0.0;
				for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
					d0 += v3_dot(s[i], c[i]);
					c[i] = filter1(S, constrained, i, q[i]);
					dn += v3_dot(r[i], c[i]);
				}
				partial[k] = d0;
				partial[chunks + k] = dn;
			}
		} else {
#pragma omp parallel for num_threads(threads) schedule(static) if (chunks > 1)
			for (int32_t k = 0; k < chunks; ++k) {
				double d0 = 0.0, dn = 0.0;
				for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
					const mat3* a = &A->blocks[A->diag[i]];
					pinv[i] = block_inverse(a);
					vec3 fb = filter1(S, constrained, i, b[i]);
					d0 += v3_dot(fb, precondition(pinv[i], fb));
					r[i] = filter1(S, constrained, i, v3_sub(b[i], q[i]));
					c[i] = filter1(S, constrained, i, precondition(pinv[i], r[i]));
					dn += v3_dot(r[i], c[i]);
				}
				partial[k] = d0;
				partial[chunks + k] = dn;
			}
		}
		delta0 = reduce_sum(partial, chunks);
		delta_new = reduce_sum(partial + chunks, chunks);
		zero_start = !start ? delta_new : start_delta(A, b, z, S, constrained, chol, tl, mg, threads, w, delta0);
		if (!start || delta_new <= zero_start) break;
		/* The guess is dropped: the bounds its projection took in are free again. */
		for (int32_t k = 0; bounds && k < bounds->count; ++k)
			if (bounds->items[k].held && !bounds->items[k].held_at_start) {
				bound_release(&x, k);
				bounds->released--;
				bounds->activated--;
			}
	}
	double scale = delta0 > zero_start ? delta0 : zero_start;
	double threshold = tolerance * tolerance * scale;
	if (bounds) {
		/* With bounds, a start already at rounding level (every particle held, or at rest, so that
		 * filter(b) is a rounding residue) would set a threshold below what the arithmetic can
		 * resolve; CG then iterates on rounding noise, which grew to overflow in 60 iterations (a
		 * sheet sticking on a slope, free bounds on the bare surface). The floor is RESIDUAL_FLOOR
		 * of the unfiltered b in the same norm. */
		double bb = 0.0;
		for (int32_t i = 0; i < n; ++i) bb += v3_dot(b[i], m3_mulv(pinv[i], b[i]));
		threshold = fmax(threshold, RESIDUAL_FLOOR * RESIDUAL_FLOOR * bb);
	}

	/* The iterations in one parallel region: a fork per loop below (four per iteration) costs
	 * more than a barrier, most of all with OMP_WAIT_POLICY=passive, where every fork wakes
	 * sleeping threads. Each thread follows the same control flow: the reductions are summed
	 * by every thread, in chunk order, to the same bits. The partial sums of q^T c and r^T s
	 * live in separate halves of `partial`, each read between two barriers of its writes. */
	const int32_t limit = threads > 1 && chunks > 1 ? threads : 1;
	double* pcq = partial;
	double* prs = partial + chunks;
	/* Line 8's product on packed blocks (bsr_packed.h: the same bits, faster), unless there is
	 * no memory for the copy. */
	const bool packed = bsr_packed_reserve(&w->packed, A);
	const int32_t* of = bounds ? bounds->of_particle : NULL;
#pragma omp parallel num_threads(limit)
	{
		double dn = delta_new;
		int iterations = 0;
		bool converged = false, breakdown = false, cancelled = false;
		if (packed) {
#pragma omp for schedule(static)
			for (int32_t k = 0; k < chunks; ++k) bsr_packed_fill(&w->packed, A, k * REDUCE_CHUNK, reduce_chunk_end(k, n));
		}
		for (;;) {
			/* MPRGP (docs/solver.md): the held bounds that pull beyond their floor. */
			const double beta2 = bounds ? chopped_norm(&x) : 0.0;
			const bool free_done = !(dn > threshold && dn > 1e-300);
			if (free_done && beta2 == 0.0) {
				converged = true;
				break;
			}
			if (iterations >= max_iterations) break;
			/* An interrupt is looked at every CANCEL_EVERY iterations, by one thread for all,
			 * so that every thread leaves the loop at the same iteration. */
			if (cancel && iterations % CANCEL_EVERY == CANCEL_EVERY - 1) {
				bool stop = false;
#pragma omp single copyprivate(stop)
				stop = *cancel != 0;
				if (stop) {
					cancelled = true;
					break;
				}
			}
			if (beta2 > 0.0 && (free_done || beta2 > GAMMA2 * dn)) {
				/* Not proportional: release along the chopped gradient. */
				dn = proportion_in_region(&x);
				iterations++;
				if (x.breakdown) {
					breakdown = true;
					break;
				}
				continue;
			}
			/* Line 8: q = filter(A c), fused with c^T q. */
			if (packed) {
#pragma omp for schedule(static)
				for (int32_t k = 0; k < chunks; ++k) bsr_packed_lines(&w->packed, c, k * REDUCE_CHUNK, reduce_chunk_end(k, n));
#pragma omp for schedule(static)
				for (int32_t k = 0; k < chunks; ++k) bsr_packed_rows(&w->packed, A, q, k * REDUCE_CHUNK, reduce_chunk_end(k, n));
			} else {
#pragma omp for schedule(static)
				for (int32_t i = 0; i < n; ++i) q[i] = bsr_row_mul(A, c, i);
			}
#pragma omp single
			bsr_mul_extras(A, c, q);
#pragma omp for schedule(static)
			for (int32_t k = 0; k < chunks; ++k) {
				double cq = 0.0;
				for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
					if (of && of[i] >= 0) bounds->items[of[i]].qu = q[i];
					q[i] = filter1(S, constrained, i, q[i]);
					cq += v3_dot(c[i], q[i]);
				}
				pcq[k] = cq;
			}
			double cq = reduce_sum(pcq, chunks);
			if (!(cq > 0.0)) {
				breakdown = true;
				break;
			}
			/* Lines 9-14. */
			double alpha = dn / cq;
			if (bounds) {
				/* MPRGP's expansion: the step would cross a free bound. One thread measures it for
				 * all: a thread that went on to the update below while another still read dv here
				 * would make the two decide differently, and the team would deadlock at the next
				 * barrier (found as a hang of `drape run --threads 2`). */
				int32_t hit = -1;
				double step = 0.0;
#pragma omp single copyprivate(step, hit)
				step = feasible_step(&x, &hit);
				if (alpha > step) {
					dn = expand_in_region(&x, step, hit);
					iterations++;
					continue;
				}
			}
#pragma omp for schedule(static)
			for (int32_t k = 0; k < chunks; ++k) {
				double rs = 0.0;
				for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
					dv[i] = v3_madd(dv[i], alpha, c[i]);
					r[i] = v3_madd(r[i], -alpha, q[i]);
					if (of && of[i] >= 0) bounds->items[of[i]].ru = v3_madd(bounds->items[of[i]].ru, -alpha, bounds->items[of[i]].qu);
					if (global) continue;
					s[i] = precondition(pinv[i], r[i]);
					rs += v3_dot(r[i], s[i]);
				}
				prs[k] = rs;
			}
			if (global) global_apply_in_region(&x);
			double delta_old = dn;
			dn = reduce_sum(prs, chunks);
			double beta = dn / delta_old;
			/* Line 15: c = filter(s + beta c). */
#pragma omp for schedule(static)
			for (int32_t i = 0; i < n; ++i) c[i] = filter1(S, constrained, i, v3_madd(s[i], beta, c[i]));
			iterations++;
		}
		if (omp_get_thread_num() == 0) {
			res.iterations = iterations;
			res.converged = converged;
			res.breakdown = breakdown;
			res.cancelled = cancelled;
		}
	}
	return res;
}

void pcg_residual(const bsr* A, const vec3* dv, const vec3* b, vec3* e, int threads)
{
	const int32_t n = A->n;
	bsr_mul(A, dv, e, threads);
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 512)
	for (int32_t i = 0; i < n; ++i) e[i] = v3_sub(e[i], b[i]);
}

bool pcg_net_force_correction(const bsr* A, const vec3* b, const uint8_t* constrained, int threads, vec3* scratch, vec3* dv)
{
	/* An unconverged answer leaves a residual r = b - A dv whose sum is a net force (times h)
	 * that no internal force supplies: a free sheet drifts. A uniform shift dv += d changes the
	 * summed residual by C d, C the sum of all of A's blocks (the mass matrix's sum, plus drag's
	 * damping; the internal forces' Jacobians sum to zero), so d = C^-1 sum(r) removes it. Only
	 * for a system without constrained particles: a shift against a pin would stretch the cloth. */
	const int32_t n = A->n;
	for (int32_t i = 0; i < n; ++i)
		if (constrained[i]) return false;
	pcg_residual(A, dv, b, scratch, threads);
	vec3 sum = v3_zero();
	mat3 total = m3_zero();
	for (int32_t i = 0; i < n; ++i) {
		sum = v3_sub(sum, scratch[i]);
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) total = m3_add(total, A->blocks[k]);
		for (int32_t k = bsr_iso_begin(A, i); k < bsr_iso_end(A, i); ++k)
			total = m3_add(total, m3_scale(m3_identity(), A->iso_vals[k]));
	}
	for (int32_t e = 0; e < A->extra_count; ++e)
		for (int a = 0; a < 4; ++a)
			for (int c = 0; c < 4; ++c)
				if (a != c) total = m3_add(total, A->extra_blocks[16 * e + 4 * a + c]);
	mat3 inv;
	if (!m3_inverse(total, 1e12, &inv)) return false;
	const vec3 d = m3_mulv(inv, sum);
	for (int32_t i = 0; i < n; ++i) dv[i] = v3_add(dv[i], d);
	return true;
}
