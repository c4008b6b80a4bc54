/* Block Thomas elimination for 3x3-block tridiagonal systems (the O(n) line solves of the ADI and
 * Split schemes, Boxerman 2003 sec. 5). */
#include "solver/block_tridiag.h"

bool block_tridiag_solve(int32_t n, const mat3* lower, const mat3* diag, const mat3* upper, const vec3* rhs, vec3* x,
			 mat3* scratch_m, vec3* scratch_v)
{
	if (n <= 0) return true;
	/* Forward sweep: D'_i = D_i - L_i C'_{i-1}, C'_i = D'_i^-1 U_i, y_i = D'_i^-1 (r_i - L_i y_{i-1}).
	 * scratch_m holds C', scratch_v holds y. */
	mat3* c = scratch_m;
	vec3* y = scratch_v;
	for (int32_t i = 0; i < n; ++i) {
		mat3 d = diag[i];
		vec3 r = rhs[i];
		if (i > 0) {
			d = m3_sub(d, m3_mul(lower[i], c[i - 1]));
			r = v3_sub(r, m3_mulv(lower[i], y[i - 1]));
		}
		mat3 dinv;
		if (!m3_inverse(d, BLOCK_TRIDIAG_MAX_COND, &dinv)) return false;
		if (i + 1 < n) c[i] = m3_mul(dinv, upper[i]);
		y[i] = m3_mulv(dinv, r);
		if (!v3_isfinite(y[i])) return false;
	}
	/* Back substitution: x_i = y_i - C'_i x_{i+1}. */
	x[n - 1] = y[n - 1];
	for (int32_t i = n - 2; i >= 0; --i) x[i] = v3_sub(y[i], m3_mulv(c[i], x[i + 1]));
	return true;
}
