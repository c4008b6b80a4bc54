/* Tensor bending in the implicit system (docs/bending.md). The energy is quadratic, so its force
 * is -Q x and its Jacobian -Q, the same every step: the element matrices are summed once per
 * topology into a scalar CSR matrix (forces/bend_tensor.c, bend_tensor_rows_build; one row per
 * particle, each entry with its A slot, or its place in A's scalar part for the second ring, from
 * bsr_place_entries; step/workspace.c builds both), and each pass adds row by row, in a fixed
 * order (bit-identical for any thread count). */
#include "bend_tensor_assemble.h"

#include "../forces/bend_tensor.h"

#include <stdlib.h>

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

/* One entry of row i of the explicit force at (x, v): the loop of bend_tensor_assemble's rhs part
 * alone. */
static inline vec3 explicit_entry(const drape_world* w, const vec3* x, const vec3* v, double s, int32_t i, vec3 xi, vec3 vi,
				  int32_t k, vec3 f)
{
	const int32_t j = w->work.bq_col[k];
	if (j == i) return f;
	const double qk = s * w->work.bq_k[k], qd = s * w->work.bq_d[k];
	f = v3_madd(f, -qk, v3_sub(x[j], xi));
	return v3_madd(f, -qd, v3_sub(v[j], vi));
}

/* The explicit force at (x, v) of rows i0 and i0 + 1 (when below n), into f[0], f[1]. Each row's
 * force is a chain of dependent additions in a fixed order (the same bits at any thread count), and
 * one row's chain leaves the adder idle between its steps: the two rows' entries interleaved fill
 * it. The same operations in the same order per row. With e (non-NULL), also each row's energy sum
 * as bend_tensor_rows_energy forms it, e[0] and e[1]. */
static inline void explicit_row_pair(const drape_world* w, const vec3* x, const vec3* v, double s, int32_t i0, vec3 f[2],
				     double* e)
{
	const int32_t n = w->model.particle_count, i1 = i0 + 1;
	const bool two = i1 < n;
	const int32_t* start = w->work.bq_start;
	const vec3 x0 = x[i0], v0 = v[i0];
	const vec3 x1 = two ? x[i1] : x0, v1 = two ? v[i1] : v0;
	const int32_t a0 = start[i0], e0 = start[i0 + 1];
	const int32_t a1 = e0, e1 = two ? start[i1 + 1] : e0;
	const int32_t both = e0 - a0 < e1 - a1 ? e0 - a0 : e1 - a1;
	vec3 f0 = v3_zero(), f1 = v3_zero();
	double r0 = 0.0, r1 = 0.0;
	const double* k = w->work.bq_k;
	const int32_t* col = w->work.bq_col;
	for (int32_t t = 0; t < both; ++t) {
		f0 = explicit_entry(w, x, v, s, i0, x0, v0, a0 + t, f0);
		f1 = explicit_entry(w, x, v, s, i1, x1, v1, a1 + t, f1);
		if (e) {
			r0 += k[a0 + t] * v3_len2(v3_sub(x0, x[col[a0 + t]]));
			r1 += k[a1 + t] * v3_len2(v3_sub(x1, x[col[a1 + t]]));
		}
	}
	for (int32_t t = a0 + both; t < e0; ++t) {
		f0 = explicit_entry(w, x, v, s, i0, x0, v0, t, f0);
		if (e) r0 += k[t] * v3_len2(v3_sub(x0, x[col[t]]));
	}
	for (int32_t t = a1 + both; t < e1; ++t) {
		f1 = explicit_entry(w, x, v, s, i1, x1, v1, t, f1);
		if (e) r1 += k[t] * v3_len2(v3_sub(x1, x[col[t]]));
	}
	f[0] = f0;
	f[1] = f1;
	if (e) {
		e[0] = r0;
		e[1] = r1;
	}
}

/* b += h f of an explicit role: the loop of bend_tensor_assemble without its matrix and K y parts,
 * or the force the judge formed for this state (bend_tensor_energy_force). */
static void explicit_rows(drape_world* w, double h, double s)
{
	const double h2 = h * h;
	const int32_t n = w->model.particle_count;
	const vec3* kept = !w->work.fused_disabled && w->state.x == w->work.bend_f0_x && w->state.v == w->work.bend_f0_v &&
				   s == w->work.bend_f0_s
			       ? w->work.bend_f0
			       : NULL;
	/* ky is zero for an explicit role, as in the loop below */
	if (kept) {
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048)
		for (int32_t i = 0; i < n; ++i) w->work.b[i] = v3_add(w->work.b[i], v3_madd(v3_scale(kept[i], h), h2, v3_zero()));
		return;
	}
	const int32_t pairs = (n + 1) / 2;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048)
	for (int32_t q = 0; q < pairs; ++q) {
		vec3 f[2];
		explicit_row_pair(w, w->state.x, w->state.v, s, 2 * q, f, NULL);
		w->work.b[2 * q] = v3_add(w->work.b[2 * q], v3_madd(v3_scale(f[0], h), h2, v3_zero()));
		if (2 * q + 1 < n) w->work.b[2 * q + 1] = v3_add(w->work.b[2 * q + 1], v3_madd(v3_scale(f[1], h), h2, v3_zero()));
	}
}

double bend_tensor_energy_force(drape_world* w, const vec3* x, const vec3* v, double s)
{
	/* the rows' sums added in row order, as bend_tensor_rows_energy adds them: one thread */
	const int32_t n = w->model.particle_count;
	double e = 0.0;
	for (int32_t i = 0; i < n; i += 2) {
		vec3 f[2];
		double rows[2];
		explicit_row_pair(w, x, v, s, i, f, rows);
		w->work.bend_f1[i] = f[0];
		e += rows[0];
		if (i + 1 < n) {
			w->work.bend_f1[i + 1] = f[1];
			e += rows[1];
		}
	}
	w->work.bend_f1_s = s;
	return -0.25 * e;
}

void bend_tensor_keep(drape_world* w, bool formed)
{
	w->work.bend_f0_x = w->work.bend_f0_v = NULL;
	if (!formed) return;
	vec3* t = w->work.bend_f0;
	w->work.bend_f0 = w->work.bend_f1;
	w->work.bend_f1 = t;
	w->work.bend_f0_x = w->state.x;
	w->work.bend_f0_v = w->state.v;
	w->work.bend_f0_s = w->work.bend_f1_s;
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
	if (role == ROLE_EXPLICIT && rhs && !w->work.fused_disabled) {
		explicit_rows(w, h, s);
		return;
	}
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
