/* l1 hybrid block Gauss-Seidel (Baker, Falgout, Kolev and Yang 2011, sec. 6), the multigrid
 * preconditioner's smoother (multigrid.c; docs/solver.md, "Preconditioners").
 *
 * The rows are cut into fixed chunks of SMOOTHER_CHUNK; within a chunk, block Gauss-Seidel in
 * index order (forward) or its reverse (backward); the other chunks' values are those at the start
 * of the sweep. The chunks do not depend on the thread count, so neither do the bits, and a chunk
 * streams through memory (a multicolour Gauss-Seidel, tried first, jumps between rows and took
 * three products' time per sweep). Each scalar row's diagonal gets the absolute sum of that row's
 * entries in other chunks (the l1 term), which makes the smoother convergent for any SPD matrix
 * however the chunks cut it, so the V-cycle stays positive definite without a damping factor to
 * estimate. */
#include "smoother.h"

#include "block_inverse.h"

#include <math.h>
#include <stdlib.h>

/* Few rows near a chunk's ends, where it acts as Jacobi, and enough chunks for the threads from
 * about 2,000 rows on. */
#define SMOOTHER_CHUNK 512
/* How far ahead a sweep prefetches (rows): 2 and 4 measured the same on the 40K sheet. */
#define PREFETCH_ROWS 2

bool smoother_init(smoother* g, const bsr* A)
{
	const size_t n = (size_t)(A->n > 0 ? A->n : 1);
	g->n = A->n;
	g->ginv = malloc(n * sizeof *g->ginv);
	g->old = malloc(n * sizeof *g->old);
	g->in_chunk = malloc(2 * n * sizeof *g->in_chunk);
	if (!g->ginv || !g->old || !g->in_chunk) return false;
	for (int32_t i = 0; i < A->n; ++i) {
		const int32_t lo = i / SMOOTHER_CHUNK * SMOOTHER_CHUNK, hi = lo + SMOOTHER_CHUNK;
		int32_t k = A->row_start[i];
		while (k < A->row_start[i + 1] && A->cols[k] < lo) ++k;
		g->in_chunk[2 * i] = k;
		while (k < A->row_start[i + 1] && A->cols[k] < hi) ++k;
		g->in_chunk[2 * i + 1] = k;
	}
	return true;
}

void smoother_free(smoother* g)
{
	free(g->ginv);
	free(g->old);
	free(g->in_chunk);
	g->ginv = NULL;
	g->old = NULL;
	g->in_chunk = NULL;
}

void smoother_setup(smoother* g, const bsr* A)
{
#pragma omp for schedule(static)
	for (int32_t i = 0; i < g->n; ++i) {
		mat3 d = A->blocks[A->diag[i]];
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) {
			if (k >= g->in_chunk[2 * i] && k < g->in_chunk[2 * i + 1]) continue;
			const mat3* a = &A->blocks[k];
			for (int r = 0; r < 3; ++r) d.m[r][r] += fabs(a->m[r][0]) + fabs(a->m[r][1]) + fabs(a->m[r][2]);
		}
		g->ginv[i] = block_inverse(&d);
	}
}

/* s += the blocks [k0, k1) of A times v, in order. */
static inline void row_part(const bsr* A, int32_t k0, int32_t k1, const vec3* v, double s[3])
{
	for (int32_t k = k0; k < k1; ++k) {
		const mat3* a = &A->blocks[k];
		const vec3 u = v[A->cols[k]];
		s[0] += a->m[0][0] * u.x + a->m[0][1] * u.y + a->m[0][2] * u.z;
		s[1] += a->m[1][0] * u.x + a->m[1][1] * u.y + a->m[1][2] * u.z;
		s[2] += a->m[2][0] * u.x + a->m[2][1] * u.y + a->m[2][2] * u.z;
	}
}

void smoother_sweep(smoother* g, const bsr* A, const vec3* b, vec3* x, bool from_zero, bool backward)
{
	const int32_t n = g->n, chunks = (n + SMOOTHER_CHUNK - 1) / SMOOTHER_CHUNK;
	const vec3* old = g->old;
#pragma omp for schedule(static)
	for (int32_t c = 0; c < chunks; ++c) {
		const int32_t lo = c * SMOOTHER_CHUNK, hi = lo + SMOOTHER_CHUNK < n ? lo + SMOOTHER_CHUNK : n;
		for (int32_t e = 0; e < hi - lo; ++e) {
			const int32_t i = backward ? hi - 1 - e : lo + e;
			/* Rows a few ahead into the cache: the dependence from row to row leaves the
			 * processor too few loads in flight, and descending rows defeat the hardware
			 * prefetcher (the backward sweep took four products' time without this). */
			const int32_t ahead = backward ? i - PREFETCH_ROWS : i + PREFETCH_ROWS;
			if (ahead >= lo && ahead < hi) {
				const char* p0 = (const char*)&A->blocks[A->row_start[ahead]];
				const char* p1 = (const char*)&A->blocks[A->row_start[ahead + 1]];
				for (const char* p = p0; p < p1; p += 64) __builtin_prefetch(p);
				__builtin_prefetch(&A->cols[A->row_start[ahead]]);
			}
			/* The row's blocks in its own chunk are [in0, in1) (the columns are sorted); the
			 * others read the sweep's start. Two sums: the blocks on the side of the row just
			 * updated (i - 1 forward, i + 1 backward) in their own, so that the rest of the row
			 * does not wait for it. */
			const int32_t r0 = A->row_start[i], r1 = A->row_start[i + 1], in0 = g->in_chunk[2 * i], in1 = g->in_chunk[2 * i + 1];
			const int32_t d = A->diag[i];
			double early[3] = {0.0, 0.0, 0.0}, late[3] = {0.0, 0.0, 0.0};
			if (!from_zero) {
				row_part(A, r0, in0, old, early);
				row_part(A, in1, r1, old, early);
			}
			if (!backward) {
				row_part(A, d, in1, x, early);
				row_part(A, in0, d, x, late);
			} else {
				row_part(A, in0, d + 1, x, early);
				row_part(A, d + 1, in1, x, late);
			}
			const vec3 r = v3(b[i].x - early[0] - late[0], b[i].y - early[1] - late[1], b[i].z - early[2] - late[2]);
			x[i] = v3_add(x[i], m3_mulv(g->ginv[i], r));
		}
	}
}
