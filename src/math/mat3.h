/* 3x3 matrices (row-major), the blocks of the block-sparse system of sec. 2.3. */
#ifndef DRAPE_MAT3_H
#define DRAPE_MAT3_H

#include "vec3.h"

typedef struct mat3 {
	double m[3][3];
} mat3;

static inline mat3 m3_zero(void)
{
	mat3 r = {{{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}}};
	return r;
}
static inline mat3 m3_diag(double s)
{
	mat3 r = m3_zero();
	r.m[0][0] = r.m[1][1] = r.m[2][2] = s;
	return r;
}
static inline mat3 m3_identity(void) { return m3_diag(1.0); }
/* a b^T */
static inline mat3 m3_outer(vec3 a, vec3 b)
{
	mat3 r = {{{a.x * b.x, a.x * b.y, a.x * b.z}, {a.y * b.x, a.y * b.y, a.y * b.z}, {a.z * b.x, a.z * b.y, a.z * b.z}}};
	return r;
}
/* The element-wise helpers are written out rather than looped: at -O2 GCC 12 leaves the 3x3 loops
 * rolled, which made the force assembly (src/forces) about 4x slower. Same operations, same bits. */
static inline mat3 m3_add(mat3 a, mat3 b)
{
	a.m[0][0] += b.m[0][0]; a.m[0][1] += b.m[0][1]; a.m[0][2] += b.m[0][2];
	a.m[1][0] += b.m[1][0]; a.m[1][1] += b.m[1][1]; a.m[1][2] += b.m[1][2];
	a.m[2][0] += b.m[2][0]; a.m[2][1] += b.m[2][1]; a.m[2][2] += b.m[2][2];
	return a;
}
static inline mat3 m3_sub(mat3 a, mat3 b)
{
	a.m[0][0] -= b.m[0][0]; a.m[0][1] -= b.m[0][1]; a.m[0][2] -= b.m[0][2];
	a.m[1][0] -= b.m[1][0]; a.m[1][1] -= b.m[1][1]; a.m[1][2] -= b.m[1][2];
	a.m[2][0] -= b.m[2][0]; a.m[2][1] -= b.m[2][1]; a.m[2][2] -= b.m[2][2];
	return a;
}
static inline mat3 m3_scale(mat3 a, double s)
{
	a.m[0][0] *= s; a.m[0][1] *= s; a.m[0][2] *= s;
	a.m[1][0] *= s; a.m[1][1] *= s; a.m[1][2] *= s;
	a.m[2][0] *= s; a.m[2][1] *= s; a.m[2][2] *= s;
	return a;
}
/* a + s * b */
static inline mat3 m3_madd(mat3 a, double s, mat3 b)
{
	a.m[0][0] += s * b.m[0][0]; a.m[0][1] += s * b.m[0][1]; a.m[0][2] += s * b.m[0][2];
	a.m[1][0] += s * b.m[1][0]; a.m[1][1] += s * b.m[1][1]; a.m[1][2] += s * b.m[1][2];
	a.m[2][0] += s * b.m[2][0]; a.m[2][1] += s * b.m[2][1]; a.m[2][2] += s * b.m[2][2];
	return a;
}
static inline mat3 m3_transpose(mat3 a)
{
	mat3 r = {{{a.m[0][0], a.m[1][0], a.m[2][0]}, {a.m[0][1], a.m[1][1], a.m[2][1]}, {a.m[0][2], a.m[1][2], a.m[2][2]}}};
	return r;
}
static inline vec3 m3_mulv(mat3 a, vec3 v)
{
	return v3(a.m[0][0] * v.x + a.m[0][1] * v.y + a.m[0][2] * v.z, a.m[1][0] * v.x + a.m[1][1] * v.y + a.m[1][2] * v.z,
		  a.m[2][0] * v.x + a.m[2][1] * v.y + a.m[2][2] * v.z);
}
/* Written out like the element-wise helpers above (GCC 12 at -O2 leaves the triple loop rolled:
 * the filtered blocks of the two-level setup, solver/filtered.h, spent 4 % of the figure 1 drape
 * in it). Each entry is summed as the loop did, starting from +0.0 (which turns a -0.0 product
 * into +0.0): same operations in the same order, same bits. */
#define M3_MUL_ENTRY(a, b, i, j) (((0.0 + (a).m[i][0] * (b).m[0][j]) + (a).m[i][1] * (b).m[1][j]) + (a).m[i][2] * (b).m[2][j])
static inline mat3 m3_mul(mat3 a, mat3 b)
{
	mat3 r = {{{M3_MUL_ENTRY(a, b, 0, 0), M3_MUL_ENTRY(a, b, 0, 1), M3_MUL_ENTRY(a, b, 0, 2)},
		   {M3_MUL_ENTRY(a, b, 1, 0), M3_MUL_ENTRY(a, b, 1, 1), M3_MUL_ENTRY(a, b, 1, 2)},
		   {M3_MUL_ENTRY(a, b, 2, 0), M3_MUL_ENTRY(a, b, 2, 1), M3_MUL_ENTRY(a, b, 2, 2)}}};
	return r;
}
#undef M3_MUL_ENTRY
/* *acc += a b and *acc += a^T b, in place: the sparse matrix products of the multigrid setup
 * (solver/multigrid.c) add millions of these, where a temporary product costs a third more. */
static inline void m3_add_mul(mat3* acc, const mat3* a, const mat3* b)
{
	for (int i = 0; i < 3; ++i)
		for (int k = 0; k < 3; ++k) {
			const double s = a->m[i][k];
			acc->m[i][0] += s * b->m[k][0];
			acc->m[i][1] += s * b->m[k][1];
			acc->m[i][2] += s * b->m[k][2];
		}
}
static inline void m3_add_tmul(mat3* acc, const mat3* a, const mat3* b)
{
	for (int i = 0; i < 3; ++i)
		for (int k = 0; k < 3; ++k) {
			const double s = a->m[k][i];
			acc->m[i][0] += s * b->m[k][0];
			acc->m[i][1] += s * b->m[k][1];
			acc->m[i][2] += s * b->m[k][2];
		}
}
/* The cross-product matrix: m3_skew(a) v == a x v. */
static inline mat3 m3_skew(vec3 a)
{
	mat3 r = {{{0.0, -a.z, a.y}, {a.z, 0.0, -a.x}, {-a.y, a.x, 0.0}}};
	return r;
}

/* Determinant and inverse by cofactors. m3_inverse returns false, leaving *inv untouched, when the
 * matrix is singular or so ill-conditioned that the inverse is meaningless: its infinity-norm
 * condition number ||a|| ||a^-1|| exceeds max_cond (or anything is not finite). */
static inline double m3_det(mat3 a)
{
	return a.m[0][0] * (a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) -
	       a.m[0][1] * (a.m[1][0] * a.m[2][2] - a.m[1][2] * a.m[2][0]) +
	       a.m[0][2] * (a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]);
}
static inline double m3_norm_inf(mat3 a)
{
	/* fmax is a library call under strict IEEE semantics; r is never NaN, and a NaN row sum is
	 * skipped by the comparison as fmax skips it: the same value. */
	double r = 0.0;
	for (int i = 0; i < 3; ++i) {
		const double row = fabs(a.m[i][0]) + fabs(a.m[i][1]) + fabs(a.m[i][2]);
		if (row > r) r = row;
	}
	return r;
}
/* Whether a is diagonal with +0 off the diagonal (m3_diag's zeros) and a positive diagonal: a mass
 * block (the explicit schemes' whole matrix, step/implicit.c). */
static inline bool m3_is_positive_diag(mat3 a)
{
	return !signbit(a.m[0][1]) && !signbit(a.m[0][2]) && !signbit(a.m[1][0]) && !signbit(a.m[1][2]) &&
	       !signbit(a.m[2][0]) && !signbit(a.m[2][1]) && a.m[0][1] == 0.0 && a.m[0][2] == 0.0 && a.m[1][0] == 0.0 &&
	       a.m[1][2] == 0.0 && a.m[2][0] == 0.0 && a.m[2][1] == 0.0 && a.m[0][0] > 0.0 && a.m[1][1] > 0.0 &&
	       a.m[2][2] > 0.0;
}
static inline bool m3_inverse(mat3 a, double max_cond, mat3* inv)
{
	const double dd = a.m[0][0] * (a.m[1][1] * a.m[2][2]);
	if (m3_is_positive_diag(a) && dd != 0.0 && isfinite(1.0 / dd)) {
		/* The cofactors below with +0 off the diagonal: each off-diagonal term is a product with a
		 * +0, so det = a00 (a11 a22), the inverse's diagonal (a11 a22) d, (a00 a22) d, (a00 a11) d
		 * and its off-diagonal +0 (0 < d < inf), the same bits as the general formula in a few
		 * operations. */
		const double p = a.m[0][0], q = a.m[1][1], s = a.m[2][2];
		const double det = dd;
		if (!isfinite(det)) return false;
		const double d = 1.0 / det;
		mat3 r = m3_zero();
		r.m[0][0] = (q * s) * d;
		r.m[1][1] = (p * s) * d;
		r.m[2][2] = (p * q) * d;
		double cond = m3_norm_inf(a) * m3_norm_inf(r);
		if (!(cond <= max_cond)) return false;
		*inv = r;
		return true;
	}
	double det = m3_det(a);
	if (!(det != 0.0) || !isfinite(det)) return false;
	double d = 1.0 / det;
	mat3 r = {{{(a.m[1][1] * a.m[2][2] - a.m[1][2] * a.m[2][1]) * d, (a.m[0][2] * a.m[2][1] - a.m[0][1] * a.m[2][2]) * d,
		    (a.m[0][1] * a.m[1][2] - a.m[0][2] * a.m[1][1]) * d},
		   {(a.m[1][2] * a.m[2][0] - a.m[1][0] * a.m[2][2]) * d, (a.m[0][0] * a.m[2][2] - a.m[0][2] * a.m[2][0]) * d,
		    (a.m[0][2] * a.m[1][0] - a.m[0][0] * a.m[1][2]) * d},
		   {(a.m[1][0] * a.m[2][1] - a.m[1][1] * a.m[2][0]) * d, (a.m[0][1] * a.m[2][0] - a.m[0][0] * a.m[2][1]) * d,
		    (a.m[0][0] * a.m[1][1] - a.m[0][1] * a.m[1][0]) * d}}};
	double cond = m3_norm_inf(a) * m3_norm_inf(r);
	if (!(cond <= max_cond)) return false;
	*inv = r;
	return true;
}

#endif
