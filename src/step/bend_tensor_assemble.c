/* Tensor bending in the implicit system (docs/bending.md). The energy is quadratic, so its force
 * is -Q x and its Jacobian -Q, the same every step: the element matrices are summed once per
 * topology into a scalar CSR matrix (forces/bend_tensor.c, bend_tensor_rows_build; one row per
 * particle, each entry with its A slot, or its place in A's scalar part for the second ring, from
 * bsr_place_entries; step/workspace.c builds both), and each pass adds row by row, in a fixed
 * order (bit-identical for any thread count). */
#include "bend_tensor_assemble.h"

#include "../forces/bend_tensor.h"
#include "../math/lanes.h"

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

/* The explicit rows in vectors of four doubles (math/lanes.h): x, y, z and an unused lane. */

/* x and v into bend_xv: particle i's line holds x_i at 8 i and v_i at 8 i + 4. */
static void rows_lines(drape_world* w, const vec3* x, const vec3* v, int threads)
{
	const int32_t n = w->model.particle_count;
	double* xv = w->work.bend_xv;
#pragma omp parallel for num_threads(threads) schedule(static) if (n > 2048)
	for (int32_t i = 0; i < n; ++i) {
		lanes_line(xv + 8 * (size_t)i, x[i]);
		lanes_line(xv + 8 * (size_t)i + 4, v[i]);
	}
}

/* The explicit force of rows i0 and i0 + 1 (when below n) at the x and v of bend_xv, into f[0],
 * f[1]: f_i = sum_j -q_ij (x_j - x_i) - d_ij (v_j - v_i) in entry order (the same bits at any
 * thread count; f - q dx is f + (-q) dx exactly). Each row's force is a chain of dependent additions, and one row's chain leaves
 * the adder idle between its steps: the two rows' entries interleaved fill it. The diagonal entry
 * (j = i) is not skipped: for a finite x it adds -q_ii 0 = -0 or +0, which leaves a sum that began
 * at +0 as it was (the sum is never -0). With e (non-NULL), also each row's energy sum as
 * bend_tensor_rows_energy forms it, sum_j k_ij |x_i - x_j|^2 (the square of x_j - x_i is the
 * same), into e[0] and e[1]. unit: s is 1, and s q is q. */
LANES_INLINE void row_pair(const drape_world* w, double s, bool unit, int32_t i0, vec3 f[2], double* e)
{
	const int32_t n = w->model.particle_count, i1 = i0 + 1;
	const bool two = i1 < n;
	const int32_t* start = w->work.bq_start;
	const int32_t* col = w->work.bq_col;
	const double* k = w->work.bq_k;
	const double* d = w->work.bq_d;
	const double* xv = w->work.bend_xv;
	const int32_t r1 = two ? i1 : i0;
	d4 x0, v0, x1, v1;
	D4_AT(x0, xv + 8 * (size_t)i0);
	D4_AT(v0, xv + 8 * (size_t)i0 + 4);
	D4_AT(x1, xv + 8 * (size_t)r1);
	D4_AT(v1, xv + 8 * (size_t)r1 + 4);
	const int32_t a0 = start[i0], e0 = start[i0 + 1];
	const int32_t a1 = e0, e1 = two ? start[i1 + 1] : e0;
	const int32_t both = e0 - a0 < e1 - a1 ? e0 - a0 : e1 - a1;
	d4 f0 = {0.0, 0.0, 0.0, 0.0}, f1 = f0;
	double q0 = 0.0, q1 = 0.0;
#define ROW_ENTRY(t, xi, vi, fi, qi)                                                   \
	do {                                                                           \
		const double* l_ = xv + 8 * (size_t)col[t];                            \
		d4 dx_, dv_;                                                           \
		D4_AT(dx_, l_);                                                        \
		D4_AT(dv_, l_ + 4);                                                    \
		dx_ = dx_ - xi;                                                        \
		dv_ = dv_ - vi;                                                        \
		const double qk_ = unit ? k[t] : s * k[t], qd_ = unit ? d[t] : s * d[t]; \
		fi = fi - qk_ * dx_;                                                   \
		fi = fi - qd_ * dv_;                                                   \
		if (e) {                                                               \
			const d4 p_ = dx_ * dx_;                                       \
			qi += k[t] * (p_[0] + p_[1] + p_[2]);                          \
		}                                                                      \
	} while (0)
	for (int32_t t = 0; t < both; ++t) {
		ROW_ENTRY(a0 + t, x0, v0, f0, q0);
		ROW_ENTRY(a1 + t, x1, v1, f1, q1);
	}
	for (int32_t t = a0 + both; t < e0; ++t) ROW_ENTRY(t, x0, v0, f0, q0);
	for (int32_t t = a1 + both; t < e1; ++t) ROW_ENTRY(t, x1, v1, f1, q1);
#undef ROW_ENTRY
	f[0] = v3(f0[0], f0[1], f0[2]);
	f[1] = v3(f1[0], f1[1], f1[2]);
	if (e) {
		e[0] = q0;
		e[1] = q1;
	}
}

/* bend_f1 = f over the rows and their energy summed in row order (one thread, as
 * bend_tensor_rows_energy adds them); unit (s == 1), a constant at each call, drops the scaling. */
LANES_INLINE double rows_energy(drape_world* w, double s, bool unit)
{
	const int32_t n = w->model.particle_count;
	double sum = 0.0;
	for (int32_t q = 0; q < (n + 1) / 2; ++q) {
		vec3 f[2];
		double rows[2];
		row_pair(w, s, unit, 2 * q, f, rows);
		w->work.bend_f1[2 * q] = f[0];
		sum += rows[0];
		if (2 * q + 1 < n) {
			w->work.bend_f1[2 * q + 1] = f[1];
			sum += rows[1];
		}
	}
	return sum;
}

/* b += h f over the rows (explicit_rows), or, with e, bend_f1 = f and *e the rows' energy sums
 * (rows_energy). */
LANES_INLINE void rows_body(drape_world* w, double h, double s, double* e)
{
	const int32_t n = w->model.particle_count;
	const int32_t pairs = (n + 1) / 2;
	if (e) {
		*e = s == 1.0 ? rows_energy(w, s, true) : rows_energy(w, s, false);
		return;
	}
	/* ky is zero for an explicit role, as in bend_tensor_assemble's loop */
	const double h2 = h * h;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048)
	for (int32_t q = 0; q < pairs; ++q) {
		vec3 f[2];
		row_pair(w, s, false, 2 * q, f, NULL);
		w->work.b[2 * q] = v3_add(w->work.b[2 * q], v3_madd(v3_scale(f[0], h), h2, v3_zero()));
		if (2 * q + 1 < n) w->work.b[2 * q + 1] = v3_add(w->work.b[2 * q + 1], v3_madd(v3_scale(f[1], h), h2, v3_zero()));
	}
}

LANES_AVX static void rows_avx(drape_world* w, double h, double s, double* e) { rows_body(w, h, s, e); }
static void rows_plain(drape_world* w, double h, double s, double* e) { rows_body(w, h, s, e); }

static void rows(drape_world* w, const vec3* x, const vec3* v, double h, double s, double* e)
{
	rows_lines(w, x, v, e ? 1 : w->threads);
	if (lanes_avx() && !w->work.lanes_plain) rows_avx(w, h, s, e);
	else rows_plain(w, h, s, e);
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
	rows(w, w->state.x, w->state.v, h, s, NULL);
}

double bend_tensor_energy_force(drape_world* w, const vec3* x, const vec3* v, double s)
{
	double e;
	rows(w, x, v, 0.0, s, &e);
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

/* One entry q_ij (stiffness qk, damping qd) into A: A -= h df/dv + h^2 df/dx with df/dx = -Q,
 * df/dv = -D, on the diagonal of the entry's block, or on its value in A's scalar part (slot < 0).
 * Inlined into the vector rows' clones as well (a clone calls no function of its own). */
LANES_INLINE void matrix_entry(drape_world* w, int32_t slot, double h, double h2, double qk, double qd)
{
	const double a = h * qd + h2 * qk;
	if (slot < 0) {
		w->work.A.iso_vals[-1 - slot] += a;
		return;
	}
	mat3* blk = &w->work.A.blocks[slot];
	blk->m[0][0] += a;
	blk->m[1][1] += a;
	blk->m[2][2] += a;
}

/* An implicit (or right-hand-side) role's rows [lo, hi) in vectors of four doubles: the loop of
 * bend_tensor_assemble below with x, v and yv = v + y / h read as lines (x, y, z, 0), each lane the
 * scalar loop's operations in its order (f + (-q) d is the scalar's v3_madd). */
LANES_INLINE void implicit_rows_body(drape_world* w, double h, const assembly_plan* p, bool implicit_matrix, int32_t lo, int32_t hi)
{
	const double s = p->scale[FAMILY_BEND], h2 = h * h;
	const bool rhs = p->rhs, ky_used = p->role[FAMILY_BEND] != ROLE_EXPLICIT;
	const int32_t* start = w->work.bq_start;
	const int32_t* col = w->work.bq_col;
	const int32_t* bslot = w->work.bq_slot;
	const double* bk = w->work.bq_k;
	const double* bd = w->work.bq_d;
	const double* xv = w->work.bend_xv;
	const double* yvl = w->work.bend_yv;
	for (int32_t i = lo; i < hi; ++i) {
		d4 f = {0.0, 0.0, 0.0, 0.0}, ky = f, xi = f, vi = f, yvi = f;
		if (rhs) {
			D4_AT(xi, xv + 8 * (size_t)i);
			D4_AT(vi, xv + 8 * (size_t)i + 4);
			D4_AT(yvi, yvl + 4 * (size_t)i);
		}
		for (int32_t k = start[i]; k < start[i + 1]; ++k) {
			const int32_t j = col[k];
			const double qk = s * bk[k], qd = s * bd[k];
			if (rhs && j != i) {
				d4 xj, vj;
				D4_AT(xj, xv + 8 * (size_t)j);
				D4_AT(vj, xv + 8 * (size_t)j + 4);
				f = f + (-qk) * (xj - xi);
				f = f + (-qd) * (vj - vi);
				if (ky_used) {
					d4 yvj;
					D4_AT(yvj, yvl + 4 * (size_t)j);
					ky = ky + (-qk) * (yvj - yvi);
				}
			}
			if (implicit_matrix) matrix_entry(w, bslot[k], h, h2, qk, qd);
		}
		if (rhs) {
			const vec3 fi = v3(f[0], f[1], f[2]), kyi = v3(ky[0], ky[1], ky[2]);
			w->work.b[i] = v3_add(w->work.b[i], v3_madd(v3_scale(fi, h), h2, kyi));
		}
	}
}

LANES_AVX static void implicit_rows_avx(drape_world* w, double h, const assembly_plan* p, bool implicit_matrix, int32_t lo, int32_t hi)
{
	implicit_rows_body(w, h, p, implicit_matrix, lo, hi);
	LANES_AVX_END();
}

static void implicit_rows_plain(drape_world* w, double h, const assembly_plan* p, bool implicit_matrix, int32_t lo, int32_t hi)
{
	implicit_rows_body(w, h, p, implicit_matrix, lo, hi);
}

/* Rows per call of a clone: the threads share out chunks of rows (the rows are independent). */
#define IMPLICIT_ROWS_CHUNK 256

static void implicit_rows(drape_world* w, double h, const assembly_plan* p, bool implicit_matrix)
{
	const int32_t n = w->model.particle_count;
	if (p->rhs) {
		rows_lines(w, w->state.x, w->state.v, w->threads);
		double* l = w->work.bend_yv;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048)
		for (int32_t i = 0; i < n; ++i) lanes_line(l + 4 * (size_t)i, v3_madd(w->state.v[i], 1.0 / h, w->work.y[i]));
	}
	const bool avx = lanes_avx() && !w->work.lanes_plain;
	const int32_t chunks = (n + IMPLICIT_ROWS_CHUNK - 1) / IMPLICIT_ROWS_CHUNK;
#pragma omp parallel for num_threads(w->threads) schedule(static) if (n > 2048)
	for (int32_t c = 0; c < chunks; ++c) {
		const int32_t lo = c * IMPLICIT_ROWS_CHUNK, hi = lo + IMPLICIT_ROWS_CHUNK < n ? lo + IMPLICIT_ROWS_CHUNK : n;
		if (avx) implicit_rows_avx(w, h, p, implicit_matrix, lo, hi);
		else implicit_rows_plain(w, h, p, implicit_matrix, lo, hi);
	}
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
	if (!w->work.fused_disabled) {
		implicit_rows(w, h, p, implicit_matrix);
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
			if (implicit_matrix) matrix_entry(w, w->work.bq_slot[k], h, h2, qk, qd);
		}
		if (rhs) w->work.b[i] = v3_add(w->work.b[i], v3_madd(v3_scale(f, h), h2, ky));
	}
}
