/* The two-level preconditioner's smoothed prolongator and its Galerkin coarse matrix
 * (smoothed_prolongator.h; docs/solver.md, "Preconditioners"). */
#include "smoothed_prolongator.h"

#include "../core.h"
#include "filtered.h"

#include <stdlib.h>
#include <string.h>

/* The Jacobi step's damping: 4 / (3 rho(D^-1 L)) with rho = 2, the graph Laplacian's bound. */
#define SMOOTHING 0.6666666666666666

static bool fail(smoothed_prolongator* p, int32_t* a, int32_t* b)
{
	free(a);
	free(b);
	smoothed_prolongator_free(p);
	return false;
}

bool smoothed_prolongator_init(smoothed_prolongator* p, const bsr* A, const int32_t* agg, int32_t nc, bsr* coarse)
{
	memset(p, 0, sizeof *p);
	const int32_t n = A->n;
	p->n = n;
	/* P's pattern: the aggregates of each particle's pattern neighbours (A's row, diagonal
	 * included, times P_tent's). */
	int32_t* ident = core_alloc_array((size_t)n + 1, sizeof *ident);
	if (!ident) return fail(p, NULL, NULL);
	for (int32_t i = 0; i <= n; ++i) ident[i] = i;
	const bool patterned = pattern_product(n, A->row_start, A->cols, ident, agg, nc, &p->P);
	free(ident);
	if (!patterned) return fail(p, NULL, NULL);
	p->w = core_alloc_array((size_t)p->P.start[n], sizeof *p->w);
	p->at = core_alloc_array((size_t)nc, sizeof *p->at);
	if (!p->w || !p->at) return fail(p, NULL, NULL);
	/* Its weights: 1/3 to the own aggregate, 2/3 spread evenly over the neighbours' (all to the
	 * own one for an isolated particle); the own weight is added first and each neighbour's in
	 * A's column order, so the sums depend on the pattern alone. */
	for (int32_t i = 0; i < n; ++i) {
		int32_t deg = 0;
		for (int32_t e = p->P.start[i]; e < p->P.start[i + 1]; ++e) {
			p->at[p->P.cols[e]] = e;
			p->w[e] = 0.0;
		}
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) deg += A->cols[k] != i;
		p->w[p->at[agg[i]]] += deg ? 1.0 - SMOOTHING : 1.0;
		for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k)
			if (A->cols[k] != i) p->w[p->at[agg[A->cols[k]]]] += SMOOTHING / deg;
	}
	/* The restriction's pattern: each aggregate's rows in increasing order. */
	int32_t* from = NULL;
	if (!pattern_transpose(n, p->P.start, p->P.cols, nc, &p->PT, &from)) return fail(p, NULL, NULL);
	p->wt = core_alloc_array((size_t)p->PT.start[nc], sizeof *p->wt);
	if (!p->wt) return fail(p, from, NULL);
	for (int32_t e = 0; e < p->PT.start[nc]; ++e) p->wt[e] = p->w[from[e]];
	free(from);
	/* B = A P's pattern, over A's blocks and scalar part together. */
	const int32_t iso = A->iso_start ? A->iso_start[n] : 0;
	int32_t* a_start = core_alloc_array((size_t)n + 1, sizeof *a_start);
	int32_t* a_cols = core_alloc_array((size_t)A->nnz + (size_t)iso, sizeof *a_cols);
	if (!a_start || !a_cols) return fail(p, a_start, a_cols);
	a_start[0] = 0;
	for (int32_t I = 0, q = 0; I < n; ++I) {
		for (int32_t k = A->row_start[I]; k < A->row_start[I + 1]; ++k) a_cols[q++] = A->cols[k];
		for (int32_t k = bsr_iso_begin(A, I); k < bsr_iso_end(A, I); ++k) a_cols[q++] = A->iso_cols[k];
		a_start[I + 1] = q;
	}
	const bool b_patterned = pattern_product(n, a_start, a_cols, p->P.start, p->P.cols, nc, &p->B);
	free(a_start);
	free(a_cols);
	if (!b_patterned) return fail(p, NULL, NULL);
	int32_t widest = 0;
	for (int32_t I = 0; I < n; ++I) widest = p->B.start[I + 1] - p->B.start[I] > widest ? p->B.start[I + 1] - p->B.start[I] : widest;
	p->b = core_alloc_array((size_t)widest, sizeof *p->b);
	if (!p->b) return fail(p, NULL, NULL);
	/* A_c = P^T B: (a, b) for a in P's row I and b in B's row I. */
	bsr_builder builder;
	bool ok = bsr_builder_init(&builder, nc);
	for (int32_t a = 0; ok && a < nc; ++a) {
		int32_t pair[2] = {a, a};
		ok = bsr_builder_add_elements(&builder, pair, 1, 2, sizeof pair);
	}
	for (int32_t I = 0; ok && I < n; ++I)
		for (int32_t e = p->P.start[I]; ok && e < p->P.start[I + 1]; ++e)
			for (int32_t x = p->B.start[I]; ok && x < p->B.start[I + 1]; ++x) {
				int32_t pair[2] = {p->P.cols[e], p->B.cols[x]};
				if (pair[0] != pair[1]) ok = bsr_builder_add_elements(&builder, pair, 1, 2, sizeof pair);
			}
	if (!ok) {
		free(builder.keys);
		return fail(p, NULL, NULL);
	}
	if (!bsr_builder_finish(&builder, coarse)) return fail(p, NULL, NULL);
	p->cb_start = core_alloc_array((size_t)n + 1, sizeof *p->cb_start);
	if (!p->cb_start) return fail(p, NULL, NULL);
	p->cb_start[0] = 0;
	for (int32_t I = 0; I < n; ++I)
		p->cb_start[I + 1] = p->cb_start[I] + (p->P.start[I + 1] - p->P.start[I]) * (p->B.start[I + 1] - p->B.start[I]);
	p->cb = core_alloc_array((size_t)p->cb_start[n], sizeof *p->cb);
	if (!p->cb) return fail(p, NULL, NULL);
	for (int32_t I = 0; I < n; ++I) {
		int32_t q = p->cb_start[I];
		for (int32_t e = p->P.start[I]; e < p->P.start[I + 1]; ++e)
			for (int32_t x = p->B.start[I]; x < p->B.start[I + 1]; ++x) p->cb[q++] = bsr_find(coarse, p->P.cols[e], p->B.cols[x]);
	}
	return true;
}

void smoothed_prolongator_free(smoothed_prolongator* p)
{
	pattern_free(&p->P);
	pattern_free(&p->PT);
	pattern_free(&p->B);
	free(p->w);
	free(p->wt);
	free(p->cb_start);
	free(p->cb);
	free(p->b);
	free(p->at);
	memset(p, 0, sizeof *p);
}

void smoothed_prolongator_galerkin(smoothed_prolongator* p, const bsr* A, const mat3* S, const uint8_t* constrained, bsr* coarse)
{
	for (int32_t I = 0; I < p->n; ++I) {
		const int32_t b0 = p->B.start[I], bm = p->B.start[I + 1] - b0;
		for (int32_t x = 0; x < bm; ++x) {
			p->b[x] = m3_zero();
			p->at[p->B.cols[b0 + x]] = x;
		}
		/* B's row I = sum over A's couplings (I, J) of A_IJ times P's row J. */
		for (int32_t k = A->row_start[I]; k < A->row_start[I + 1]; ++k) {
			const int32_t J = A->cols[k];
			const mat3 a = filtered_block(A, k, I, J, S, constrained);
			for (int32_t f = p->P.start[J]; f < p->P.start[J + 1]; ++f) {
				mat3* c = &p->b[p->at[p->P.cols[f]]];
				*c = m3_add(*c, m3_scale(a, p->w[f]));
			}
		}
		for (int32_t k = bsr_iso_begin(A, I); k < bsr_iso_end(A, I); ++k) {
			const int32_t J = A->iso_cols[k];
			for (int32_t f = p->P.start[J]; f < p->P.start[J + 1]; ++f)
				filtered_iso_add(A, k, I, S, constrained, p->w[f], &p->b[p->at[p->P.cols[f]]]);
		}
		/* A_c += P's row I (transposed) times B's row I. */
		int32_t q = p->cb_start[I];
		for (int32_t e = p->P.start[I]; e < p->P.start[I + 1]; ++e) {
			const double w = p->w[e];
			for (int32_t x = 0; x < bm; ++x) {
				mat3* c = &coarse->blocks[p->cb[q++]];
				*c = m3_add(*c, m3_scale(p->b[x], w));
			}
		}
	}
}
