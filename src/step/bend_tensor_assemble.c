/* Tensor bending in the implicit system (docs/bending.md). The energy is quadratic, so its force
 * is -Q x and its Jacobian -Q, the same every step: the element matrices are summed once per
 * topology into a scalar CSR matrix (one row per particle, each entry with its A slot, or its place
 * in A's scalar part for the second ring), and each pass adds row by row, in a fixed order
 * (bit-identical for any thread count). */
#include "bend_tensor_assemble.h"

#include "../forces/bend_tensor.h"

#include <stdlib.h>
#include <string.h>

void bend_tensor_free(drape_world* w)
{
	free(w->work.bq_start);
	free(w->work.bq_col);
	free(w->work.bq_slot);
	free(w->work.bq_k);
	free(w->work.bq_d);
	w->work.bq_start = w->work.bq_col = w->work.bq_slot = NULL;
	w->work.bq_k = w->work.bq_d = NULL;
}

/* Entries outside A's block pattern (the second ring, when workspace_prepare left the elements out of
 * it) go to A's scalar part, row by row in column order; their bq_slot is -1 - (index there). */
static bool iso_build(drape_world* w)
{
	const int32_t n = w->model.particle_count;
	int32_t count = 0;
	for (int32_t k = 0; k < w->work.bq_start[n]; ++k) count += w->work.bq_slot[k] < 0;
	if (count == 0) return true;
	bsr* A = &w->work.A;
	A->iso_start = calloc((size_t)n + 1, sizeof *A->iso_start);
	A->iso_cols = malloc((size_t)count * sizeof *A->iso_cols);
	A->iso_vals = calloc((size_t)count, sizeof *A->iso_vals);
	if (!A->iso_start || !A->iso_cols || !A->iso_vals) return false;
	int32_t at = 0;
	for (int32_t i = 0; i < n; ++i) {
		for (int32_t k = w->work.bq_start[i]; k < w->work.bq_start[i + 1]; ++k) {
			if (w->work.bq_slot[k] >= 0) continue;
			A->iso_cols[at] = w->work.bq_col[k];
			w->work.bq_slot[k] = -1 - at;
			++at;
		}
		A->iso_start[i + 1] = at;
	}
	return true;
}

static bool node_used(const bend_tensor_elem* el, int i)
{
	return el->alpha[0][i] != 0.0 || el->alpha[1][i] != 0.0 || el->alpha[2][i] != 0.0;
}

/* One row of Q and D: the columns of the row's elements, each entry summed over the elements in
 * element order; returns the column count. pos[] is -1 for every column on entry and on return. */
static int32_t build_row(const drape_world* w, int32_t i, const int32_t* inc_start, const int32_t* inc, int32_t* pos,
			 int32_t* cols, double* k, double* d)
{
	enum { NN = BEND_TENSOR_NODES };
	int32_t count = 0;
	for (int32_t a = inc_start[i]; a < inc_start[i + 1]; ++a) {
		const bend_tensor_elem* el = &w->model.btens[inc[a] / NN];
		const int si = inc[a] % NN;
		double qk[NN], qd[NN];
		if (k) {
			bend_tensor_matrix_row(el->alpha, el->area, el->c_uu, el->c_vv, si, qk);
			bend_tensor_matrix_row(el->alpha, el->area, el->damping, el->damping, si, qd);
		}
		for (int j = 0; j < NN; ++j) {
			if (!node_used(el, j)) continue;
			const int32_t col = el->v[j];
			if (pos[col] < 0) {
				pos[col] = count;
				cols[count] = col;
				if (k) k[count] = d[count] = 0.0;
				++count;
			}
			if (k) {
				k[pos[col]] += qk[j];
				d[pos[col]] += qd[j];
			}
		}
	}
	/* Columns ascending (the order the forces are summed in); insertion sort, rows are short. */
	for (int32_t a = 0; a < count; ++a) pos[cols[a]] = -1;
	for (int32_t a = 1; a < count; ++a) {
		const int32_t c = cols[a];
		const double kk = k ? k[a] : 0.0, dd = k ? d[a] : 0.0;
		int32_t b = a - 1;
		for (; b >= 0 && cols[b] > c; --b) {
			cols[b + 1] = cols[b];
			if (k) k[b + 1] = k[b], d[b + 1] = d[b];
		}
		cols[b + 1] = c;
		if (k) k[b + 1] = kk, d[b + 1] = dd;
	}
	return count;
}

bool bend_tensor_build(drape_world* w)
{
	bend_tensor_free(w);
	const int32_t n = w->model.particle_count;
	w->work.bq_start = calloc((size_t)n + 1, sizeof *w->work.bq_start);
	if (!w->work.bq_start) return false;
	if (w->model.btens_count == 0) return true;
	enum { NN = BEND_TENSOR_NODES };
	/* Each particle's (element, slot) pairs in element order, so that every entry is summed in
	 * the same order for any mesh numbering of the rows. Slots that repeat a vertex (a missing
	 * neighbour) carry zero weights and are left out: an element's used nodes are distinct. */
	int32_t* inc_start = calloc((size_t)n + 1, sizeof *inc_start);
	int32_t* pos = malloc((size_t)n * sizeof *pos);
	bool ok = inc_start && pos;
	for (int32_t e = 0; ok && e < w->model.btens_count; ++e)
		for (int j = 0; j < NN; ++j)
			if (node_used(&w->model.btens[e], j)) inc_start[w->model.btens[e].v[j] + 1]++;
	int32_t longest = 0;
	for (int32_t i = 0; ok && i < n; ++i) {
		longest = inc_start[i + 1] > longest ? inc_start[i + 1] : longest;
		inc_start[i + 1] += inc_start[i];
	}
	int32_t* inc = ok ? malloc((size_t)(inc_start[n] > 0 ? inc_start[n] : 1) * sizeof *inc) : NULL;
	int32_t* cursor = ok ? malloc((size_t)n * sizeof *cursor) : NULL;
	const size_t row_max = (size_t)longest * NN + 1;
	int32_t* cols = malloc(row_max * sizeof *cols);
	double* k = malloc(row_max * sizeof *k);
	double* d = malloc(row_max * sizeof *d);
	ok = ok && inc && cursor && cols && k && d;
	if (ok) {
		memcpy(cursor, inc_start, (size_t)n * sizeof *cursor);
		for (int32_t e = 0; e < w->model.btens_count; ++e)
			for (int j = 0; j < NN; ++j)
				if (node_used(&w->model.btens[e], j)) inc[cursor[w->model.btens[e].v[j]]++] = e * NN + j;
		for (int32_t i = 0; i < n; ++i) pos[i] = -1;
		for (int32_t i = 0; i < n; ++i) w->work.bq_start[i + 1] = w->work.bq_start[i] + build_row(w, i, inc_start, inc, pos, cols, NULL, NULL);
		const size_t nnz = (size_t)w->work.bq_start[n];
		w->work.bq_col = malloc((nnz ? nnz : 1) * sizeof *w->work.bq_col);
		w->work.bq_slot = malloc((nnz ? nnz : 1) * sizeof *w->work.bq_slot);
		w->work.bq_k = malloc((nnz ? nnz : 1) * sizeof *w->work.bq_k);
		w->work.bq_d = malloc((nnz ? nnz : 1) * sizeof *w->work.bq_d);
		ok = w->work.bq_col && w->work.bq_slot && w->work.bq_k && w->work.bq_d;
	}
	for (int32_t i = 0; ok && i < n; ++i) {
		const int32_t at = w->work.bq_start[i];
		const int32_t count = build_row(w, i, inc_start, inc, pos, &w->work.bq_col[at], &w->work.bq_k[at], &w->work.bq_d[at]);
		for (int32_t a = 0; a < count; ++a) w->work.bq_slot[at + a] = bsr_find(&w->work.A, i, w->work.bq_col[at + a]);
	}
	free(inc_start);
	free(pos);
	free(inc);
	free(cursor);
	free(cols);
	free(k);
	free(d);
	return ok && iso_build(w);
}

void bend_tensor_assemble(drape_world* w, double h, const assembly_plan* p, bool matrix)
{
	if (w->model.btens_count == 0) return;
	const int role = p->role[FAMILY_BEND];
	if (role == ROLE_OFF) return;
	const double s = p->scale[FAMILY_BEND];
	const double h2 = h * h;
	const int32_t n = w->model.particle_count;
	const bool rhs = p->rhs;
	const bool implicit_matrix = matrix && role == ROLE_IMPLICIT;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048)
	for (int32_t i = 0; i < n; ++i) {
		/* Q's rows sum to zero (a translation stores no energy), so Q x = sum_j q_ij (x_j - x_i):
		 * the differences keep a translated or uniformly moving sheet exactly force-free. */
		vec3 f = v3_zero(), ky = v3_zero();
		const vec3 yvi = v3_madd(w->state.v[i], 1.0 / h, w->work.y[i]);
		for (int32_t k = w->work.bq_start[i]; k < w->work.bq_start[i + 1]; ++k) {
			const int32_t j = w->work.bq_col[k];
			const double qk = s * w->work.bq_k[k], qd = s * w->work.bq_d[k];
			if (rhs && j != i) {
				f = v3_madd(f, -qk, v3_sub(w->state.x[j], w->state.x[i]));
				f = v3_madd(f, -qd, v3_sub(w->state.v[j], w->state.v[i]));
				if (role != ROLE_EXPLICIT)
					ky = v3_madd(ky, -qk, v3_sub(v3_madd(w->state.v[j], 1.0 / h, w->work.y[j]), yvi));
			}
			if (implicit_matrix) {
				/* A -= h df/dv + h^2 df/dx with df/dx = -Q, df/dv = -D. */
				const double a = h * qd + h2 * qk;
				const int32_t slot = w->work.bq_slot[k];
				if (slot < 0) {
					w->work.A.iso_vals[-1 - slot] += a;
					continue;
				}
				mat3* blk = &w->work.A.blocks[slot];
				blk->m[0][0] += a;
				blk->m[1][1] += a;
				blk->m[2][2] += a;
			}
		}
		if (rhs) w->work.b[i] = v3_add(w->work.b[i], v3_madd(v3_scale(f, h), h2, ky));
	}
}

double bend_tensor_world_energy(const drape_world* w, const vec3* x)
{
	/* For a q whose rows sum to zero, x^T q x = -1/2 sum q_ij |x_i - x_j|^2 (translation-exact).
	 * From the summed matrix when a step has built it for this model: a quarter of the work of
	 * forming every element's matrix, and the step judge measures the energy twice a step (it was
	 * 40 % of an explicit step; issue 31, stalls). The sum over both triangles of the symmetric
	 * matrix counts each pair twice. */
	double e = 0.0;
	if (w->work.bq_k && !w->model.dirty) {
		const int32_t n = w->model.particle_count;
		for (int32_t i = 0; i < n; ++i)
			for (int32_t k = w->work.bq_start[i]; k < w->work.bq_start[i + 1]; ++k)
				e += w->work.bq_k[k] * v3_len2(v3_sub(x[i], x[w->work.bq_col[k]]));
		return -0.25 * e;
	}
	/* Before the first step builds the matrix, from the elements. */
	for (int32_t k = 0; k < w->model.btens_count; ++k) {
		const bend_tensor_elem* el = &w->model.btens[k];
		double q[BEND_TENSOR_NODES][BEND_TENSOR_NODES];
		bend_tensor_matrix(el->alpha, el->area, el->c_uu, el->c_vv, q);
		for (int i = 0; i < BEND_TENSOR_NODES; ++i)
			for (int j = i + 1; j < BEND_TENSOR_NODES; ++j) e += q[i][j] * v3_len2(v3_sub(x[el->v[i]], x[el->v[j]]));
	}
	return -0.5 * e;
}
