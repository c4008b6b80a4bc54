/* Modified PCG (sec. 5.3, procedure modified-pcg) with a block-Jacobi, Cholesky, two-level or
 * multigrid preconditioner (cholesky.h, two_level.h, multigrid.h; docs/solver.md compares them).
 *
 * The paper writes the preconditioner as P with P_ii = 1/A_ii and then applies P^-1 to the
 * residual; applying diag(A)^-1 (what a Jacobi preconditioner must do) is the consistent reading,
 * used here: s = r / diag(A), delta0 = filter(b)^T diag(A)^-1 filter(b). docs/solver.md. */
#include "pcg.h"

#include "block_inverse.h"
#include "reduce.h"

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

pcg_result pcg_solve(const bsr* A, const vec3* b, const vec3* z, const vec3* guess, const mat3* S,
		     const uint8_t* constrained, double tolerance, int max_iterations, int threads, pcg_workspace* w,
		     vec3* dv)
{
	const int32_t n = A->n;
	const int32_t chunks = reduce_chunks(n);
	vec3 *r = w->r, *c = w->c, *q = w->q, *s = w->s;
	mat3* pinv = w->pinv;
	double* partial = w->partial;
	const volatile int* cancel = w->cancel;
	pcg_result res = {.iterations = 0};

	cholesky_precond* chol = cholesky_valid(w->cholesky) ? w->cholesky : NULL;
	multigrid* mg = multigrid_valid(w->multigrid) ? w->multigrid : NULL;
	two_level* tl = !mg && two_level_valid(w->two_level) ? w->two_level : NULL;
	const bool global = chol || tl || mg;
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
		bsr_mul(A, dv, q, threads);
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
	}
	double scale = delta0 > zero_start ? delta0 : zero_start;
	double threshold = tolerance * tolerance * scale;

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
			if (!(dn > threshold && dn > 1e-300)) {
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
			/* Line 8: q = filter(A c), fused with c^T q. */
			if (packed) {
#pragma omp for schedule(static)
				for (int32_t k = 0; k < chunks; ++k) bsr_packed_rows(&w->packed, A, c, q, k * REDUCE_CHUNK, reduce_chunk_end(k, n));
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
#pragma omp for schedule(static)
			for (int32_t k = 0; k < chunks; ++k) {
				double rs = 0.0;
				for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
					dv[i] = v3_madd(dv[i], alpha, c[i]);
					r[i] = v3_madd(r[i], -alpha, q[i]);
					if (global) continue;
					s[i] = precondition(pinv[i], r[i]);
					rs += v3_dot(r[i], s[i]);
				}
				prs[k] = rs;
			}
			if (tl) {
				/* s = P^-1 r in parallel but for the small coarse solve; the sums are
				 * split the same way for every thread count. */
				const int32_t nc = two_level_aggregate_count(tl);
#pragma omp for schedule(static)
				for (int32_t k = 0; k < reduce_chunks(nc); ++k) two_level_restrict(tl, r, k * REDUCE_CHUNK, reduce_chunk_end(k, nc));
#pragma omp single
				two_level_coarse_solve(tl);
#pragma omp for schedule(static)
				for (int32_t k = 0; k < chunks; ++k) {
					double rs = 0.0;
					for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) {
						s[i] = two_level_prolong(tl, pinv, r, i);
						rs += v3_dot(r[i], s[i]);
					}
					prs[k] = rs;
				}
			} else if (global) {
				/* The V-cycle's loops are work-sharing constructs every thread runs
				 * (multigrid.h); a Cholesky solve is one thread's. */
				if (mg) multigrid_apply(mg, r, s);
				else {
#pragma omp single
					apply_global(chol, tl, mg, pinv, r, s);
				}
#pragma omp for schedule(static)
				for (int32_t k = 0; k < chunks; ++k) {
					double rs = 0.0;
					for (int32_t i = k * REDUCE_CHUNK; i < reduce_chunk_end(k, n); ++i) rs += v3_dot(r[i], s[i]);
					prs[k] = rs;
				}
			}
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
