/* Grid-line solves (ADI Cloth sec. 5.2, 5.3, 5.5): gathers each warp row or weft column of A into
 * a block-tridiagonal system, applies the constraint filter exactly, and solves it by block Thomas
 * elimination (block_tridiag.c). Lines are independent, so they run in parallel with per-thread
 * scratch and give the same result for any thread count. */
#include "line_solve.h"

#include "../solver/block_tridiag.h"

#include <omp.h>

void line_slots_build(drape_world* w)
{
	for (int32_t i = 0; i < 4 * w->model.particle_count; ++i) w->work.line_slots[i] = -1;
	for (int32_t c = 0; c < w->model.cloth_count; ++c) {
		const cloth_data* cd = &w->model.cloths[c];
		if (cd->model != DRAPE_MODEL_MASS_SPRING) continue;
		const int32_t nu = cd->nu, nv = cd->nv, base = cd->first_vertex;
		for (int32_t j = 0; j < nv; ++j)
			for (int32_t i = 0; i < nu; ++i) {
				int32_t p = base + j * nu + i;
				int32_t* s = &w->work.line_slots[4 * p];
				if (i > 0) s[0] = bsr_find(&w->work.A, p, p - 1);
				if (i + 1 < nu) s[1] = bsr_find(&w->work.A, p, p + 1);
				if (j > 0) s[2] = bsr_find(&w->work.A, p, p - nu);
				if (j + 1 < nv) s[3] = bsr_find(&w->work.A, p, p + nu);
			}
	}
}

static mat3 block_or_zero(const drape_world* w, int32_t slot) { return slot >= 0 ? w->work.A.blocks[slot] : m3_zero(); }

/* One line of `len` particles p = first + k * stride. */
static bool solve_line(drape_world* w, int dir, int32_t first, int32_t stride, int32_t len, const vec3* rhs, vec3* out,
		       mat3* m, vec3* v)
{
	mat3 *lower = m, *diag = m + len, *upper = m + 2 * len, *scratch = m + 3 * len;
	vec3 *r = v, *x = v + len, *sv = v + 2 * len;
	const int prev = dir == 0 ? 0 : 2, next = prev + 1;
	for (int32_t k = 0; k < len; ++k) {
		const int32_t p = first + k * stride;
		const int32_t* slot = &w->work.line_slots[4 * p];
		mat3 L = k > 0 ? block_or_zero(w, slot[prev]) : m3_zero();
		mat3 D = w->work.A.blocks[w->work.A.diag[p]];
		mat3 U = k + 1 < len ? block_or_zero(w, slot[next]) : m3_zero();
		/* rhs - A z over the line's couplings (A has no others) */
		vec3 az = m3_mulv(D, w->work.z[p]);
		if (k > 0) az = v3_add(az, m3_mulv(L, w->work.z[p - stride]));
		if (k + 1 < len) az = v3_add(az, m3_mulv(U, w->work.z[p + stride]));
		vec3 b = v3_sub(rhs[p], az);
		/* S A S + (I - S): pinned rows become identity rows with a zero right-hand side, and
		 * their columns drop out of the neighbours' rows (their known z moved to the right). */
		if (w->work.constrained[p]) {
			const mat3 S = w->work.S[p];
			D = m3_add(m3_mul(S, m3_mul(D, S)), m3_sub(m3_identity(), S));
			L = m3_mul(S, L);
			U = m3_mul(S, U);
			b = m3_mulv(S, b);
		}
		if (k > 0 && w->work.constrained[p - stride]) L = m3_mul(L, w->work.S[p - stride]);
		if (k + 1 < len && w->work.constrained[p + stride]) U = m3_mul(U, w->work.S[p + stride]);
		lower[k] = L;
		diag[k] = D;
		upper[k] = U;
		r[k] = b;
	}
	if (!block_tridiag_solve(len, lower, diag, upper, r, x, scratch, sv)) return false;
	for (int32_t k = 0; k < len; ++k) {
		const int32_t p = first + k * stride;
		out[p] = w->work.constrained[p] ? v3_add(m3_mulv(w->work.S[p], x[k]), w->work.z[p]) : x[k];
	}
	return true;
}

bool line_solve(drape_world* w, int dir, const vec3* rhs, vec3* out)
{
	bool ok = true;
	const int threads = w->threads;
	for (int32_t c = 0; c < w->model.cloth_count; ++c) {
		const cloth_data* cd = &w->model.cloths[c];
		if (cd->model != DRAPE_MODEL_MASS_SPRING) continue;
		const int32_t nu = cd->nu, nv = cd->nv, base = cd->first_vertex;
		const int32_t lines = dir == 0 ? nv : nu, len = dir == 0 ? nu : nv;
		const int32_t stride = dir == 0 ? 1 : nu;
		bool cloth_ok = true;
#pragma omp parallel for num_threads(threads) schedule(static) if (lines > 16 && (int64_t)lines * len > 2048) reduction(&& : cloth_ok)
		for (int32_t l = 0; l < lines; ++l) {
			const int t = omp_get_thread_num();
			mat3* m = w->work.line_m + (size_t)4 * w->work.line_capacity * (size_t)t;
			vec3* v = w->work.line_v + (size_t)3 * w->work.line_capacity * (size_t)t;
			const int32_t first = base + (dir == 0 ? l * nu : l);
			cloth_ok = solve_line(w, dir, first, stride, len, rhs, out, m, v) && cloth_ok;
		}
		ok = ok && cloth_ok;
	}
	return ok;
}
