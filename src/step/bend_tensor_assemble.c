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
