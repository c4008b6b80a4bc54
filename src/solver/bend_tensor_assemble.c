/* Tensor bending in the implicit system (docs/bending.md). The energy is quadratic, so its force
 * is -Q x and its Jacobian -Q, the same every step: the element matrices are summed once per
 * topology into a scalar CSR matrix (one row per particle, each entry with its A slot, or its place
 * in A's scalar part for the second ring), and each pass adds row by row, in a fixed order
 * (bit-identical for any thread count). */
#include "bend_tensor_assemble.h"

#include "../forces/bend_tensor.h"

#include <stdlib.h>
#include <string.h>

typedef struct triplet {
	uint64_t key; /* (row << 32) | col */
	int64_t order; /* element * 144 + entry: the summation order */
	double k, d;
} triplet;

static int triplet_cmp(const void* a, const void* b)
{
	const triplet* x = a;
	const triplet* y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return x->order < y->order ? -1 : (x->order > y->order);
}

void bend_tensor_free(drape_world* w)
{
	free(w->bq_start);
	free(w->bq_col);
	free(w->bq_slot);
	free(w->bq_k);
	free(w->bq_d);
	w->bq_start = w->bq_col = w->bq_slot = NULL;
	w->bq_k = w->bq_d = NULL;
}

/* Entries outside A's block pattern (the second ring, when world_prepare left the elements out of
 * it) go to A's scalar part, row by row in column order; their bq_slot is -1 - (index there). */
static bool iso_build(drape_world* w)
{
	const int32_t n = w->particle_count;
	int32_t count = 0;
	for (int32_t k = 0; k < w->bq_start[n]; ++k) count += w->bq_slot[k] < 0;
	if (count == 0) return true;
	bsr* A = &w->A;
	A->iso_start = calloc((size_t)n + 1, sizeof *A->iso_start);
	A->iso_cols = malloc((size_t)count * sizeof *A->iso_cols);
	A->iso_vals = calloc((size_t)count, sizeof *A->iso_vals);
	if (!A->iso_start || !A->iso_cols || !A->iso_vals) return false;
	int32_t at = 0;
	for (int32_t i = 0; i < n; ++i) {
		for (int32_t k = w->bq_start[i]; k < w->bq_start[i + 1]; ++k) {
			if (w->bq_slot[k] >= 0) continue;
			A->iso_cols[at] = w->bq_col[k];
			w->bq_slot[k] = -1 - at;
			++at;
		}
		A->iso_start[i + 1] = at;
	}
	return true;
}

bool bend_tensor_build(drape_world* w)
{
	bend_tensor_free(w);
	const int32_t n = w->particle_count;
	w->bq_start = calloc((size_t)n + 1, sizeof *w->bq_start);
	if (!w->bq_start) return false;
	if (w->btens_count == 0) return true;
	enum { NN = BEND_TENSOR_NODES };
	/* Slots that repeat a vertex (a missing neighbour) carry zero weights: only nonzero entries
	 * are kept, so an element adds at most its distinct nodes squared. */
	size_t count = 0;
	for (int32_t e = 0; e < w->btens_count; ++e) {
		const bend_tensor_elem* el = &w->btens[e];
		int used = 0;
		for (int i = 0; i < NN; ++i) used += el->alpha[0][i] != 0.0 || el->alpha[1][i] != 0.0 || el->alpha[2][i] != 0.0;
		count += (size_t)used * (size_t)used;
	}
	triplet* t = malloc((count > 0 ? count : 1) * sizeof *t);
	if (!t) return false;
	size_t at_t = 0;
	for (int32_t e = 0; e < w->btens_count; ++e) {
		const bend_tensor_elem* el = &w->btens[e];
		double q[NN][NN], qd[NN][NN];
		bend_tensor_matrix(el->alpha, el->area, el->c_uu, el->c_vv, q);
		bend_tensor_matrix(el->alpha, el->area, el->damping, el->damping, qd);
		bool used[NN];
		for (int i = 0; i < NN; ++i) used[i] = el->alpha[0][i] != 0.0 || el->alpha[1][i] != 0.0 || el->alpha[2][i] != 0.0;
		for (int i = 0; i < NN; ++i)
			for (int j = 0; j < NN; ++j) {
				if (!used[i] || !used[j]) continue;
				triplet* p = &t[at_t++];
				p->key = ((uint64_t)(uint32_t)el->v[i] << 32) | (uint32_t)el->v[j];
				p->order = (int64_t)NN * NN * e + NN * i + j;
				p->k = q[i][j];
				p->d = qd[i][j];
			}
	}
	qsort(t, count, sizeof *t, triplet_cmp);
	size_t nnz = 0;
	for (size_t i = 0; i < count; ++i) nnz += i == 0 || t[i].key != t[i - 1].key;
	w->bq_col = malloc(nnz * sizeof *w->bq_col);
	w->bq_slot = malloc(nnz * sizeof *w->bq_slot);
	w->bq_k = malloc(nnz * sizeof *w->bq_k);
	w->bq_d = malloc(nnz * sizeof *w->bq_d);
	if (!w->bq_col || !w->bq_slot || !w->bq_k || !w->bq_d) {
		free(t);
		return false;
	}
	int64_t at = -1;
	for (size_t i = 0; i < count; ++i) {
		if (i == 0 || t[i].key != t[i - 1].key) {
			++at;
			int32_t row = (int32_t)(t[i].key >> 32), col = (int32_t)(uint32_t)t[i].key;
			w->bq_col[at] = col;
			w->bq_slot[at] = bsr_find(&w->A, row, col);
			w->bq_k[at] = 0.0;
			w->bq_d[at] = 0.0;
			w->bq_start[row + 1]++;
		}
		w->bq_k[at] += t[i].k;
		w->bq_d[at] += t[i].d;
	}
	for (int32_t i = 0; i < n; ++i) w->bq_start[i + 1] += w->bq_start[i];
	free(t);
	return iso_build(w);
}

void bend_tensor_assemble(drape_world* w, double h, const assembly_plan* p, bool matrix)
{
	if (w->btens_count == 0) return;
	const int role = p->role[FAMILY_BEND];
	if (role == ROLE_OFF) return;
	const double s = p->scale[FAMILY_BEND];
	const double h2 = h * h;
	const int32_t n = w->particle_count;
	const bool rhs = p->rhs;
	const bool implicit_matrix = matrix && role == ROLE_IMPLICIT;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048)
	for (int32_t i = 0; i < n; ++i) {
		/* Q's rows sum to zero (a translation stores no energy), so Q x = sum_j q_ij (x_j - x_i):
		 * the differences keep a translated or uniformly moving sheet exactly force-free. */
		vec3 f = v3_zero(), ky = v3_zero();
		const vec3 yvi = v3_madd(w->v[i], 1.0 / h, w->y[i]);
		for (int32_t k = w->bq_start[i]; k < w->bq_start[i + 1]; ++k) {
			const int32_t j = w->bq_col[k];
			const double qk = s * w->bq_k[k], qd = s * w->bq_d[k];
			if (rhs && j != i) {
				f = v3_madd(f, -qk, v3_sub(w->x[j], w->x[i]));
				f = v3_madd(f, -qd, v3_sub(w->v[j], w->v[i]));
				if (role != ROLE_EXPLICIT)
					ky = v3_madd(ky, -qk, v3_sub(v3_madd(w->v[j], 1.0 / h, w->y[j]), yvi));
			}
			if (implicit_matrix) {
				/* A -= h df/dv + h^2 df/dx with df/dx = -Q, df/dv = -D. */
				const double a = h * qd + h2 * qk;
				const int32_t slot = w->bq_slot[k];
				if (slot < 0) {
					w->A.iso_vals[-1 - slot] += a;
					continue;
				}
				mat3* blk = &w->A.blocks[slot];
				blk->m[0][0] += a;
				blk->m[1][1] += a;
				blk->m[2][2] += a;
			}
		}
		if (rhs) w->b[i] = v3_add(w->b[i], v3_madd(v3_scale(f, h), h2, ky));
	}
}

double bend_tensor_world_energy(const drape_world* w)
{
	/* From the elements, so that it also holds before the first step builds the matrix. For a
	 * q whose rows sum to zero, x^T q x = -1/2 sum q_ij |x_i - x_j|^2 (translation-exact). */
	double e = 0.0;
	for (int32_t k = 0; k < w->btens_count; ++k) {
		const bend_tensor_elem* el = &w->btens[k];
		double q[BEND_TENSOR_NODES][BEND_TENSOR_NODES];
		bend_tensor_matrix(el->alpha, el->area, el->c_uu, el->c_vv, q);
		for (int i = 0; i < BEND_TENSOR_NODES; ++i)
			for (int j = i + 1; j < BEND_TENSOR_NODES; ++j) e += q[i][j] * v3_len2(v3_sub(w->x[el->v[i]], w->x[el->v[j]]));
	}
	return -0.5 * e;
}
