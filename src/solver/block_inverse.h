/* The inverse of a 3x3 diagonal block, as the block-Jacobi preconditioner and the smoothers of the
 * modified PCG's preconditioners use it (sec. 5.3; docs/solver.md, "The modified PCG"). */
#ifndef DRAPE_BLOCK_INVERSE_H
#define DRAPE_BLOCK_INVERSE_H

#include "../math/mat3.h"

static inline double safe_inverse(double d) { return d > 0.0 ? 1.0 / d : (d < 0.0 ? 1.0 / -d : 1.0); }

/* Inverse of a diagonal block; falls back to the inverse of its diagonal if the block is not
 * safely positive definite (the preconditioner must be). */
static inline mat3 block_inverse(const mat3* a)
{
	double c00 = a->m[1][1] * a->m[2][2] - a->m[1][2] * a->m[2][1];
	double c01 = a->m[1][2] * a->m[2][0] - a->m[1][0] * a->m[2][2];
	double c02 = a->m[1][0] * a->m[2][1] - a->m[1][1] * a->m[2][0];
	double det = a->m[0][0] * c00 + a->m[0][1] * c01 + a->m[0][2] * c02;
	double m2 = a->m[0][0] * a->m[1][1] - a->m[0][1] * a->m[1][0];
	if (a->m[0][0] > 0.0 && m2 > 0.0 && det > 1e-12 * a->m[0][0] * a->m[1][1] * a->m[2][2]) {
		double d = 1.0 / det;
		mat3 r = {{{c00 * d, (a->m[0][2] * a->m[2][1] - a->m[0][1] * a->m[2][2]) * d, (a->m[0][1] * a->m[1][2] - a->m[0][2] * a->m[1][1]) * d},
			   {c01 * d, (a->m[0][0] * a->m[2][2] - a->m[0][2] * a->m[2][0]) * d, (a->m[0][2] * a->m[1][0] - a->m[0][0] * a->m[1][2]) * d},
			   {c02 * d, (a->m[0][1] * a->m[2][0] - a->m[0][0] * a->m[2][1]) * d, (a->m[0][0] * a->m[1][1] - a->m[0][1] * a->m[1][0]) * d}}};
		return r;
	}
	mat3 r = m3_zero();
	for (int k = 0; k < 3; ++k) r.m[k][k] = safe_inverse(a->m[k][k]);
	return r;
}

#endif
