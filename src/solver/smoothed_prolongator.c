/* The two-level preconditioner's smoothed prolongator and its Galerkin coarse matrix
 * (smoothed_prolongator.h; docs/solver.md, "Preconditioners"). */
#include "smoothed_prolongator.h"

#include "../core.h"
#include "filtered.h"

#include <stdlib.h>
#include <string.h>

/* The Jacobi step's damping: 4 / (3 rho(D^-1 L)) with rho = 2, the graph Laplacian's bound. */
#define SMOOTHING 0.6666666666666666

/* Row i of P into aggs/ws (when given), sorted by aggregate; returns its length. mark (nc, all
 * different from i on entry) and at (nc) are scratch. The own aggregate's weight comes first and
 * each neighbour's in A's column order, so the sums do not depend on anything but the pattern. */
static int32_t p_row(const bsr* A, const int32_t* agg, int32_t i, int32_t* mark, int32_t* at, int32_t* aggs, double* ws)
{
	int32_t deg = 0;
	for (int32_t k = A->row_start[i]; k < A->row_start[i + 1]; ++k) deg += A->cols[k] != i;
	int32_t m = 0;
	for (int32_t k = A->row_start[i] - 1; k < A->row_start[i + 1]; ++k) {
		const bool own = k < A->row_start[i];
		const int32_t j = own ? i : A->cols[k];
		if (!own && j == i) continue;
		const double w = own ? (deg ? 1.0 - SMOOTHING : 1.0) : SMOOTHING / deg;
		const int32_t a = agg[j];
		if (mark[a] != i) {
			mark[a] = i;
			at[a] = m;
			if (aggs) {
				aggs[m] = a;
				ws[m] = 0.0;
			}
			m++;
		}
		if (aggs) ws[at[a]] += w;
	}
	for (int32_t x = 1; aggs && x < m; ++x)
		for (int32_t y = x; y > 0 && aggs[y - 1] > aggs[y]; --y) {
			int32_t ta = aggs[y];
			aggs[y] = aggs[y - 1];
			aggs[y - 1] = ta;
			double tw = ws[y];
			ws[y] = ws[y - 1];
			ws[y - 1] = tw;
		}
	return m;
}

/* Row I of B = A P's pattern into out (when given), sorted; returns its length. The columns of
 * A's row I are its blocks' and its scalar part's. */
static int32_t b_row(const smoothed_prolongator* p, const bsr* A, int32_t I, int32_t* mark, int32_t* out)
{
	const int32_t nb = A->row_start[I + 1] - A->row_start[I], ni = bsr_iso_end(A, I) - bsr_iso_begin(A, I);
	int32_t m = 0;
	for (int32_t u = 0; u < nb + ni; ++u) {
		const int32_t J = u < nb ? A->cols[A->row_start[I] + u] : A->iso_cols[bsr_iso_begin(A, I) + u - nb];
		for (int32_t f = p->row_start[J]; f < p->row_start[J + 1]; ++f) {
			const int32_t a = p->row_agg[f];
			if (mark[a] == I) continue;
			mark[a] = I;
			if (out) out[m] = a;
			m++;
		}
	}
	for (int32_t x = 1; out && x < m; ++x)
		for (int32_t y = x; y > 0 && out[y - 1] > out[y]; --y) {
			int32_t t = out[y];
			out[y] = out[y - 1];
			out[y - 1] = t;
		}
	return m;
}

static bool fail(smoothed_prolongator* p, int32_t* scratch)
{
	free(scratch);
	smoothed_prolongator_free(p);
	return false;
}

bool smoothed_prolongator_init(smoothed_prolongator* p, const bsr* A, const int32_t* agg, int32_t nc, bsr* coarse)
{
	memset(p, 0, sizeof *p);
	const int32_t n = A->n;
	p->n = n;
	p->nc = nc;
	int32_t* scratch = core_alloc_array(2 * (size_t)nc, sizeof *scratch);
	p->row_start = core_alloc_array((size_t)n + 1, sizeof *p->row_start);
	p->col_start = calloc((size_t)nc + 1, sizeof *p->col_start);
	p->b_start = core_alloc_array((size_t)n + 1, sizeof *p->b_start);
	if (!scratch || !p->row_start || !p->col_start || !p->b_start) return fail(p, scratch);
	int32_t *mark = scratch, *at = scratch + nc;
	for (int32_t a = 0; a < nc; ++a) mark[a] = -1;
	p->row_start[0] = 0;
	for (int32_t i = 0; i < n; ++i) p->row_start[i + 1] = p->row_start[i] + p_row(A, agg, i, mark, at, NULL, NULL);
	const int32_t entries = p->row_start[n];
	p->row_agg = core_alloc_array((size_t)entries, sizeof *p->row_agg);
	p->row_w = core_alloc_array((size_t)entries, sizeof *p->row_w);
	p->col_row = core_alloc_array((size_t)entries, sizeof *p->col_row);
	p->col_w = core_alloc_array((size_t)entries, sizeof *p->col_w);
	if (!p->row_agg || !p->row_w || !p->col_row || !p->col_w) return fail(p, scratch);
	for (int32_t a = 0; a < nc; ++a) mark[a] = -1;
	for (int32_t i = 0; i < n; ++i) p_row(A, agg, i, mark, at, p->row_agg + p->row_start[i], p->row_w + p->row_start[i]);
	/* The columns, each listing its rows in increasing order (the restriction's summing order). */
	for (int32_t e = 0; e < entries; ++e) p->col_start[p->row_agg[e] + 1]++;
	for (int32_t a = 0; a < nc; ++a) p->col_start[a + 1] += p->col_start[a];
	memcpy(at, p->col_start, (size_t)nc * sizeof *at);
	for (int32_t i = 0; i < n; ++i)
		for (int32_t e = p->row_start[i]; e < p->row_start[i + 1]; ++e) {
			const int32_t q = at[p->row_agg[e]]++;
			p->col_row[q] = i;
			p->col_w[q] = p->row_w[e];
		}
	/* B = A P's pattern. */
	for (int32_t a = 0; a < nc; ++a) mark[a] = -1;
	p->b_start[0] = 0;
	int32_t widest = 0;
	for (int32_t I = 0; I < n; ++I) {
		const int32_t m = b_row(p, A, I, mark, NULL);
		widest = m > widest ? m : widest;
		p->b_start[I + 1] = p->b_start[I] + m;
	}
	p->b_agg = core_alloc_array((size_t)p->b_start[n], sizeof *p->b_agg);
	p->b = core_alloc_array((size_t)widest, sizeof *p->b); /* one row at a time */
	if (!p->b_agg || !p->b) return fail(p, scratch);
	for (int32_t a = 0; a < nc; ++a) mark[a] = -1;
	for (int32_t I = 0; I < n; ++I) b_row(p, A, I, mark, p->b_agg + p->b_start[I]);
	/* A_c = P^T B: (a, b) for a in P's row I and b in B's row I. */
	bsr_builder builder;
	bool ok = bsr_builder_init(&builder, nc);
	for (int32_t a = 0; ok && a < nc; ++a) {
		int32_t pair[2] = {a, a};
		ok = bsr_builder_add_elements(&builder, pair, 1, 2, sizeof pair);
	}
	for (int32_t I = 0; ok && I < n; ++I)
		for (int32_t e = p->row_start[I]; ok && e < p->row_start[I + 1]; ++e)
			for (int32_t x = p->b_start[I]; ok && x < p->b_start[I + 1]; ++x) {
				int32_t pair[2] = {p->row_agg[e], p->b_agg[x]};
				if (pair[0] != pair[1]) ok = bsr_builder_add_elements(&builder, pair, 1, 2, sizeof pair);
			}
	if (!ok) {
		free(builder.keys);
		return fail(p, scratch);
	}
	if (!bsr_builder_finish(&builder, coarse)) return fail(p, scratch);
	p->cb_start = core_alloc_array((size_t)n + 1, sizeof *p->cb_start);
	if (!p->cb_start) return fail(p, scratch);
	p->cb_start[0] = 0;
	for (int32_t I = 0; I < n; ++I)
		p->cb_start[I + 1] = p->cb_start[I] + (p->row_start[I + 1] - p->row_start[I]) * (p->b_start[I + 1] - p->b_start[I]);
	p->cb = core_alloc_array((size_t)p->cb_start[n], sizeof *p->cb);
	if (!p->cb) return fail(p, scratch);
	for (int32_t I = 0; I < n; ++I) {
		int32_t q = p->cb_start[I];
		for (int32_t e = p->row_start[I]; e < p->row_start[I + 1]; ++e)
			for (int32_t x = p->b_start[I]; x < p->b_start[I + 1]; ++x) p->cb[q++] = bsr_find(coarse, p->row_agg[e], p->b_agg[x]);
	}
	free(scratch);
	/* B's row I is filled through at[] (each aggregate's place in the row), kept for galerkin. */
	p->at = core_alloc_array((size_t)nc, sizeof *p->at);
	if (!p->at) {
		smoothed_prolongator_free(p);
		return false;
	}
	return true;
}

void smoothed_prolongator_free(smoothed_prolongator* p)
{
	free(p->row_start);
	free(p->row_agg);
	free(p->row_w);
	free(p->col_start);
	free(p->col_row);
	free(p->col_w);
	free(p->b_start);
	free(p->b_agg);
	free(p->b);
	free(p->cb_start);
	free(p->cb);
	free(p->at);
	memset(p, 0, sizeof *p);
}

void smoothed_prolongator_galerkin(smoothed_prolongator* p, const bsr* A, const mat3* S, const uint8_t* constrained, bsr* coarse)
{
	for (int32_t I = 0; I < p->n; ++I) {
		const int32_t b0 = p->b_start[I], bm = p->b_start[I + 1] - b0;
		for (int32_t x = 0; x < bm; ++x) {
			p->b[x] = m3_zero();
			p->at[p->b_agg[b0 + x]] = x;
		}
		/* B's row I = sum over A's couplings (I, J) of A_IJ times P's row J. */
		for (int32_t k = A->row_start[I]; k < A->row_start[I + 1]; ++k) {
			const int32_t J = A->cols[k];
			const mat3 a = filtered_block(A, k, I, J, S, constrained);
			for (int32_t f = p->row_start[J]; f < p->row_start[J + 1]; ++f) {
				mat3* c = &p->b[p->at[p->row_agg[f]]];
				*c = m3_add(*c, m3_scale(a, p->row_w[f]));
			}
		}
		for (int32_t k = bsr_iso_begin(A, I); k < bsr_iso_end(A, I); ++k) {
			const int32_t J = A->iso_cols[k];
			for (int32_t f = p->row_start[J]; f < p->row_start[J + 1]; ++f)
				filtered_iso_add(A, k, I, S, constrained, p->row_w[f], &p->b[p->at[p->row_agg[f]]]);
		}
		/* A_c += P's row I (transposed) times B's row I. */
		int32_t q = p->cb_start[I];
		for (int32_t e = p->row_start[I]; e < p->row_start[I + 1]; ++e) {
			const double w = p->row_w[e];
			for (int32_t x = 0; x < bm; ++x) {
				mat3* c = &coarse->blocks[p->cb[q++]];
				*c = m3_add(*c, m3_scale(p->b[x], w));
			}
		}
	}
}
